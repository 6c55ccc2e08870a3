//! The force terms of seed 000's drawing: springs along edges and the exact all-pairs repulsion,
//! as a scalar reference and on `wide::f32x8` lanes.
//!
//! Repulsion between two vertices `d` apart has magnitude `repulse_k * L * (L / d)^2`, pushing
//! them apart; pairs further apart than `cutoff * L` do not interact when a cutoff is set. Every
//! pair is visited once and its force applied to both ends (Newton's third law), which halves the
//! work of the textbook double loop.

use rayon::prelude::*;
use wide::f32x8;

use crate::core::portable;
use crate::layout::{LayoutGraph, LayoutParams, Spring};

/// Squared distance below which two vertices count as this close (no division by zero; two
/// vertices on the same spot push each other nowhere).
pub const MIN_D2: f32 = 1e-12;

/// The spring law's value at `ratio = d / L` (positive pulls the ends together).
///
/// NOTE: `ln` and `tanh` are [`portable`]'s, not libm's: the same bits on every CPU, and bit for
/// bit the lanes of [`spring_law8`].
#[inline]
pub fn spring_law(spring: Spring, ratio: f32) -> f32 {
    match spring {
        Spring::Log => portable::ln(ratio.max(1e-6)),
        Spring::Sigmoid => portable::tanh(2.0 * (ratio - 1.0)),
        Spring::Linear => ratio - 1.0,
    }
}

/// The spring law on eight ratios at once, each lane bit for bit [`spring_law`] of it.
///
/// NOTE: [`portable`]'s `ln8` and `tanh8`, not `wide`'s: those are built on `mul_add`, fused
/// only in FMA builds, so their last bits differed between x86-64-v3, baseline x86-64 and
/// aarch64 builds, and with them the layout of every level.
#[inline]
fn spring_law8(spring: Spring, ratio: f32x8) -> f32x8 {
    match spring {
        Spring::Log => portable::ln8(ratio.max(f32x8::splat(1e-6))),
        Spring::Sigmoid => portable::tanh8(f32x8::splat(2.0) * (ratio - f32x8::splat(1.0))),
        Spring::Linear => ratio - f32x8::splat(1.0),
    }
}

/// Adds the spring forces of every edge to `fx`, `fy`.
///
/// PERF: edges go eight at a time through the law (a logarithm per edge is most of a scalar
/// spring's cost), the last group padded; endpoints are gathered and the forces scattered by
/// scalar loads and stores without bounds checks (every endpoint is checked against `n` once per
/// call, a vectorised maximum).
///
/// # Panics
/// If an edge names a vertex `>= x.len()` or the slices disagree in length.
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
    let n = x.len();
    let m = graph.src.len();
    assert!(graph.dst.len() == m && y.len() == n && fx.len() == n && fy.len() == n);
    if let Some(f) = graph.length_factor {
        assert!(f.len() >= m, "one length factor per edge");
    }
    let top = |v: &[u32]| v.iter().fold(0u32, |a, &b| a.max(b));
    assert!(
        m == 0 || (top(graph.src).max(top(graph.dst)) as usize) < n,
        "an edge names a vertex the layout does not have"
    );
    let (k, base) = (params.spring_k * params.length, params.length);
    let push = match params.spring {
        Spring::Log => push_groups::<LOG>,
        Spring::Sigmoid => push_groups::<SIGMOID>,
        Spring::Linear => push_groups::<LINEAR>,
    };
    let (src, dst) = (graph.src.as_ptr(), graph.dst.as_ptr());
    let (xp, yp) = (x.as_ptr(), y.as_ptr());
    let (fxp, fyp) = (fx.as_mut_ptr(), fy.as_mut_ptr());
    // PERF: a block of edges is gathered into lane arrays, pushed through the law, and
    // scattered, in three separate loops: the law's long dependency chain (square root,
    // logarithm, division) of one group overlaps with the next group's, and no vector load waits
    // on eight scalar stores just made.
    let (mut dx, mut dy) = ([0.0f32; SPRING_BLOCK], [0.0f32; SPRING_BLOCK]);
    for b0 in (0..m).step_by(SPRING_BLOCK) {
        let len = (m - b0).min(SPRING_BLOCK);
        let groups = len.div_ceil(8);
        for e in 0..len {
            // SAFETY: b0 + e < m = src.len() = dst.len(), and every endpoint is below n, the
            // length of x and y (both asserted above).
            unsafe {
                let (a, b) = (*src.add(b0 + e) as usize, *dst.add(b0 + e) as usize);
                dx[e] = *xp.add(b) - *xp.add(a);
                dy[e] = *yp.add(b) - *yp.add(a);
            }
        }
        // The last group's unused lanes get a unit edge (their forces are never applied).
        dx[len..groups * 8].fill(1.0);
        dy[len..groups * 8].fill(0.0);
        let factors = graph.length_factor.map(|f| &f[b0..b0 + len]);
        push(
            &mut dx[..groups * 8],
            &mut dy[..groups * 8],
            factors,
            k,
            base,
        );
        for e in 0..len {
            // SAFETY: as for the gather above; fx and fy have length n (asserted).
            unsafe {
                let (a, b) = (*src.add(b0 + e) as usize, *dst.add(b0 + e) as usize);
                *fxp.add(a) += dx[e];
                *fyp.add(a) += dy[e];
                *fxp.add(b) -= dx[e];
                *fyp.add(b) -= dy[e];
            }
        }
    }
}

/// Edges per block of [`springs`] (two lane arrays of this many floats on the stack).
const SPRING_BLOCK: usize = 64;

/// [`Spring`] as a const parameter.
const LOG: u8 = 0;
const SIGMOID: u8 = 1;
const LINEAR: u8 = 2;

/// Replaces the edge vectors `(dx, dy)` (whole groups of eight) by the spring force along them,
/// law `LAW`, each edge's target `base` times its factor.
///
/// PERF: one instance per law, so the law's code and constants stay out of a per-group match.
fn push_groups<const LAW: u8>(
    dx: &mut [f32],
    dy: &mut [f32],
    factors: Option<&[f32]>,
    k: f32,
    base: f32,
) {
    let (kv, min2) = (f32x8::splat(k), f32x8::splat(MIN_D2));
    let inv_base = f32x8::splat(1.0 / base);
    let spring = match LAW {
        LOG => Spring::Log,
        SIGMOID => Spring::Sigmoid,
        _ => Spring::Linear,
    };
    for (g, (dxs, dys)) in dx
        .chunks_exact_mut(8)
        .zip(dy.chunks_exact_mut(8))
        .enumerate()
    {
        let dxv = f32x8::new((&*dxs).try_into().expect("8 lanes"));
        let dyv = f32x8::new((&*dys).try_into().expect("8 lanes"));
        let d = (dxv * dxv + dyv * dyv).max(min2).sqrt();
        let ratio = match factors {
            None => d * inv_base,
            Some(f) => {
                // Lanes past the last edge keep the plain target.
                let mut target = [base; 8];
                for (t, &fe) in target.iter_mut().zip(f.iter().skip(g * 8)) {
                    *t = base * fe;
                }
                d / f32x8::new(target)
            }
        };
        let f = kv * spring_law8(spring, ratio) / d;
        dxs.copy_from_slice(&(f * dxv).to_array());
        dys.copy_from_slice(&(f * dyv).to_array());
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

/// One chunk of eight partners `j..j + 8` for vertex `(xi, yi)`: adds the pushes on `i` to
/// `acc` and returns `(dx, dy, s)`, the push on `i` from lane `l` being `s[l] * (dx[l], dy[l])`
/// (the partners get its opposite). `live` masks lanes (partners at or before `i`); `CUT`
/// applies the cutoff.
///
/// NOTE: separate multiplies and adds, never `mul_add`, here and in the partners' update in the
/// caller: `wide`'s `mul_add` is one fused rounding in FMA builds and two roundings elsewhere,
/// so it made x86-64-v3, baseline x86-64 and aarch64 builds lay out levels differently. Plain
/// IEEE multiplies and adds round the same on SSE2, AVX and NEON (see [`portable`]).
///
/// PERF: this costs an instruction per product on FMA machines, where the divider and square
/// root rather than the adders bound a chunk.
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
) -> (f32x8, f32x8, f32x8) {
    let (dx, dy) = (xi - xj, yi - yj);
    // `fast_max`: positions are finite, so the NaN handling of `max` is not needed.
    let d2 = (dx * dx + dy * dy).fast_max(f32x8::splat(MIN_D2));
    let mut s = kv / (d2 * d2.sqrt());
    if CUT {
        s = d2.simd_le(cutv).select(s, f32x8::splat(0.0));
    }
    if let Some(live) = live {
        s = live.select(s, f32x8::splat(0.0));
    }
    acc.0 += dx * s;
    acc.1 += dy * s;
    (dx, dy, s)
}

/// Every pair once (Newton's third law), eight partners per step.
///
/// The vertices split into `whole = n / 8 * 8` and up to seven leftovers. Each of the first
/// `whole` rows pairs its vertex with the later vertices of the whole chunks; each leftover row
/// pairs its vertex with all whole chunks; the leftovers pair among themselves in scalar code.
///
/// PERF: only the chunk that holds `i` itself needs a lane mask; the leftovers cost
/// `rest * whole / 8` chunks rather than one mostly padded chunk per row (at 50 vertices 174
/// chunks instead of 212); without a cutoff no distance test runs at all.
fn pairs_once<const CUT: bool>(
    x: &[f32],
    y: &[f32],
    fx: &mut [f32],
    fy: &mut [f32],
    k: f32,
    cut2: f32,
) {
    let n = x.len();
    assert!(y.len() == n && fx.len() == n && fy.len() == n);
    let whole = n / 8 * 8;
    let (kv, cutv) = (f32x8::splat(k), f32x8::splat(cut2));
    // PERF: unchecked lane loads and stores in the innermost loop (four bounds tests a chunk
    // otherwise).
    let load = |v: &[f32], j: usize| {
        debug_assert!(j + 8 <= v.len());
        // SAFETY: callers pass j + 8 <= whole <= n, and every slice here has length n
        // (asserted above); f32x8 is plain data, so an unaligned read of eight floats is one.
        unsafe { v.as_ptr().add(j).cast::<f32x8>().read_unaligned() }
    };
    let store = |v: &mut [f32], j: usize, value: f32x8| {
        debug_assert!(j + 8 <= v.len());
        // SAFETY: as for `load`.
        unsafe { v.as_mut_ptr().add(j).cast::<f32x8>().write_unaligned(value) }
    };
    let zero = f32x8::splat(0.0);
    // One row: vertex i against the whole chunks from `j`, the first of them masked by `live`.
    // Returns i's own push, still spread over the lanes.
    // One row: vertex i against the whole chunks from `j` on. Returns i's own push, still
    // spread over the lanes.
    let row = |fx: &mut [f32], fy: &mut [f32], i: usize, mut j: usize| {
        let (xi, yi) = (f32x8::splat(x[i]), f32x8::splat(y[i]));
        let mut acc = (zero, zero);
        while j < whole {
            let (dx, dy, s) =
                chunk::<CUT>(xi, yi, load(x, j), load(y, j), None, kv, cutv, &mut acc);
            let (fxj, fyj) = (load(fx, j) - dx * s, load(fy, j) - dy * s);
            store(fx, j, fxj);
            store(fy, j, fyj);
            j += 8;
        }
        acc
    };
    for i0 in (0..n).step_by(8) {
        let lanes = (n - i0).min(8);
        // The pairs inside a whole block, lane-aligned: vertex i0 + l's push in lane l.
        let (mut block_x, mut block_y) = (zero, zero);
        if i0 < whole {
            let (bx, by) = (load(x, i0), load(y, i0));
            let mut acc = (zero, zero);
            diagonal::<CUT, 1>(bx, by, kv, cutv, &mut acc);
            diagonal::<CUT, 2>(bx, by, kv, cutv, &mut acc);
            diagonal::<CUT, 3>(bx, by, kv, cutv, &mut acc);
            diagonal::<CUT, 4>(bx, by, kv, cutv, &mut acc);
            (block_x, block_y) = acc;
        }
        // PERF: each vertex's own push is left in its lanes and the eight vertices of a block
        // are summed across lanes together at the end (`sum_lanes8`): the per-vertex
        // horizontal sums were a quarter of a small layout's time.
        let (mut own_x, mut own_y) = ([zero; 8], [zero; 8]);
        for ii in 0..lanes {
            let i = i0 + ii;
            // Whole blocks' rows start after their own block; leftover rows at 0.
            let j = if i < whole { i0 + 8 } else { 0 };
            (own_x[ii], own_y[ii]) = row(fx, fy, i, j);
        }
        let sx = (sum_lanes8(&own_x) + block_x).to_array();
        let sy = (sum_lanes8(&own_y) + block_y).to_array();
        for l in 0..lanes {
            fx[i0 + l] += sx[l];
            fy[i0 + l] += sy[l];
        }
    }
    // The leftovers among themselves.
    for i in whole..n {
        for j in i + 1..n {
            let (dx, dy) = (x[i] - x[j], y[i] - y[j]);
            let d2 = (dx * dx + dy * dy).max(MIN_D2);
            if CUT && d2 > cut2 {
                continue;
            }
            let s = k / (d2 * d2.sqrt());
            fx[i] += dx * s;
            fy[i] += dy * s;
            fx[j] -= dx * s;
            fy[j] -= dy * s;
        }
    }
}

/// The pairs `(l, l + R mod 8)` of one block of eight vertices `(bx, by)`: adds each pair's push
/// to both lanes of `acc` (lane `l` holds vertex `l`'s force). Rotations 1 to 4 cover each of
/// the block's 28 pairs once; at `R = 4` lanes 4..8 repeat lanes 0..4 and are masked.
///
/// PERF: 4 chunks for the block's own pairs instead of 7 chunks of rows with a shrinking lane
/// mask (half their lanes wasted); four lane rotations each.
#[inline(always)]
fn diagonal<const CUT: bool, const R: usize>(
    bx: f32x8,
    by: f32x8,
    kv: f32x8,
    cutv: f32x8,
    acc: &mut (f32x8, f32x8),
) {
    let live = (R == 4)
        .then(|| f32x8::new([1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0]).simd_gt(f32x8::splat(0.5)));
    let (px, py) = (rotate_lanes::<R>(bx), rotate_lanes::<R>(by));
    let mut own = *acc;
    let (dx, dy, s) = chunk::<CUT>(bx, by, px, py, live, kv, cutv, &mut own);
    // Partner lane (l + R) mod 8 gets the opposite push of lane l: rotate back by 8 - R.
    let (back_x, back_y) = (dx * s, dy * s);
    acc.0 = own.0 - rotate_back::<R>(back_x);
    acc.1 = own.1 - rotate_back::<R>(back_y);
}

/// Lane `l` of the result is lane `(l + R) mod 8` of `v`.
#[inline(always)]
fn rotate_lanes<const R: usize>(v: f32x8) -> f32x8 {
    permute(v, std::array::from_fn(|l| ((l + R) % 8) as i32))
}

/// Lane `l` of the result is lane `(l + 8 - R) mod 8` of `v` (undoes [`rotate_lanes`]).
#[inline(always)]
fn rotate_back<const R: usize>(v: f32x8) -> f32x8 {
    permute(v, std::array::from_fn(|l| ((l + 8 - R) % 8) as i32))
}

/// Lane `l` of the result is lane `idx[l]` of `v`.
#[inline(always)]
fn permute(v: f32x8, idx: [i32; 8]) -> f32x8 {
    #[cfg(target_feature = "avx2")]
    {
        use std::arch::x86_64::{__m256, __m256i, _mm256_permutevar8x32_ps};
        use wide::bytemuck::cast;
        let (m, i): (__m256, __m256i) = (cast(v), cast(idx));
        // SAFETY: AVX2 is enabled at compile time; a register-only lane permutation.
        cast(unsafe { _mm256_permutevar8x32_ps(m, i) })
    }
    #[cfg(not(target_feature = "avx2"))]
    {
        let a = v.to_array();
        f32x8::new(idx.map(|i| a[i as usize]))
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
    // NOTE: `portable::sum8` adds in the tree order of the `hadd`s above, so both paths give
    // the same bits (`wide`'s `reduce_add` does not: its AVX and SSE orders differ).
    #[cfg(not(target_feature = "avx"))]
    {
        f32x8::new(v.map(portable::sum8))
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
    // NOTE: a fixed summation order on every target (`wide`'s `reduce_add` differs between AVX
    // and SSE builds).
    let (mut sx, mut sy) = (portable::sum8(ax), portable::sum8(ay));
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
