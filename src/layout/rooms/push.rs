//! The push-apart of crowded rooms and its fallbacks (see [`super`], step 3): rounds that
//! separate each crowded pair along its axis of least penetration, then, when the rounds run
//! out, scaling about the centroid and, as a last resort, an order-preserving grid spread.

use super::crowding::{crowded_pairs_into, overlapping_pairs, rooms_crowded};
use super::params::{Fallback, RoomParams};

/// Extra separation a push asks for beyond the exact need, relative to that need, so that the
/// pushed pair does not count as crowded again after rounding.
const PUSH_SLACK: f32 = 1.0 / 4096.0;

/// Relative slack on the fallback's scale factor, for the same reason.
const SCALE_SLACK: f64 = 1e-3;

/// The largest factor the fallback scales a layout by. Two centres a hair apart need an enormous
/// factor (their rooms' size over their distance): scaling by it would leave the drawing
/// thousands of room sizes wide, past what integer room coordinates can hold. Beyond this the
/// fallback scales by this much and pushes the pairs still crowded apart again.
const MAX_SCALE: f64 = 64.0;

/// Runs push rounds until nothing is crowded or `rooms.push_rounds` rounds have run; `pairs`
/// holds the crowded pairs on entry and on exit. Returns the rounds run and whether everything
/// is clear.
pub(super) fn push_apart(
    x: &mut [f32],
    y: &mut [f32],
    w: &[f32],
    h: &[f32],
    rooms: &RoomParams,
    pairs: &mut Vec<(u32, u32)>,
) -> (u32, bool) {
    let mut rounds = 0;
    while !pairs.is_empty() {
        if rounds == rooms.push_rounds {
            return (rounds, false);
        }
        // NOTE: pairs move in index order and each sees the moves made before it in the same
        // round (Gauss-Seidel), which converges faster than moving all at once and is still
        // deterministic.
        for &(a, b) in pairs.iter() {
            push_pair(x, y, w, h, a, b, rooms.margin);
        }
        rounds += 1;
        // PERF: the R-tree is bulk-loaded afresh each round: for level-sized graphs that is
        // cheaper than moving entries, and most levels need one round or none.
        crowded_pairs_into(x, y, w, h, rooms.margin, pairs);
    }
    (rounds, true)
}

/// Separates rooms `a` and `b`, if crowded, along the axis where they penetrate least (`x` on a
/// tie), each moving half the way ([`pair_separation`]).
#[allow(clippy::too_many_arguments)]
fn push_pair(x: &mut [f32], y: &mut [f32], w: &[f32], h: &[f32], a: u32, b: u32, margin: f32) {
    let (sx, sy) = pair_separation(x, y, w, h, a, b, margin);
    let (a, b) = (a as usize, b as usize);
    x[a] -= sx;
    x[b] += sx;
    y[a] -= sy;
    y[b] += sy;
}

/// The move `(dx, dy)` room `b` needs away from room `a` (and `a` the opposite way) to clear
/// their crowding: half the penetration on the axis where they penetrate least (`x` on a tie),
/// plus a little slack; zero when they are not crowded. Coincident centres split with `b` on
/// the positive side.
#[allow(clippy::too_many_arguments)]
pub(super) fn pair_separation(
    x: &[f32],
    y: &[f32],
    w: &[f32],
    h: &[f32],
    a: u32,
    b: u32,
    margin: f32,
) -> (f32, f32) {
    if !rooms_crowded(x, y, w, h, a, b, margin) {
        return (0.0, 0.0);
    }
    let (a, b) = (a as usize, b as usize);
    let (dx, dy) = (x[b] - x[a], y[b] - y[a]);
    let (need_x, need_y) = ((w[a] + w[b]) * 0.5 + margin, (h[a] + h[b]) * 0.5 + margin);
    let (pen_x, pen_y) = (need_x - dx.abs(), need_y - dy.abs());
    let along_x = pen_x <= pen_y;
    let (d, need, pen, at) = if along_x {
        (dx, need_x, pen_x, x[a].abs().max(x[b].abs()))
    } else {
        (dy, need_y, pen_y, y[a].abs().max(y[b].abs()))
    };
    let ulp = 4.0 * f32::EPSILON * at;
    let half = 0.5 * (pen + need * PUSH_SLACK + ulp);
    let half = if d >= 0.0 { half } else { -half };
    if along_x { (half, 0.0) } else { (0.0, half) }
}

/// The fallback when the push rounds ran out: separates coincident centres, scales about the
/// centroid, and spreads on a grid if that still leaves an overlap. `pairs` holds the crowded
/// pairs on entry.
#[inline(never)]
pub(super) fn fallback_slow_path(
    x: &mut [f32],
    y: &mut [f32],
    w: &[f32],
    h: &[f32],
    rooms: &RoomParams,
    pairs: &mut Vec<(u32, u32)>,
) -> Fallback {
    let margin = rooms.margin;
    let coincident = |x: &[f32], y: &[f32], (a, b): (u32, u32)| {
        x[a as usize] == x[b as usize] && y[a as usize] == y[b as usize]
    };
    for &pair in pairs.iter() {
        if coincident(x, y, pair) {
            push_pair(x, y, w, h, pair.0, pair.1, margin);
        }
    }
    crowded_pairs_into(x, y, w, h, margin, pairs);
    if !pairs.iter().any(|&pair| coincident(x, y, pair)) {
        let factor = pairs
            .iter()
            .map(|&(a, b)| pair_scale(x, y, w, h, a, b, margin))
            .fold(1.0f64, f64::max)
            * (1.0 + SCALE_SLACK);
        if factor.is_finite() {
            // Too large a factor: scale by the largest allowed, then push the few pairs still
            // crowded apart again; in the drawing now that much wider, a push moves a pair by
            // little next to its corridors.
            scale_about_centroid(x, y, factor.min(MAX_SCALE));
            if factor > MAX_SCALE {
                crowded_pairs_into(x, y, w, h, margin, pairs);
                push_apart(x, y, w, h, rooms, pairs);
            }
            if overlapping_pairs(x, y, w, h).is_empty() {
                return Fallback::Scaled;
            }
        }
    }
    grid_spread(x, y, w, h, margin);
    Fallback::Grid
}

/// The factor by which scaling about any point clears crowded pair `a`, `b` (the cheaper axis;
/// infinite for coincident centres).
#[allow(clippy::too_many_arguments)]
fn pair_scale(x: &[f32], y: &[f32], w: &[f32], h: &[f32], a: u32, b: u32, margin: f32) -> f64 {
    let (a, b) = (a as usize, b as usize);
    let axis = |d: f32, need: f32| {
        let d = f64::from(d).abs();
        if d > 0.0 {
            f64::from(need) / d
        } else {
            f64::INFINITY
        }
    };
    let sx = axis(x[b] - x[a], (w[a] + w[b]) * 0.5 + margin);
    let sy = axis(y[b] - y[a], (h[a] + h[b]) * 0.5 + margin);
    sx.min(sy)
}

/// Scales the centres about their centroid by `factor`, in `f64`. A factor of at least 1 never
/// brings two centres closer on either axis, so it creates no new overlap.
fn scale_about_centroid(x: &mut [f32], y: &mut [f32], factor: f64) {
    for pos in [x, y] {
        let centre = pos.iter().map(|&v| f64::from(v)).sum::<f64>() / pos.len().max(1) as f64;
        for v in pos.iter_mut() {
            *v = (centre + (f64::from(*v) - centre) * factor) as f32;
        }
    }
}

/// The last resort: vertex `i` goes to `x = (k + rank_x(i)) * cell_x` (and likewise in `y`),
/// where `rank_x` is its place in `x` order and `cell_x` the smallest power of two at least
/// `max(w) + margin`. Every two rooms then differ in `x` by at least `cell_x`, computed exactly
/// in `f32` (integers below 2^24 times a power of two), so none overlap. It keeps the layout's
/// left-right and top-bottom order and roughly its centroid.
#[inline(never)]
pub(super) fn grid_spread(x: &mut [f32], y: &mut [f32], w: &[f32], h: &[f32], margin: f32) {
    let mut order: Vec<u32> = (0..x.len() as u32).collect();
    for (pos, size) in [(x, w), (y, h)] {
        let widest = size.iter().fold(0.0f32, |m, &s| m.max(s));
        let cell = power_of_two_at_least(widest + margin);
        let n = pos.len() as f32;
        let centre = pos.iter().map(|&v| f64::from(v)).sum::<f64>() / f64::from(n.max(1.0));
        let first = (centre as f32 / cell).round() - (n * 0.5).floor();
        // NOTE: integer-valued `f32`s are exact below 2^24; far from the origin the grid starts
        // near it instead, which keeps every product below exact.
        let first = if first.abs() + n < (1u32 << 24) as f32 {
            first
        } else {
            -(n * 0.5).floor()
        };
        order
            .sort_unstable_by(|&a, &b| pos[a as usize].total_cmp(&pos[b as usize]).then(a.cmp(&b)));
        for (rank, &v) in order.iter().enumerate() {
            pos[v as usize] = (first + rank as f32) * cell;
        }
    }
}

/// The smallest power of two (at least `f32::MIN_POSITIVE`) that is `>= v`.
fn power_of_two_at_least(v: f32) -> f32 {
    let mut cell = 2.0f32
        .powi(v.max(f32::MIN_POSITIVE).log2().floor() as i32)
        .max(f32::MIN_POSITIVE);
    while cell < v {
        cell *= 2.0;
    }
    cell
}
