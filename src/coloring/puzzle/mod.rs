//! Puzzle levels for GraphColoring (seed 002), generated as pure functions of (config, seed),
//! each with a proof that it can be solved.
//!
//! Seed 002 describes the level format, not a generator; the generator follows the game's own
//! categories (the corpus `level-list.xml`):
//!
//! - **vertex** ("Vertex Colorings"): a planar graph whose vertices all start in a gray that the
//!   rules forbid (`<vertex-maximum color="gray" max="0"/>`), k colors and the rule
//!   `<edge-rule v1="same" v2="same"/>`: the player must recolor every vertex validly. Vertices
//!   may not be added, deleted or joined, edges not added, deleted or recolored. Optional clues
//!   are vertices given in their solution color with the color protected. Proof: the exact
//!   DSATUR solver ([`dsatur`]) finds a k-coloring respecting the clues; with `chromatic`, it
//!   also refutes every (k-1)-coloring, so the chromatic number is exactly k.
//! - **edge** ("Edge Colorings"): the vertices carry fixed colors, every edge starts gray and
//!   must take a color unlike both its ends (`<edge-rule v1="same" edge="same"/>`, both
//!   directions), with exactly `q_c` edges of each color c (`<edge-minimum>` per color, gray
//!   forbidden). Proof: the quotas are read off a planted solution; a backtracking solver also
//!   solves it from scratch to measure difficulty.
//! - **euler_cycle** / **euler_path** ("Eulerian Cycles & Paths"): a connected planar graph
//!   with every degree even (or exactly two odd), all protected, scored by
//!   `<cycle>`/`<path>` with one point per edge and the objective `E`. Proof: Hierholzer's walk.
//!
//! Every puzzle's stored solution is checked by the module's own evaluator on the level's own
//! XML (parsed back): [`check_solution`]; the `coloring` generator kind's `verify` runs
//! [`check_played`] on the level it reads from an archive.

mod check;
pub mod config;
pub mod dsatur;
mod edge;
mod euler;
pub mod planar;
mod vertex;

pub use check::{PuzzleItem, SolutionError, apply_solution, check_played, check_solution};
pub use config::{ColoringConfig, PuzzleKind};
pub use dsatur::{ColoringSolver, Outcome, is_proper};
pub use planar::{PlanarGraph, PlanarScratch};

use crate::coloring::generator::start_colors;
use crate::core::error::GenError;
use crate::core::graph::Graph;
use crate::core::rng::WarrenRng;
use crate::levelxml::model::{
    Color, Edge, LevelDoc, PathOp, PathRule, PathSpec, ValueNode, Vertex,
};
use crate::levelxml::write_level;

/// The stored answer of a puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Solution {
    /// Vertex puzzles: a palette index per vertex (`0..k`, the level's colors after gray).
    VertexColors(Vec<u8>),
    /// Edge puzzles: a palette index per edge.
    EdgeColors(Vec<u8>),
    /// Eulerian puzzles: the walk as edge indices.
    Walk(Vec<u32>),
}

/// Numbers that describe a puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PuzzleMetrics {
    /// Vertices.
    pub vertices: u32,
    /// Edges.
    pub edges: u32,
    /// Colors the player chooses from (k; 1 for Eulerian puzzles).
    pub colors: u32,
    /// Nodes the exact solver explored to solve the puzzle from its start (difficulty);
    /// Eulerian puzzles: edges walked by Hierholzer's algorithm.
    pub solver_nodes: u64,
    /// Nodes the solver explored proving no (k-1)-coloring exists (0 when not asked).
    pub proof_nodes: u64,
    /// Vertices given with a protected color (vertex puzzles).
    pub clues: u32,
    /// Vertices of odd degree (Eulerian puzzles: 0 or 2).
    pub odd_vertices: u32,
    /// Graphs drawn before this one was accepted (1 = the first).
    pub attempts: u32,
}

/// One generated puzzle: the level, its XML, its graph, its solution and its metrics.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle {
    /// The family.
    pub kind: PuzzleKind,
    /// The level.
    pub doc: LevelDoc,
    /// The level as the text of its `.xml` file.
    pub xml: String,
    /// The graph as stored: vertex positions in pixels, each vertex tagged with its start
    /// color (an index into the level's `<colors>`), the edges in the level's order, no flags.
    pub graph: Graph,
    /// The answer.
    pub solution: Solution,
    /// The numbers.
    pub metrics: PuzzleMetrics,
}

/// A worker's reusable memory.
#[derive(Default)]
pub struct PuzzleScratch {
    planar: PlanarScratch,
    graph: PlanarGraph,
    all: Vec<(u32, u32)>,
    solver: ColoringSolver,
}

/// Builds the puzzle for `seed`. `cfg` must be valid ([`ColoringConfig::validate`]).
///
/// # Runtime
/// Per attempt: O(V log V) for the graph, the solver's search (bounded by
/// `max_solver_nodes`), O(V + E) for the level and its XML. Allocates the returned puzzle.
pub fn build_puzzle(
    cfg: &ColoringConfig,
    seed: u64,
    scratch: &mut PuzzleScratch,
) -> Result<Puzzle, GenError> {
    let mut rng = WarrenRng::new(seed);
    let mut last = GenError {
        reason: "no attempt",
        detail: String::new(),
    };
    for attempt in 1..=cfg.max_attempts {
        let made = match cfg.puzzle {
            PuzzleKind::Vertex => vertex::attempt(cfg, &mut rng, scratch),
            PuzzleKind::Edge => edge::attempt(cfg, &mut rng, scratch),
            PuzzleKind::EulerCycle | PuzzleKind::EulerPath => {
                euler::attempt(cfg, &mut rng, scratch)
            }
        };
        match made {
            Ok(mut p) => {
                p.metrics.attempts = attempt;
                return Ok(p);
            }
            Err(e) => last = e,
        }
    }
    Err(GenError {
        reason: last.reason,
        detail: format!("after {} attempts: {}", cfg.max_attempts, last.detail),
    })
}

/// Palette names and colors (after the gray start color).
const PALETTE: [(&str, u32); 8] = [
    ("red", 0xFF00_00FF),
    ("green", 0x00FF_00FF),
    ("blue", 0x0000_FFFF),
    ("yellow", 0xFFFF_00FF),
    ("magenta", 0xFF00_FFFF),
    ("cyan", 0x00FF_FFFF),
    ("orange", 0xFF88_00FF),
    ("purple", 0x8800_FFFF),
];

/// The start color of puzzles that must be recolored.
const GRAY: (&str, u32) = ("gray", 0x8888_88FF);

fn color(name: &str, rgba: u32) -> Color {
    Color {
        name: name.to_string(),
        rgba,
        vertex_points: 0,
        edge_points: 0,
    }
}

/// The colors of every level `cfg` makes, in the level's `<colors>` order: gray then k colors
/// for vertex and edge puzzles, one color for Eulerian puzzles.
pub fn level_palette(cfg: &ColoringConfig) -> Vec<Color> {
    if cfg.puzzle.is_coloring() {
        palette(cfg.colors, true)
    } else {
        palette(1, false)
    }
}

/// `k` palette colors, after gray when `with_gray`.
fn palette(k: u32, with_gray: bool) -> Vec<Color> {
    let gray = with_gray.then(|| color(GRAY.0, GRAY.1));
    gray.into_iter()
        .chain(PALETTE[..k as usize].iter().map(|&(n, c)| color(n, c)))
        .collect()
}

/// A level over `g` with vertex ids `v0..`, no colors set, the given texts and palette.
fn base_doc(g: &PlanarGraph, texts: [&str; 3], colors: Vec<Color>) -> LevelDoc {
    let vertices = (0..g.vertex_count())
        .map(|i| Vertex {
            x: i64::from(g.x[i]),
            y: i64::from(g.y[i]),
            id: Some(format!("v{i}")),
            ..Vertex::default()
        })
        .collect();
    let edges = g
        .edges
        .iter()
        .map(|&(a, b)| Edge {
            v1: format!("v{a}"),
            v2: format!("v{b}"),
            ..Edge::default()
        })
        .collect();
    let [title, description, objective] = texts.map(|t| Some(t.to_string()));
    LevelDoc {
        title,
        description,
        objective,
        colors,
        vertices,
        edges,
        ..LevelDoc::default()
    }
}

/// `points` and `objective` as plain variables.
fn score_values(points: &str, objective: &str) -> Vec<ValueNode> {
    vec![
        ValueNode::Var {
            id: "points".into(),
            val: points.into(),
        },
        ValueNode::Var {
            id: "objective".into(),
            val: objective.into(),
        },
    ]
}

/// One point per edge walked, from 0.
fn walk_spec(cycle: bool) -> PathSpec {
    PathSpec {
        cycle,
        points: 0,
        rules: vec![PathRule {
            color: None,
            op: PathOp::Add,
            val: 1,
        }],
    }
}

/// Finishes a puzzle: writes the XML and copies the graph.
fn finish(
    kind: PuzzleKind,
    doc: LevelDoc,
    g: &PlanarGraph,
    solution: Solution,
    metrics: PuzzleMetrics,
) -> Puzzle {
    let mut graph = Graph::default();
    let mut tags = Vec::new();
    start_colors(&doc, &mut tags);
    for ((&x, &y), &tag) in g.x.iter().zip(&g.y).zip(&tags) {
        graph.add_vertex(x as f32, y as f32, tag);
    }
    for &(a, b) in &g.edges {
        graph.add_edge(a, b, 0);
    }
    Puzzle {
        kind,
        xml: write_level(&doc),
        doc,
        graph,
        solution,
        metrics,
    }
}

#[cfg(test)]
mod tests;
