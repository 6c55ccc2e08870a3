//! Force-directed graph drawing (seed 000: "force based graph drawing", its slowest part): the
//! solver that lays out graph-grammar levels, usable on any graph.
//!
//! Each iteration adds up spring forces along the edges ([`Spring`]: seed 000's logarithmic law,
//! the sigmoid it proposes, or Hooke's linear law) and an inverse-square repulsion between vertex
//! pairs (optionally only within a cutoff), then moves every vertex along its force, at most
//! `max_delta` edge lengths per step. It stops when no vertex moves more than `tolerance` edge
//! lengths, or at the iteration cap. Cosmetic edges pull like any other edge.
//!
//! Repulsion has three kernels with the same physics: exact all-pairs in scalar code (the
//! reference), exact all-pairs on `wide::f32x8` lanes, and Barnes-Hut on a quadtree rebuilt every
//! step ([`barnes_hut`]). [`Repulsion::Auto`] takes the exact SIMD kernel up to
//! [`BARNES_HUT_FROM`] vertices and Barnes-Hut above. Graphs of [`PARALLEL_FROM`] vertices or
//! more spread the repulsion over rayon's threads (each vertex's force is summed by one thread in
//! a fixed order, so the result does not depend on the thread count).
//!
//! Positions are struct-of-arrays (`x`, `y`), like the rest of warren's graphs.

pub mod barnes_hut;
pub mod crossing_free;
pub mod edgelist;
pub mod forces;
pub mod formats;
pub mod multilevel;
pub mod neighbourhood;
mod params;
pub mod quality;
pub mod rooms;
mod scratch;
pub mod sgd;
mod solver;
pub mod start;
pub mod stress;
pub mod svg;

pub use params::{
    BARNES_HUT_FROM, LayoutGraph, LayoutParams, LayoutReport, PARALLEL_FROM, Repulsion, Spring,
    kernel_for,
};
pub use scratch::LayoutScratch;
pub(crate) use solver::apply_moves;
pub use solver::{forces, last_forces, level_like_graph, random_positions, relax, upscale};
