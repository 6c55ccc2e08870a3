//! Multilevel layout for large graphs (seed 000's force drawing at scale, after Walshaw, Hu's
//! sfdp and Hachul and Jünger's FM³): single-level iterations cannot move a long chain far
//! enough in a few hundred steps, whatever their speed per step, so the graph is coarsened
//! level by level, the coarsest graph laid out, and each finer level placed from the coarser
//! one and refined with a few iterations.
//!
//! Three stages behind small traits, as OGDF's Modular Multilevel Mixer composes them (STYLE
//! 19): a [`Merger`] builds the next coarser level ([`coarsen::MatchingMerger`]), a [`Placer`]
//! puts a finer level's vertices from the coarser positions ([`place::NeighbourPlacer`]), and a
//! [`LevelLayout`] refines one level ([`refine::ForceRefiner`], Fruchterman-Reingold forces on a
//! Barnes-Hut quadtree). [`components`] lays out each connected component apart and packs them.
//! [`layout_multilevel`] is the preset: one of each.
//!
//! Deterministic: the same graph, parameters and seed give the same positions, bit for bit,
//! for any thread count and on every CPU (each stage is serial or sums in a fixed order).

pub mod coarsen;
pub mod coarsest;
pub mod components;
pub mod place;
pub mod refine;

use crate::core::rng::WarrenRng;
use crate::layout::LayoutGraph;

pub use refine::RefineScratch;

/// One level of the hierarchy: a graph whose vertices have masses (how many input vertices they
/// stand for) and radii, and whose edges have desired lengths.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Level {
    /// Edge sources.
    pub src: Vec<u32>,
    /// Edge targets.
    pub dst: Vec<u32>,
    /// Desired length of each edge.
    pub length: Vec<f32>,
    /// Mass of each vertex (one entry per vertex: the vertex count is `mass.len()`).
    pub mass: Vec<f32>,
    /// Distance from each vertex's centre to its farthest member (0 for an input vertex).
    pub radius: Vec<f32>,
}

/// Builds the next coarser level.
pub trait Merger {
    /// The coarser level and, for each vertex of `fine`, its vertex in it.
    fn coarsen(&self, fine: &Level, seed: u64) -> (Level, Vec<u32>);
}

/// What a [`Placer`] places from.
#[derive(Clone, Copy)]
pub struct Placement<'a> {
    /// The level being placed.
    pub fine: &'a Level,
    /// Each fine vertex's coarse vertex.
    pub parent: &'a [u32],
    /// The coarser level, laid out.
    pub coarse: &'a Level,
    /// Coarse positions.
    pub cx: &'a [f32],
    /// Coarse positions.
    pub cy: &'a [f32],
    /// Seed of any random choice.
    pub seed: u64,
}

/// Places a finer level from the coarser one's positions.
pub trait Placer {
    /// Fills `x`, `y` with one position per vertex of `p.fine`.
    fn place(&self, p: Placement<'_>, x: &mut Vec<f32>, y: &mut Vec<f32>);
}

/// How long one level is refined.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelPlan {
    /// Iteration cap.
    pub iterations: u32,
    /// Starting temperature (largest move), in mean desired edge lengths.
    pub temperature: f32,
    /// Stop once no vertex moves more than this many mean edge lengths in a step.
    pub tolerance: f32,
}

/// What refining one level did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelReport {
    /// Iterations run.
    pub iterations: u32,
    /// Whether it stopped below the tolerance rather than at the cap.
    pub converged: bool,
}

/// Refines one level's positions.
pub trait LevelLayout {
    /// Moves `x`, `y` toward equilibrium for `level`.
    fn refine(
        &self,
        level: &Level,
        x: &mut [f32],
        y: &mut [f32],
        plan: LevelPlan,
        scratch: &mut RefineScratch,
    ) -> LevelReport;
}

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

/// Lays out the connected graph `level` from nothing: coarsens it, lays out the coarsest level
/// from its MDS drawing ([`coarsest`]; seeded random positions where MDS does not apply), then
/// places and refines each finer level. Returns the positions.
pub fn layout_connected(
    level: Level,
    params: &MultilevelParams,
    seed: u64,
    scratch: &mut RefineScratch,
    report: &mut MultilevelReport,
) -> (Vec<f32>, Vec<f32>) {
    let (merger, placer) = (coarsen::MatchingMerger, place::NeighbourPlacer);
    let refiner = refine::ForceRefiner {
        theta: params.theta,
        parallel: params.parallel,
        ..Default::default()
    };
    let n0 = level.mass.len();
    let coarsest = params.coarsest;
    let mut levels = vec![level];
    let mut parents: Vec<Vec<u32>> = Vec::new();
    loop {
        let fine = levels.last().expect("one level at least");
        let n = fine.mass.len();
        if n <= coarsest {
            break;
        }
        let (coarse, parent) = merger.coarsen(fine, seed ^ levels.len() as u64);
        if coarse.mass.len() as f32 > params.min_shrink * n as f32 {
            break;
        }
        levels.push(coarse);
        parents.push(parent);
    }
    report.levels = report.levels.max(levels.len() as u32);
    let top = levels.last().expect("one level at least");
    let mut plan = level_plan(params, top.mass.len(), n0, true);
    let (mut x, mut y) = match coarsest::mds_positions(top, seed) {
        Some(drawn) => {
            plan.temperature = 1.0;
            drawn
        }
        None => {
            let k = place::mean(&top.length).max(params.length);
            let mut rng = WarrenRng::new(seed);
            let side = (top.mass.len() as f32).sqrt() * k;
            (0..top.mass.len())
                .map(|_| (rng.unit_f32() * side, rng.unit_f32() * side))
                .unzip()
        }
    };
    let mut converged = true;
    let r = refiner.refine(top, &mut x, &mut y, plan, scratch);
    converged &= r.converged;
    report.work += u64::from(r.iterations) * top.mass.len() as u64;
    let mut last = r;
    for depth in (0..parents.len()).rev() {
        let (fine, coarse) = (&levels[depth], &levels[depth + 1]);
        let (mut fx, mut fy) = (Vec::new(), Vec::new());
        let placement = Placement {
            fine,
            parent: &parents[depth],
            coarse,
            cx: &x,
            cy: &y,
            seed: seed ^ (depth as u64).wrapping_mul(0x9E37_79B9),
        };
        placer.place(placement, &mut fx, &mut fy);
        let plan = level_plan(params, fine.mass.len(), n0, false);
        last = refiner.refine(fine, &mut fx, &mut fy, plan, scratch);
        converged &= last.converged;
        report.work += u64::from(last.iterations) * fine.mass.len() as u64;
        (x, y) = (fx, fy);
    }
    report.iterations = report.iterations.max(last.iterations);
    report.converged &= converged;
    (x, y)
}

/// Lays out `graph` (`n` vertices) with the multilevel preset: each connected component apart
/// ([`components`]), packed side by side. Fills `x`, `y` with one position per vertex.
///
/// # Runtime
/// About O((n log n + m) * iterations) over all levels; allocates each level's graph once.
pub fn layout_multilevel(
    n: usize,
    graph: &LayoutGraph<'_>,
    params: &MultilevelParams,
    seed: u64,
    x: &mut Vec<f32>,
    y: &mut Vec<f32>,
) -> MultilevelReport {
    components::layout_components(n, graph, params, seed, x, y)
}

#[cfg(test)]
mod tests;
