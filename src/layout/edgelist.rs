//! Edge lists in the SNAP / networkx text format, the input of `warren layout` (seed 000's force
//! solver run on any graph, so its speed and quality can be compared with other solvers').
//!
//! One edge per line: two vertex ids `u v` separated by spaces or tabs. Further tokens on the
//! line (weights, edge data) are ignored, unless weights are asked for
//! ([`EdgeList::parse_with`]): then the third token is the edge's weight, a positive finite
//! number (networkx's `write_weighted_edgelist` writes `u v w`), and later ones are ignored.
//! `#` starts a comment that runs to the end of the line
//! (a whole line or the tail of one), and blank lines are skipped. A `\r` counts as a separator,
//! so files with Windows line ends read the same, and a UTF-8 byte order mark at the start is
//! skipped.
//!
//! Vertex ids are non-negative decimal integers up to `u64::MAX`, compared as numbers (`007` is
//! `7`). They are renumbered to dense indices `0..n` in order of first appearance, and the
//! original ids are kept so output can name them. A self-loop `v v` still introduces `v` but its
//! edge is dropped and counted (its weight is not read); duplicate edges are kept as they are,
//! each with its own weight (the graph is a multigraph).
//!
//! A malformed line is an [`EdgeListError::Syntax`] naming the file, the line and the column
//! (both 1-based, columns counted in characters) and what was expected there.
//!
//! Inputs are bounded: a file over [`MAX_EDGE_LIST_BYTES`] is refused before it is read, and a
//! list of more than [`MAX_EDGES`] edges at the first edge over, so an untrusted file cannot
//! make the reader (or the layout after it) allocate without bound.

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};

use thiserror::Error;

use super::LayoutGraph;
use super::formats::VertexIds;
use crate::core::rng::splitmix64;

/// The largest edge list file read, in bytes (1 GiB): the reader holds the whole file.
pub const MAX_EDGE_LIST_BYTES: u64 = 1 << 30;

/// The most edges read (2^24 = 16,777,216). The reader keeps 8 bytes per edge and about 40 per
/// vertex; `warren layout` on 10^7 edges over 2 * 10^6 vertices peaked at the memory docs/reliability.md's
/// "Reliability" section gives.
pub const MAX_EDGES: usize = 1 << 24;

/// A graph read from a file: edges over dense vertex indices, each vertex's id in the file and,
/// when asked for, each edge's weight. Every graph reader returns one
/// ([`super::formats::read_graph`]).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EdgeList {
    /// The file's id of each vertex, by dense index (in order of first appearance): numbers for
    /// edge lists and Matrix Market files, strings for the formats with string ids.
    pub ids: VertexIds,
    /// Edge sources (dense indices into `ids`).
    pub src: Vec<u32>,
    /// Edge targets (dense indices into `ids`).
    pub dst: Vec<u32>,
    /// Self-loops dropped while reading.
    pub self_loops: u64,
    /// Each edge's weight, parallel to `src` and `dst`, every one finite and positive; `None`
    /// unless the reader was asked for weights.
    pub weights: Option<Vec<f32>>,
}

/// What every reader expects of a weight (the `expected ...` of its error).
pub const WEIGHT_EXPECTED: &str = "a positive finite weight";

/// `token` as a weight: a decimal number (as Rust's `f64` parser reads it) that is finite and
/// positive once rounded to `f32`; `None` otherwise.
pub(crate) fn parse_weight(token: &[u8]) -> Option<f32> {
    let w = std::str::from_utf8(token).ok()?.parse::<f64>().ok()? as f32;
    (w.is_finite() && w > 0.0).then_some(w)
}

/// What the parser expected where it found something else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expected {
    /// A vertex id: a non-negative decimal integer.
    VertexId,
    /// The second vertex id of an edge (the line held only one).
    SecondVertexId,
    /// A vertex id that fits in 64 bits (the token is an integer above `u64::MAX`).
    SmallerVertexId,
    /// An edge's weight ([`WEIGHT_EXPECTED`]).
    Weight,
}

impl fmt::Display for Expected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::VertexId => "a vertex id (a non-negative integer)",
            Self::SecondVertexId => "a second vertex id",
            Self::SmallerVertexId => "a vertex id of at most 18446744073709551615",
            Self::Weight => WEIGHT_EXPECTED,
        })
    }
}

/// What the parser found instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Found {
    /// This token (shortened to [`Found::MAX_CHARS`] characters when longer).
    Token(String),
    /// The line (or the part before its comment) ended.
    EndOfLine,
}

impl Found {
    /// Characters of a token kept in an error message.
    pub const MAX_CHARS: usize = 40;

    pub(crate) fn token(bytes: &[u8]) -> Self {
        let text = String::from_utf8_lossy(bytes);
        let mut kept: String = text.chars().take(Self::MAX_CHARS).collect();
        if kept.len() < text.len() {
            kept.push_str("...");
        }
        Self::Token(kept)
    }
}

impl fmt::Display for Found {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // NOTE: `Debug` quotes the token and escapes control characters, so the message
            // stays on one line whatever the file holds.
            Self::Token(t) => write!(f, "{t:?}"),
            Self::EndOfLine => f.write_str("end of line"),
        }
    }
}

/// An edge list could not be read.
#[derive(Debug, Error)]
pub enum EdgeListError {
    /// The file could not be read.
    #[error("{path}: cannot read")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A line does not start with two vertex ids (and a weight, when weights are read).
    #[error("{path}:{line}:{column}: expected {expected}, found {found}")]
    Syntax {
        /// The file.
        path: PathBuf,
        /// Line, 1-based.
        line: usize,
        /// Column in characters, 1-based.
        column: usize,
        /// What belongs there.
        expected: Expected,
        /// What is there.
        found: Found,
    },
    /// The file is larger than the reader takes ([`MAX_EDGE_LIST_BYTES`]).
    #[error("{path}: {bytes} bytes is more than the {limit} bytes an edge list may hold")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        bytes: u64,
        /// The limit.
        limit: u64,
    },
    /// More edges than the reader takes ([`MAX_EDGES`]).
    #[error("{path}:{line}: more than {limit} edges")]
    TooManyEdges {
        /// The file.
        path: PathBuf,
        /// The line of the first edge over the limit.
        line: usize,
        /// The limit.
        limit: usize,
    },
    /// More distinct vertices than `u32` indices can number (`u32::MAX` is kept as a sentinel).
    #[error("{path}:{line}: more than {} distinct vertices", u32::MAX - 1)]
    TooManyVertices {
        /// The file.
        path: PathBuf,
        /// The line that introduced one vertex too many.
        line: usize,
    },
}

/// Hashes a `u64` vertex id with one SplitMix64 finaliser.
///
/// PERF: std's default SipHash costs several times more per lookup, and ids come from a local
/// file the user chose, so flooding resistance buys nothing here.
#[derive(Default)]
pub(crate) struct IdHasher(u64);

impl Hasher for IdHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = splitmix64(self.0 ^ u64::from(b));
        }
    }

    fn write_u64(&mut self, id: u64) {
        self.0 = splitmix64(self.0 ^ id);
    }
}

/// Separators between tokens.
fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r')
}

/// The next token of `line` at or after byte `*pos`: its start and bytes; advances `*pos`.
pub(crate) fn next_token<'a>(line: &'a [u8], pos: &mut usize) -> Option<(usize, &'a [u8])> {
    while *pos < line.len() && is_separator(line[*pos]) {
        *pos += 1;
    }
    let start = *pos;
    while *pos < line.len() && !is_separator(line[*pos]) {
        *pos += 1;
    }
    (*pos > start).then(|| (start, &line[start..*pos]))
}

/// A token as a vertex id, or what it should have been.
pub(crate) fn parse_id(token: &[u8]) -> Result<u64, Expected> {
    let mut id = 0u64;
    let mut overflow = false;
    for &b in token {
        if !b.is_ascii_digit() {
            return Err(Expected::VertexId);
        }
        match id
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(b - b'0')))
        {
            Some(v) => id = v,
            // NOTE: keep scanning: `99999999999999999999x` is not an integer at all.
            None => overflow = true,
        }
    }
    if overflow {
        Err(Expected::SmallerVertexId)
    } else {
        Ok(id)
    }
}

/// The 1-based character column of byte `offset` in `line`.
#[inline(never)]
pub(crate) fn column_of(line: &[u8], offset: usize) -> usize {
    // UTF-8 continuation bytes are 0b10xx_xxxx; every other byte starts a character.
    line[..offset].iter().filter(|&&b| b & 0xC0 != 0x80).count() + 1
}

impl EdgeList {
    /// Reads and parses the edge list at `path` (see the module docs for the format).
    ///
    /// # Runtime
    /// O(bytes) expected; allocates the file's bytes, the edge and id arrays and one hash map.
    /// Refuses a file over [`MAX_EDGE_LIST_BYTES`] before reading it, and more than
    /// [`MAX_EDGES`] edges.
    pub fn read(path: &Path) -> Result<Self, EdgeListError> {
        Self::read_with(path, false)
    }

    /// [`EdgeList::read`], reading each edge's weight from its third token when `weights` is
    /// set ([`EdgeList::parse_with`]).
    ///
    /// # Runtime
    /// As [`EdgeList::read`], plus one `f32` per edge with `weights`.
    pub fn read_with(path: &Path, weights: bool) -> Result<Self, EdgeListError> {
        let read_error = |source| EdgeListError::Read {
            path: path.to_path_buf(),
            source,
        };
        let bytes = std::fs::metadata(path).map_err(read_error)?.len();
        if bytes > MAX_EDGE_LIST_BYTES {
            return Err(EdgeListError::TooLarge {
                path: path.to_path_buf(),
                bytes,
                limit: MAX_EDGE_LIST_BYTES,
            });
        }
        let bytes = std::fs::read(path).map_err(read_error)?;
        Self::parse_with(&bytes, path, MAX_EDGES, weights)
    }

    /// Parses the edge list `text`; `path` only names the input in errors. More than
    /// [`MAX_EDGES`] edges are refused.
    ///
    /// # Runtime
    /// O(bytes) expected; no allocation per line, only the growth of the edge and id arrays and
    /// of the id map.
    pub fn parse(text: &[u8], path: &Path) -> Result<Self, EdgeListError> {
        Self::parse_with(text, path, MAX_EDGES, false)
    }

    /// [`EdgeList::parse`] with at most `max_edges` edges (self-loops, which are dropped, do not
    /// count).
    pub fn parse_at_most(
        text: &[u8],
        path: &Path,
        max_edges: usize,
    ) -> Result<Self, EdgeListError> {
        Self::parse_with(text, path, max_edges, false)
    }

    /// [`EdgeList::parse_at_most`], reading each edge's weight from its third token when
    /// `weights` is set: a missing or bad weight is an error at its place ([`WEIGHT_EXPECTED`]).
    /// A self-loop's weight is not read.
    ///
    /// # Runtime
    /// As [`EdgeList::parse`], plus one `f32` per edge with `weights`.
    pub fn parse_with(
        text: &[u8],
        path: &Path,
        max_edges: usize,
        weights: bool,
    ) -> Result<Self, EdgeListError> {
        let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
        let mut list = EdgeList::default();
        // PERF: one pass over the bytes sizes the edge arrays, so they never reallocate.
        let lines = text.iter().filter(|&&b| b == b'\n').count() + 1;
        list.src.reserve(lines.min(max_edges));
        list.dst.reserve(lines.min(max_edges));
        let mut read_weights = weights.then(|| Vec::with_capacity(lines.min(max_edges)));
        let mut index: HashMap<u64, u32, BuildHasherDefault<IdHasher>> = HashMap::default();
        let mut ids = Vec::new();
        for (i, raw) in text.split(|&b| b == b'\n').enumerate() {
            let line = i + 1;
            let content = match raw.iter().position(|&b| b == b'#') {
                Some(hash) => &raw[..hash],
                None => raw,
            };
            let syntax = |offset: usize, expected, found| EdgeListError::Syntax {
                path: path.to_path_buf(),
                line,
                column: column_of(raw, offset),
                expected,
                found,
            };
            let mut pos = 0;
            let Some((u_at, u_token)) = next_token(content, &mut pos) else {
                continue;
            };
            let u = parse_id(u_token).map_err(|e| syntax(u_at, e, Found::token(u_token)))?;
            let Some((v_at, v_token)) = next_token(content, &mut pos) else {
                return Err(syntax(
                    content.len(),
                    Expected::SecondVertexId,
                    Found::EndOfLine,
                ));
            };
            let v = parse_id(v_token).map_err(|e| syntax(v_at, e, Found::token(v_token)))?;
            let mut intern = |id: u64| -> Result<u32, EdgeListError> {
                if let Some(&dense) = index.get(&id) {
                    return Ok(dense);
                }
                let dense = u32::try_from(ids.len())
                    .ok()
                    .filter(|&d| d < u32::MAX)
                    .ok_or_else(|| EdgeListError::TooManyVertices {
                        path: path.to_path_buf(),
                        line,
                    })?;
                index.insert(id, dense);
                ids.push(id);
                Ok(dense)
            };
            let (a, b) = (intern(u)?, intern(v)?);
            if a == b {
                list.self_loops += 1;
            } else {
                if list.src.len() == max_edges {
                    return Err(EdgeListError::TooManyEdges {
                        path: path.to_path_buf(),
                        line,
                        limit: max_edges,
                    });
                }
                if let Some(w) = &mut read_weights {
                    w.push(
                        weight_of(content, &mut pos)
                            .map_err(|(at, f)| syntax(at, Expected::Weight, f))?,
                    );
                }
                list.src.push(a);
                list.dst.push(b);
            }
        }
        list.ids = VertexIds::Numbers(ids);
        list.weights = read_weights;
        Ok(list)
    }

    /// Number of vertices.
    pub fn vertex_count(&self) -> usize {
        self.ids.len()
    }

    /// Number of edges (self-loops not counted).
    pub fn edge_count(&self) -> usize {
        self.src.len()
    }

    /// The edges as the solver takes them: each edge's weight as its length factor when weights
    /// were read, every factor 1 otherwise.
    pub fn graph(&self) -> LayoutGraph<'_> {
        LayoutGraph {
            src: &self.src,
            dst: &self.dst,
            length_factor: self.weights.as_deref(),
        }
    }
}

/// The weight token of `content` at or after byte `*pos`, or the offset and what was found
/// there instead.
fn weight_of(content: &[u8], pos: &mut usize) -> Result<f32, (usize, Found)> {
    match next_token(content, pos) {
        None => Err((content.len(), Found::EndOfLine)),
        Some((at, token)) => parse_weight(token).ok_or((at, Found::token(token))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<EdgeList, EdgeListError> {
        EdgeList::parse(text.as_bytes(), Path::new("g.txt"))
    }

    /// The error message of `text`, which must fail.
    fn message(text: &str) -> String {
        match parse(text) {
            Ok(list) => panic!("{text:?} parsed: {list:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn reads_edges_with_spaces_tabs_and_extra_columns() {
        let list = parse("0 1\n1\t2\n2  \t 3 0.5 {'w': 2}\n").unwrap();
        assert_eq!(list.ids, VertexIds::Numbers(vec![0, 1, 2, 3]));
        assert_eq!(list.src, vec![0, 1, 2]);
        assert_eq!(list.dst, vec![1, 2, 3]);
        assert_eq!((list.vertex_count(), list.edge_count()), (4, 3));
        assert_eq!(list.self_loops, 0);
    }

    #[test]
    fn skips_comments_and_blank_lines() {
        let text = "# Directed graph\n# FromNodeId\tToNodeId\n\n   \n5 6 # trailing\n\t\n6 7#x\n#";
        let list = parse(text).unwrap();
        assert_eq!(list.ids, VertexIds::Numbers(vec![5, 6, 7]));
        assert_eq!((list.src, list.dst), (vec![0, 1], vec![1, 2]));
    }

    #[test]
    fn remaps_ids_in_order_of_first_appearance() {
        let list = parse("900 18446744073709551615\n7 900\n007 18446744073709551615\n").unwrap();
        assert_eq!(list.ids, VertexIds::Numbers(vec![900, u64::MAX, 7]));
        assert_eq!((list.src, list.dst), (vec![0, 2, 2], vec![1, 0, 1]));
    }

    #[test]
    fn drops_and_counts_self_loops_but_keeps_their_vertex() {
        let list = parse("3 3\n1 2\n2 2\n2 1\n").unwrap();
        assert_eq!(list.ids, VertexIds::Numbers(vec![3, 1, 2]));
        assert_eq!((list.src, list.dst), (vec![1, 2], vec![2, 1]));
        assert_eq!(list.self_loops, 2);
    }

    #[test]
    fn reads_crlf_and_a_byte_order_mark() {
        let list = parse("\u{feff}1 2\r\n2 3\r\n").unwrap();
        assert_eq!(list.ids, VertexIds::Numbers(vec![1, 2, 3]));
        assert_eq!(list.edge_count(), 2);
    }

    #[test]
    fn empty_and_comment_only_input_has_no_vertices() {
        for text in ["", "\n\n", "# nothing\n  # here\n"] {
            assert_eq!(parse(text).unwrap(), EdgeList::default(), "{text:?}");
        }
    }

    #[test]
    fn a_bad_first_id_names_line_and_column() {
        assert_eq!(
            message("1 2\nabc 3\n"),
            r#"g.txt:2:1: expected a vertex id (a non-negative integer), found "abc""#
        );
        assert_eq!(
            message("  -4 3"),
            r#"g.txt:1:3: expected a vertex id (a non-negative integer), found "-4""#
        );
    }

    #[test]
    fn a_bad_second_id_names_line_and_column() {
        assert_eq!(
            message("1 2\n\n3\t2.5 x\n"),
            r#"g.txt:3:3: expected a vertex id (a non-negative integer), found "2.5""#
        );
        assert_eq!(
            message("1 +2"),
            r#"g.txt:1:3: expected a vertex id (a non-negative integer), found "+2""#
        );
    }

    #[test]
    fn a_missing_second_id_names_the_end_of_the_line() {
        assert_eq!(
            message("1 2\n  7\n"),
            "g.txt:2:4: expected a second vertex id, found end of line"
        );
        assert_eq!(
            message("1 2\n7 # 8\n"),
            "g.txt:2:3: expected a second vertex id, found end of line"
        );
        assert_eq!(
            message("1 2\n7"),
            "g.txt:2:2: expected a second vertex id, found end of line"
        );
    }

    #[test]
    fn more_edges_than_the_limit_name_the_first_line_over() {
        let text = b"1 2\n3 3\n2 3\n# c\n3 4\n";
        let list = EdgeList::parse_at_most(text, Path::new("g.txt"), 2).map_err(|e| e.to_string());
        assert_eq!(list.unwrap_err(), "g.txt:5: more than 2 edges");
        let list = EdgeList::parse_at_most(text, Path::new("g.txt"), 3).unwrap();
        assert_eq!((list.edge_count(), list.self_loops), (3, 1));
    }

    #[test]
    fn an_id_above_u64_max_is_an_error() {
        assert_eq!(
            message("1 18446744073709551616"),
            r#"g.txt:1:3: expected a vertex id of at most 18446744073709551615, found "18446744073709551616""#
        );
        assert_eq!(
            message("99999999999999999999x 1"),
            r#"g.txt:1:1: expected a vertex id (a non-negative integer), found "99999999999999999999x""#
        );
    }

    #[test]
    fn columns_count_characters_and_long_tokens_are_shortened() {
        assert_eq!(
            message("1 2\n\u{e9}\u{e9} 1\n"),
            r#"g.txt:2:1: expected a vertex id (a non-negative integer), found "éé""#
        );
        // A no-break space is not a separator: `1\u{a0}2` is one bad token.
        assert!(message("1 2\n1\u{a0}2 x\n").starts_with("g.txt:2:1: expected a vertex id"));
        let long = "z".repeat(100);
        let text = format!("1 {long}");
        let shown = format!("\"{}...\"", "z".repeat(Found::MAX_CHARS));
        assert!(message(&text).ends_with(&shown), "{}", message(&text));
        // Control characters are escaped, so the message stays on one line.
        assert!(!message("1 \u{b}2").contains('\u{b}'));
        assert!(!message("\u{c}").contains('\u{c}'));
    }

    #[test]
    fn invalid_utf8_is_an_error_not_a_panic() {
        let e = EdgeList::parse(b"1 2\n\xff\xfe 3\n", Path::new("g.txt")).unwrap_err();
        assert!(
            e.to_string().starts_with("g.txt:2:1: expected a vertex id"),
            "{e}"
        );
    }

    #[test]
    fn a_missing_file_names_its_path() {
        let e = EdgeList::read(Path::new("/no/such/warren/graph.txt")).unwrap_err();
        assert!(matches!(e, EdgeListError::Read { .. }), "{e:?}");
        assert_eq!(e.to_string(), "/no/such/warren/graph.txt: cannot read");
    }

    #[test]
    fn the_graph_view_borrows_the_edges() {
        let list = parse("4 5\n5 6\n").unwrap();
        let g = list.graph();
        assert_eq!((g.src, g.dst), (&[0, 1][..], &[1, 2][..]));
        assert!(g.length_factor.is_none());
    }
}
