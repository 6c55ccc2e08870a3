//! Re-checking a stored `coloring` level (seed 002) from its record alone:
//!
//! - the level XML reads with warren's own parser, and `layout_hash` is the hash of the stored
//!   XML and solution (so, with `warren verify`'s fresh generation of the seed, which compares
//!   hashes, the stored level is the one its seed makes);
//! - the graph columns agree with the XML: positions, edges, start colors as tags, no flags;
//! - the level is the profile's puzzle: its palette, and a start that is not already complete;
//! - the stored solution, played on the level, keeps every protected color and completes the
//!   level under warren's evaluator ([`check_played`]): every rule holds and the points reach
//!   the objective (for Eulerian puzzles, the walk is a path or cycle through every edge once);
//! - vertex puzzles: the solution is a proper k-coloring of the graph columns, and for a
//!   chromatic profile the exact solver again refutes every (k-1)-coloring (within the
//!   profile's node budget, which the generator's proof also met; this costs about what the
//!   generation's own proof did, `proof_nodes` search nodes);
//! - the metrics agree with the level.

use crate::coloring::config::{ColoringConfig, PuzzleKind};
use crate::coloring::metrics::{COLORING_METRICS, ColoringMetrics, odd_vertices};
use crate::coloring::puzzle::planar::SLIVER_GAP;
use crate::coloring::puzzle::{
    ColoringSolver, Outcome, Solution, check_played, is_proper, level_palette, start_colors,
};
use crate::core::error::Violation;
use crate::core::generator::{ExtraValue, LevelRecord};
use crate::core::sliver::slivers_brute;
use crate::ensure_level;
use crate::levelxml::ResolvedGraph;
use crate::levelxml::model::{LevelDoc, Protect};
use crate::levelxml::parse_level;
use crate::levelxml::{EvalOptions, evaluate};

/// See the module docs.
pub fn verify(cfg: &ColoringConfig, record: &LevelRecord<'_>) -> Result<(), Violation> {
    let level = &record.level;
    let [xml, stored] = level.extra else {
        return Err(Violation::new(format!(
            "{} extra columns, expected 2",
            level.extra.len()
        )));
    };
    let xml = xml
        .as_str()
        .ok_or_else(|| Violation::new("column `level_xml` is not text"))?;
    let solution = match (cfg.puzzle, stored) {
        (PuzzleKind::Vertex, ExtraValue::ListU8(c)) => Solution::VertexColors(c.to_vec()),
        (PuzzleKind::Edge, ExtraValue::ListU8(c)) => Solution::EdgeColors(c.to_vec()),
        (PuzzleKind::EulerCycle | PuzzleKind::EulerPath, ExtraValue::ListU32(w)) => {
            Solution::Walk(w.to_vec())
        }
        _ => return Err(Violation::new("the solution column has the wrong type")),
    };
    let doc = parse_level(xml, &format!("level {}", record.index))
        .map_err(|e| Violation::new(format!("the level XML does not read: {e}")))?
        .doc;
    let resolved = ResolvedGraph::new(&doc).map_err(|e| Violation::new(e.to_string()))?;
    check_graph(record, &doc, &resolved)?;
    check_slivers(record, cfg.spacing)?;
    let names: Vec<String> = level_palette(cfg).into_iter().map(|c| c.name).collect();
    ensure_level!(
        doc.colors.iter().map(|c| &c.name).eq(names.iter()),
        "the level's colors are not the profile's palette {names:?}"
    );
    let start = evaluate(&doc, &EvalOptions::default())
        .map_err(|e| Violation::new(format!("the level does not evaluate: {e}")))?;
    ensure_level!(!start.complete, "the level is complete before any move");
    check_played(&doc, &solution)
        .map_err(|e| Violation::new(format!("the stored solution fails: {e}")))?;
    if let Solution::VertexColors(colors) = &solution {
        ensure_level!(
            is_proper(&resolved.ends, colors, cfg.colors),
            "the solution is not a proper {}-coloring of the graph",
            cfg.colors
        );
        if cfg.chromatic {
            refute(cfg.colors - 1, &resolved, cfg.max_solver_nodes)?;
        }
    }
    check_metrics(cfg, &doc, &resolved, level.metrics, xml.len())
}

/// The graph columns are the level's graph.
fn check_graph(
    record: &LevelRecord<'_>,
    doc: &LevelDoc,
    resolved: &ResolvedGraph,
) -> Result<(), Violation> {
    let graph = record
        .level
        .graph
        .ok_or_else(|| Violation::new("no graph columns"))?;
    let n = doc.vertices.len();
    ensure_level!(
        graph.x.len() == n && graph.y.len() == n && graph.tag.len() == n,
        "the graph columns hold {} vertices, the level {n}",
        graph.x.len()
    );
    for (i, v) in doc.vertices.iter().enumerate() {
        ensure_level!(
            (graph.x[i], graph.y[i]) == (v.x as f32, v.y as f32),
            "vertex {i} is at ({}, {}) in the graph columns, ({}, {}) in the level",
            graph.x[i],
            graph.y[i],
            v.x,
            v.y
        );
    }
    let m = doc.edges.len();
    ensure_level!(
        graph.src.len() == m && graph.dst.len() == m && graph.flags.len() == m,
        "the graph columns hold {} edges, the level {m}",
        graph.src.len()
    );
    for (e, &(a, b)) in resolved.ends.iter().enumerate() {
        ensure_level!(
            (graph.src[e], graph.dst[e]) == (a, b),
            "edge {e} joins {} and {} in the graph columns, {a} and {b} in the level",
            graph.src[e],
            graph.dst[e]
        );
    }
    ensure_level!(graph.flags.iter().all(|&f| f == 0), "an edge has flags set");
    let mut tags = Vec::new();
    start_colors(doc, &mut tags);
    ensure_level!(
        graph.tag == tags,
        "the vertex tags are not the level's start colors"
    );
    Ok(())
}

/// No edge passes closer than [`SLIVER_GAP`] spacings to a vertex it does not join (every
/// vertex checked).
fn check_slivers(record: &LevelRecord<'_>, spacing: u32) -> Result<(), Violation> {
    let graph = record
        .level
        .graph
        .ok_or_else(|| Violation::new("no graph columns"))?;
    let pairs: Vec<(u32, u32)> = graph
        .src
        .iter()
        .copied()
        .zip(graph.dst.iter().copied())
        .collect();
    let gap = SLIVER_GAP * spacing as f32;
    if let Some(&e) = slivers_brute(graph.x, graph.y, &pairs, gap).first() {
        return Err(Violation::new(format!(
            "edge {e} ({} - {}) passes a vertex it does not join by less than {gap} px",
            pairs[e].0, pairs[e].1
        )));
    }
    Ok(())
}

/// The exact solver finds no proper coloring with `k` colors.
fn refute(k: u32, g: &ResolvedGraph, budget: u64) -> Result<(), Violation> {
    let mut solver = ColoringSolver::default();
    let n = g.vertex_color.len();
    match solver.solve(n, &g.ends, k, &[], budget).0 {
        Outcome::Impossible => Ok(()),
        Outcome::Colored => Err(Violation::new(format!(
            "the graph is {k}-colorable: its chromatic number is below k"
        ))),
        Outcome::GaveUp => Err(Violation::new(format!(
            "no {k}-coloring refutation within {budget} nodes"
        ))),
    }
}

fn check_metrics(
    cfg: &ColoringConfig,
    doc: &LevelDoc,
    resolved: &ResolvedGraph,
    m: &[f64],
    xml_bytes: usize,
) -> Result<(), Violation> {
    let m = ColoringMetrics::from_values(m).ok_or_else(|| {
        Violation::new(format!(
            "{} metrics, expected {}",
            m.len(),
            COLORING_METRICS.len()
        ))
    })?;
    let chromatic = cfg.chromatic && cfg.puzzle == PuzzleKind::Vertex;
    let colors = if cfg.puzzle.is_coloring() {
        cfg.colors
    } else {
        1
    };
    let clues = doc
        .vertices
        .iter()
        .filter(|v| v.color.is_some() && v.protect.contains(Protect::COLOR))
        .count();
    let (src, dst): (Vec<u32>, Vec<u32>) = resolved.ends.iter().copied().unzip();
    let vertex_clues = if cfg.puzzle == PuzzleKind::Vertex {
        clues
    } else {
        0
    };
    let expected = [
        ("puzzle_kind", m.puzzle_kind, cfg.puzzle.code()),
        ("vertices", m.vertices, doc.vertices.len() as u32),
        ("edges", m.edges, doc.edges.len() as u32),
        ("colors", m.colors, colors),
        ("chromatic", m.chromatic, u32::from(chromatic)),
        ("clues", m.clues, vertex_clues as u32),
        (
            "odd_vertices",
            m.odd_vertices,
            odd_vertices(doc.vertices.len(), &src, &dst),
        ),
        ("xml_bytes", m.xml_bytes, xml_bytes as u32),
    ];
    for (name, stored, want) in expected {
        ensure_level!(stored == want, "{name} = {stored}, the level gives {want}");
    }
    let budget = cfg.max_solver_nodes;
    let (solver, proof, attempts) = (
        u64::from(m.solver_nodes),
        u64::from(m.proof_nodes),
        m.attempts,
    );
    ensure_level!(
        solver <= budget,
        "solver_nodes = {solver} is outside 0..={budget}"
    );
    ensure_level!(
        if chromatic {
            (1..=budget).contains(&proof)
        } else {
            proof == 0
        },
        "proof_nodes = {proof} for a profile with chromatic = {}",
        cfg.chromatic
    );
    ensure_level!(
        (1..=cfg.max_attempts).contains(&attempts),
        "attempts = {attempts} is outside 1..={}",
        cfg.max_attempts
    );
    if !cfg.puzzle.is_coloring() {
        ensure_level!(
            solver == doc.edges.len() as u64,
            "solver_nodes = {solver}, an Eulerian walk takes {} edges",
            doc.edges.len()
        );
    }
    Ok(())
}
