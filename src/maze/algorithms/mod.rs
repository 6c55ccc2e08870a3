//! The spanning-tree algorithms of `maze.algorithm` besides seed 001's weighted Kruskal: the ones
//! maze datasets are defined by (Jamis Buck's catalogue, Walter Pullen's). Each opens exactly
//! `rooms - 1` passages of the physical graph, connecting every room, into a
//! [`Tree`](crate::maze::Tree); dead-end merging and braiding apply afterwards as for seed 001.
//!
//! - Graph algorithms (any physical graph: lattices with holes, Delaunay rooms): `dfs`
//!   (recursive backtracker), `wilson` (loop-erased random walks; uniform over spanning trees),
//!   `aldous-broder` (a random walk that enters each room once through a passage; uniform),
//!   `kruskal` (edges in a uniformly shuffled order: seed 001's tree under its default random
//!   weighting, draw for draw), `prim` ("true Prim": random room costs, the cheapest room in the
//!   maze grows into its cheapest unvisited neighbour; Prim's algorithm with random weights on
//!   the rooms, since random weights on the edges would only give Kruskal's trees again),
//!   `prim-simplified` (a random frontier room joined to a random neighbour in the maze),
//!   `hunt-and-kill` and `growing-tree` (a share of newest-room picks, else a random active
//!   room).
//! - Lattice algorithms (a lattice without holes, row by row or by walls): `eller`,
//!   `sidewinder`, `binary-tree` (north or west from every room) and `recursive-division`
//!   (walls added to an open room, each with one gap).
//!
//! Every algorithm works in its scratch's reused buffers: no allocation once warm.

mod algorithm;
mod bits;
mod graph;
mod grow;
mod lattice;
mod prim;
mod scratch;
mod visit;
mod walk;

pub use algorithm::{AlgoParams, Algorithm};
pub use grow::grow_tree;
pub use scratch::AlgoScratch;

#[cfg(test)]
mod tests;
