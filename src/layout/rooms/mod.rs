//! Rooms placed at a layout's vertices without overlap (seed 000: "when rooms are created for the
//! vertices we'll need to scale up the graph to fit them without overlaps. This could be done by
//! setting per-edge length factors that multiply the base desired edge length in graph drawing").
//!
//! Each vertex `i` carries an axis-aligned room of width `w[i]` and height `h[i]` centred on
//! `(x[i], y[i])`. [`place_rooms`] works in three steps:
//!
//! 1. **Length factors.** Every edge's target length becomes `r_a + r_b + margin` (`r` is half
//!    a room's diagonal, so two rooms whose centres are that far apart cannot overlap). The
//!    solver runs with its base length set to the mean of those targets and each edge's length
//!    factor set to its target over that mean: repulsion, step cap and tolerance are in units of
//!    the base length, so this keeps non-adjacent rooms apart at room scale too (at the caller's
//!    unit length 80% of level-sized test graphs still had overlapping rooms after relaxing,
//!    against 15% this way). The layout is first scaled up to the mean target (seed 000's
//!    "upscaling": the solver contracts far better than it expands), then [`relax`]ed.
//!    With corridors to keep apart ([`place_rooms_keeping`]), the relaxation runs plain first
//!    and again with moves limited (PrEd) only if the plain one made corridors cross; rooms
//!    still crowded after it are hemmed in by corridors, so the drawing is scaled up by
//!    `REGROW_FACTOR` (which keeps it planar) and relaxed again, up to `REGROW_ATTEMPTS` times.
//! 2. **Detection.** Pairs of rooms closer than `margin` come from a bulk-loaded R-tree of the
//!    rooms grown by `margin / 2` on every side ([`crowded_pairs`]), checked against an all-pairs
//!    oracle in the tests.
//! 3. **Push-apart**, deterministic and guaranteed to end without overlap: rounds that separate
//!    each crowded pair along its axis of least penetration (pairs in index order), then, if
//!    `push_rounds` rounds did not clear everything, a fallback that certainly does: scaling all
//!    centres about their centroid by the factor the worst pair needs (after separating exactly
//!    coincident centres; a factor above 64 is cut to 64 and the pairs still crowded are pushed
//!    apart again, so the drawing stays within a bounded size), and as a last resort an
//!    order-preserving grid spread whose separation is exact in `f32` ([`Fallback`]). With
//!    corridors to keep apart, pushes that make two corridors cross are redone from the drawing
//!    before them with every round's moves limited as in the relaxation
//!    ([`push_apart_preserving`]), and only when that leaves pairs crowded does the scaling
//!    take over.
//!
//! # Conventions
//! Two rooms *overlap* when their open interiors intersect: `|dx| < (w_a + w_b) / 2` and
//! `|dy| < (h_a + h_b) / 2`, strictly. Rooms that only touch (a shared edge or corner, zero-area
//! intersection) do not overlap, and a room of zero width or height overlaps nothing. Rooms are
//! *crowded* under a margin `g` when `|dx| < (w_a + w_b) / 2 + g` and likewise in `y`: the gap
//! between them is below `g` on both axes. The push-apart clears crowding, so the margin is kept
//! up to `f32` rounding; what is guaranteed (and tested) is the absence of overlap.
//!
//! A corridor (an edge's straight segment) *passes through* a room when it meets the room's open
//! interior; running along a wall or through a corner does not count ([`corridors_through_rooms`]).
//!
//! Inputs must be finite, with `w`, `h` and `margin` non-negative.

mod crowding;
mod params;
mod place;
mod push;

pub use crowding::{
    corridors_through_rooms, corridors_through_rooms_brute, crowded_pairs, crowded_pairs_brute,
    overlapping_pairs, overlapping_pairs_brute, segment_passes_through,
};
pub use params::{Fallback, Placement, RoomParams};
pub use place::{place_rooms, place_rooms_keeping, room_edge_targets, room_edge_targets_into};

#[cfg(test)]
mod tests;
