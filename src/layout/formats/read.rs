//! Choosing the reader: a file's [`GraphFormat`] by its extension, and [`read_graph`] /
//! [`parse_graph`], which hand the file to that format's reader; [`read_graph_with`] and
//! [`parse_graph_with`] take [`ReadOptions`] (whether to read edge weights).

use std::path::Path;

use super::error::GraphReadError;
use super::limits::MAX_GRAPH_BYTES;
use super::{dot, gml, graphml, mtx};
use crate::layout::edgelist::{EdgeList, MAX_EDGES};

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

/// What a reader reads besides the edges.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// Read each edge's weight ([`EdgeList::weights`]), a positive finite number: an edge
    /// list's third column, a Matrix Market entry's value, GraphML's `<data>` of the edge key
    /// named `weight`, GML's `weight`, DOT's `len` or else `weight` attribute. An edge the
    /// graph keeps without one is an error at the edge; a self-loop's or a dropped repeat's
    /// weight is not read.
    pub weights: bool,
}

/// Reads the graph file at `path` with the reader its extension chooses
/// ([`GraphFormat::of_path`]).
///
/// # Runtime
/// O(bytes) expected (DOT: plus the edges its subgraphs stand for); holds the whole file while
/// parsing it. Refuses a file over [`MAX_GRAPH_BYTES`] before reading it.
pub fn read_graph(path: &Path) -> Result<EdgeList, GraphReadError> {
    read_graph_with(path, ReadOptions::default())
}

/// [`read_graph`] with `options` (weights).
///
/// # Runtime
/// As [`read_graph`], plus one `f32` per edge with weights.
pub fn read_graph_with(path: &Path, options: ReadOptions) -> Result<EdgeList, GraphReadError> {
    let format = GraphFormat::of_path(path);
    if format == GraphFormat::EdgeList {
        return Ok(EdgeList::read_with(path, options.weights)?);
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
    parse_graph_with(format, &bytes, path, options)
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
    parse_graph_with(format, bytes, path, ReadOptions::default())
}

/// [`parse_graph`] with `options` (weights).
///
/// # Runtime
/// As [`read_graph_with`], without the file.
pub fn parse_graph_with(
    format: GraphFormat,
    bytes: &[u8],
    path: &Path,
    options: ReadOptions,
) -> Result<EdgeList, GraphReadError> {
    let weights = options.weights;
    match format {
        GraphFormat::EdgeList => Ok(EdgeList::parse_with(bytes, path, MAX_EDGES, weights)?),
        GraphFormat::MatrixMarket => mtx::parse_with(bytes, path, weights),
        GraphFormat::GraphMl => graphml::parse_with(bytes, path, weights),
        GraphFormat::Gml => gml::parse_with(bytes, path, weights),
        GraphFormat::Dot => dot::parse_with(bytes, path, weights),
    }
}
