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
//!
//! With [`ReadOptions::weights`] every reader also reads each edge's weight, a positive finite
//! number (an edge list's third column, a Matrix Market value, GraphML's `weight` key, GML's
//! `weight`, DOT's `len` or else `weight`): a bad or missing one is an error at its place, and
//! only the edges the graph keeps have one (a self-loop's or a merged repeat's is not read; a
//! merged repeat keeps the first edge's weight). Without it, weights are not looked at.
//!
//! [`EdgeList`]: crate::layout::edgelist::EdgeList

mod builder;
mod dot;
mod dot_lex;
mod error;
mod gml;
mod graphml;
mod limits;
mod mtx;
mod names;
mod positions;
mod read;

pub use error::GraphReadError;
pub use limits::{MAX_GRAPH_BYTES, MAX_VERTICES};
pub use names::{TsvField, VertexId, VertexIds, VertexNames};
pub use positions::{PositionsError, parse_positions};
pub use read::{
    GraphFormat, ReadOptions, parse_graph, parse_graph_with, read_graph, read_graph_with,
};

#[cfg(test)]
#[path = "formats_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "weights_tests.rs"]
mod weights_tests;
