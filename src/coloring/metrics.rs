//! [`ColoringMetrics`]: what one GraphColoring puzzle (seed 002) measures, from the puzzle the
//! generator built; `verify` recomputes the ones the level itself determines.

use crate::coloring::config::{ColoringConfig, PuzzleKind};
use crate::coloring::puzzle::Puzzle;

crate::metrics! {
    /// What one GraphColoring puzzle measures: its graph, its palette, its difficulty and its file.
    pub struct ColoringMetrics => COLORING_METRICS {
        puzzle_kind: u32 = "the puzzle: 0 vertex coloring, 1 edge coloring, 2 Eulerian cycle, 3 Eulerian path",
        vertices: u32 = "vertices of the level's graph",
        edges: u32 = "edges of the level's graph",
        colors: u32 = "k, the colors the player chooses from (1 for Eulerian puzzles)",
        solver_nodes: u32 = "difficulty: search nodes the exact solver explored solving the puzzle from its start (Eulerian puzzles: edges walked)",
        proof_nodes: u32 = "search nodes the solver explored refuting every (k-1)-coloring (0 unless chromatic)",
        chromatic: u32 = "1 when the chromatic number is proven to be exactly k (vertex puzzles of a chromatic profile)",
        clues: u32 = "vertices given in their solution color, protected",
        odd_vertices: u32 = "vertices of odd degree",
        attempts: u32 = "graphs drawn before this one was accepted (1 = the first)",
        xml_bytes: u32 = "length of the level's XML in bytes",
    }
}

/// Vertices of odd degree.
pub(crate) fn odd_vertices(n: usize, src: &[u32], dst: &[u32]) -> u32 {
    let mut odd = vec![false; n];
    for (&a, &b) in src.iter().zip(dst) {
        odd[a as usize] ^= true;
        odd[b as usize] ^= true;
    }
    odd.iter().filter(|&&o| o).count() as u32
}

/// The metrics of `p`.
pub(crate) fn metric_values(cfg: &ColoringConfig, p: &Puzzle) -> ColoringMetrics {
    let m = &p.metrics;
    // Search counts are stored as u32 columns, saturating (budgets keep them far below).
    let count = |n: u64| n.min(u64::from(u32::MAX)) as u32;
    ColoringMetrics {
        puzzle_kind: p.kind.code(),
        vertices: m.vertices,
        edges: m.edges,
        colors: m.colors,
        solver_nodes: count(m.solver_nodes),
        proof_nodes: count(m.proof_nodes),
        chromatic: u32::from(cfg.chromatic && cfg.puzzle == PuzzleKind::Vertex),
        clues: m.clues,
        odd_vertices: odd_vertices(p.graph.vertex_count(), &p.graph.src, &p.graph.dst),
        attempts: m.attempts,
        xml_bytes: p.xml.len() as u32,
    }
}
