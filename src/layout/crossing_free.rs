//! A relaxation that never creates a crossing between the edges it is told to keep apart
//! (seed 000: a corridor crossing another is a failed level; the grammar's rewrites start from a
//! drawing without crossings, so the drawing should stay that way).
//!
//! Each step computes the usual forces and moves ([`crate::layout::forces()`]), then limits every
//! vertex's move to less than half the distance between any two non-adjacent kept-apart edges it
//! is an end of: every point of a segment moves at most as far as its farthest-moving end, so two
//! segments whose ends all move less than half their distance cannot meet (the idea of
//! Bertault's PrEd, with one isotropic bound per vertex instead of per-direction zones). Pairs
//! that already cross or touch are left unconstrained: the relaxation cannot keep what is
//! already lost, and they may still come apart.

use wide::f32x4;

use crate::core::geom::point_segment2;
use crate::layout::quality::count_crossings;
pub use crate::layout::scratch::PreserveScratch;
use crate::layout::{
    LayoutGraph, LayoutParams, LayoutReport, LayoutScratch, forces, last_forces, relax,
};

/// Distance, in edge lengths, that kept-apart edges never come closer than.
pub const CLEARANCE: f32 = 1e-3;

/// Whether the segments cross properly (each one's ends strictly on both sides of the other).
#[inline]
fn cross_properly(p1: [f32; 2], p2: [f32; 2], q1: [f32; 2], q2: [f32; 2]) -> bool {
    let orient = |a: [f32; 2], b: [f32; 2], c: [f32; 2]| {
        (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    };
    let (d1, d2) = (orient(q1, q2, p1), orient(q1, q2, p2));
    let (d3, d4) = (orient(p1, p2, q1), orient(p1, p2, q2));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

/// Distance between segments `p1 p2` and `q1 q2`, 0 when they cross.
///
/// PERF: one square root, and a plain `f32` orientation test; segments that only touch come
/// out at distance 0 (or within rounding of it) through the endpoint distances. The four
/// endpoint-to-segment distances go through one `f32x4` in the same operations as
/// [`segment_distance_scalar`], so the two agree to the bit (tested).
pub fn segment_distance(p1: [f32; 2], p2: [f32; 2], q1: [f32; 2], q2: [f32; 2]) -> f32 {
    if cross_properly(p1, p2, q1, q2) {
        return 0.0;
    }
    // Lane i: point P[i] against segment A[i] B[i].
    let lanes = |f: fn([f32; 2]) -> f32| {
        (
            f32x4::new([f(p1), f(p2), f(q1), f(q2)]),
            f32x4::new([f(q1), f(q1), f(p1), f(p1)]),
            f32x4::new([f(q2), f(q2), f(p2), f(p2)]),
        )
    };
    let ((px, ax, bx), (py, ay, by)) = (lanes(|v| v[0]), lanes(|v| v[1]));
    let (abx, aby) = (bx - ax, by - ay);
    let (apx, apy) = (px - ax, py - ay);
    let len2 = abx * abx + aby * aby;
    let zero = f32x4::splat(0.0);
    let t = ((apx * abx + apy * aby) / len2)
        .max(zero)
        .min(f32x4::splat(1.0));
    let t = len2.simd_gt(zero).select(t, zero);
    let (cx, cy) = (apx - t * abx, apy - t * aby);
    let [d1, d2, d3, d4] = (cx * cx + cy * cy).to_array();
    d1.min(d2).min(d3).min(d4).sqrt()
}

/// [`segment_distance`] one endpoint at a time: the reference its lanes are tested against.
pub fn segment_distance_scalar(p1: [f32; 2], p2: [f32; 2], q1: [f32; 2], q2: [f32; 2]) -> f32 {
    if cross_properly(p1, p2, q1, q2) {
        return 0.0;
    }
    point_segment2(p1, q1, q2)
        .min(point_segment2(p2, q1, q2))
        .min(point_segment2(q1, p1, p2))
        .min(point_segment2(q2, p1, p2))
        .sqrt()
}

/// Runs the solver like [`crate::layout::relax`], except that no two edges of `keep_src[i]`-
/// `keep_dst[i]` that are apart at the start of a step (and share no vertex) meet at its end; they stay
/// [`CLEARANCE`] edge lengths apart, or as far apart as they were when closer.
///
/// # Runtime
/// Per iteration the forces plus a sweep over the `k` kept-apart edges' boxes grown by their
/// ends' moves: O(k) to re-sort them (nearly sorted from the step before), then the pairs whose
/// grown boxes overlap in x, O(k^2) at worst. Meant for level-sized graphs.
#[allow(clippy::too_many_arguments)]
pub fn relax_preserving(
    graph: &LayoutGraph<'_>,
    keep_src: &[u32],
    keep_dst: &[u32],
    x: &mut [f32],
    y: &mut [f32],
    params: &LayoutParams,
    scratch: &mut LayoutScratch,
    own: &mut PreserveScratch,
) -> LayoutReport {
    let n = x.len();
    let cap = params.max_delta * params.length;
    let eps = CLEARANCE * params.length;
    let mut report = LayoutReport::default();
    for _ in 0..params.max_iterations {
        forces(graph, x, y, params, scratch);
        let (fx, fy) = last_forces(scratch);
        own.dx.clear();
        own.dy.clear();
        own.limit.clear();
        for v in 0..n {
            let len = (fx[v] * fx[v] + fy[v] * fy[v]).sqrt();
            let s = if len > cap { cap / len } else { 1.0 };
            own.dx.push(fx[v] * s);
            own.dy.push(fy[v] * s);
            own.limit.push(f32::INFINITY);
        }
        let largest = move_limited(x, y, keep_src, keep_dst, eps, own);
        report.iterations += 1;
        report.last_move = largest / params.length;
        if largest < params.tolerance * params.length {
            report.converged = true;
            break;
        }
    }
    report
}

/// A relaxation that keeps a drawing's crossings from growing, at the cost of a plain one most
/// of the time: [`crate::layout::relax`] first, and only if that leaves more crossings between
/// the edges `keep_src[i]`-`keep_dst[i]` than there were, the drawing put back and relaxed
/// again by [`relax_preserving`]. Returns the plain relaxation's report, and the preserving
/// one's when it ran.
///
/// # Runtime
/// One plain relaxation and two crossing counts; when the plain one made edges cross, one
/// preserving relaxation more. No allocation once `own` has grown to the drawing.
#[allow(clippy::too_many_arguments)]
pub fn relax_plain_first(
    graph: &LayoutGraph<'_>,
    keep_src: &[u32],
    keep_dst: &[u32],
    x: &mut [f32],
    y: &mut [f32],
    params: &LayoutParams,
    scratch: &mut LayoutScratch,
    own: &mut PreserveScratch,
) -> (LayoutReport, Option<LayoutReport>) {
    let before = count_crossings(x, y, keep_src, keep_dst);
    own.saved_x.clear();
    own.saved_x.extend_from_slice(x);
    own.saved_y.clear();
    own.saved_y.extend_from_slice(y);
    let plain = relax(graph, x, y, params, scratch);
    if count_crossings(x, y, keep_src, keep_dst) <= before {
        return (plain, None);
    }
    x.copy_from_slice(&own.saved_x);
    y.copy_from_slice(&own.saved_y);
    let kept = relax_preserving(graph, keep_src, keep_dst, x, y, params, scratch, own);
    (plain, Some(kept))
}

/// Moves every vertex by `own.dx`, `own.dy`, each move shortened to its limit
/// ([`limit_moves`]); returns the longest move made.
fn move_limited(
    x: &mut [f32],
    y: &mut [f32],
    keep_src: &[u32],
    keep_dst: &[u32],
    eps: f32,
    own: &mut PreserveScratch,
) -> f32 {
    limit_moves(x, y, keep_src, keep_dst, eps, own);
    let mut largest = 0.0f32;
    for v in 0..x.len() {
        let len = (own.dx[v] * own.dx[v] + own.dy[v] * own.dy[v]).sqrt();
        let s = if len > own.limit[v] {
            own.limit[v] / len
        } else {
            1.0
        };
        x[v] += own.dx[v] * s;
        y[v] += own.dy[v] * s;
        largest = largest.max(len * s);
    }
    largest
}

/// Sets `own.limit[v]` for the moves `own.dx`, `own.dy` (whose `limit` entries must start at
/// infinity): less than half the distance between any two non-adjacent edges of `keep_src[i]`-
/// `keep_dst[i]` that `v` is an end of, keeping `eps` apart.
fn limit_moves(
    x: &[f32],
    y: &[f32],
    keep_src: &[u32],
    keep_dst: &[u32],
    eps: f32,
    own: &mut PreserveScratch,
) {
    let moved = |v: u32| {
        let v = v as usize;
        (own.dx[v] * own.dx[v] + own.dy[v] * own.dy[v]).sqrt()
    };
    // Each edge's box, grown by the largest move of its ends.
    own.boxes.clear();
    for (&a, &b) in keep_src.iter().zip(keep_dst) {
        let m = moved(a).max(moved(b));
        let (a, b) = (a as usize, b as usize);
        own.boxes.push([
            x[a].min(x[b]) - m,
            y[a].min(y[b]) - m,
            x[a].max(x[b]) + m,
            y[a].max(y[b]) + m,
        ]);
    }
    // PERF: sweep and prune. Edges sorted by their boxes' left sides meet an edge's box only
    // while their left side is not past its right side, so the pair loop stops there instead
    // of testing every pair's boxes (the same pairs are measured as by an all-pairs box test;
    // `min` is order-free, so the limits are the same to the bit). The order is kept from the
    // last call: vertices move little per step, so the insertion sort is nearly linear.
    let k = keep_src.len();
    if own.order.len() != k {
        own.order.clear();
        own.order.extend(0..k as u32);
    }
    insertion_sort_by_left(&mut own.order, &own.boxes);
    // PERF: the boxes and ends copied out in sweep order, so that the pair loop reads
    // consecutive memory and tests the boxes (the strongest filter) before the ends.
    own.sorted.clear();
    own.sorted.extend(own.order.iter().map(|&i| {
        let i = i as usize;
        (own.boxes[i], [keep_src[i], keep_dst[i]])
    }));
    for (p, &(bi, [a, b])) in own.sorted.iter().enumerate() {
        for &(bj, [c, d]) in &own.sorted[p + 1..] {
            if bj[0] > bi[2] {
                break;
            }
            // PERF: grown boxes that do not meet cannot come together in this step.
            if bi[3] < bj[1] || bj[3] < bi[1] {
                continue;
            }
            if a == c || a == d || b == c || b == d {
                continue;
            }
            let p = |v: u32| [x[v as usize], y[v as usize]];
            let dist = segment_distance(p(a), p(b), p(c), p(d));
            if dist <= 0.0 {
                continue;
            }
            // NOTE: a clearance `eps` is kept: without it the distance shrinks geometrically
            // until rounding makes the segments touch, and touching pairs go unconstrained.
            let half = 0.45 * (dist - eps).max(0.0);
            for v in [a, b, c, d] {
                let l = &mut own.limit[v as usize];
                *l = l.min(half);
            }
        }
    }
}

/// Sorts `order` (indices into `boxes`) by the boxes' left sides, ties by index, so that the
/// order is a function of the boxes alone. Insertion sort: linear on the nearly sorted orders
/// consecutive solver steps leave.
fn insertion_sort_by_left(order: &mut [u32], boxes: &[[f32; 4]]) {
    let key = |i: u32| (boxes[i as usize][0], i);
    for p in 1..order.len() {
        let item = order[p];
        let (kx, ki) = key(item);
        let mut q = p;
        while q > 0 {
            let (px, pi) = key(order[q - 1]);
            if px < kx || (px == kx && pi < ki) {
                break;
            }
            order[q] = order[q - 1];
            q -= 1;
        }
        order[q] = item;
    }
}

/// Pushes the crowded room pairs apart like [`crate::layout::rooms`]' push-apart (each pair
/// separated along its axis of least penetration, half each), but with every round's moves
/// limited as in [`relax_preserving`], so that no two edges of `keep` that are apart come to
/// cross. `crowded` finds the pairs still too close (it is called after every round, and its
/// answer is left in `pairs`); `separation(a, b)` is the move `b` needs away from `a` (`a` moves
/// the opposite way). Runs at most `rounds` rounds; returns the rounds run and whether no pair
/// is left crowded.
///
/// # Runtime
/// Per round O(p) for `p` pairs, the move limits O(k^2) for `k` kept-apart edges (after a box
/// test), and one `crowded` call.
#[allow(clippy::too_many_arguments)]
pub fn push_apart_preserving(
    x: &mut [f32],
    y: &mut [f32],
    keep_src: &[u32],
    keep_dst: &[u32],
    eps: f32,
    rounds: u32,
    pairs: &mut Vec<(u32, u32)>,
    separation: impl Fn(&[f32], &[f32], u32, u32) -> (f32, f32),
    mut crowded: impl FnMut(&[f32], &[f32], &mut Vec<(u32, u32)>),
    own: &mut PreserveScratch,
) -> (u32, bool) {
    let n = x.len();
    let mut done = 0;
    while !pairs.is_empty() {
        if done == rounds {
            return (done, false);
        }
        own.dx.clear();
        own.dx.resize(n, 0.0);
        own.dy.clear();
        own.dy.resize(n, 0.0);
        own.limit.clear();
        own.limit.resize(n, f32::INFINITY);
        for &(a, b) in pairs.iter() {
            let (sx, sy) = separation(x, y, a, b);
            own.dx[a as usize] -= sx;
            own.dy[a as usize] -= sy;
            own.dx[b as usize] += sx;
            own.dy[b as usize] += sy;
        }
        move_limited(x, y, keep_src, keep_dst, eps, own);
        done += 1;
        crowded(x, y, pairs);
    }
    (done, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::WarrenRng;
    use crate::layout::quality::count_crossings;
    use crate::layout::relax;

    #[test]
    fn segment_distance_is_zero_when_crossing_and_exact_otherwise() {
        assert_eq!(
            segment_distance([0.0, 0.0], [2.0, 2.0], [0.0, 2.0], [2.0, 0.0]),
            0.0
        );
        let d = segment_distance([0.0, 0.0], [2.0, 0.0], [1.0, 1.0], [1.0, 3.0]);
        assert!((d - 1.0).abs() < 1e-6, "{d}");
        let d = segment_distance([0.0, 0.0], [1.0, 0.0], [4.0, 4.0], [5.0, 4.0]);
        assert!((d - 5.0).abs() < 1e-5, "{d}");
    }

    /// The lanes of [`segment_distance`] give the scalar reference's distance to the bit, on
    /// random segments at every scale, degenerate (point) segments, shared and touching ends.
    #[test]
    fn segment_distance_lanes_equal_the_scalar_reference() {
        let mut rng = WarrenRng::new(9);
        let mut point = |scale: f32| [rng.unit_f32() * scale, rng.unit_f32() * scale];
        for i in 0..20_000 {
            let scale = [1e-3, 1.0, 50.0, 1e4][i % 4];
            let (p1, mut p2, q1, mut q2) = (point(scale), point(scale), point(scale), point(scale));
            match i % 7 {
                0 => p2 = p1,
                1 => q2 = q1,
                2 => q2 = p2,
                _ => {}
            }
            let (fast, slow) = (
                segment_distance(p1, p2, q1, q2),
                segment_distance_scalar(p1, p2, q1, q2),
            );
            assert_eq!(
                fast.to_bits(),
                slow.to_bits(),
                "{p1:?} {p2:?} {q1:?} {q2:?}"
            );
        }
    }

    /// The sweep in [`limit_moves`] measures exactly the pairs an all-pairs box test does: the
    /// limits equal, to the bit, those of the plain double loop, over random segments and moves
    /// (and over several calls, so that the order kept between calls is exercised).
    #[test]
    fn sweep_limits_equal_all_pairs_limits() {
        let mut rng = WarrenRng::new(5);
        for _ in 0..300 {
            let n = 4 + rng.below(30) as usize;
            let k = 2 + rng.below(40) as usize;
            let keep_src: Vec<u32> = (0..k).map(|_| rng.below(n as u32)).collect();
            let keep_dst: Vec<u32> = (0..k).map(|_| rng.below(n as u32)).collect();
            let mut own = PreserveScratch::default();
            let (mut x, mut y): (Vec<f32>, Vec<f32>) = (
                (0..n).map(|_| rng.unit_f32() * 20.0).collect(),
                (0..n).map(|_| rng.unit_f32() * 20.0).collect(),
            );
            for _ in 0..4 {
                let m = rng.unit_f32() * 4.0;
                own.dx = (0..n).map(|_| (rng.unit_f32() - 0.5) * m).collect();
                own.dy = (0..n).map(|_| (rng.unit_f32() - 0.5) * m).collect();
                own.limit = vec![f32::INFINITY; n];
                limit_moves(&x, &y, &keep_src, &keep_dst, 1e-3, &mut own);
                let expected = all_pairs_limits(&x, &y, &keep_src, &keep_dst, &own.dx, &own.dy);
                for (v, (got, want)) in own.limit.iter().zip(&expected).enumerate() {
                    assert_eq!(got.to_bits(), want.to_bits(), "vertex {v}");
                }
                for v in 0..n {
                    x[v] += own.dx[v];
                    y[v] += own.dy[v];
                }
            }
        }
    }

    /// The oracle: every pair of edges, skipped only when their boxes grown by their ends'
    /// moves do not meet.
    fn all_pairs_limits(
        x: &[f32],
        y: &[f32],
        src: &[u32],
        dst: &[u32],
        dx: &[f32],
        dy: &[f32],
    ) -> Vec<f32> {
        let mut limit = vec![f32::INFINITY; x.len()];
        let moved =
            |v: u32| (dx[v as usize] * dx[v as usize] + dy[v as usize] * dy[v as usize]).sqrt();
        let grown = |i: usize| {
            let (a, b) = (src[i] as usize, dst[i] as usize);
            let m = moved(src[i]).max(moved(dst[i]));
            [
                x[a].min(x[b]) - m,
                y[a].min(y[b]) - m,
                x[a].max(x[b]) + m,
                y[a].max(y[b]) + m,
            ]
        };
        for i in 0..src.len() {
            for j in i + 1..src.len() {
                let (a, b, c, d) = (src[i], dst[i], src[j], dst[j]);
                if a == c || a == d || b == c || b == d {
                    continue;
                }
                let (bi, bj) = (grown(i), grown(j));
                if bi[2] < bj[0] || bj[2] < bi[0] || bi[3] < bj[1] || bj[3] < bi[1] {
                    continue;
                }
                let p = |v: u32| [x[v as usize], y[v as usize]];
                let dist = segment_distance(p(a), p(b), p(c), p(d));
                if dist <= 0.0 {
                    continue;
                }
                let half = 0.45 * (dist - 1e-3f32).max(0.0);
                for v in [a, b, c, d] {
                    limit[v as usize] = limit[v as usize].min(half);
                }
            }
        }
        limit
    }

    /// Random drawings without crossings (spanning trees of random points plus extra edges)
    /// stay without crossings, however violent the forces
    /// (large steps, strong repulsion); the plain relaxation, given the same, does create some.
    #[test]
    fn no_crossing_appears() {
        let mut rng = WarrenRng::new(3);
        let mut plain_created = 0;
        let mut checked = 0;
        for _ in 0..300 {
            let n = 6 + rng.below(14) as usize;
            let x0: Vec<f32> = (0..n).map(|_| rng.unit_f32() * 4.0).collect();
            let y0: Vec<f32> = (0..n).map(|_| rng.unit_f32() * 4.0).collect();
            // The Euclidean minimum spanning tree (Prim) is drawn without crossings; then a few
            // random extra edges that keep it so.
            let d2 = |a: usize, b: usize| (x0[a] - x0[b]).powi(2) + (y0[a] - y0[b]).powi(2);
            let (mut src, mut dst) = (Vec::new(), Vec::new());
            let mut inside = vec![false; n];
            inside[0] = true;
            for _ in 1..n {
                let (a, b) = (0..n)
                    .filter(|&a| inside[a])
                    .flat_map(|a| (0..n).filter(|&b| !inside[b]).map(move |b| (a, b)))
                    .min_by(|&(a, b), &(c, d)| d2(a, b).total_cmp(&d2(c, d)))
                    .expect("a vertex outside");
                inside[b] = true;
                src.push(a as u32);
                dst.push(b as u32);
            }
            for _ in 0..6 {
                let (a, b) = (rng.below(n as u32), rng.below(n as u32));
                if a == b {
                    continue;
                }
                src.push(a);
                dst.push(b);
                if count_crossings(&x0, &y0, &src, &dst) > 0 {
                    src.pop();
                    dst.pop();
                }
            }
            assert_eq!(count_crossings(&x0, &y0, &src, &dst), 0);
            checked += 1;
            let graph = LayoutGraph {
                src: &src,
                dst: &dst,
                length_factor: None,
            };
            let params = LayoutParams {
                max_delta: 1.5,
                repulse_k: 0.6,
                max_iterations: 60,
                parallel: false,
                ..LayoutParams::default()
            };
            let (mut x, mut y) = (x0.clone(), y0.clone());
            let mut ls = LayoutScratch::default();
            let mut own = PreserveScratch::default();
            relax_preserving(
                &graph, &src, &dst, &mut x, &mut y, &params, &mut ls, &mut own,
            );
            assert_eq!(count_crossings(&x, &y, &src, &dst), 0);
            let (mut px, mut py) = (x0.clone(), y0.clone());
            relax(&graph, &mut px, &mut py, &params, &mut ls);
            if count_crossings(&px, &py, &src, &dst) > 0 {
                plain_created += 1;
            }
        }
        assert!(checked > 50, "{checked}");
        assert!(plain_created > 0, "the test should be able to fail");
    }

    /// The planarity-keeping push-apart never makes kept-apart edges cross, and separates
    /// crowded pairs where the edges leave it room: points one unit apart pushed to two units,
    /// on crossing-free trees.
    #[test]
    fn push_apart_preserving_never_makes_edges_cross() {
        let mut rng = WarrenRng::new(11);
        let (mut cleared, mut runs) = (0, 0);
        for _ in 0..200 {
            let n = 5 + rng.below(12) as usize;
            let mut x: Vec<f32> = (0..n).map(|_| rng.unit_f32() * 6.0).collect();
            let mut y: Vec<f32> = (0..n).map(|_| rng.unit_f32() * 6.0).collect();
            // A path in x order is drawn without crossings.
            let mut order: Vec<u32> = (0..n as u32).collect();
            order.sort_by(|&a, &b| x[a as usize].total_cmp(&x[b as usize]));
            let src: Vec<u32> = order[..n - 1].to_vec();
            let dst: Vec<u32> = order[1..].to_vec();
            if count_crossings(&x, &y, &src, &dst) > 0 {
                continue;
            }
            let crowded = |x: &[f32], y: &[f32], out: &mut Vec<(u32, u32)>| {
                out.clear();
                for a in 0..x.len() {
                    for b in a + 1..x.len() {
                        if (x[a] - x[b]).hypot(y[a] - y[b]) < 2.0 {
                            out.push((a as u32, b as u32));
                        }
                    }
                }
            };
            let separation = |x: &[f32], y: &[f32], a: u32, b: u32| {
                let (a, b) = (a as usize, b as usize);
                let (dx, dy) = (x[b] - x[a], y[b] - y[a]);
                let d = dx.hypot(dy).max(1e-3);
                let need = 0.5 * (2.0 - d).max(0.0) + 1e-3;
                (dx / d * need, dy / d * need)
            };
            let mut pairs = Vec::new();
            crowded(&x, &y, &mut pairs);
            let (_, clear) = push_apart_preserving(
                &mut x,
                &mut y,
                &src,
                &dst,
                1e-3,
                200,
                &mut pairs,
                separation,
                crowded,
                &mut PreserveScratch::default(),
            );
            assert_eq!(count_crossings(&x, &y, &src, &dst), 0);
            runs += 1;
            cleared += usize::from(clear);
        }
        assert!(runs > 150, "{runs} drawings");
        assert!(cleared * 2 > runs, "{cleared} of {runs} cleared");
    }
}
