//! Vertex-coloring puzzles: every vertex starts gray and must take one of k colors with no edge
//! joining two vertices of one color, proven solvable (and, when asked, not (k-1)-colorable) by
//! the exact DSATUR solver.

use crate::coloring::config::{ColoringConfig, PuzzleKind};
use crate::coloring::puzzle::dsatur::Outcome;
use crate::coloring::puzzle::level_doc::{GRAY, base_doc, finish, palette, score_values};
use crate::coloring::puzzle::planar::connected_graph;
use crate::coloring::puzzle::solved::{Puzzle, PuzzleMetrics, PuzzleScratch, Solution};
use crate::core::error::GenError;
use crate::core::rng::WarrenRng;
use crate::levelxml::model::{Bound, ColorSel, Item, Protect, Rule};

fn fail(reason: &'static str, detail: String) -> GenError {
    GenError {
        reason: reason.into(),
        detail,
    }
}

/// One graph drawn and proven, or why it was rejected.
pub(super) fn attempt(
    cfg: &ColoringConfig,
    rng: &mut WarrenRng,
    s: &mut PuzzleScratch,
) -> Result<Puzzle, GenError> {
    connected_graph(cfg, rng, &mut s.graph, &mut s.planar)
        .map_err(|e| fail("degenerate points", e.to_string()))?;
    let (g, k, budget) = (&s.graph, cfg.colors, cfg.max_solver_nodes);
    let n = g.vertex_count();
    let (outcome, mut solver_nodes) = s.solver.solve(n, &g.edges, k, &[], budget);
    match outcome {
        Outcome::Colored => {}
        Outcome::Impossible => {
            return Err(fail("not k-colorable", format!("{n} vertices, k = {k}")));
        }
        Outcome::GaveUp => return Err(fail("solver budget", format!("{budget} nodes"))),
    }
    // The solver's colors come in canonical order; a random permutation hides that.
    let mut perm: Vec<u8> = (0..k as u8).collect();
    rng.shuffle(&mut perm);
    let colors: Vec<u8> = s
        .solver
        .colors()
        .iter()
        .map(|&c| perm[usize::from(c)])
        .collect();
    let mut proof_nodes = 0;
    if cfg.chromatic {
        let (outcome, nodes) = s.solver.solve(n, &g.edges, k - 1, &[], budget);
        match outcome {
            Outcome::Impossible => proof_nodes = nodes,
            Outcome::Colored => {
                return Err(fail("chromatic number below k", format!("k = {k}")));
            }
            Outcome::GaveUp => return Err(fail("solver budget", format!("{budget} nodes"))),
        }
    }
    let mut fixed = vec![None; n];
    if cfg.clues > 0 {
        let mut order: Vec<u32> = (0..n as u32).collect();
        rng.shuffle(&mut order);
        for &v in &order[..cfg.clues as usize] {
            fixed[v as usize] = Some(colors[v as usize]);
        }
        // The difficulty from the player's start: the search with the clues given.
        let (outcome, nodes) = s.solver.solve(n, &g.edges, k, &fixed, budget);
        match outcome {
            Outcome::Colored => solver_nodes = nodes,
            Outcome::Impossible => unreachable!("the clues come from a proper coloring"),
            Outcome::GaveUp => return Err(fail("solver budget", format!("{budget} nodes"))),
        }
    }
    let description = format!(
        "Color every vertex with one of the {k} colors.;No edge may join two vertices of the same color."
    );
    let mut doc = base_doc(
        g,
        ["Vertex coloring", &description, "Recolor every vertex."],
        palette(k, true),
    );
    for (v, f) in doc.vertices.iter_mut().zip(&fixed) {
        if let Some(c) = f {
            v.color = Some(doc.colors[1 + usize::from(*c)].name.clone());
            v.protect = Protect::COLOR;
        }
    }
    doc.vertex_protect = Some(Protect::ADD.with(Protect::DELETE).with(Protect::EDGES));
    doc.edge_protect = Some(Protect::ADD.with(Protect::COLOR).with(Protect::DELETE));
    doc.rules = vec![
        Rule::EdgeBan {
            v1: ColorSel::Same,
            edge: ColorSel::Any,
            v2: ColorSel::Same,
        },
        Rule::Count {
            item: Item::Vertex,
            bound: Bound::Max,
            color: ColorSel::Named(GRAY.0.to_string()),
            limit: 0,
        },
    ];
    doc.values = score_values("V", "V");
    let metrics = PuzzleMetrics {
        vertices: n as u32,
        edges: g.edges.len() as u32,
        colors: k,
        solver_nodes,
        proof_nodes,
        clues: cfg.clues,
        ..PuzzleMetrics::default()
    };
    Ok(finish(
        PuzzleKind::Vertex,
        doc,
        g,
        Solution::VertexColors(colors),
        metrics,
    ))
}
