//! The builder's per-worker memory: the targets, the order, the candidates of each depth of the
//! search, and the result.

use super::layout::Layout;
use super::spaces::Zone;
use crate::floorplan::shape::Rect;
use crate::layout::LayoutScratch;

/// One candidate placement.
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate {
    pub(super) score: f32,
    pub(super) shape: u32,
    pub(super) x: i32,
    pub(super) y: i32,
}

/// Per-worker memory of the builder.
#[derive(Default)]
pub struct BuildScratch {
    pub(super) layout: LayoutScratch,
    pub(super) tx: Vec<f32>,
    pub(super) ty: Vec<f32>,
    pub(super) order: Vec<u32>,
    /// Per depth, the two placed rooms whose offsets from their drawn positions, weighted,
    /// move the room's target (`order::NO_STEER` for the first room).
    pub(super) steer: Vec<[(u32, f32); 2]>,
    pub(super) placed: Vec<bool>,
    /// Per depth, its candidates (sorted) and the next one to try.
    pub(super) candidates: Vec<Vec<Candidate>>,
    pub(super) cursor: Vec<usize>,
    pub(super) retries: Vec<u32>,
    pub(super) zones: Vec<Zone>,
    pub(super) met: Vec<Zone>,
    pub(super) corridors: Vec<(Rect, u32)>,
    /// Per room, its depth in this attempt's order.
    pub(super) depth_of: Vec<u32>,
    /// Per depth, the depths of the placed rooms that ruled out one of its candidates.
    pub(super) conflicts: Vec<Vec<u32>>,
    /// Per depth, the dead ends there since the attempt's last rewind.
    pub(super) dead: Vec<u32>,
    /// Per room, its dead ends over all attempts of the seed (for the failure reason).
    pub(super) room_dead: Vec<u32>,
    /// Forward checking's rooms looked at this placement, placed rooms near the one placed,
    /// near the one checked and near one of its spaces, and depths blamed.
    pub(super) checked: Vec<u32>,
    pub(super) around: Vec<u32>,
    pub(super) local: Vec<u32>,
    pub(super) near: Vec<u32>,
    pub(super) blamed: Vec<u32>,
    /// Per unplaced room, a free spot forward checking last found for it (shape, x, y), or
    /// `forward::NO_SPOT`.
    pub(super) spot: Vec<(u32, i32, i32)>,
    /// Forward checking's rooms in the way of a zone, the positions each rules out (closed
    /// rectangles) and where each room's rectangles begin (`forward::Cover`).
    pub(super) cover_rooms: Vec<u32>,
    pub(super) cover_rects: Vec<[i32; 4]>,
    pub(super) cover_at: Vec<u32>,
    /// The indices of an ear's rooms, in the order they are placed (`order::push_inwards`).
    pub(super) picks: Vec<usize>,
    /// A room of the plan with one place, `(room, shape, x, y)`: a piece's first room, on its
    /// parent's stub of it (`pieces`).
    pub(super) force: Option<(u32, u32, i32, i32)>,
    /// How a drawing kept as given is turned, `(cos, sin, mirror)`: the turn of the level a
    /// piece belongs to (`pieces`).
    pub(super) turn: Option<(f32, f32, f32)>,
    /// The rest of the level, when the search lays out one piece of it (`pieces`).
    pub(super) world: Option<super::world::World>,
    /// The scratch of the pieces' own searches (`pieces`).
    pub(super) piece: Option<Box<BuildScratch>>,
    /// The placed rooms, corridors (`world::CORRIDOR` marked) and kept places
    /// (`world::RESERVED` marked) by grid cell (`pieces`).
    pub(super) cells: std::collections::HashMap<(i32, i32), Vec<u32>>,
    /// The places laid pieces keep for their pieces, and per piece whether it is laid
    /// (`pieces`).
    pub(super) reserved: Vec<super::world::Reserve>,
    pub(super) laid: Vec<bool>,
    /// The result.
    pub out: Layout,
}
