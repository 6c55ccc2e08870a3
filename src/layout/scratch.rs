//! The solver's reusable memory, with the buffers of the stages that run inside it (the quadtree,
//! room placement, planarity-keeping relaxation): plain data, so every stage can hold it.

use crate::layout::barnes_hut::QuadTree;

/// Reusable solver memory (forces, the quadtree's arena).
#[derive(Default)]
pub struct LayoutScratch {
    pub(super) fx: Vec<f32>,
    pub(super) fy: Vec<f32>,
    pub(super) tree: QuadTree,
    pub(super) rooms: RoomScratch,
}

/// The room placement's buffers, kept in the worker's [`LayoutScratch`].
#[derive(Default)]
pub(crate) struct RoomScratch {
    pub(super) factors: Vec<f32>,
    pub(super) pairs: Vec<(u32, u32)>,
    pub(super) preserve: PreserveScratch,
}

/// Reusable memory of [`relax_preserving`](crate::layout::crossing_free::relax_preserving).
#[derive(Default)]
pub struct PreserveScratch {
    pub(super) dx: Vec<f32>,
    pub(super) dy: Vec<f32>,
    pub(super) limit: Vec<f32>,
    pub(super) boxes: Vec<[f32; 4]>,
    /// Edge indices by their boxes' left sides, kept between steps.
    pub(super) order: Vec<u32>,
    /// The edges' boxes and ends in that order.
    pub(super) sorted: Vec<([f32; 4], [u32; 2])>,
    /// The drawing before a plain relaxation ([`relax_plain_first`]).
    pub(super) saved_x: Vec<f32>,
    pub(super) saved_y: Vec<f32>,
    /// The drawing before the room pushes (`layout::rooms`), for undoing them.
    pub(crate) pushed_from_x: Vec<f32>,
    pub(crate) pushed_from_y: Vec<f32>,
}
