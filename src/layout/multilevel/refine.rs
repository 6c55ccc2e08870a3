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
//! Positions are the same bits for any thread count: the repulsion walk sums each leaf in one
//! fixed order (see [`crate::layout::barnes_hut`]), and the springs, the moves and the total
//! force are serial.

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
        let parallel = self.parallel && n >= PARALLEL_FROM;
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
            springs(level, x, y, fx, fy, self.gain);
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
            let largest = apply_moves(x, y, fx, fy, temp).sqrt();
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
