//! What the multilevel layout is asked and what it reports: its settings
//! ([`MultilevelParams`]), its report ([`MultilevelReport`]), and the iteration plan each level
//! gets from them ([`level_plan`]).

use super::stages::LevelPlan;

/// Settings of the multilevel layout.
#[derive(Clone, Debug, PartialEq)]
pub struct MultilevelParams {
    /// Desired edge length of the input graph (before each edge's length factor).
    pub length: f32,
    /// Iteration cap of the finest level; coarser levels get more (see [`level_plan`]).
    pub iterations: u32,
    /// Iteration cap of the coarsest level.
    pub coarsest_iterations: u32,
    /// Stop a level once no vertex moves more than this many edge lengths in a step.
    pub tolerance: f32,
    /// Barnes-Hut opening angle.
    pub theta: f32,
    /// Whether large levels may use rayon's threads.
    pub parallel: bool,
    /// Stop coarsening at this many vertices.
    pub coarsest: usize,
    /// Stop coarsening when a level keeps more than this share of the vertices.
    pub min_shrink: f32,
}

impl Default for MultilevelParams {
    fn default() -> Self {
        Self {
            length: 1.0,
            iterations: 15,
            coarsest_iterations: 500,
            tolerance: 0.01,
            theta: 1.0,
            parallel: true,
            coarsest: 24,
            min_shrink: 0.8,
        }
    }
}

/// What a multilevel layout did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MultilevelReport {
    /// Levels of the largest component's hierarchy (1: the graph was laid out as it is).
    pub levels: u32,
    /// Iterations run on the finest level (the largest component's).
    pub iterations: u32,
    /// Whether every level of every component stopped below the tolerance.
    pub converged: bool,
    /// Vertex-iterations over every level: the work done, in units of one vertex's forces.
    pub work: u64,
}

/// The iteration plan of a level of `n` vertices in a hierarchy whose finest level has `n0`:
/// the finest gets `iterations`, a level `s` times smaller about `iterations * s^(1/3)` (coarse
/// levels are cheap and shape the whole drawing), at most the coarsest cap.
pub fn level_plan(params: &MultilevelParams, n: usize, n0: usize, coarsest: bool) -> LevelPlan {
    if coarsest {
        return LevelPlan {
            iterations: params.coarsest_iterations,
            temperature: (n as f32).sqrt().max(1.0),
            tolerance: params.tolerance,
        };
    }
    let scale = cube_root(n0 as f64 / n.max(1) as f64);
    let iterations = ((f64::from(params.iterations) * scale) as u32).clamp(
        params.iterations,
        params.coarsest_iterations.max(params.iterations),
    );
    LevelPlan {
        iterations,
        temperature: 1.0,
        tolerance: params.tolerance,
    }
}

/// The cube root of `v >= 1` by Newton's method in plain IEEE arithmetic (libm's `cbrt` may
/// round differently between CPUs, and it decides iteration counts here).
fn cube_root(v: f64) -> f64 {
    let mut r = v.max(1.0);
    for _ in 0..100 {
        r = (2.0 * r + v / (r * r)) / 3.0;
    }
    r
}
