//! `graph-color`: colour a graph with k colours, k its chromatic number proven by an exact
//! solver, in reasoning-gym's `graph_color` form (its question text, its JSON-map answer).
//!
//! An item draws n uniformly from the spec's range, then graphs on n vertices with a planted
//! k-colouring (so the chromatic number is at most k) until one is kept: its identity (n and
//! the sorted edges) lies in the split's third, greedy colouring in index order needs more
//! than k colours when `greedy_fails` asks for it, and the exact DSATUR solver refutes every
//! (k-1)-colouring (so the chromatic number is exactly k). The answer is the solver's own
//! k-colouring, the trace (`trace = "dsatur"`) every colour it tried and every undo.
//!
//! The ground truth is `{"task":"graph-color","n":..,"k":..,"edges":[[a,b],..]}`; the scorer
//! gives 1 to any proper k-colouring of it written as a JSON object of vertex ids to colours
//! `1..=k`, 0 to anything else. `verify` rebuilds the whole item from the stored graph.

use std::cell::RefCell;
use std::fmt::Write;

use serde::Deserialize;

use crate::coloring::puzzle::{ColoringSolver, SearchStep};
use crate::core::error::{GenError, Violation};
use crate::core::generator::LevelRecord;
use crate::core::rng::WarrenRng;
use crate::ensure_level;
use crate::task::answer::{read_graph_truth, read_id_map};
use crate::task::chromatic::{
    IdentityScratch, Proof, color_with, draw_planted, greedy_colors, identity, refute_fewer,
};
use crate::task::config::{TaskConfig, TraceKind};
use crate::task::item::{ItemOut, Split, in_split};
use crate::task::metrics::GraphColorMetrics;

/// The task's shared state (none: every item is made from its seed and the spec).
pub struct GraphColorTasks;

/// One worker's memory: the planted classes, the edges and the exact solver.
#[derive(Default)]
pub struct GraphColorScratch {
    class: Vec<u8>,
    edges: Vec<(u32, u32)>,
    solver: ColoringSolver,
    identity: IdentityScratch,
}

/// Graphs drawn for one item before it gives up (a draw that fails the split or the greedy
/// test costs about a microsecond; only the others run the solver).
const ATTEMPTS: u32 = 4096;

/// Most vertices a ground truth may claim before the scorer refuses it unread.
const MAX_SCORED_VERTICES: u32 = 1 << 16;

/// Why the draws of an item were rejected, for the error of one that runs out.
#[derive(Default)]
struct Rejected {
    split: u32,
    greedy: u32,
    fewer: u32,
    gave_up: u32,
}

impl GraphColorTasks {
    /// The state for `cfg` (validated).
    pub fn new(_cfg: &TaskConfig) -> Self {
        GraphColorTasks
    }

    /// Writes one item from the random stream `seed` (already split-mixed).
    ///
    /// # Errors
    /// When no graph in [`ATTEMPTS`] draws is kept (the spec's n, k and edge probability
    /// rarely give chromatic number k, or greedy rarely fails on them).
    pub fn item(
        &self,
        cfg: &TaskConfig,
        seed: u64,
        split: Split,
        s: &mut GraphColorScratch,
        out: &mut ItemOut,
    ) -> Result<(), GenError> {
        let mut rng = WarrenRng::new(seed);
        let n = cfg.min_vertices + rng.below(cfg.max_vertices - cfg.min_vertices + 1);
        let k = cfg.colors;
        let mut rejected = Rejected::default();
        for _ in 0..ATTEMPTS {
            draw_planted(
                &mut rng,
                n,
                k,
                cfg.edge_probability,
                &mut s.class,
                &mut s.edges,
            );
            // NOTE: the identity is checked before the proof, so a graph of another split
            // costs no search.
            let id = identity(n, &s.edges, &mut s.identity);
            if !in_split(id, split) {
                rejected.split += 1;
                continue;
            }
            let greedy = greedy_colors(n, &s.edges);
            if cfg.greedy_fails && greedy <= k {
                rejected.greedy += 1;
                continue;
            }
            let proof_nodes = match refute_fewer(&mut s.solver, n, &s.edges, k) {
                Proof::Refuted(nodes) => nodes,
                Proof::Fewer => {
                    rejected.fewer += 1;
                    continue;
                }
                Proof::GaveUp => {
                    rejected.gave_up += 1;
                    continue;
                }
            };
            if write_item(cfg, n, &s.edges, greedy, proof_nodes, &mut s.solver, out) {
                out.identity = id;
                return Ok(());
            }
            rejected.gave_up += 1;
        }
        Err(GenError {
            reason: "chromatic number not met".into(),
            detail: format!(
                "no graph on {n} vertices kept in {ATTEMPTS} draws: {} outside split {}, {} \
                 greedy-colourable with {k}, {} colourable with {}, {} beyond the solver's budget",
                rejected.split,
                split.name(),
                rejected.greedy,
                rejected.fewer,
                k - 1,
                rejected.gave_up
            ),
        })
    }
}

/// Colours the graph (proven to need `cfg.colors`) with the exact solver and writes the whole
/// item into `out`: question, answer, ground truth, trace, graph view and metrics. `false`
/// when the solver gave up (nothing is written then).
fn write_item(
    cfg: &TaskConfig,
    n: u32,
    edges: &[(u32, u32)],
    greedy: u32,
    proof_nodes: u64,
    solver: &mut ColoringSolver,
    out: &mut ItemOut,
) -> bool {
    let k = cfg.colors;
    let traced = cfg.trace == TraceKind::Dsatur;
    if color_with(solver, n, edges, k, traced).is_none() {
        return false;
    }
    write_question(n, k, edges, &mut out.question);
    write_answer(solver.colors(), &mut out.answer);
    write_ground_truth(n, k, edges, &mut out.ground_truth);
    out.trace.clear();
    let trace_length = if traced {
        write_trace(solver.steps(), &mut out.trace)
    } else {
        0
    };
    write_graph(n, edges, out);
    GraphColorMetrics {
        vertices: n,
        edges: edges.len() as u32,
        colors: k,
        greedy_colors: greedy,
        proof_nodes: proof_nodes.min(u64::from(u32::MAX)) as u32,
        rendering: 0,
        trace_length,
        answer_length: out.answer.len() as u32,
    }
    .write_to(&mut out.metrics);
    true
}

/// reasoning-gym's question: the vertices, the edges as Python tuples, the colours `1..=k`,
/// and the answer format.
fn write_question(n: u32, k: u32, edges: &[(u32, u32)], q: &mut String) {
    q.clear();
    q.push_str(
        "Please provide a coloring for this graph such that every vertex is not connected to a \
         vertex of the same color. The graph has these properties:\n\nVertices: [",
    );
    for v in 0..n {
        let _ = write!(q, "{}{v}", if v == 0 { "" } else { ", " });
    }
    q.push_str("]\nEdges: [");
    for (i, &(a, b)) in edges.iter().enumerate() {
        let _ = write!(q, "{}({a}, {b})", if i == 0 { "" } else { ", " });
    }
    q.push_str("]\nPossible colors: [");
    for c in 1..=k {
        let _ = write!(q, "{}{c}", if c == 1 { "" } else { ", " });
    }
    q.push_str(
        "]\n\nReturn your solution as a JSON map of vertices to colors. (For example: \
         {\"0\": 1, \"1\": 2, \"2\": 3}.)\n",
    );
}

/// The colouring (`0..k` per vertex) as the JSON map `{"0": 1, "1": 2, ...}` of colours
/// `1..=k`.
fn write_answer(colors: &[u8], out: &mut String) {
    out.clear();
    out.push('{');
    for (v, &c) in colors.iter().enumerate() {
        let _ = write!(
            out,
            "{}\"{v}\": {}",
            if v == 0 { "" } else { ", " },
            u32::from(c) + 1
        );
    }
    out.push('}');
}

/// `{"task":"graph-color","n":4,"k":3,"edges":[[0,1],[1,2]]}`.
fn write_ground_truth(n: u32, k: u32, edges: &[(u32, u32)], out: &mut String) {
    out.clear();
    let _ = write!(
        out,
        "{{\"task\":\"graph-color\",\"n\":{n},\"k\":{k},\"edges\":["
    );
    for (i, &(a, b)) in edges.iter().enumerate() {
        let _ = write!(out, "{}[{a},{b}]", if i == 0 { "" } else { "," });
    }
    out.push_str("]}");
}

/// The solver's steps as `assign v c` (colour `c` in `1..=k`) and `undo v` groups; returns
/// their number.
fn write_trace(steps: &[SearchStep], out: &mut String) -> u32 {
    out.clear();
    for (i, step) in steps.iter().enumerate() {
        let sep = if i == 0 { "" } else { " " };
        let _ = match *step {
            SearchStep::Assign { vertex, color } => {
                write!(out, "{sep}assign {vertex} {}", u32::from(color) + 1)
            }
            SearchStep::Undo { vertex } => write!(out, "{sep}undo {vertex}"),
        };
    }
    steps.len() as u32
}

/// Radius of the circle the graph view places its vertices on.
const RADIUS: f64 = 100.0;

/// The graph view: vertex `v` at angle `2 pi v / n` on a circle, the edges, zero flags.
fn write_graph(n: u32, edges: &[(u32, u32)], out: &mut ItemOut) {
    out.x.clear();
    out.y.clear();
    for v in 0..n {
        let angle = std::f64::consts::TAU * f64::from(v) / f64::from(n);
        out.x.push((RADIUS * angle.cos()) as f32);
        out.y.push((RADIUS * angle.sin()) as f32);
    }
    out.src.clear();
    out.dst.clear();
    out.flags.clear();
    for &(a, b) in edges {
        out.src.push(a);
        out.dst.push(b);
        out.flags.push(0);
    }
}

/// A `graph-color` ground truth.
#[derive(Deserialize)]
struct GraphTruth {
    n: u32,
    k: u32,
    edges: Vec<[u32; 2]>,
}

/// Scores an answer against a `graph-color` ground truth: 1 when it is a JSON object giving
/// every vertex `0..n` (key `"7"` or `7`, each once) a colour in `1..=k` and no edge joins two
/// vertices of one colour, else 0.
///
/// # Runtime
/// O(answer length + n + E); allocates the n colours.
pub fn score(answer: &str, ground_truth: &str) -> f64 {
    thread_local! {
        /// The edges and colours of the last score, reused (scoring runs by the million).
        static BUFFERS: RefCell<(Vec<[u32; 2]>, Vec<u32>)> = const { RefCell::new((Vec::new(), Vec::new())) };
    }
    BUFFERS.with(|b| {
        let (edges, colors) = &mut *b.borrow_mut();
        let (n, k) = match read_graph_truth(ground_truth, edges) {
            Some(nk) => nk,
            None => match serde_json::from_str::<GraphTruth>(ground_truth) {
                Ok(t) => {
                    *edges = t.edges;
                    (t.n, t.k)
                }
                Err(_) => return 0.0,
            },
        };
        if n > MAX_SCORED_VERTICES || !read_id_map(answer, n as usize, k, colors) {
            return 0.0;
        }
        let proper =
            edges.iter().all(
                |&[a, b]| match (colors.get(a as usize), colors.get(b as usize)) {
                    (Some(x), Some(y)) => x != y,
                    _ => false,
                },
            );
        if proper { 1.0 } else { 0.0 }
    })
}

/// Re-checks a stored item beyond its answer's score (which `verify` already found to be 1):
/// the ground truth's graph is the stored one, in canonical form and in the spec's range; its
/// identity lies in the split; greedy fails when the spec asks it to; the exact solver again
/// refutes every (k-1)-colouring; and the question, answer, ground truth, trace, graph view
/// and metrics are exactly what the graph makes.
///
/// # Runtime
/// About one item's generation: the proof and the colouring search, O(n + E) text.
pub fn verify(cfg: &TaskConfig, record: &LevelRecord<'_>) -> Result<(), Violation> {
    let level = &record.level;
    let graph = level
        .graph
        .ok_or_else(|| Violation::new("a graph-color item stores no graph"))?;
    let text = |i: usize| {
        level
            .extra
            .get(i)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
    };
    let truth: GraphTruth = serde_json::from_str(text(2))
        .map_err(|e| Violation::new(format!("the ground truth does not read: {e}")))?;
    let n = graph.x.len() as u32;
    let k = cfg.colors;
    ensure_level!(
        truth.n == n && truth.k == k,
        "the ground truth says n = {}, k = {}; the graph has {n} vertices and the spec k = {k}",
        truth.n,
        truth.k
    );
    ensure_level!(
        (cfg.min_vertices..=cfg.max_vertices).contains(&n),
        "{n} vertices, outside task.min_vertices..=task.max_vertices"
    );
    ensure_level!(
        graph.src.len() == graph.dst.len(),
        "{} edge sources, {} destinations",
        graph.src.len(),
        graph.dst.len()
    );
    let edges: Vec<(u32, u32)> = graph
        .src
        .iter()
        .copied()
        .zip(graph.dst.iter().copied())
        .collect();
    ensure_level!(
        truth
            .edges
            .iter()
            .map(|&[a, b]| (a, b))
            .eq(edges.iter().copied()),
        "the ground truth's edges are not the stored graph's"
    );
    ensure_level!(
        edges.iter().all(|&(a, b)| a < b && b < n) && edges.windows(2).all(|w| w[0] < w[1]),
        "the edges are not sorted pairs (a, b) with a < b < {n}"
    );
    ensure_level!(
        in_split(
            identity(n, &edges, &mut IdentityScratch::default()),
            cfg.split
        ),
        "the graph is not in split {}'s third of the identity space",
        cfg.split.name()
    );
    let greedy = greedy_colors(n, &edges);
    ensure_level!(
        !cfg.greedy_fails || greedy > k,
        "greedy colouring in index order needs only {greedy} colours (task.greedy_fails)"
    );
    let mut solver = ColoringSolver::default();
    let proof_nodes = match refute_fewer(&mut solver, n, &edges, k) {
        Proof::Refuted(nodes) => nodes,
        other => {
            return Err(Violation::new(format!(
                "the chromatic number is not proven to be {k}: with {} colours the solver says \
                 {other:?}",
                k - 1
            )));
        }
    };
    let mut fresh = ItemOut::default();
    ensure_level!(
        write_item(cfg, n, &edges, greedy, proof_nodes, &mut solver, &mut fresh),
        "the solver finds no {k}-colouring within its budget"
    );
    compare(cfg, level, &fresh)
}

/// The stored texts, metrics and vertex positions equal the ones the graph makes.
fn compare(
    cfg: &TaskConfig,
    level: &crate::core::generator::Level<'_>,
    fresh: &ItemOut,
) -> Result<(), Violation> {
    let text = |i: usize| {
        level
            .extra
            .get(i)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
    };
    ensure_level!(text(0) == fresh.question, "the question is not the graph's");
    ensure_level!(
        text(1) == fresh.answer,
        "the answer {:?} is not the solver's colouring {:?}",
        text(1),
        fresh.answer
    );
    ensure_level!(
        text(2) == fresh.ground_truth,
        "the ground truth is not written in its canonical form"
    );
    if cfg.trace == TraceKind::Dsatur {
        ensure_level!(
            text(3) == fresh.trace,
            "the trace is not the solver's search"
        );
    }
    let stored = GraphColorMetrics::from_values(level.metrics)
        .ok_or_else(|| Violation::new("the metric row has the wrong length"))?;
    let made = GraphColorMetrics::from_values(&fresh.metrics);
    ensure_level!(
        Some(stored) == made,
        "the metrics {stored:?} are not the graph's {made:?}"
    );
    let graph = level
        .graph
        .ok_or_else(|| Violation::new("a graph-color item stores no graph"))?;
    let near = |a: &[f32], b: &[f32]| {
        a.len() == b.len() && a.iter().zip(b).all(|(p, q)| (p - q).abs() < 1e-3)
    };
    ensure_level!(
        near(graph.x, &fresh.x) && near(graph.y, &fresh.y),
        "the vertices are not on the view's circle"
    );
    ensure_level!(
        graph.flags.len() == fresh.flags.len() && graph.flags.iter().all(|&f| f == 0),
        "the edge flags are not one 0 per edge"
    );
    Ok(())
}

#[cfg(test)]
#[path = "graph_color_tests.rs"]
mod tests;
