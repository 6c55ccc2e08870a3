//! The memory the level layout reuses across levels and steps ([`RefineScratch`]): plain data,
//! below the stages, so the [`LevelLayout`](super::LevelLayout) trait can name it without
//! depending on the refiner that fills it.

use crate::layout::barnes_hut::QuadTree;

/// Memory reused across levels and steps.
#[derive(Default)]
pub struct RefineScratch {
    pub(super) tree: QuadTree,
    pub(super) fx: Vec<f32>,
    pub(super) fy: Vec<f32>,
    /// The parallel springs' memory.
    pub(super) springs: SpringScratch,
}

/// The parallel springs' memory: each vertex's edges and each edge's pull.
#[derive(Default)]
pub(super) struct SpringScratch {
    /// For vertex `v`, `ends[offset[v]..offset[v + 1]]` are its edge ends in edge order, each
    /// `edge << 1 | side` (side 0 the source, 1 the target); `n + 1` entries.
    pub(super) offset: Vec<u32>,
    pub(super) ends: Vec<u32>,
    /// Each edge's pull on its source (its target gets the opposite).
    pub(super) pull_x: Vec<f32>,
    pub(super) pull_y: Vec<f32>,
}
