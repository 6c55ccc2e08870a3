//! Errors of the level reader and evaluator, each naming the file, line and column (1-based,
//! columns counted in characters) of the element or attribute at fault.

use std::fmt;

use thiserror::Error;

pub use crate::core::text::{LineIndex, Pos};

/// What is wrong at a place in a level file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum XmlErrorKind {
    /// The text is not XML the reader can follow (unclosed tag, bad attribute syntax, ...).
    Syntax(String),
    /// An element this format does not have in this place.
    UnknownElement {
        /// The element's name.
        name: String,
        /// Where it stands (`top level`, `<graph>`, ...).
        parent: String,
        /// The elements allowed there.
        expected: &'static str,
    },
    /// A top-level element that may appear once appears again.
    Repeated {
        /// The element's name.
        name: String,
        /// Where it first appeared.
        first: Pos,
    },
    /// A required attribute is missing.
    MissingAttribute {
        /// The element's name.
        element: String,
        /// The attribute's name.
        attribute: &'static str,
    },
    /// A color name that `<colors>` does not define.
    UnknownColor {
        /// The name used.
        name: String,
        /// The names defined.
        known: String,
    },
    /// A color that is not `#RRGGBB` or `#RRGGBBAA`.
    BadHex {
        /// The value given.
        value: String,
    },
    /// An attribute that must be an integer is not one.
    BadInteger {
        /// The attribute's name.
        attribute: String,
        /// The value given.
        value: String,
    },
    /// A protection letter other than `a`, `c`, `d`, `e`.
    BadProtect {
        /// The letter.
        letter: char,
    },
    /// An operation name the format does not have.
    UnknownOp {
        /// The name given.
        op: String,
        /// The names allowed.
        expected: String,
    },
    /// An edge names a vertex id no vertex has.
    UnknownVertex {
        /// The id.
        id: String,
    },
    /// Two vertices, two edges or two colors share one id or name.
    DuplicateId {
        /// `vertex id`, `edge id` or `color name`.
        what: &'static str,
        /// The id.
        id: String,
        /// Where it was first defined.
        first: Pos,
    },
    /// Non-blank text where the format has none.
    UnexpectedText {
        /// The start of the text.
        text: String,
    },
    /// A vertex or edge but no `<colors>` to paint it with.
    NoColors,
}

impl fmt::Display for XmlErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            XmlErrorKind::Syntax(m) => write!(f, "XML syntax: {m}"),
            XmlErrorKind::UnknownElement {
                name,
                parent,
                expected,
            } => write!(
                f,
                "unknown element <{name}> in {parent} (expected one of: {expected})"
            ),
            XmlErrorKind::Repeated { name, first } => {
                write!(f, "<{name}> appears twice (first at {first})")
            }
            XmlErrorKind::MissingAttribute { element, attribute } => {
                write!(
                    f,
                    "<{element}> is missing the required attribute `{attribute}`"
                )
            }
            XmlErrorKind::UnknownColor { name, known } => {
                write!(f, "unknown color `{name}` (defined colors: {known})")
            }
            XmlErrorKind::BadHex { value } => {
                write!(f, "bad color `{value}` (expected #RRGGBB or #RRGGBBAA)")
            }
            XmlErrorKind::BadInteger { attribute, value } => {
                write!(f, "`{attribute}` = \"{value}\" is not an integer")
            }
            XmlErrorKind::BadProtect { letter } => write!(
                f,
                "unknown protection `{letter}` (expected letters among a, c, d, e)"
            ),
            XmlErrorKind::UnknownOp { op, expected } => {
                write!(f, "unknown operation `{op}` (expected one of: {expected})")
            }
            XmlErrorKind::UnknownVertex { id } => {
                write!(f, "edge to unknown vertex `{id}` (no <vertex> has this id)")
            }
            XmlErrorKind::DuplicateId { what, id, first } => {
                write!(f, "duplicate {what} `{id}` (first defined at {first})")
            }
            XmlErrorKind::UnexpectedText { text } => {
                write!(f, "unexpected text `{text}` (expected elements)")
            }
            XmlErrorKind::NoColors => {
                write!(f, "the graph has items but <colors> defines no color")
            }
        }
    }
}

/// A level file the reader cannot accept.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum XmlError {
    /// The file cannot be read.
    #[error("{file}: cannot read: {message}")]
    Read {
        /// The file.
        file: String,
        /// The I/O error.
        message: String,
    },
    /// Something is wrong at a place in the file.
    #[error("{file}:{pos}: {kind}")]
    At {
        /// The file.
        file: String,
        /// Where.
        pos: Pos,
        /// What.
        kind: XmlErrorKind,
    },
}

/// What went wrong while evaluating a level, where the game would crash or loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EvalErrorKind {
    /// `/` or `%` with a zero divisor.
    DivisionByZero {
        /// The value being computed (or `path` for a path rule).
        id: String,
        /// `/` or `%`.
        op: &'static str,
    },
    /// A name that is neither a value, color, edge id, vertex id nor reserved name.
    Undefined {
        /// The name.
        name: String,
    },
    /// A value that needs itself, through the chain given.
    SelfReference {
        /// The names of the cycle, first repeated last.
        chain: Vec<String>,
    },
    /// `<include>` files that include each other.
    IncludeCycle {
        /// The files of the cycle, first repeated last.
        chain: Vec<String>,
    },
    /// `<include>` of a file that does not exist.
    IncludeMissing {
        /// The file looked for.
        path: String,
    },
    /// An included file that does not parse.
    IncludeInvalid {
        /// The reader's error.
        error: Box<XmlError>,
    },
    /// A list where a number is expected.
    ListAsNumber {
        /// The name of the list.
        name: String,
    },
    /// A number where a list is expected.
    NumberAsList {
        /// The expression.
        name: String,
    },
    /// Values that refer to one another in a chain too long to follow (or includes that
    /// expand to too many values).
    TooDeep {
        /// What ran out: `values` or `includes`.
        what: &'static str,
        /// The limit.
        limit: usize,
    },
    /// An integer result outside 64 bits.
    Overflow {
        /// The value being computed.
        id: String,
    },
    /// A graph operation given an index with no vertex or edge.
    NoSuchItem {
        /// The operation.
        op: &'static str,
        /// `vertex` or `edge`.
        what: &'static str,
        /// The index.
        index: i64,
    },
    /// An integer literal outside 64 bits.
    NumberOutOfRange {
        /// The literal.
        text: String,
    },
    /// `points` or `objective` is not defined.
    Missing {
        /// Which.
        name: &'static str,
    },
    /// The level has no `<path>` or `<cycle>`, but a path was given.
    NoPathSpec,
    /// A path names an edge that does not exist.
    PathUnknownEdge {
        /// The name or index given.
        edge: String,
    },
    /// A path uses an edge twice.
    PathRepeatsEdge {
        /// The edge, as given.
        edge: String,
    },
    /// A path's edges do not follow one another.
    PathBroken {
        /// The edge that does not touch the walk's end.
        edge: String,
    },
}

impl fmt::Display for EvalErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalErrorKind::DivisionByZero { id, op } => {
                write!(f, "division by zero (`{op}`) computing `{id}`")
            }
            EvalErrorKind::Undefined { name } => write!(f, "undefined name `{name}`"),
            EvalErrorKind::SelfReference { chain } => {
                write!(f, "self-referencing value: {}", chain.join(" -> "))
            }
            EvalErrorKind::IncludeCycle { chain } => {
                write!(f, "include cycle: {}", chain.join(" -> "))
            }
            EvalErrorKind::IncludeMissing { path } => {
                write!(f, "included file {path} does not exist")
            }
            EvalErrorKind::IncludeInvalid { error } => write!(f, "in included file: {error}"),
            EvalErrorKind::ListAsNumber { name } => {
                write!(f, "`{name}` is a list where a number is expected")
            }
            EvalErrorKind::NumberAsList { name } => {
                write!(f, "`{name}` is a number where a list is expected")
            }
            EvalErrorKind::TooDeep { what, limit } => {
                write!(f, "{what} nested or chained beyond {limit}")
            }
            EvalErrorKind::Overflow { id } => {
                write!(f, "integer overflow computing `{id}`")
            }
            EvalErrorKind::NoSuchItem { op, what, index } => {
                write!(f, "`{op}` of {index}: there is no {what} {index}")
            }
            EvalErrorKind::NumberOutOfRange { text } => {
                write!(f, "number `{text}` is out of range")
            }
            EvalErrorKind::Missing { name } => {
                write!(
                    f,
                    "`{name}` is not defined (every level defines points and objective)"
                )
            }
            EvalErrorKind::NoPathSpec => {
                write!(f, "a path was given but the level has no <path> or <cycle>")
            }
            EvalErrorKind::PathUnknownEdge { edge } => {
                write!(
                    f,
                    "path edge `{edge}` is neither an edge id nor an edge index"
                )
            }
            EvalErrorKind::PathRepeatsEdge { edge } => {
                write!(f, "path uses edge `{edge}` twice")
            }
            EvalErrorKind::PathBroken { edge } => {
                write!(
                    f,
                    "path edge `{edge}` does not touch the end of the walk so far"
                )
            }
        }
    }
}

/// An evaluation error, at the element that caused it when that is known.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub struct EvalError {
    /// File and position of the element at fault.
    pub at: Option<(String, Pos)>,
    /// What went wrong.
    pub kind: EvalErrorKind,
}

impl EvalError {
    /// An error with no place.
    pub fn new(kind: EvalErrorKind) -> Self {
        Self { at: None, kind }
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.at {
            Some((file, pos)) => write!(f, "{file}:{pos}: {}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_lines_and_characters() {
        let text = "ab\nçd\n\nx";
        let idx = LineIndex::new(text);
        assert_eq!(idx.pos(0), Pos { line: 1, col: 1 });
        assert_eq!(idx.pos(1), Pos { line: 1, col: 2 });
        assert_eq!(idx.pos(3), Pos { line: 2, col: 1 });
        // `ç` is two bytes, one character.
        assert_eq!(idx.pos(5), Pos { line: 2, col: 2 });
        assert_eq!(idx.pos(7), Pos { line: 3, col: 1 });
        assert_eq!(idx.pos(8), Pos { line: 4, col: 1 });
        assert_eq!(idx.pos(100), Pos { line: 4, col: 2 });
    }
}
