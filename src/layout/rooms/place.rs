//! Room placement: edge lengths sized to the rooms, the relaxation (planarity-keeping when
//! corridors are kept apart), regrowing, and the push-apart that ends every overlap.

use super::crowding::{
    corridors_through_rooms, crowded_pairs_into, overlapping_pairs, rooms_crowded,
};
use super::params::{Fallback, Placement, RoomParams};
use super::push::{fallback_slow_path, pair_separation, push_apart};
use crate::core::alloc::{RSTAR, listed};
use crate::layout::crossing_free::{
    CLEARANCE, push_apart_preserving, relax_plain_first, relax_preserving,
};
use crate::layout::scratch::PreserveScratch;
use crate::layout::{LayoutGraph, LayoutParams, LayoutReport, LayoutScratch, relax, upscale};

/// Times a drawing whose planarity-keeping relaxation left rooms overlapping is scaled up by
/// [`REGROW_FACTOR`] and relaxed again.
const REGROW_ATTEMPTS: u32 = 5;

/// See [`REGROW_ATTEMPTS`].
const REGROW_FACTOR: f32 = 1.25;

/// Rounds of the planarity-keeping push-apart before the fallback scales the drawing.
const PRESERVING_PUSH_ROUNDS: u32 = 48;

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
            upscale(x, y, REGROW_FACTOR);
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
        let eps = CLEARANCE * self.room_params.length;
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
        upscale(x, y, factor as f32);
    }
}
