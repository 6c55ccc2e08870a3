//! The bounds every reader checks: the largest file read ([`MAX_GRAPH_BYTES`]) and the most
//! vertices taken from a format other than edge lists ([`MAX_VERTICES`]). Plain constants, below
//! the readers and the builder they share.

use crate::layout::edgelist::MAX_EDGE_LIST_BYTES;

/// The largest graph file read, in bytes (1 GiB, as for edge lists): readers hold the whole file.
pub const MAX_GRAPH_BYTES: u64 = MAX_EDGE_LIST_BYTES;

/// The most vertices the readers of formats other than edge lists take (2^24 = 16,777,216, as
/// many as [`MAX_EDGES`](crate::layout::edgelist::MAX_EDGES)).
pub const MAX_VERTICES: usize = 1 << 24;
