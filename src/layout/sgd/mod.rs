//! Stress refinement: layouts at the stress optimum, the measure graph drawing judges layouts
//! by (Kamada and Kawai's energy with Gansner, Koren and North's weights `1 / d^2`), minimised
//! by stochastic gradient descent over vertex pairs as Zheng, Pawar and Goodman do it ("Graph
//! Drawing by Stochastic Gradient Descent", 2019): each term in turn moves its two vertices
//! toward their target distance by a step that shrinks from epoch to epoch.
//!
//! Two models ([`full`], [`sparse`]):
//! - **full stress** up to [`StressParams::full_up_to`] vertices: every pair, its target the
//!   shortest-path length (O(n^2) per epoch and O(n^2) memory);
//! - **sparse stress** above: each vertex against `h` pivots, weighted by the regions they stand
//!   for, plus every edge (Ortmann, Klimenta and Brandes' model; O(h n + m) per epoch) and, for
//!   `warren layout`'s default refinement ([`StressParams::refine`]), the pairs a few edges
//!   apart ([`Near`]).
//!
//! Small graphs start from seeded random positions and run the whole schedule (as s_gd2 does);
//! larger ones start from the multilevel force drawing (which already has the global shape),
//! scaled to the targets, and run the tail of the schedule ([`StressParams::warm_skip`]).
//!
//! Positions are the same bits for any thread count and on the baseline x86-64 build: the
//! tasks that may run at once touch disjoint vertices, every term is computed with
//! once-rounded operations, and the step sizes come from `crate::core::portable`.

pub mod full;
pub mod kernel;
mod layout;
pub mod paths;
pub mod pivot_mds;
pub mod small;
pub mod sparse;

pub use layout::layout_stress;

pub use sparse::Near;

/// Most pivots [`StressParams::small_world_terms`] gives a component.
pub const SMALL_WORLD_PIVOTS: usize = 200;

use crate::core::portable;

/// Settings of the stress refinement.
#[derive(Clone, Debug, PartialEq)]
pub struct StressParams {
    /// Epochs of the whole step-size schedule.
    pub epochs: u32,
    /// The same for sparse stress.
    pub sparse_epochs: u32,
    /// The last step size as a share of the largest weight's cap, full stress (s_gd2's
    /// `eps`, 0.01 there too).
    pub eps: f32,
    /// The same for sparse stress, whose model is only an approximation of the stress: a
    /// smaller end step fits the model, not the stress (measured on cond-mat: 0.1 ends at
    /// 0.140, 0.01 at 0.143).
    pub sparse_eps: f32,
    /// Largest component started from seeded random positions (the whole schedule runs).
    pub random_up_to: usize,
    /// Largest component started from its pivot MDS drawing; larger ones start from the
    /// multilevel force drawing.
    pub mds_up_to: usize,
    /// Epochs skipped at the start of the schedule when starting from a drawing (pivot MDS,
    /// the force drawing). 13 of 30 (17 run) cost no stress against 10 on the real graphs of
    /// 300 to 7,500 vertices (metis-test 0.0349 -> 0.0352, hep-th 0.1217 -> 0.1222, polblogs
    /// 0.1166 -> 0.1158) and save a sixth of the epochs.
    pub warm_skip: u32,
    /// Epochs skipped when starting from the caller's drawing (`--start`): only the small
    /// steps run, so a drawing of the same graph moves little.
    pub given_skip: u32,
    /// Largest component whose full stress runs one term at a time in a list shuffled each
    /// epoch ([`small`]); larger ones run the blocked, vectorised model ([`full`]).
    pub small_up_to: usize,
    /// Largest component drawn with full stress; larger ones get sparse stress.
    pub full_up_to: usize,
    /// Pivots of the pivot MDS start (at most a quarter of the vertices, at least 8).
    pub mds_pivots: usize,
    /// Pivots of sparse stress.
    pub pivots: usize,
    /// Pivot terms (pivots times vertices) a small-world component may have, 0 for none: a
    /// component whose eccentricity from a seeded vertex is under 24 edge lengths (the
    /// breadth-first slot order's line) gets up to this over its vertices pivots, at most
    /// [`SMALL_WORLD_PIVOTS`], if that is more than `pivots`. The force drawing leaves such
    /// graphs furthest from the stress optimum, and their searches are cheapest (few levels).
    pub small_world_terms: usize,
    /// Most pivot terms (pivots times vertices) of sparse stress: graphs so large that
    /// `pivots` would pass it get fewer pivots, and about as many near-pair terms.
    pub max_terms: usize,
    /// Near pairs sparse stress keeps a term for besides the edges and pivots.
    pub near: Near,
    /// Whether large components may use rayon's threads.
    pub parallel: bool,
}

impl Default for StressParams {
    fn default() -> Self {
        Self {
            epochs: 30,
            sparse_epochs: 30,
            eps: 0.01,
            sparse_eps: 0.1,
            random_up_to: 200,
            mds_up_to: 100_000,
            warm_skip: 13,
            given_skip: 25,
            small_up_to: 200,
            full_up_to: 10_000,
            mds_pivots: 64,
            pivots: 200,
            small_world_terms: 0,
            max_terms: 40_000_000,
            near: Near { radius: 1, cap: 2 },
            parallel: true,
        }
    }
}

impl StressParams {
    /// The refinement of `warren layout`'s default above [`StressParams::full_up_to`]: the
    /// multilevel force drawing refined by sparse stress with few pivots (32), the pairs
    /// within six edges of each other (up to 48 vertices a search: what keeps each vertex's
    /// surroundings in place) and the last 9 of 22 epochs. Measured on a level-like graph of
    /// 100,000 vertices, 2 threads: stress 0.0024 to 0.0006 and neighbourhood preservation
    /// 0.36 to 0.37 against the force drawing alone; with the edges as the only pair terms
    /// neighbourhood preservation falls to 0.17. Searches of 96 vertices keep it at 0.39 and
    /// the stress 3 to 6% lower (level-like graphs of 10^4 and 10^5 vertices), but cost the
    /// 316 x 316 grid 590 ms against 498 ms and the preferential-attachment graph of 10^5
    /// vertices 893 ms against 758 ms (medians of 7, same run), at the same stress there.
    ///
    /// Small-world components get more pivots: 3,200,000 pivot terms, so 200 pivots up to
    /// 16,000 vertices and 32 from 100,000. On the real graphs of 10,000 to 40,000 vertices
    /// (eccentricity 7 to 13) 32 pivots left the stress 1% to 20% above s_gd2's sparse
    /// drawing on five of seven; 100 to 200 bring it to 0.85 to 0.98 of it.
    pub fn refine(full_up_to: usize) -> Self {
        Self {
            sparse_epochs: 22,
            mds_up_to: full_up_to,
            full_up_to,
            pivots: 32,
            small_world_terms: 3_200_000,
            near: Near { radius: 6, cap: 48 },
            ..Self::default()
        }
    }
}

/// What the caller fixes of a stress layout: a start drawing and pinned vertices, each by
/// vertex of the whole graph.
#[derive(Clone, Copy, Debug, Default)]
pub struct Given<'a> {
    /// Start positions for every vertex (`--start`): the drawing is refined from them with
    /// the small steps of the schedule, and components are not packed anew.
    pub start: Option<(&'a [f32], &'a [f32])>,
    /// Pinned positions (`--pin`): NaN for a free vertex. A pinned vertex ends exactly there;
    /// its component is not scaled or moved, free components are packed beside.
    pub pins: Option<(&'a [f32], &'a [f32])>,
}

/// What a stress refinement did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StressReport {
    /// Epochs run on the largest component.
    pub epochs: u32,
    /// Pivots of the largest component's sparse model (0: full stress).
    pub pivots: u32,
}

/// The step sizes of `epochs` epochs falling exponentially from `eta_max` to `eta_min`
/// (Zheng et al.'s schedule), the first `skip` left out.
///
/// # Runtime
/// O(epochs).
pub fn schedule(eta_max: f32, eta_min: f32, epochs: u32, skip: u32) -> Vec<f32> {
    let steps = epochs.max(2);
    let lambda = portable::ln(eta_max / eta_min) / (steps - 1) as f32;
    (skip.min(steps)..steps)
        .map(|t| eta_max * portable::exp(-lambda * t as f32))
        .collect()
}
