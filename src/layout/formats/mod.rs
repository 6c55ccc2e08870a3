//! The graph files `warren layout` reads, each into the same [`EdgeList`]: edges over dense
//! vertex indices `0..n` numbered in order of first appearance, self-loops dropped and counted,
//! repeated edges kept (unless the format says otherwise), and each vertex's own id in the file
//! ([`VertexIds`]: numbers for edge lists and Matrix Market, strings for the others).
//!
//! [`GraphFormat::of_path`] chooses the reader by file extension (in any case):
//!
//! | extension | format |
//! |---|---|
//! | `.mtx` | Matrix Market coordinate matrix, as SuiteSparse publishes graphs (`mtx`) |
//! | `.graphml` | GraphML, read with quick-xml (`graphml`) |
//! | `.gml` | GML (`gml`) |
//! | `.dot`, `.gv` | Graphviz DOT (`dot`, `dot_lex`) |
//! | any other (`.txt`, `.edges`, `.el`, `.tsv`...) | SNAP / networkx edge list ([`EdgeList`]) |
//!
//! A `.csv` file is read as an edge list too, so its fields must be separated by blanks, not
//! commas. Every reader refuses a file over [`MAX_GRAPH_BYTES`] before reading it and more than
//! [`MAX_EDGES`](crate::layout::edgelist::MAX_EDGES) edges; all but the edge list (which numbers
//! up to `u32::MAX - 1`) refuse more than [`MAX_VERTICES`] vertices, and Matrix Market checks
//! its announced sizes before allocating anything for them. Errors are one line,
//! `FILE:LINE:COLUMN: expected ..., found ...` for a malformed file ([`GraphReadError`]), and
//! no input makes a reader panic (`formats_tests.rs` edits and truncates a valid file of each
//! format, and feeds them token soups).

mod builder;
mod dot;
mod dot_lex;
mod error;
mod gml;
mod graphml;
mod mtx;
mod names;

use std::path::Path;

pub use error::GraphReadError;
pub use names::{TsvField, VertexId, VertexIds, VertexNames};

use crate::layout::edgelist::{EdgeList, MAX_EDGE_LIST_BYTES};

/// The largest graph file read, in bytes (1 GiB, as for edge lists): readers hold the whole file.
pub const MAX_GRAPH_BYTES: u64 = MAX_EDGE_LIST_BYTES;

/// The most vertices the readers of formats other than edge lists take (2^24 = 16,777,216, as
/// many as [`MAX_EDGES`](crate::layout::edgelist::MAX_EDGES)).
pub const MAX_VERTICES: usize = 1 << 24;

/// A graph file format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphFormat {
    /// SNAP / networkx edge list (`u v` per line), the default.
    EdgeList,
    /// Matrix Market coordinate matrix (`.mtx`).
    MatrixMarket,
    /// GraphML (`.graphml`).
    GraphMl,
    /// GML (`.gml`).
    Gml,
    /// Graphviz DOT (`.dot`, `.gv`).
    Dot,
}

impl GraphFormat {
    /// The format of `path`, by its extension in any case (unknown or none: an edge list).
    pub fn of_path(path: &Path) -> Self {
        let extension = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or_default()
            .to_ascii_lowercase();
        match extension.as_str() {
            "mtx" => Self::MatrixMarket,
            "graphml" => Self::GraphMl,
            "gml" => Self::Gml,
            "dot" | "gv" => Self::Dot,
            _ => Self::EdgeList,
        }
    }
}

/// Reads the graph file at `path` with the reader its extension chooses
/// ([`GraphFormat::of_path`]).
///
/// # Runtime
/// O(bytes) expected (DOT: plus the edges its subgraphs stand for); holds the whole file while
/// parsing it. Refuses a file over [`MAX_GRAPH_BYTES`] before reading it.
pub fn read_graph(path: &Path) -> Result<EdgeList, GraphReadError> {
    let format = GraphFormat::of_path(path);
    if format == GraphFormat::EdgeList {
        return Ok(EdgeList::read(path)?);
    }
    let read_error = |source| GraphReadError::Read {
        path: path.to_path_buf(),
        source,
    };
    let bytes = std::fs::metadata(path).map_err(read_error)?.len();
    if bytes > MAX_GRAPH_BYTES {
        return Err(GraphReadError::TooLarge {
            path: path.to_path_buf(),
            bytes,
            limit: MAX_GRAPH_BYTES,
        });
    }
    let bytes = std::fs::read(path).map_err(read_error)?;
    parse_graph(format, &bytes, path)
}

/// Parses `bytes` as a graph in `format`; `path` only names the input in errors.
///
/// # Runtime
/// As [`read_graph`], without the file.
pub fn parse_graph(
    format: GraphFormat,
    bytes: &[u8],
    path: &Path,
) -> Result<EdgeList, GraphReadError> {
    match format {
        GraphFormat::EdgeList => Ok(EdgeList::parse(bytes, path)?),
        GraphFormat::MatrixMarket => mtx::parse(bytes, path),
        GraphFormat::GraphMl => graphml::parse(bytes, path),
        GraphFormat::Gml => gml::parse(bytes, path),
        GraphFormat::Dot => dot::parse(bytes, path),
    }
}

#[cfg(test)]
#[path = "formats_tests.rs"]
mod tests;
