//! [`GraphReadError`], the one error type of every graph reader, and the helpers that place an
//! error at a byte offset of a text file (1-based line and column, columns in characters).

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::core::text::Pos;
use crate::layout::edgelist::{EdgeListError, Found};

/// A graph file could not be read. Every variant prints as one line that starts with the file.
#[derive(Debug, Error)]
pub enum GraphReadError {
    /// An edge list's error (the edge-list reader's own messages).
    #[error(transparent)]
    EdgeList(#[from] EdgeListError),
    /// The file could not be read.
    #[error("{path}: cannot read")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The file is larger than the readers take ([`super::MAX_GRAPH_BYTES`]).
    #[error("{path}: {bytes} bytes is more than the {limit} bytes a graph file may hold")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// Something else than the format allows at a place of the file.
    #[error("{path}:{line}:{column}: expected {expected}, found {found}")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// Line, 1-based.
        line: usize,
        /// Column in characters, 1-based.
        column: usize,
        /// What belongs there.
        expected: String,
        /// What is there (a token is quoted, with control characters escaped).
        found: String,
    },
    /// More edges than the readers take ([`crate::layout::edgelist::MAX_EDGES`]).
    #[error("{path}:{line}:{column}: more than {limit} edges")]
    TooManyEdges {
        /// The file.
        path: PathBuf,
        /// Line of the first edge over the limit.
        line: usize,
        /// Its column.
        column: usize,
        /// The limit.
        limit: usize,
    },
    /// More vertices than the readers take ([`super::MAX_VERTICES`]).
    #[error("{path}:{line}:{column}: more than {limit} vertices")]
    TooManyVertices {
        /// The file.
        path: PathBuf,
        /// Line of the first vertex over the limit.
        line: usize,
        /// Its column.
        column: usize,
        /// The limit.
        limit: usize,
    },
}

impl GraphReadError {
    /// A [`GraphReadError::Syntax`] at `pos`.
    #[inline(never)]
    pub(crate) fn syntax(
        path: &Path,
        pos: Pos,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> Self {
        Self::Syntax {
            path: path.to_path_buf(),
            line: pos.line as usize,
            column: pos.col as usize,
            expected: expected.into(),
            found: found.into(),
        }
    }
}

/// `token` as an error shows it: quoted, control characters escaped, shortened when long.
pub(crate) fn quoted(token: &str) -> String {
    Found::token(token.as_bytes()).to_string()
}

/// A text file being parsed: its path and text, to place errors.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Source<'a> {
    /// The file, as errors name it.
    pub path: &'a Path,
    /// Its text.
    pub text: &'a str,
}

impl<'a> Source<'a> {
    /// A [`GraphReadError::Syntax`] at byte `offset`.
    #[inline(never)]
    pub fn error(
        &self,
        offset: usize,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> GraphReadError {
        GraphReadError::syntax(self.path, Pos::of(self.text, offset), expected, found)
    }

    /// The place of byte `offset`.
    pub fn pos(&self, offset: usize) -> Pos {
        Pos::of(self.text, offset)
    }
}

/// `bytes` as UTF-8 text without a leading byte order mark, or an error at the first byte that
/// is not UTF-8.
pub(crate) fn utf8<'a>(bytes: &'a [u8], path: &Path) -> Result<&'a str, GraphReadError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    std::str::from_utf8(bytes).map_err(|e| {
        let good = e.valid_up_to();
        // The prefix before the first bad byte is UTF-8 by definition.
        let before = std::str::from_utf8(&bytes[..good]).unwrap_or_default();
        GraphReadError::syntax(
            path,
            Pos::of(before, good),
            "UTF-8 text",
            format!("byte 0x{:02X}", bytes[good]),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_placed_by_line_and_character() {
        let source = Source {
            path: Path::new("g.dot"),
            text: "ab\ncé x",
        };
        let e = source.error(7, "a node id", quoted("x"));
        assert_eq!(e.to_string(), r#"g.dot:2:4: expected a node id, found "x""#);
    }

    #[test]
    fn bad_utf8_is_placed_at_its_first_byte() {
        let e = utf8(b"ok\n\xC3\xA9 \xFF", Path::new("g.gml")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "g.gml:2:3: expected UTF-8 text, found byte 0xFF"
        );
        assert_eq!(utf8(b"\xEF\xBB\xBFgraph", Path::new("g")).unwrap(), "graph");
    }

    #[test]
    fn long_tokens_are_shortened_and_escaped() {
        assert_eq!(quoted("a\nb"), r#""a\nb""#);
        assert!(quoted(&"z".repeat(100)).ends_with("...\""));
    }
}
