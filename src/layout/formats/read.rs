//! Choosing the reader: a file's [`GraphFormat`] by its extension, and [`read_graph`] /
//! [`parse_graph`], which hand the file to that format's reader.

use std::path::Path;

use super::error::GraphReadError;
use super::limits::MAX_GRAPH_BYTES;
use super::{dot, gml, graphml, mtx};
use crate::layout::edgelist::EdgeList;

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
