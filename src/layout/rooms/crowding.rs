//! Which rooms are crowded or overlap, and which corridors pass through rooms: a bulk-loaded
//! R-tree of the (grown) rooms, each query checked against an all-pairs twin in the tests.

use rstar::primitives::{GeomWithData, Rectangle};
use rstar::{AABB, RTree};

use crate::core::alloc::{RSTAR, listed};

/// An R-tree entry: a room's (possibly grown) rectangle and its vertex id.
type RoomBox = GeomWithData<Rectangle<[f32; 2]>, u32>;

/// Whether rooms `a` and `b` are crowded under `margin` (overlap for `margin == 0`); see the
/// module doc for the strict convention.
#[inline]
pub(super) fn rooms_crowded(
    x: &[f32],
    y: &[f32],
    w: &[f32],
    h: &[f32],
    a: u32,
    b: u32,
    margin: f32,
) -> bool {
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
pub(super) fn crowded_pairs_into(
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
