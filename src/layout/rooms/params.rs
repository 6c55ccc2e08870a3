//! What room placement is asked ([`RoomParams`]) and what it reports ([`Placement`]).

use crate::layout::LayoutReport;

/// Room placement settings.
#[derive(Clone, Debug, PartialEq)]
pub struct RoomParams {
    /// Gap kept between rooms, in layout units: it is added to every edge's target length, and
    /// the push-apart separates rooms closer than this.
    pub margin: f32,
    /// Push-apart rounds before the fallback takes over (0: straight to the fallback).
    pub push_rounds: u32,
    /// Whether to scale the layout up to the mean edge target before relaxing (seed 000: the
    /// solver contracts better than it expands).
    pub upscale: bool,
}

impl Default for RoomParams {
    fn default() -> Self {
        Self {
            margin: 0.25,
            push_rounds: 64,
            upscale: true,
        }
    }
}

/// How the push-apart finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Fallback {
    /// The push rounds (or the relaxation alone) cleared every crowded pair.
    #[default]
    None,
    /// All centres were scaled about their centroid (by at most 64, then pushed apart again if
    /// that was not enough).
    Scaled,
    /// The last resort: centres spread on a grid in their `x` and `y` order.
    Grid,
}

/// What [`place_rooms`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Placement {
    /// The relaxation with room-sized edge lengths.
    pub relax: LayoutReport,
    /// Overlapping room pairs right after that relaxation.
    pub overlaps_after_relax: u32,
    /// Push-apart rounds that moved something.
    pub push_rounds_used: u32,
    /// Which fallback ran, if any.
    pub fallback: Fallback,
    /// (edge, room) pairs where a corridor passes through a room other than its ends' rooms,
    /// in the final placement.
    pub corridors_through_rooms: u32,
}
