//! The stages of the multilevel layout and the data they pass (STYLE 19, after OGDF's Modular
//! Multilevel Mixer): a level of the hierarchy ([`Level`]), the builder that coarsens it
//! ([`Merger`]), the placer that puts a finer level from the coarser one ([`Placer`], from a
//! [`Placement`]) and the level layout that refines one level ([`LevelLayout`], by a
//! [`LevelPlan`], answering with a [`LevelReport`]).

use super::scratch::RefineScratch;

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
