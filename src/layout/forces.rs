//! The force terms of seed 000's drawing: springs along edges and the exact all-pairs repulsion,
//! as a scalar reference and on `wide::f32x8` lanes.
//!
//! Repulsion between two vertices `d` apart has magnitude `repulse_k * L * (L / d)^2`, pushing
//! them apart; pairs further apart than `cutoff * L` do not interact when a cutoff is set. Every
//! pair is visited once and its force applied to both ends (Newton's third law), which halves the
//! work of the textbook double loop.

use rayon::prelude::*;
use wide::f32x8;

use crate::layout::{LayoutGraph, LayoutParams, Spring};

/// Squared distance below which two vertices count as this close (no division by zero; two
/// vertices on the same spot push each other nowhere).
pub const MIN_D2: f32 = 1e-12;

/// The spring law's value at `ratio = d / L` (positive pulls the ends together).
#[inline]
pub fn spring_law(spring: Spring, ratio: f32) -> f32 {
    match spring {
        Spring::Log => ratio.max(1e-6).ln(),
        Spring::Sigmoid => (2.0 * (ratio - 1.0)).tanh(),
        Spring::Linear => ratio - 1.0,
    }
}

/// The spring law on eight ratios at once (`wide`'s polynomial `ln` and `tanh`: the same
/// numbers on every machine, within 1e-6 of the scalar law).
#[inline]
fn spring_law8(spring: Spring, ratio: f32x8) -> f32x8 {
    match spring {
        Spring::Log => ratio.max(f32x8::splat(1e-6)).ln(),
        Spring::Sigmoid => (f32x8::splat(2.0) * (ratio - f32x8::splat(1.0))).tanh(),
        Spring::Linear => ratio - f32x8::splat(1.0),
    }
}

/// Adds the spring forces of every edge to `fx`, `fy`.
///
/// PERF: edges go eight at a time through the law (a logarithm per edge is most of a scalar
/// spring's cost), the last group padded; endpoints are gathered and the forces scattered by
/// scalar loads and stores.
///
/// # Runtime
/// O(m).
pub fn springs(
    graph: &LayoutGraph<'_>,
    x: &[f32],
    y: &[f32],
    fx: &mut [f32],
    fy: &mut [f32],
    params: &LayoutParams,
) {
    let (k, base) = (params.spring_k * params.length, params.length);
    let m = graph.src.len();
    let (kv, min2) = (f32x8::splat(k), f32x8::splat(MIN_D2));
    for e0 in (0..m).step_by(8) {
        // The last group may be partial: its unused lanes get a unit edge and are not applied.
        let lanes = (m - e0).min(8);
        let (mut dx, mut dy, mut target) = ([1.0f32; 8], [0.0f32; 8], [base; 8]);
        for l in 0..lanes {
            let (a, b) = (graph.src[e0 + l] as usize, graph.dst[e0 + l] as usize);
            dx[l] = x[b] - x[a];
            dy[l] = y[b] - y[a];
            if let Some(f) = graph.length_factor {
                target[l] = base * f[e0 + l];
            }
        }
        let (dxv, dyv) = (f32x8::new(dx), f32x8::new(dy));
        let d = (dxv * dxv + dyv * dyv).max(min2).sqrt();
        let f = kv * spring_law8(params.spring, d / f32x8::new(target)) / d;
        let (px, py) = ((f * dxv).to_array(), (f * dyv).to_array());
        for l in 0..lanes {
            let (a, b) = (graph.src[e0 + l] as usize, graph.dst[e0 + l] as usize);
            fx[a] += px[l];
            fy[a] += py[l];
            fx[b] -= px[l];
            fy[b] -= py[l];
        }
    }
}

/// `k L^3` and the squared cutoff radius (infinite without a cutoff).
#[inline]
fn repulsion_constants(params: &LayoutParams) -> (f32, f32) {
    let l = params.length;
    let cut = params.cutoff.map_or(f32::INFINITY, |c| (c * l) * (c * l));
    (params.repulse_k * l * l * l, cut)
}

/// Exact all-pairs repulsion, scalar: the reference for the other kernels.
///
/// # Runtime
/// O(n^2 / 2) pair visits.
pub fn repulsion_scalar(x: &[f32], y: &[f32], fx: &mut [f32], fy: &mut [f32], p: &LayoutParams) {
    let (k, cut2) = repulsion_constants(p);
    let n = x.len();
    for i in 0..n {
        let (xi, yi) = (x[i], y[i]);
        let (mut ax, mut ay) = (0.0f32, 0.0f32);
        for j in i + 1..n {
            let (dx, dy) = (xi - x[j], yi - y[j]);
            let d2 = (dx * dx + dy * dy).max(MIN_D2);
            if d2 > cut2 {
                continue;
            }
            let s = k / (d2 * d2.sqrt());
            ax += dx * s;
            ay += dy * s;
            fx[j] -= dx * s;
            fy[j] -= dy * s;
        }
        fx[i] += ax;
        fy[i] += ay;
    }
}

/// Exact all-pairs repulsion on `wide::f32x8`: the same sums as [`repulsion_scalar`] up to
/// float rounding (lanes add in a different order).
///
/// With `parallel`, each vertex's force is instead summed over all other vertices by one rayon
/// task (twice the pair visits, no shared writes; the result does not depend on the threads).
///
/// # Runtime
/// O(n^2 / 2) pair visits, eight per instruction.
pub fn repulsion_simd(
    x: &[f32],
    y: &[f32],
    fx: &mut [f32],
    fy: &mut [f32],
    p: &LayoutParams,
    parallel: bool,
) {
    let (k, cut2) = repulsion_constants(p);
    if parallel {
        fx.par_iter_mut()
            .zip(fy.par_iter_mut())
            .enumerate()
            .for_each(|(i, (fxi, fyi))| {
                let (ax, ay) = push_from_all(x, y, i, k, cut2);
                *fxi += ax;
                *fyi += ay;
            });
        return;
    }
    if cut2.is_finite() {
        pairs_once::<true>(x, y, fx, fy, k, cut2);
    } else {
        pairs_once::<false>(x, y, fx, fy, k, cut2);
    }
}

/// Where padding lanes sit: far enough that their push underflows to zero, near enough that no
/// arithmetic overflows to infinity times zero.
const FAR: f32 = 1e18;

/// One chunk of eight partners `j..j + 8` for vertex `(xi, yi)`: adds the pushes to `acc` and
/// subtracts them from the partners' forces `fxj`, `fyj`. `live` masks lanes (partners at or
/// before `i`, padding); `CUT` applies the cutoff.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn chunk<const CUT: bool>(
    xi: f32x8,
    yi: f32x8,
    xj: f32x8,
    yj: f32x8,
    live: Option<f32x8>,
    kv: f32x8,
    cutv: f32x8,
    acc: &mut (f32x8, f32x8),
) -> (f32x8, f32x8) {
    let (dx, dy) = (xi - xj, yi - yj);
    let d2 = (dx * dx + dy * dy).max(f32x8::splat(MIN_D2));
    let mut s = kv / (d2 * d2.sqrt());
    if CUT {
        s = d2.simd_le(cutv).select(s, f32x8::splat(0.0));
    }
    if let Some(live) = live {
        s = live.select(s, f32x8::splat(0.0));
    }
    let (px, py) = (dx * s, dy * s);
    acc.0 += px;
    acc.1 += py;
    (px, py)
}

/// Every pair once (Newton's third law), eight partners per step. PERF: only the chunk that
/// holds `i` itself needs a lane mask; the last, partial chunk is padded with far-away partners
/// instead of a scalar loop; without a cutoff no distance test runs at all.
fn pairs_once<const CUT: bool>(
    x: &[f32],
    y: &[f32],
    fx: &mut [f32],
    fy: &mut [f32],
    k: f32,
    cut2: f32,
) {
    let n = x.len();
    let whole = n / 8 * 8;
    let (kv, cutv) = (f32x8::splat(k), f32x8::splat(cut2));
    let lane = f32x8::new([0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]);
    let load = |v: &[f32], j: usize| f32x8::new(v[j..j + 8].try_into().expect("8 lanes"));
    // The partial last chunk, padded.
    let rest = n - whole;
    let (mut tx, mut ty) = ([FAR; 8], [FAR; 8]);
    tx[..rest].copy_from_slice(&x[whole..]);
    ty[..rest].copy_from_slice(&y[whole..]);
    let (tail_x, tail_y) = (f32x8::new(tx), f32x8::new(ty));
    let (mut tail_fx, mut tail_fy) = (f32x8::splat(0.0), f32x8::splat(0.0));
    let zero = f32x8::splat(0.0);
    for i0 in (0..n).step_by(8) {
        // PERF: each vertex's own push is left in its lanes and the eight vertices of a block
        // are summed across lanes together at the end (`sum_lanes8`): the per-vertex
        // horizontal sums were a quarter of a small layout's time.
        let (mut own_x, mut own_y) = ([zero; 8], [zero; 8]);
        for ii in 0..(n - i0).min(8) {
            let i = i0 + ii;
            let (xi, yi) = (f32x8::splat(x[i]), f32x8::splat(y[i]));
            let mut acc = (zero, zero);
            let mut j = (i + 1) / 8 * 8;
            let mut live = Some((lane + f32x8::splat(j as f32)).simd_gt(f32x8::splat(i as f32)));
            while j < whole {
                let (px, py) =
                    chunk::<CUT>(xi, yi, load(x, j), load(y, j), live, kv, cutv, &mut acc);
                let (fxj, fyj) = (load(fx, j) - px, load(fy, j) - py);
                fx[j..j + 8].copy_from_slice(&fxj.to_array());
                fy[j..j + 8].copy_from_slice(&fyj.to_array());
                live = None;
                j += 8;
            }
            if rest > 0 {
                let (px, py) = chunk::<CUT>(xi, yi, tail_x, tail_y, live, kv, cutv, &mut acc);
                tail_fx -= px;
                tail_fy -= py;
            }
            own_x[ii] = acc.0;
            own_y[ii] = acc.1;
        }
        let (sx, sy) = (sum_lanes8(&own_x).to_array(), sum_lanes8(&own_y).to_array());
        let lanes = (n - i0).min(8);
        for l in 0..lanes {
            fx[i0 + l] += sx[l];
            fy[i0 + l] += sy[l];
        }
    }
    let (tfx, tfy) = (tail_fx.to_array(), tail_fy.to_array());
    for l in 0..rest {
        fx[whole + l] += tfx[l];
        fy[whole + l] += tfy[l];
    }
}

/// `[v[0].reduce_add(), ..., v[7].reduce_add()]`: eight horizontal sums in nine instructions
/// (three rounds of pairwise adds and one exchange of halves) instead of eight separate ones.
#[inline(always)]
fn sum_lanes8(v: &[f32x8; 8]) -> f32x8 {
    #[cfg(target_feature = "avx")]
    {
        use std::arch::x86_64::{__m256, _mm256_hadd_ps, _mm256_permute2f128_ps};
        use wide::bytemuck::cast;
        let m: [__m256; 8] = v.map(cast);
        // SAFETY: AVX is enabled at compile time; these are register-only operations.
        unsafe {
            let t0 = _mm256_hadd_ps(m[0], m[1]);
            let t1 = _mm256_hadd_ps(m[2], m[3]);
            let t2 = _mm256_hadd_ps(m[4], m[5]);
            let t3 = _mm256_hadd_ps(m[6], m[7]);
            // Each 128-bit half now holds, per vertex 0..3 (u0) and 4..7 (u1), the sum of that
            // half of its lanes.
            let u0 = _mm256_hadd_ps(t0, t1);
            let u1 = _mm256_hadd_ps(t2, t3);
            let lo = _mm256_permute2f128_ps::<0x20>(u0, u1);
            let hi = _mm256_permute2f128_ps::<0x31>(u0, u1);
            cast(std::arch::x86_64::_mm256_add_ps(lo, hi))
        }
    }
    #[cfg(not(target_feature = "avx"))]
    {
        f32x8::new(v.map(|l| l.reduce_add()))
    }
}

/// The repulsion on vertex `i` from every other vertex, eight at a time.
fn push_from_all(x: &[f32], y: &[f32], i: usize, k: f32, cut2: f32) -> (f32, f32) {
    let n = x.len();
    let (kv, cutv, min2) = (f32x8::splat(k), f32x8::splat(cut2), f32x8::splat(MIN_D2));
    let (xi, yi) = (f32x8::splat(x[i]), f32x8::splat(y[i]));
    let (mut ax, mut ay) = (f32x8::splat(0.0), f32x8::splat(0.0));
    let whole = n / 8 * 8;
    for (xs, ys) in x[..whole].chunks_exact(8).zip(y[..whole].chunks_exact(8)) {
        let xj = f32x8::new(xs.try_into().expect("8 lanes"));
        let yj = f32x8::new(ys.try_into().expect("8 lanes"));
        let (dx, dy) = (xi - xj, yi - yj);
        let d2 = (dx * dx + dy * dy).max(min2);
        // Vertex i itself sits at distance 0: its dx, dy are 0, so it adds nothing.
        let s = d2
            .simd_le(cutv)
            .select(kv / (d2 * d2.sqrt()), f32x8::splat(0.0));
        ax += dx * s;
        ay += dy * s;
    }
    let (mut sx, mut sy) = (ax.reduce_add(), ay.reduce_add());
    for j in whole..n {
        let (dx, dy) = (x[i] - x[j], y[i] - y[j]);
        let d2 = (dx * dx + dy * dy).max(MIN_D2);
        if d2 <= cut2 {
            let s = k / (d2 * d2.sqrt());
            sx += dx * s;
            sy += dy * s;
        }
    }
    (sx, sy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::random_positions;

    fn forces_of(
        kernel: impl Fn(&[f32], &[f32], &mut [f32], &mut [f32]),
        x: &[f32],
        y: &[f32],
    ) -> (Vec<f32>, Vec<f32>) {
        let (mut fx, mut fy) = (vec![0.0; x.len()], vec![0.0; x.len()]);
        kernel(x, y, &mut fx, &mut fy);
        (fx, fy)
    }

    /// Largest difference between two force fields, relative to the largest force.
    fn relative_error(a: &(Vec<f32>, Vec<f32>), b: &(Vec<f32>, Vec<f32>)) -> f32 {
        let scale = a.0.iter().chain(&a.1).fold(0.0f32, |m, v| m.max(v.abs()));
        let diff =
            a.0.iter()
                .zip(&b.0)
                .chain(a.1.iter().zip(&b.1))
                .fold(0.0f32, |m, (p, q)| m.max((p - q).abs()));
        diff / scale.max(f32::MIN_POSITIVE)
    }

    #[test]
    fn simd_matches_scalar_for_every_size_and_cutoff() {
        for n in [1, 2, 7, 8, 9, 15, 16, 17, 50, 203, 257, 300] {
            for cutoff in [None, Some(1.5)] {
                let (mut x, mut y) = (Vec::new(), Vec::new());
                random_positions(n, 1.0, n as u64, &mut x, &mut y);
                let p = LayoutParams {
                    cutoff,
                    ..Default::default()
                };
                let scalar = forces_of(|x, y, fx, fy| repulsion_scalar(x, y, fx, fy, &p), &x, &y);
                for parallel in [false, true] {
                    let simd = forces_of(
                        |x, y, fx, fy| repulsion_simd(x, y, fx, fy, &p, parallel),
                        &x,
                        &y,
                    );
                    let err = relative_error(&scalar, &simd);
                    assert!(
                        err < 1e-4,
                        "n {n} cutoff {cutoff:?} parallel {parallel}: {err}"
                    );
                }
            }
        }
    }

    #[test]
    fn repulsion_pushes_apart_with_inverse_square_magnitude() {
        let p = LayoutParams::default();
        let (x, y) = (vec![0.0, 2.0], vec![0.0, 0.0]);
        let (fx, fy) = forces_of(|x, y, fx, fy| repulsion_scalar(x, y, fx, fy, &p), &x, &y);
        // k L (L / d)^2 = 0.1 / 4.
        assert!(
            (fx[0] + 0.025).abs() < 1e-6 && (fx[1] - 0.025).abs() < 1e-6,
            "{fx:?}"
        );
        assert_eq!(fy, vec![0.0, 0.0]);
    }

    #[test]
    fn coincident_vertices_stay_finite() {
        let p = LayoutParams::default();
        let (x, y) = (vec![1.0; 10], vec![1.0; 10]);
        let simd = forces_of(
            |x, y, fx, fy| repulsion_simd(x, y, fx, fy, &p, false),
            &x,
            &y,
        );
        assert!(simd.0.iter().chain(&simd.1).all(|f| f.is_finite()));
    }

    #[test]
    fn lane_laws_match_the_scalar_laws() {
        for s in [Spring::Log, Spring::Sigmoid, Spring::Linear] {
            let r = [0.01f32, 0.3, 0.9, 1.0, 1.1, 2.0, 7.5, 120.0];
            let lanes = spring_law8(s, f32x8::new(r)).to_array();
            for (i, &ri) in r.iter().enumerate() {
                let want = spring_law(s, ri);
                assert!(
                    (lanes[i] - want).abs() <= 1e-5 * want.abs().max(1.0),
                    "{s:?} {ri}"
                );
            }
        }
    }

    #[test]
    fn spring_laws_vanish_at_the_target_and_pull_when_long() {
        for s in [Spring::Log, Spring::Sigmoid, Spring::Linear] {
            assert!(spring_law(s, 1.0).abs() < 1e-6);
            assert!(spring_law(s, 2.0) > 0.0 && spring_law(s, 0.5) < 0.0);
        }
        // The log law pushes harder when short than it pulls when long (the seed's remark).
        assert!(-spring_law(Spring::Log, 0.5) > spring_law(Spring::Log, 1.5));
    }
}
