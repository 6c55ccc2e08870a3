//! Mazes (seed 001): a spanning tree over a physical room graph, then dead-end merging.
//!
//! The physical graph is a `width x height` lattice (optionally with holes) or the Delaunay
//! triangulation of jittered points. Edge weights (random, biased, or a height-map gradient) give
//! the order in which Kruskal builds the logical graph, a spanning tree. Seed 001's dead-end merge
//! then moves dead ends away from crossroads until no merge applies. Lattice mazes are stored as
//! their tile grid alone; irregular mazes store the physical graph with passage flags
//! (`edge_flags` bit 2, [`edge_flag::PASSAGE`](crate::core::graph::edge_flag::PASSAGE)).
//!
//! Decisions where the seed is silent: the solution runs between the two ends of the tree's
//! diameter (the hardest start/goal pair); a dead end with several adjacent dead ends merges into
//! the first in neighbour order (north, west, east, south on a lattice); merge passes visit rooms
//! in id order. Beyond the seed, `braid` removes a share of the dead ends by opening walls
//! (Walter Pullen's braid mazes, `braid.rs`): the maze gains loops, and its solution becomes the
//! shortest way between the tree's diameter ends.

mod algorithms;
mod braid;
pub(crate) mod config;
mod fast;
mod fast_bits;
mod fast_plan;
mod fast_wide;
mod generate;
mod merge;
mod metrics;
mod physical;
mod raster;
mod spanning;
mod topology;
mod verify;
mod weights;

pub use crate::core::delaunay::{PhysicalError, delaunay_pairs};
pub use crate::core::error::ConfigError;
pub use algorithms::Algorithm as MazeAlgorithm;
pub use config::{Axis, Gradient, MazeConfig, Topology as MazeTopology, Weighting};
pub use generate::{MazeGenerator, MazeScratch};
pub use merge::{merge_dead_ends, mergeable_dead_ends};
pub use metrics::{MAZE_METRICS, MazeMetrics};
pub use spanning::{Tree, UnionFind};
pub use topology::{Explicit, Lattice, Link, Topology};
