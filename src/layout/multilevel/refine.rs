//! The level-layout stage of the multilevel layout: refines one level's positions with
//! Fruchterman-Reingold forces (OGDF's fast multipole embedder and FM³ refine with the same
//! law), repulsion by the Barnes-Hut quadtree of [`crate::layout::barnes_hut`].
//!
//! Repulsion between two vertices `d` apart is `C K^2 / d` (`K` the level's mean desired edge
//! length), and an edge of desired length `L` pulls its ends together with `d^2 / L`, so an
//! isolated pair settles at `L` apart. Coarse vertices repel as one vertex each, whatever
//! their mass, as in sfdp: their desired edge lengths already hold the clusters' extent, and
//! weighting the repulsion by mass as well stretched the coarse drawings of chains (measured:
//! edges 2.3 times their desired length on the coarsest level of a 10,000-vertex level-like
//! graph without masses, 15.6 times with them). A step moves each vertex by
//! its force times a gain, at most the current temperature, which follows Hu's adaptive
//! schedule: it shrinks by `COOL` whenever the total force grew, and after five steps of
//! improvement grows back by the same factor. The level stops when no vertex moved more than
//! `tolerance` K in a step, or at its iteration cap.
//!
//! Positions are the same bits for any thread count: the tree is the serial build's whichever
//! threads build it, the repulsion walk sums each leaf in one fixed order (see
//! [`crate::layout::barnes_hut`]), the parallel springs add each vertex's pulls in edge order as
//! the serial loop does, the moves are per vertex, and the total force is summed serially.

use rayon::prelude::*;

use super::place::mean;
pub use super::scratch::RefineScratch;
use super::stages::{Level, LevelLayout, LevelPlan, LevelReport};
use crate::layout::{PARALLEL_FROM, apply_moves};

/// The temperature's factor per step (Hu's `t = 0.9`).
const COOL: f32 = 0.9;

/// Steps of falling total force before the temperature grows again.
const PATIENCE: u32 = 5;

/// Fruchterman-Reingold refinement on a Barnes-Hut quadtree.
#[derive(Clone, Copy, Debug)]
pub struct ForceRefiner {
    /// Repulsion constant `C` (times `K^2`).
    pub repulsion: f32,
    /// Share of the force a vertex moves by in one step.
    pub gain: f32,
    /// Barnes-Hut opening angle.
    pub theta: f32,
    /// Whether a large level may use rayon's threads.
    pub parallel: bool,
}

impl Default for ForceRefiner {
    fn default() -> Self {
        Self {
            repulsion: 1.0,
            gain: 0.3,
            theta: 1.0,
            parallel: true,
        }
    }
}

impl LevelLayout for ForceRefiner {
    fn refine(
        &self,
        level: &Level,
        x: &mut [f32],
        y: &mut [f32],
        plan: LevelPlan,
        scratch: &mut RefineScratch,
    ) -> LevelReport {
        let n = x.len();
        let k = mean(&level.length).max(f32::MIN_POSITIVE);
        // PERF: on one thread the serial tree build, walk and springs are the faster (and give
        // the same bits).
        let parallel = self.parallel && n >= PARALLEL_FROM && rayon::current_num_threads() > 1;
        let mut temp = plan.temperature * k;
        let (mut last_energy, mut progress) = (f64::INFINITY, 0u32);
        let mut report = LevelReport::default();
        for _ in 0..plan.iterations {
            let RefineScratch { tree, fx, fy } = &mut *scratch;
            fx.clear();
            fx.resize(n, 0.0);
            fy.clear();
            fy.resize(n, 0.0);
            if parallel {
                tree.build_parallel(x, y);
            } else {
                tree.build(x, y);
            }
            let c = self.repulsion * k * k * self.gain;
            tree.repulsion_inverse(fx, fy, c, self.theta, parallel);
            if parallel {
                springs_parallel(level, x, y, fx, fy, self.gain);
            } else {
                springs(level, x, y, fx, fy, self.gain);
            }
            let energy: f64 = fx
                .iter()
                .zip(fy.iter())
                .map(|(&a, &b)| f64::from(a * a + b * b))
                .sum();
            if energy < last_energy {
                progress += 1;
                if progress >= PATIENCE {
                    progress = 0;
                    temp /= COOL;
                }
            } else {
                progress = 0;
                temp *= COOL;
            }
            last_energy = energy;
            let largest = if parallel {
                apply_moves_parallel(x, y, fx, fy, temp)
            } else {
                apply_moves(x, y, fx, fy, temp)
            }
            .sqrt();
            report.iterations += 1;
            if largest < plan.tolerance * k {
                report.converged = true;
                break;
            }
        }
        report
    }
}

/// Adds `gain * d^2 / L` along every edge (toward each other) to `fx`, `fy`.
///
/// # Runtime
/// O(m), no allocation.
fn springs(level: &Level, x: &[f32], y: &[f32], fx: &mut [f32], fy: &mut [f32], gain: f32) {
    for ((&a, &b), &l) in level.src.iter().zip(&level.dst).zip(&level.length) {
        let (a, b) = (a as usize, b as usize);
        let (dx, dy) = (x[b] - x[a], y[b] - y[a]);
        let d = (dx * dx + dy * dy).sqrt();
        let s = gain * d / l;
        fx[a] += dx * s;
        fy[a] += dy * s;
        fx[b] -= dx * s;
        fy[b] -= dy * s;
    }
}

/// Vertices per chunk of the parallel moves.
const MOVE_CHUNK: usize = 1 << 13;

/// [`springs`] on rayon's threads, the same bits: the vertices are cut into one range per
/// thread, and each thread scans every edge in order and adds its pull to those of its ends in
/// the thread's range (an edge between two ranges is computed by both), so each vertex adds its
/// pulls in edge order, as in the serial loop.
///
/// NOTE: the ranges follow the thread count, which no result depends on: each vertex's sum is
/// made by one thread in one order whatever the ranges.
///
/// PERF: a level's vertex order follows the graph (input order on the finest level), so most
/// edges join vertices of one range and each thread computes little more than its share; the
/// edges themselves are read by every thread, in order. Computing every pull once and having
/// each vertex gather its own (through a per-level incidence list) was slower than the serial
/// loop on two threads.
///
/// # Runtime
/// O(m) per thread; no allocation.
fn springs_parallel(
    level: &Level,
    x: &[f32],
    y: &[f32],
    fx: &mut [f32],
    fy: &mut [f32],
    gain: f32,
) {
    let n = fx.len();
    let range = n.div_ceil(rayon::current_num_threads()).max(1);
    fx.par_chunks_mut(range)
        .zip(fy.par_chunks_mut(range))
        .enumerate()
        .for_each(|(r, (fx, fy))| {
            let (first, len) = (r * range, fx.len());
            let edges = level.src.iter().zip(&level.dst).zip(&level.length);
            for ((&a, &b), &l) in edges {
                let (a, b) = (a as usize, b as usize);
                // Offsets into the range, out of it (wrapped around) when not below `len`.
                let (ra, rb) = (a.wrapping_sub(first), b.wrapping_sub(first));
                if ra >= len && rb >= len {
                    continue;
                }
                let (dx, dy) = (x[b] - x[a], y[b] - y[a]);
                let d = (dx * dx + dy * dy).sqrt();
                let s = gain * d / l;
                if ra < len {
                    fx[ra] += dx * s;
                    fy[ra] += dy * s;
                }
                if rb < len {
                    fx[rb] -= dx * s;
                    fy[rb] -= dy * s;
                }
            }
        });
}

/// [`apply_moves`] in chunks on rayon's threads: each vertex moves by the same arithmetic, and
/// the largest squared move is a maximum (exact in any grouping; a NaN force never enters it).
fn apply_moves_parallel(x: &mut [f32], y: &mut [f32], fx: &[f32], fy: &[f32], cap: f32) -> f32 {
    x.par_chunks_mut(MOVE_CHUNK)
        .zip(y.par_chunks_mut(MOVE_CHUNK))
        .zip(fx.par_chunks(MOVE_CHUNK).zip(fy.par_chunks(MOVE_CHUNK)))
        .map(|((x, y), (fx, fy))| apply_moves(x, y, fx, fy, cap))
        .reduce(|| 0.0, f32::max)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::random_positions;

    /// Above `PARALLEL_FROM` two threads take the parallel tree build, walk and springs, one
    /// thread the serial ones: the same positions, bit for bit.
    #[test]
    fn one_and_two_threads_refine_to_the_same_bits() {
        let n = 6_000;
        let (src, dst) = crate::layout::level_like_graph(n, 5);
        let level = Level {
            length: vec![1.0; src.len()],
            src,
            dst,
            mass: vec![1.0; n],
            radius: vec![0.0; n],
        };
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| {
                let (mut x, mut y) = (Vec::new(), Vec::new());
                random_positions(n, 1.0, 2, &mut x, &mut y);
                let plan = LevelPlan {
                    iterations: 4,
                    temperature: 1.0,
                    tolerance: 0.0,
                };
                let mut scratch = RefineScratch::default();
                ForceRefiner::default().refine(&level, &mut x, &mut y, plan, &mut scratch);
                let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
                (bits(&x), bits(&y))
            })
        };
        assert!(run(1) == run(2), "1 and 2 threads refined differently");
    }

    #[test]
    fn parallel_moves_are_the_serial_moves() {
        let n = 30_001;
        let (mut fx, mut fy) = (Vec::new(), Vec::new());
        random_positions(n, 1.0, 6, &mut fx, &mut fy);
        let (mut x, mut y) = (Vec::new(), Vec::new());
        random_positions(n, 1.0, 7, &mut x, &mut y);
        let (mut a, mut b) = ((x.clone(), y.clone()), (x, y));
        let serial = apply_moves(&mut a.0, &mut a.1, &fx, &fy, 50.0);
        let parallel = apply_moves_parallel(&mut b.0, &mut b.1, &fx, &fy, 50.0);
        let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        assert_eq!(serial.to_bits(), parallel.to_bits());
        assert!(bits(&a.0) == bits(&b.0) && bits(&a.1) == bits(&b.1));
    }

    #[test]
    fn parallel_springs_are_the_serial_springs() {
        // A level-like graph, a self-loop, a doubled edge and edges across the threads' ranges
        // among them.
        let n = 20_000;
        let (mut src, mut dst) = crate::layout::level_like_graph(n, 3);
        src.extend([5, 7, 7, 0, 19_999, 12_000]);
        dst.extend([5, 9, 9, 19_999, 6_000, 12_000]);
        let level = Level {
            length: (0..src.len())
                .map(|e| 1.0 + (e % 7) as f32 * 0.25)
                .collect(),
            src,
            dst,
            mass: vec![1.0; n],
            radius: vec![0.0; n],
        };
        let (mut x, mut y) = (Vec::new(), Vec::new());
        random_positions(n, 1.0, 8, &mut x, &mut y);
        let start: Vec<f32> = (0..n).map(|v| (v % 13) as f32 * 0.1 - 0.6).collect();
        let (mut ax, mut ay) = (start.clone(), start.clone());
        springs(&level, &x, &y, &mut ax, &mut ay, 0.3);
        let (mut bx, mut by) = (start.clone(), start);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(3)
            .build()
            .unwrap();
        pool.install(|| springs_parallel(&level, &x, &y, &mut bx, &mut by, 0.3));
        let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        assert!(bits(&ax) == bits(&bx) && bits(&ay) == bits(&by));
    }
}
