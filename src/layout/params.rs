//! What the solver is asked: the spring law ([`Spring`]), the repulsion kernel ([`Repulsion`]),
//! the parameters ([`LayoutParams`]), the graph it draws ([`LayoutGraph`]) and what it reports.

/// The spring law: force along an edge as a function of its length `d` and target `L`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Spring {
    /// Seed 000's law, `k ln(d / L)`: a strong push when short, a gentle pull when long.
    #[default]
    Log,
    /// The seed's proposed alternative, `k tanh(2 (d / L - 1))`: bounded both ways.
    Sigmoid,
    /// Hooke's law, `k (d / L - 1)`.
    Linear,
}

/// Which repulsion kernel runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Repulsion {
    /// Exact SIMD for small graphs, Barnes-Hut from 700 vertices (`BARNES_HUT_FROM`).
    #[default]
    Auto,
    /// Exact all-pairs, scalar (the reference the others are tested against).
    Scalar,
    /// Exact all-pairs on 8-lane SIMD.
    Simd,
    /// Barnes-Hut quadtree approximation (opening angle: theta).
    BarnesHut,
}

/// Vertex count from which [`Repulsion::Auto`] uses Barnes-Hut (measured with
/// `benches/layout.rs`, group `layout/kernel`, at the default theta 0.9: exact SIMD 40 us against
/// Barnes-Hut 51 us at 500 vertices, 86 against 76 us at 700, 167 against 134 us at 1,000).
/// Level-sized graphs (up to 500 vertices) always get the exact kernel. At theta 0.5 Barnes-Hut
/// costs about twice as much and only wins from about 1,300 vertices.
pub const BARNES_HUT_FROM: usize = 700;

/// Vertex count from which the repulsion of one layout runs on rayon's threads.
pub const PARALLEL_FROM: usize = 4096;

/// Solver settings. Lengths are in units of the target edge length `length`.
#[derive(Clone, Debug, PartialEq)]
pub struct LayoutParams {
    /// Spring law.
    pub spring: Spring,
    /// Target edge length `L` (before each edge's length factor).
    pub length: f32,
    /// Spring strength: the law's value times this, in edge lengths per step.
    pub spring_k: f32,
    /// Repulsion strength: the push between two vertices one edge length apart, in edge
    /// lengths per step (it falls off as `1 / d^2`).
    pub repulse_k: f32,
    /// Repulsion only between vertices closer than this many edge lengths (`None`: all pairs).
    pub cutoff: Option<f32>,
    /// Largest move of a vertex in one step, in edge lengths.
    pub max_delta: f32,
    /// Stop once no vertex moves more than this many edge lengths in a step.
    pub tolerance: f32,
    /// Iteration cap.
    pub max_iterations: u32,
    /// Barnes-Hut opening angle: a cell of width `w` at distance `d` counts as one body when
    /// `w / d < theta`.
    pub theta: f32,
    /// Repulsion kernel.
    pub repulsion: Repulsion,
    /// Whether large graphs may use rayon inside one layout (off for small levels laid out by
    /// the batch engine, which already parallelises across levels).
    pub parallel: bool,
}

impl Default for LayoutParams {
    fn default() -> Self {
        Self {
            spring: Spring::Log,
            length: 1.0,
            spring_k: 0.3,
            repulse_k: 0.1,
            cutoff: None,
            max_delta: 0.25,
            tolerance: 1e-3,
            max_iterations: 300,
            theta: 0.9,
            repulsion: Repulsion::Auto,
            parallel: true,
        }
    }
}

/// The edges to lay out: `src[e]`-`dst[e]`, each with an optional length factor (the target
/// length of edge `e` is `length * factor[e]`).
#[derive(Clone, Copy, Debug)]
pub struct LayoutGraph<'a> {
    /// Edge sources.
    pub src: &'a [u32],
    /// Edge targets.
    pub dst: &'a [u32],
    /// Per-edge length factors (`None`: all 1).
    pub length_factor: Option<&'a [f32]>,
}

/// What a run of [`relax`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct LayoutReport {
    /// Iterations run.
    pub iterations: u32,
    /// The largest move in the last iteration, in edge lengths.
    pub last_move: f32,
    /// Whether it stopped below `tolerance` (rather than at the cap).
    pub converged: bool,
}

/// Which kernel `params` selects for `n` vertices.
pub fn kernel_for(params: &LayoutParams, n: usize) -> Repulsion {
    match params.repulsion {
        Repulsion::Auto if n >= BARNES_HUT_FROM => Repulsion::BarnesHut,
        Repulsion::Auto => Repulsion::Simd,
        k => k,
    }
}
