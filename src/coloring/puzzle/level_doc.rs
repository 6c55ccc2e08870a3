//! The level file of a puzzle: the palette, the document's skeleton (vertices, edges, texts),
//! scores and walks, each vertex's start color, and the finished puzzle with its XML and graph.

use crate::coloring::config::{ColoringConfig, PuzzleKind};
use crate::coloring::puzzle::planar::PlanarGraph;
use crate::coloring::puzzle::solved::{Puzzle, PuzzleMetrics, Solution};
use crate::core::graph::Graph;
use crate::levelxml::model::{
    Color, Edge, LevelDoc, PathOp, PathRule, PathSpec, ValueNode, Vertex,
};
use crate::levelxml::write_level;

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
pub(super) const GRAY: (&str, u32) = ("gray", 0x8888_88FF);

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
pub(super) fn palette(k: u32, with_gray: bool) -> Vec<Color> {
    let gray = with_gray.then(|| color(GRAY.0, GRAY.1));
    gray.into_iter()
        .chain(PALETTE[..k as usize].iter().map(|&(n, c)| color(n, c)))
        .collect()
}

/// A level over `g` with vertex ids `v0..`, no colors set, the given texts and palette.
pub(super) fn base_doc(g: &PlanarGraph, texts: [&str; 3], colors: Vec<Color>) -> LevelDoc {
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
pub(super) fn score_values(points: &str, objective: &str) -> Vec<ValueNode> {
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
pub(super) fn walk_spec(cycle: bool) -> PathSpec {
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
pub(super) fn finish(
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

/// Each vertex's start color as an index into the level's `<colors>` (a missing color is the
/// first).
pub(crate) fn start_colors(doc: &LevelDoc, out: &mut Vec<u16>) {
    out.clear();
    out.extend(doc.vertices.iter().map(|v| {
        v.color.as_ref().map_or(0, |name| {
            doc.colors
                .iter()
                .position(|c| &c.name == name)
                .expect("puzzle vertices take palette colors") as u16
        })
    }));
}
