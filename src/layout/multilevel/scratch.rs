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
}
