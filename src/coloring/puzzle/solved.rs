//! What building a puzzle yields (a [`Puzzle`]: its level, XML and graph, its [`Solution`] and
//! its [`PuzzleMetrics`]) and the memory a worker reuses building them ([`PuzzleScratch`]).

use crate::coloring::config::PuzzleKind;
use crate::coloring::puzzle::dsatur::ColoringSolver;
use crate::coloring::puzzle::planar::{PlanarGraph, PlanarScratch};
use crate::core::graph::Graph;
use crate::levelxml::model::LevelDoc;

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
    pub(super) planar: PlanarScratch,
    pub(super) graph: PlanarGraph,
    pub(super) all: Vec<(u32, u32)>,
    pub(super) solver: ColoringSolver,
}
