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

use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{AABB, RTree};

use crate::core::alloc::{RSTAR, listed};

use super::preserve::{
    PreserveScratch, push_apart_preserving, relax_plain_first, relax_preserving,
};
use super::{LayoutGraph, LayoutParams, LayoutReport, LayoutScratch, relax};

#[cfg(test)]
use push::grid_spread;
use push::{fallback_slow_path, pair_separation, push_apart};

/// An R-tree entry: a room's (possibly grown) rectangle and its vertex id.
type RoomBox = GeomWithData<Rectangle<[f32; 2]>, u32>;

/// Times a drawing whose planarity-keeping relaxation left rooms overlapping is scaled up by
/// [`REGROW_FACTOR`] and relaxed again.
const REGROW_ATTEMPTS: u32 = 5;

/// See [`REGROW_ATTEMPTS`].
const REGROW_FACTOR: f32 = 1.25;

/// Rounds of the planarity-keeping push-apart before the fallback scales the drawing.
const PRESERVING_PUSH_ROUNDS: u32 = 48;

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

/// Moves the vertices so that rooms `w[i] x h[i]` centred on them do not overlap: relaxes the
/// layout with per-edge length factors sized for the rooms, then pushes crowded rooms apart (see
/// the module doc). `graph`'s own length factors, if any, act as lower bounds on the new
/// targets ([`room_edge_targets`]). Of `params`, everything but `length` is used as given; the
/// base length becomes the mean room-sized target.
///
/// Guaranteed: no two rooms overlap afterwards, whatever `push_rounds` and the layout
/// parameters are (the relaxation's `max_iterations` can be modest; the push-apart finishes the
/// job). Deterministic: the same input gives the same bytes.
///
/// # Runtime
/// The relaxation (`params.max_iterations` solver steps), then per push round an R-tree bulk
/// load and self-join, O(n log n + k) for `k` crowded pairs. Allocates O(n + m) per call.
#[allow(clippy::too_many_arguments)]
pub fn place_rooms(
    graph: &LayoutGraph<'_>,
    x: &mut [f32],
    y: &mut [f32],
    w: &[f32],
    h: &[f32],
    params: &LayoutParams,
    rooms: &RoomParams,
    scratch: &mut LayoutScratch,
) -> Placement {
    place_rooms_keeping(graph, None, x, y, w, h, params, rooms, scratch)
}

/// [`place_rooms`], with the relaxation keeping the edges `keep = (src, dst)` from crossing
/// each other when they do not already ([`relax_preserving`]): a planar drawing of the
/// corridors stays planar through the room-sized relaxation. (The push-apart that follows moves
/// single pairs of rooms and may still, rarely, make two corridors cross.)
#[allow(clippy::too_many_arguments)]
pub fn place_rooms_keeping(
    graph: &LayoutGraph<'_>,
    keep: Option<(&[u32], &[u32])>,
    x: &mut [f32],
    y: &mut [f32],
    w: &[f32],
    h: &[f32],
    params: &LayoutParams,
    rooms: &RoomParams,
    scratch: &mut LayoutScratch,
) -> Placement {
    debug_assert!(
        y.len() == x.len() && w.len() == x.len() && h.len() == x.len(),
        "x, y, w, h must have one entry per vertex"
    );
    debug_assert!(
        w.iter().chain(h).all(|&s| s >= 0.0 && s.is_finite()) && rooms.margin >= 0.0,
        "room sizes and the margin must be finite and non-negative"
    );
    // PERF: the placement's buffers live in the worker's layout scratch, taken out for the
    // call (so that `scratch` can be lent on whole) and put back: no allocation once warm.
    let mut own = std::mem::take(&mut scratch.rooms);
    let room_params = room_sized_factors(graph, w, h, params, rooms.margin, &mut own.factors);
    let placer = RoomPlacer {
        room_graph: LayoutGraph {
            src: graph.src,
            dst: graph.dst,
            length_factor: Some(&own.factors),
        },
        room_params,
        keep,
        w,
        h,
        rooms,
    };
    if rooms.upscale {
        upscale_to_targets(&placer.room_graph, x, y, placer.room_params.length);
    }
    let (preserve, pairs) = (&mut own.preserve, &mut own.pairs);
    let relax_report = placer.relax(x, y, scratch, preserve);
    placer.regrow_while_crowded(x, y, scratch, preserve, pairs);
    let overlaps_after_relax = pairs
        .iter()
        .filter(|&&(a, b)| rooms_crowded(x, y, w, h, a, b, 0.0))
        .count() as u32;
    let (push_rounds_used, fallback) = placer.separate(x, y, preserve, pairs);
    debug_assert!(
        overlapping_pairs(x, y, w, h).is_empty(),
        "the push-apart must end without overlap"
    );
    let corridors = listed(RSTAR, || {
        corridors_through_rooms(x, y, w, h, graph.src, graph.dst).len() as u32
    });
    scratch.rooms = own;
    Placement {
        relax: relax_report,
        overlaps_after_relax,
        push_rounds_used,
        fallback,
        corridors_through_rooms: corridors,
    }
}

/// The room placement's buffers, kept in the worker's [`LayoutScratch`].
#[derive(Default)]
pub(crate) struct RoomScratch {
    factors: Vec<f32>,
    pairs: Vec<(u32, u32)>,
    preserve: PreserveScratch,
}

/// The edge length factors for rooms `w x h` ([`room_edge_targets`] over their mean) into
/// `factors`, and the layout parameters whose base length is that mean.
fn room_sized_factors(
    graph: &LayoutGraph<'_>,
    w: &[f32],
    h: &[f32],
    params: &LayoutParams,
    margin: f32,
    factors: &mut Vec<f32>,
) -> LayoutParams {
    room_edge_targets_into(graph, w, h, params.length, margin, factors);
    let mut room_params = params.clone();
    room_params.length = mean_or(factors, params.length);
    for f in factors.iter_mut() {
        *f /= room_params.length;
    }
    room_params
}

/// One placement of rooms: the room-sized graph and parameters, the corridors to keep apart
/// (if any) and the rooms.
struct RoomPlacer<'a> {
    room_graph: LayoutGraph<'a>,
    room_params: LayoutParams,
    keep: Option<(&'a [u32], &'a [u32])>,
    w: &'a [f32],
    h: &'a [f32],
    rooms: &'a RoomParams,
}

impl RoomPlacer<'_> {
    /// Relaxes with room-sized edge lengths; with corridors to keep apart, plain first and
    /// preserving only if the plain relaxation made them cross.
    fn relax(
        &self,
        x: &mut [f32],
        y: &mut [f32],
        scratch: &mut LayoutScratch,
        own: &mut PreserveScratch,
    ) -> LayoutReport {
        let (graph, params) = (&self.room_graph, &self.room_params);
        match self.keep {
            None => relax(graph, x, y, params, scratch),
            Some((ks, kd)) => {
                // PERF: the plain relaxation is several times cheaper than the preserving one
                // and keeps a planar drawing planar most of the time.
                let (plain, kept) = relax_plain_first(graph, ks, kd, x, y, params, scratch, own);
                kept.unwrap_or(plain)
            }
        }
    }

    /// Fills `pairs` with the crowded pairs. With corridors to keep apart, crowding left is
    /// rooms hemmed in by corridors: the drawing is given room (scaled up, which keeps it
    /// planar) and relaxed again, a few times, before pairs are pushed apart.
    fn regrow_while_crowded(
        &self,
        x: &mut [f32],
        y: &mut [f32],
        scratch: &mut LayoutScratch,
        own: &mut PreserveScratch,
        pairs: &mut Vec<(u32, u32)>,
    ) {
        let (w, h, margin) = (self.w, self.h, self.rooms.margin);
        crowded_pairs_into(x, y, w, h, margin, pairs);
        let Some((ks, kd)) = self.keep else {
            return;
        };
        for _ in 0..REGROW_ATTEMPTS {
            if pairs.is_empty() {
                break;
            }
            super::upscale(x, y, REGROW_FACTOR);
            relax_preserving(
                &self.room_graph,
                ks,
                kd,
                x,
                y,
                &self.room_params,
                scratch,
                own,
            );
            crowded_pairs_into(x, y, w, h, margin, pairs);
        }
    }

    /// Pushes the crowded `pairs` apart, with the fallback if the rounds do not clear them.
    /// With corridors to keep apart, pushes that made two corridors cross are redone from the
    /// drawing before them ([`Self::repush_preserving`]). Returns the rounds used and the
    /// fallback that ran.
    fn separate(
        &self,
        x: &mut [f32],
        y: &mut [f32],
        own: &mut PreserveScratch,
        pairs: &mut Vec<(u32, u32)>,
    ) -> (u32, Fallback) {
        let (w, h, rooms) = (self.w, self.h, self.rooms);
        // With corridors to keep apart, remember the drawing before the pushes: a push that
        // makes two corridors cross is undone in favour of the uniform scaling, which keeps
        // every crossing-free drawing crossing-free.
        let kept = self.keep.filter(|_| !pairs.is_empty()).map(|(ks, kd)| {
            own.pushed_from_x.clear();
            own.pushed_from_x.extend_from_slice(x);
            own.pushed_from_y.clear();
            own.pushed_from_y.extend_from_slice(y);
            crate::layout::quality::count_crossings(x, y, ks, kd)
        });
        let (rounds, clear) = push_apart(x, y, w, h, rooms, pairs);
        let fallback = if clear {
            Fallback::None
        } else {
            fallback_slow_path(x, y, w, h, rooms, pairs)
        };
        if let (Some(before), Some((ks, kd))) = (kept, self.keep)
            && crate::layout::quality::count_crossings(x, y, ks, kd) > before
        {
            x.copy_from_slice(&own.pushed_from_x);
            y.copy_from_slice(&own.pushed_from_y);
            return self.repush_preserving(x, y, ks, kd, own, pairs);
        }
        (rounds, fallback)
    }

    /// The plain pushes made corridors cross: pushes again from the drawing before them (in
    /// `x`, `y`), each round's moves limited so that no corridor comes to cross another
    /// (PrEd's bound), and only if that does not clear every pair, scales. Returns the rounds
    /// used and the fallback that ran.
    fn repush_preserving(
        &self,
        x: &mut [f32],
        y: &mut [f32],
        ks: &[u32],
        kd: &[u32],
        own: &mut PreserveScratch,
        pairs: &mut Vec<(u32, u32)>,
    ) -> (u32, Fallback) {
        let (w, h, rooms) = (self.w, self.h, self.rooms);
        crowded_pairs_into(x, y, w, h, rooms.margin, pairs);
        let eps = super::preserve::CLEARANCE * self.room_params.length;
        let (rounds, clear) = push_apart_preserving(
            x,
            y,
            ks,
            kd,
            eps,
            PRESERVING_PUSH_ROUNDS,
            pairs,
            |x, y, a, b| pair_separation(x, y, w, h, a, b, rooms.margin),
            |x, y, out| crowded_pairs_into(x, y, w, h, rooms.margin, out),
            own,
        );
        let fallback = if clear {
            Fallback::None
        } else {
            fallback_slow_path(x, y, w, h, rooms, pairs)
        };
        (rounds, fallback)
    }
}

/// Each edge's target length for rooms `w x h`: `r_a + r_b + margin` (`r`: half the room's
/// diagonal, so rooms whose centres are that far apart cannot overlap), or the graph's own
/// target `length * factor` where that is longer. An edge between two zero-size rooms with no
/// margin keeps the caller's `length` (a zero target would make the spring law infinite).
///
/// # Runtime
/// O(m), one allocation.
pub fn room_edge_targets(
    graph: &LayoutGraph<'_>,
    w: &[f32],
    h: &[f32],
    length: f32,
    margin: f32,
) -> Vec<f32> {
    let mut targets = Vec::new();
    room_edge_targets_into(graph, w, h, length, margin, &mut targets);
    targets
}

/// [`room_edge_targets`] into `targets` (replaced, its allocation kept).
pub fn room_edge_targets_into(
    graph: &LayoutGraph<'_>,
    w: &[f32],
    h: &[f32],
    length: f32,
    margin: f32,
    targets: &mut Vec<f32>,
) {
    let radius = |v: u32| 0.5 * w[v as usize].hypot(h[v as usize]);
    targets.clear();
    targets.extend(
        graph
            .src
            .iter()
            .zip(graph.dst)
            .map(|(&a, &b)| radius(a) + radius(b) + margin),
    );
    if let Some(own) = graph.length_factor {
        for (t, &f) in targets.iter_mut().zip(own) {
            *t = t.max(length * f);
        }
    }
    for t in targets.iter_mut() {
        if *t <= 0.0 {
            *t = length;
        }
    }
}

/// The mean of `values`, or `fallback` when there are none or the mean is not positive.
fn mean_or(values: &[f32], fallback: f32) -> f32 {
    let mean = values.iter().map(|&v| f64::from(v)).sum::<f64>() / values.len().max(1) as f64;
    if mean > 0.0 && mean.is_finite() {
        mean as f32
    } else {
        fallback
    }
}

/// Scales the layout about its centroid so the mean edge length reaches the mean target, when
/// it is below it (never shrinks).
fn upscale_to_targets(graph: &LayoutGraph<'_>, x: &mut [f32], y: &mut [f32], length: f32) {
    let (mut now, mut target) = (0.0f64, 0.0f64);
    for (e, (&a, &b)) in graph.src.iter().zip(graph.dst).enumerate() {
        let (a, b) = (a as usize, b as usize);
        now += f64::from((x[b] - x[a]).hypot(y[b] - y[a]));
        target += f64::from(length * graph.length_factor.map_or(1.0, |f| f[e]));
    }
    let factor = target / now;
    if factor.is_finite() && factor > 1.0 {
        super::upscale(x, y, factor as f32);
    }
}

/// Whether rooms `a` and `b` are crowded under `margin` (overlap for `margin == 0`); see the
/// module doc for the strict convention.
#[inline]
fn rooms_crowded(x: &[f32], y: &[f32], w: &[f32], h: &[f32], a: u32, b: u32, margin: f32) -> bool {
    let (a, b) = (a as usize, b as usize);
    // NOTE: a rectangle of zero width or height has an empty interior and overlaps nothing,
    // although the centre-distance test alone would report two crossing segments.
    let solid = w[a].min(w[b]).min(h[a]).min(h[b]) + margin > 0.0;
    solid
        && (x[b] - x[a]).abs() < (w[a] + w[b]) * 0.5 + margin
        && (y[b] - y[a]).abs() < (h[a] + h[b]) * 0.5 + margin
}

/// Room `i`'s rectangle grown by `grow` on every side, plus a rounding allowance.
fn room_box(x: &[f32], y: &[f32], w: &[f32], h: &[f32], i: usize, grow: f32) -> RoomBox {
    let (hx, hy) = (w[i] * 0.5 + grow, h[i] * 0.5 + grow);
    // NOTE: the envelope is a little larger than the room so that the R-tree's candidates are a
    // superset of what the exact (strict) test accepts, whatever the rounding of `x +- hx`.
    let ex = hx + 4.0 * f32::EPSILON * (x[i].abs() + hx);
    let ey = hy + 4.0 * f32::EPSILON * (y[i].abs() + hy);
    let rect = Rectangle::from_aabb(AABB::from_corners(
        [x[i] - ex, y[i] - ey],
        [x[i] + ex, y[i] + ey],
    ));
    GeomWithData::new(rect, i as u32)
}

/// An R-tree of every room grown by `grow`.
fn room_tree(x: &[f32], y: &[f32], w: &[f32], h: &[f32], grow: f32) -> RTree<RoomBox> {
    listed(RSTAR, || {
        RTree::bulk_load(
            (0..x.len())
                .map(|i| room_box(x, y, w, h, i, grow))
                .collect(),
        )
    })
}

/// Crowded pairs `(a, b)`, `a < b`, sorted, into `out` (cleared first): a self-join of the
/// rooms' R-tree, each candidate checked exactly.
fn crowded_pairs_into(
    x: &[f32],
    y: &[f32],
    w: &[f32],
    h: &[f32],
    margin: f32,
    out: &mut Vec<(u32, u32)>,
) {
    out.clear();
    let tree = room_tree(x, y, w, h, margin * 0.5);
    // The candidate iterator keeps its own stack (rstar): listed with the tree.
    listed(RSTAR, || {
        for (p, q) in tree.intersection_candidates_with_other_tree(&tree) {
            let (a, b) = (p.data.min(q.data), p.data.max(q.data));
            if a != b && rooms_crowded(x, y, w, h, a, b, margin) {
                out.push((a, b));
            }
        }
    });
    // NOTE: the self-join reports each pair once per order; sorting and deduplicating gives the
    // fixed order the push-apart's determinism relies on.
    out.sort_unstable();
    out.dedup();
}

/// Room pairs `(a, b)`, `a < b`, closer than `margin` on both axes, sorted (R-tree self-join).
///
/// # Runtime
/// O(n log n + k) for `k` candidate pairs; allocates the tree and the answer.
pub fn crowded_pairs(x: &[f32], y: &[f32], w: &[f32], h: &[f32], margin: f32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    crowded_pairs_into(x, y, w, h, margin, &mut out);
    out
}

/// [`crowded_pairs`] by checking every pair (the oracle).
///
/// # Runtime
/// O(n^2).
pub fn crowded_pairs_brute(
    x: &[f32],
    y: &[f32],
    w: &[f32],
    h: &[f32],
    margin: f32,
) -> Vec<(u32, u32)> {
    let n = x.len() as u32;
    let mut out = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            if rooms_crowded(x, y, w, h, a, b, margin) {
                out.push((a, b));
            }
        }
    }
    out
}

/// Overlapping room pairs `(a, b)`, `a < b`, sorted (R-tree self-join; touching rooms do not
/// overlap).
///
/// # Runtime
/// O(n log n + k) for `k` candidate pairs; allocates the tree and the answer.
pub fn overlapping_pairs(x: &[f32], y: &[f32], w: &[f32], h: &[f32]) -> Vec<(u32, u32)> {
    crowded_pairs(x, y, w, h, 0.0)
}

/// [`overlapping_pairs`] by checking every pair (the oracle).
///
/// # Runtime
/// O(n^2).
pub fn overlapping_pairs_brute(x: &[f32], y: &[f32], w: &[f32], h: &[f32]) -> Vec<(u32, u32)> {
    crowded_pairs_brute(x, y, w, h, 0.0)
}

/// Whether segment `p q` meets the open interior of the rectangle centred on `c` with half
/// extents `half` (Liang-Barsky clipping with strict bounds, in `f64`).
pub fn segment_passes_through(p: [f32; 2], q: [f32; 2], c: [f32; 2], half: [f32; 2]) -> bool {
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
    for k in 0..2 {
        let start = f64::from(p[k]) - f64::from(c[k]);
        let d = f64::from(q[k]) - f64::from(p[k]);
        let e = f64::from(half[k]);
        if d == 0.0 {
            if start.abs() >= e {
                return false;
            }
        } else {
            let (t1, t2) = ((-e - start) / d, (e - start) / d);
            lo = lo.max(t1.min(t2));
            hi = hi.min(t1.max(t2));
        }
    }
    lo < hi && lo < 1.0 && hi > 0.0
}

/// Whether edge `e`'s segment passes through room `k` (never its own end rooms).
#[allow(clippy::too_many_arguments)]
fn corridor_hits(x: &[f32], y: &[f32], w: &[f32], h: &[f32], a: u32, b: u32, k: u32) -> bool {
    let (a, b, k) = (a as usize, b as usize, k as usize);
    k != a
        && k != b
        && segment_passes_through(
            [x[a], y[a]],
            [x[b], y[b]],
            [x[k], y[k]],
            [w[k] * 0.5, h[k] * 0.5],
        )
}

/// `(edge, room)` pairs, sorted, where edge `src[e]`-`dst[e]`'s straight segment passes through
/// the interior of a room other than its two end rooms. Each edge queries an R-tree of the rooms
/// with its segment's bounding box.
///
/// # Runtime
/// O(n log n + m log n + k) for `k` candidates; allocates the tree and the answer.
pub fn corridors_through_rooms(
    x: &[f32],
    y: &[f32],
    w: &[f32],
    h: &[f32],
    src: &[u32],
    dst: &[u32],
) -> Vec<(u32, u32)> {
    let tree = room_tree(x, y, w, h, 0.0);
    let mut out = Vec::new();
    for (e, (&a, &b)) in src.iter().zip(dst).enumerate() {
        let (ia, ib) = (a as usize, b as usize);
        let span = AABB::from_corners([x[ia], y[ia]], [x[ib], y[ib]]);
        let start = out.len();
        for room in tree.locate_in_envelope_intersecting(span) {
            if corridor_hits(x, y, w, h, a, b, room.data) {
                out.push((e as u32, room.data));
            }
        }
        out[start..].sort_unstable();
    }
    out
}

/// [`corridors_through_rooms`] by checking every edge against every room (the oracle).
///
/// # Runtime
/// O(n m).
pub fn corridors_through_rooms_brute(
    x: &[f32],
    y: &[f32],
    w: &[f32],
    h: &[f32],
    src: &[u32],
    dst: &[u32],
) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    for (e, (&a, &b)) in src.iter().zip(dst).enumerate() {
        for k in 0..x.len() as u32 {
            if corridor_hits(x, y, w, h, a, b, k) {
                out.push((e as u32, k));
            }
        }
    }
    out
}

mod push;

#[cfg(test)]
mod tests;
