//! The solver loop: start positions, one step's forces by the selected kernel, the capped moves,
//! and [`relax`], which iterates them until the drawing settles.

use crate::core::rng::WarrenRng;
use crate::layout::forces::{repulsion_scalar, repulsion_simd, springs};
use crate::layout::params::{
    LayoutGraph, LayoutParams, LayoutReport, PARALLEL_FROM, Repulsion, kernel_for,
};
use crate::layout::scratch::LayoutScratch;

/// Scatters `n` vertices uniformly over a square of side `sqrt(n) * length` (deterministic for
/// `seed`), the usual start for a layout.
pub fn random_positions(n: usize, length: f32, seed: u64, x: &mut Vec<f32>, y: &mut Vec<f32>) {
    let mut rng = WarrenRng::new(seed);
    let side = (n as f32).sqrt().max(1.0) * length;
    x.clear();
    y.clear();
    for _ in 0..n {
        x.push(rng.unit_f32() * side);
        y.push(rng.unit_f32() * side);
    }
}

/// The level-like test graph of the layout benches: `n` vertices (at least 1), a random tree in
/// which each new vertex attaches to one of the (up to) 4 most recent ones (long corridors, few
/// hubs), plus about `n / 4` extra edges between vertices close in that order. Fixed by `seed`.
/// Returns `(src, dst)`.
pub fn level_like_graph(n: usize, seed: u64) -> (Vec<u32>, Vec<u32>) {
    let mut rng = WarrenRng::new(seed);
    let (mut src, mut dst) = (Vec::new(), Vec::new());
    for v in 1..n as u32 {
        let back = rng.below(v.min(4)) + 1;
        src.push(v - back);
        dst.push(v);
    }
    for _ in 0..n / 4 {
        let a = rng.below(n as u32);
        let span = rng.below(8) + 2;
        let b = (a + span).min(n as u32 - 1);
        if a != b {
            src.push(a);
            dst.push(b);
        }
    }
    (src, dst)
}

/// Scales the layout by `factor` about its centroid (seed 000's "upscaling insertion": the
/// solver contracts far better than it expands, so making room before inserting new vertices
/// and letting the springs pull the graph back together works better than pushing it apart).
pub fn upscale(x: &mut [f32], y: &mut [f32], factor: f32) {
    let n = x.len().max(1) as f32;
    let (cx, cy) = (x.iter().sum::<f32>() / n, y.iter().sum::<f32>() / n);
    for (px, py) in x.iter_mut().zip(y.iter_mut()) {
        *px = cx + (*px - cx) * factor;
        *py = cy + (*py - cy) * factor;
    }
}

/// One step's forces: repulsion by the selected kernel plus the springs.
pub fn forces(
    graph: &LayoutGraph<'_>,
    x: &[f32],
    y: &[f32],
    params: &LayoutParams,
    scratch: &mut LayoutScratch,
) {
    let n = x.len();
    scratch.fx.clear();
    scratch.fx.resize(n, 0.0);
    scratch.fy.clear();
    scratch.fy.resize(n, 0.0);
    let parallel = params.parallel && n >= PARALLEL_FROM;
    let (fx, fy) = (&mut scratch.fx[..], &mut scratch.fy[..]);
    match kernel_for(params, n) {
        Repulsion::Scalar => repulsion_scalar(x, y, fx, fy, params),
        Repulsion::Simd | Repulsion::Auto => repulsion_simd(x, y, fx, fy, params, parallel),
        Repulsion::BarnesHut => {
            scratch.tree.build(x, y);
            scratch.tree.repulsion(x, y, fx, fy, params, parallel);
        }
    }
    springs(graph, x, y, fx, fy, params);
}

/// The force on each vertex after the last [`forces()`] call.
pub fn last_forces(scratch: &LayoutScratch) -> (&[f32], &[f32]) {
    (&scratch.fx, &scratch.fy)
}

/// Runs the solver on positions `x`, `y` (one entry per vertex; edges index into them) until it
/// settles or reaches the iteration cap.
///
/// # Runtime
/// Per iteration O(n^2 + m) with the exact kernels, O(n log n + m) with Barnes-Hut; no
/// allocation after the scratch has grown.
pub fn relax(
    graph: &LayoutGraph<'_>,
    x: &mut [f32],
    y: &mut [f32],
    params: &LayoutParams,
    scratch: &mut LayoutScratch,
) -> LayoutReport {
    debug_assert_eq!(x.len(), y.len());
    let cap = params.max_delta * params.length;
    let mut report = LayoutReport {
        iterations: 0,
        last_move: 0.0,
        converged: false,
    };
    for _ in 0..params.max_iterations {
        forces(graph, x, y, params, scratch);
        let largest2 = apply_moves(x, y, &scratch.fx, &scratch.fy, cap);
        let largest = largest2.sqrt();
        report.iterations += 1;
        report.last_move = largest / params.length;
        if largest < params.tolerance * params.length {
            report.converged = true;
            break;
        }
    }
    report
}

/// Moves every vertex along its force, capped at length `cap`; returns the largest squared
/// move.
///
/// PERF: eight vertices at a time, the cap applied by a lane select rather than a branch per
/// vertex (the branch was mispredicted whenever a layout was half settled); the arithmetic is
/// the scalar tail's, operation for operation, so both give the same bits.
pub(crate) fn apply_moves(x: &mut [f32], y: &mut [f32], fx: &[f32], fy: &[f32], cap: f32) -> f32 {
    use wide::f32x8;
    let n = x.len();
    let (x, y, fx, fy) = (&mut x[..n], &mut y[..n], &fx[..n], &fy[..n]);
    let cap2 = cap * cap;
    let (capv, cap2v, one) = (f32x8::splat(cap), f32x8::splat(cap2), f32x8::splat(1.0));
    let mut largest = f32x8::splat(0.0);
    let whole = n / 8 * 8;
    let lanes = |v: &[f32], i: usize| f32x8::new(v[i..i + 8].try_into().expect("8 lanes"));
    for i in (0..whole).step_by(8) {
        let (gx, gy) = (lanes(fx, i), lanes(fy, i));
        let len2 = gx * gx + gy * gy;
        let scale = len2.simd_gt(cap2v).select(capv / len2.sqrt(), one);
        let (nx, ny) = (lanes(x, i) + gx * scale, lanes(y, i) + gy * scale);
        x[i..i + 8].copy_from_slice(&nx.to_array());
        y[i..i + 8].copy_from_slice(&ny.to_array());
        largest = largest.max(len2.min(cap2v));
    }
    let mut largest2 = largest.to_array().into_iter().fold(0.0f32, f32::max);
    for i in whole..n {
        let (gx, gy) = (fx[i], fy[i]);
        let len2 = gx * gx + gy * gy;
        let scale = if len2 > cap2 { cap / len2.sqrt() } else { 1.0 };
        x[i] += gx * scale;
        y[i] += gy * scale;
        largest2 = largest2.max(len2.min(cap2));
    }
    largest2
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Spring;

    /// A path of `n` vertices.
    fn path(n: u32) -> (Vec<u32>, Vec<u32>) {
        ((0..n - 1).collect(), (1..n).collect())
    }

    #[test]
    fn a_spring_pair_settles_near_the_target_length() {
        for spring in [Spring::Log, Spring::Sigmoid, Spring::Linear] {
            let (src, dst) = path(2);
            let g = LayoutGraph {
                src: &src,
                dst: &dst,
                length_factor: None,
            };
            let (mut x, mut y) = (vec![0.0, 3.0], vec![0.0, 0.5]);
            let params = LayoutParams {
                spring,
                repulse_k: 0.0,
                max_iterations: 2000,
                tolerance: 1e-5,
                ..Default::default()
            };
            let report = relax(&g, &mut x, &mut y, &params, &mut LayoutScratch::default());
            let d = (x[1] - x[0]).hypot(y[1] - y[0]);
            assert!(report.converged, "{spring:?}: {report:?}");
            assert!((d - 1.0).abs() < 1e-3, "{spring:?}: length {d}");
        }
    }

    #[test]
    fn length_factors_scale_the_target() {
        let (src, dst) = path(2);
        let factor = [2.5f32];
        let g = LayoutGraph {
            src: &src,
            dst: &dst,
            length_factor: Some(&factor),
        };
        let (mut x, mut y) = (vec![0.0, 1.0], vec![0.0, 0.0]);
        let params = LayoutParams {
            repulse_k: 0.0,
            max_iterations: 5000,
            tolerance: 1e-6,
            ..Default::default()
        };
        relax(&g, &mut x, &mut y, &params, &mut LayoutScratch::default());
        assert!(((x[1] - x[0]).abs() - 2.5).abs() < 1e-2, "{x:?}");
    }

    #[test]
    fn moves_are_capped_at_max_delta() {
        let (src, dst) = path(2);
        let g = LayoutGraph {
            src: &src,
            dst: &dst,
            length_factor: None,
        };
        let (mut x, mut y) = (vec![0.0, 1000.0], vec![0.0, 0.0]);
        let params = LayoutParams {
            max_iterations: 1,
            ..Default::default()
        };
        let report = relax(&g, &mut x, &mut y, &params, &mut LayoutScratch::default());
        assert!(
            (x[0] - 0.25).abs() < 1e-4 && (x[1] - 999.75).abs() < 1e-3,
            "{x:?}"
        );
        assert!((report.last_move - 0.25).abs() < 1e-5);
    }

    #[test]
    fn a_layout_is_deterministic_for_its_seed() {
        let (src, dst) = path(40);
        let g = LayoutGraph {
            src: &src,
            dst: &dst,
            length_factor: None,
        };
        let run = |repulsion| {
            let (mut x, mut y) = (Vec::new(), Vec::new());
            random_positions(40, 1.0, 7, &mut x, &mut y);
            let params = LayoutParams {
                repulsion,
                max_iterations: 100,
                ..Default::default()
            };
            relax(&g, &mut x, &mut y, &params, &mut LayoutScratch::default());
            (x, y)
        };
        for k in [Repulsion::Scalar, Repulsion::Simd, Repulsion::BarnesHut] {
            assert_eq!(run(k), run(k), "{k:?}");
        }
    }

    #[test]
    fn upscale_keeps_the_centroid() {
        let (mut x, mut y) = (vec![0.0, 2.0, 4.0], vec![1.0, 1.0, 4.0]);
        upscale(&mut x, &mut y, 2.0);
        assert_eq!(x, vec![-2.0, 2.0, 6.0]);
        assert_eq!(y, vec![0.0, 0.0, 6.0]);
    }
}
