//! One JSON input file being read: its name and line index, errors at a byte offset as
//! `file:line:column: message`, and the typed readers of its values (strings, arrays, tuples,
//! integers in a range, points), and the error type with the built-in names it lists. The readers of templates and of rooms and connections are in
//! the sibling files.

use std::ops::RangeInclusive;

use crate::core::text::{LineIndex, Pos};
use crate::floorplan::json::{self, Json, JsonError, Member, Node, one_line};

/// The names of the built-in template libraries.
pub const BUILTIN_LIBRARIES: &[&str] = &["edgar-paper", "edgar-docs"];

/// The names of the built-in level graphs.
pub const BUILTIN_GRAPHS: &[&str] = &[
    "edgar-fig1",
    "edgar-fig8-17",
    "edgar-fig8-41",
    "edgar-basics",
];

/// The largest template side, door length, corner distance and corridor length, in tiles.
pub(super) const MAX_TILES: i64 = 4096;

/// The largest outline or door coordinate, by absolute value.
const MAX_COORD: i64 = 1_000_000;

/// A template library or level graph could not be read or is not valid. Every message is one
/// line.
#[derive(Debug, thiserror::Error)]
pub enum MapInputError {
    /// The file could not be read.
    #[error("{path}: cannot read: {error}")]
    Read {
        /// The file, as named.
        path: String,
        /// Why.
        error: std::io::Error,
    },
    /// The name is neither a built-in library nor a `.json` file.
    #[error(
        "unknown template library `{name}` (built in: {builtin}; or a path to a .json library \
         file)",
        builtin = BUILTIN_LIBRARIES.join(", ")
    )]
    UnknownLibrary {
        /// The name as given.
        name: String,
    },
    /// The name is neither a built-in level graph nor a `.json` file.
    #[error(
        "unknown level graph `{name}` (built in: {builtin}; or a path to a .json level graph \
         file)",
        builtin = BUILTIN_GRAPHS.join(", ")
    )]
    UnknownGraph {
        /// The name as given.
        name: String,
    },
    /// An error at a place in a file: a syntax error, a value of the wrong type or range, or a
    /// rule of the format broken there.
    #[error("{origin}:{pos}: {message}")]
    At {
        /// The file (its path or built-in name).
        origin: String,
        /// Line and column.
        pos: Pos,
        /// What is wrong.
        message: String,
    },
    /// An error about a whole file (it is empty).
    #[error("{origin}: {message}")]
    Whole {
        /// The file (its path or built-in name).
        origin: String,
        /// What is wrong.
        message: String,
    },
}

impl MapInputError {
    /// The line and column of the error, if it is at a place.
    pub fn pos(&self) -> Option<Pos> {
        match self {
            MapInputError::At { pos, .. } => Some(*pos),
            _ => None,
        }
    }
}

/// One file being read: its name and line index, and the typed readers of its values.
pub(super) struct Ctx<'a> {
    origin: &'a str,
    text: &'a str,
    pub(super) lines: LineIndex<'a>,
}

impl<'a> Ctx<'a> {
    pub(super) fn new(text: &'a str, origin: &'a str) -> Self {
        Ctx {
            origin,
            text,
            lines: LineIndex::new(text),
        }
    }

    /// An error at byte `offset`.
    pub(super) fn at(&self, offset: usize, message: impl Into<String>) -> MapInputError {
        MapInputError::At {
            origin: one_line(self.origin),
            pos: self.lines.pos(offset),
            message: one_line(&message.into()),
        }
    }

    /// The line of byte `offset`.
    pub(super) fn line(&self, offset: usize) -> u32 {
        self.lines.pos(offset).line
    }

    /// The file's JSON value.
    pub(super) fn parse(&self) -> Result<Node, MapInputError> {
        if self.text.trim_start_matches('\u{feff}').trim().is_empty() {
            return Err(MapInputError::Whole {
                origin: one_line(self.origin),
                message: "the file is empty (expected a JSON object)".into(),
            });
        }
        json::parse(self.text).map_err(|e| self.json_error(e))
    }

    /// An error for a value of the wrong type.
    pub(super) fn expected(&self, node: &Node, what: &str) -> MapInputError {
        self.json_error(node.expected(what))
    }

    pub(super) fn json_error(&self, e: JsonError) -> MapInputError {
        self.at(e.offset, e.message)
    }

    /// The members of the object `node` under `keys` ([`Node::fields`]).
    pub(super) fn fields<'n, const N: usize>(
        &self,
        node: &'n Node,
        keys: [&str; N],
        what: &str,
    ) -> Result<[Option<&'n Member>; N], MapInputError> {
        node.fields(keys, what).map_err(|e| self.json_error(e))
    }

    pub(super) fn str<'n>(&self, node: &'n Node) -> Result<&'n str, MapInputError> {
        match &node.value {
            Json::Str(s) => Ok(s),
            _ => Err(self.expected(node, "a string")),
        }
    }

    pub(super) fn arr<'n>(&self, node: &'n Node) -> Result<&'n [Node], MapInputError> {
        match &node.value {
            Json::Arr(items) => Ok(items),
            _ => Err(self.expected(node, "an array")),
        }
    }

    /// The array `node` of exactly `N` items; `what` describes it ("a point `[x, y]`").
    pub(super) fn tuple<'n, const N: usize>(
        &self,
        node: &'n Node,
        what: &str,
    ) -> Result<&'n [Node; N], MapInputError> {
        match &node.value {
            Json::Arr(items) => items.as_slice().try_into().map_err(|_| {
                self.at(
                    node.start,
                    format!("expected {what}, found an array of {} items", items.len()),
                )
            }),
            _ => Err(self.expected(node, what)),
        }
    }

    /// An integer in `range`; `what` names it in range errors ("a door's length").
    pub(super) fn int(
        &self,
        node: &Node,
        range: RangeInclusive<i64>,
        what: &str,
    ) -> Result<i64, MapInputError> {
        let Json::Num(v) = node.value else {
            return Err(self.expected(node, "an integer"));
        };
        let (lo, hi) = range.into_inner();
        let message = if v.fract() != 0.0 {
            format!("expected an integer, found {v}")
        } else if v < lo as f64 {
            format!("{what} must be at least {lo}")
        } else if v > hi as f64 {
            format!("{what} must be at most {hi}")
        } else {
            return Ok(v as i64);
        };
        Err(self.at(node.start, message))
    }

    /// A point `[x, y]` of integers.
    pub(super) fn point(&self, node: &Node) -> Result<(i32, i32), MapInputError> {
        let [x, y] = self.tuple(node, "a point `[x, y]`")?;
        let c = |n: &Node| {
            self.int(n, -MAX_COORD..=MAX_COORD, "a coordinate")
                .map(|v| v as i32)
        };
        Ok((c(x)?, c(y)?))
    }
}
