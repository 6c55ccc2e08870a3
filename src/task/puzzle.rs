//! `coloring-puzzle`: the GraphColoring puzzles the `coloring` kind makes (edge colouring,
//! Eulerian paths and cycles) as tasks. Each item builds a puzzle with the kind's own builder
//! ([`build_puzzle`], which proves it solvable) from a seed drawn from the item's stream,
//! until one lies in the split's third of the identity space (its graph up to renumbering, the
//! item's `canonical_hash`: no recolouring or renumbering of a puzzle's graph is in two splits);
//! the question states the graph
//! as the model needs it (vertices, their fixed colours and the edges with their ids and the
//! colour quotas for an edge puzzle; the walk asked for and where it may start for an Eulerian
//! one), the answer is the builder's own solution.
//!
//! The ground truth, `{"task":"coloring-puzzle","puzzle":..,"n":..,"edges":[[a,b],..],..}`
//! (with `k`, `vertex_colors` and `quota` for edge puzzles), holds the whole puzzle, so the
//! scorer checks ANY solution: an edge colouring (a JSON object of edge ids to colours, or a
//! JSON list of colours in edge order) that avoids both ends' colours on every edge and meets
//! every quota, or a walk (vertex ids) through every edge exactly once, closed for a cycle.
//! Vertex puzzles belong to `graph-color`.

use std::fmt::Write;

use crate::coloring::ColoringConfig;
use crate::coloring::puzzle::{
    Puzzle, PuzzleKind, PuzzleScratch as BuildScratch, Solution, build_puzzle, solve_edges,
};
use crate::core::error::{ConfigError, GenError, Violation, check};
use crate::core::generator::LevelRecord;
use crate::core::rng::WarrenRng;
use crate::ensure_level;
use crate::task::chromatic::{IdentityScratch, identity};
use crate::task::config::{TaskConfig, TraceKind};
use crate::task::item::{ItemOut, Split, in_split};
use crate::task::metrics::PuzzleTaskMetrics;
use crate::task::puzzle_score::PuzzleTruth;
use crate::task::setup::TaskSetupError;

pub use crate::task::puzzle_score::score;

/// The task's shared state: the puzzle parameters, defaults filled in.
pub struct PuzzleTasks {
    coloring: ColoringConfig,
}

/// One worker's memory: the builder's scratch and the puzzle's parts as the task states them.
#[derive(Default)]
pub struct PuzzleScratch {
    build: BuildScratch,
    parts: Parts,
    identity: IdentityScratch,
}

/// Puzzles built for one item before it gives up (each lies in the split with chance 1/3).
const DRAWS: u32 = 64;

/// The puzzle parameters of `cfg`: `[task.coloring]`, or the coloring kind's defaults with
/// `puzzle = "edge"`.
pub fn puzzle_config(cfg: &TaskConfig) -> ColoringConfig {
    cfg.coloring
        .as_deref()
        .cloned()
        .unwrap_or_else(|| ColoringConfig {
            puzzle: PuzzleKind::Edge,
            ..ColoringConfig::default()
        })
}

/// Refuses a vertex puzzle (those are `graph-color` items), a value the coloring kind
/// refuses, and a solver trace (the puzzles have none).
fn validate(cfg: &TaskConfig, coloring: &ColoringConfig) -> Result<(), ConfigError> {
    check(
        coloring.puzzle != PuzzleKind::Vertex,
        "task.coloring.puzzle",
        || {
            "= \"vertex\" is a graph-color task; coloring-puzzle takes edge, euler_path or \
             euler_cycle"
                .into()
        },
    )?;
    coloring.validate()?;
    check(cfg.trace == TraceKind::None, "task.trace", || {
        "of coloring-puzzle is none (its puzzles have no solver trace)".into()
    })?;
    cfg.validate_text_only()
}

/// What a question, a ground truth and an identity are made of: the graph as the model sees
/// it (no positions).
#[derive(Default, Debug, PartialEq)]
struct Parts {
    kind: Option<PuzzleKind>,
    n: u32,
    edges: Vec<(u32, u32)>,
    /// Edge puzzles: colours `1..=k`.
    k: u32,
    /// Edge puzzles: each vertex's fixed colour, `1..=k`.
    vertex_colors: Vec<u32>,
    /// Edge puzzles: edges each colour must take.
    quota: Vec<u32>,
}

impl Parts {
    fn kind(&self) -> PuzzleKind {
        self.kind.unwrap_or(PuzzleKind::Edge)
    }

    /// The parts of a built puzzle.
    fn load(&mut self, p: &Puzzle) {
        self.kind = Some(p.kind);
        self.n = p.graph.vertex_count() as u32;
        self.edges.clear();
        self.edges
            .extend(p.graph.src.iter().copied().zip(p.graph.dst.iter().copied()));
        self.vertex_colors.clear();
        self.quota.clear();
        self.k = 0;
        if let Solution::EdgeColors(planted) = &p.solution {
            self.k = p.metrics.colors;
            // NOTE: a vertex's tag is its start colour in the level's palette, gray first, so
            // tag t is colour t of 1..=k.
            self.vertex_colors
                .extend(p.graph.tag.iter().map(|&t| u32::from(t)));
            self.quota.resize(self.k as usize, 0);
            for &c in planted {
                self.quota[usize::from(c)] += 1;
            }
        }
    }

    /// The split identity: the `canonical_hash` the archive stores for the item, its graph up
    /// to renumbering (no colours, no quotas), so every renumbering and every recolouring of
    /// a puzzle's graph shares its split.
    fn identity(&self, s: &mut IdentityScratch) -> u64 {
        identity(self.n, &self.edges, s)
    }

    /// Vertices of odd degree, in index order.
    fn odd_vertices(&self) -> Vec<u32> {
        let mut odd = vec![false; self.n as usize];
        for &(a, b) in &self.edges {
            odd[a as usize] ^= true;
            odd[b as usize] ^= true;
        }
        (0..self.n).filter(|&v| odd[v as usize]).collect()
    }
}

impl PuzzleTasks {
    /// The state for `cfg`.
    ///
    /// # Errors
    /// `task.coloring.puzzle = "vertex"`, a `[task.coloring]` value out of range, or a trace.
    pub fn new(cfg: &TaskConfig) -> Result<Self, TaskSetupError> {
        let coloring = puzzle_config(cfg);
        validate(cfg, &coloring)?;
        Ok(Self { coloring })
    }

    /// Writes one item from the random stream `seed` (already split-mixed).
    ///
    /// # Errors
    /// The builder's error for a seed it cannot make a puzzle from, or no puzzle of the split
    /// in [`DRAWS`] puzzles.
    pub fn item(
        &self,
        _cfg: &TaskConfig,
        seed: u64,
        _index: u64,
        split: Split,
        s: &mut PuzzleScratch,
        out: &mut ItemOut,
    ) -> Result<(), GenError> {
        let mut rng = WarrenRng::new(seed);
        for draw in 1..=DRAWS {
            let p = build_puzzle(&self.coloring, rng.next_u64(), &mut s.build)?;
            s.parts.load(&p);
            let id = s.parts.identity(&mut s.identity);
            if !in_split(id, split) {
                continue;
            }
            out.identity = id;
            write_item(&p, &s.parts, draw, out);
            return Ok(());
        }
        Err(GenError {
            reason: "no puzzle in split".into(),
            detail: format!(
                "none of {DRAWS} {} puzzles lies in split {}",
                self.coloring.puzzle.name(),
                split.name()
            ),
        })
    }
}

/// The whole item of puzzle `p` (its parts `parts`), the `draw`th built.
fn write_item(p: &Puzzle, parts: &Parts, draw: u32, out: &mut ItemOut) {
    write_question(parts, &mut out.question);
    write_ground_truth(parts, &mut out.ground_truth);
    out.answer.clear();
    match &p.solution {
        Solution::EdgeColors(planted) => {
            out.answer.push('{');
            for (e, &c) in planted.iter().enumerate() {
                let sep = if e == 0 { "" } else { ", " };
                let _ = write!(out.answer, "{sep}\"{e}\": {}", u32::from(c) + 1);
            }
            out.answer.push('}');
        }
        Solution::Walk(walk) => write_walk(&parts.edges, walk, &mut out.answer),
        Solution::VertexColors(_) => unreachable!("vertex puzzles are refused in PuzzleTasks::new"),
    }
    out.x.clear();
    out.y.clear();
    out.x.extend_from_slice(&p.graph.x);
    out.y.extend_from_slice(&p.graph.y);
    out.src.clear();
    out.dst.clear();
    out.src.extend_from_slice(&p.graph.src);
    out.dst.extend_from_slice(&p.graph.dst);
    out.flags.clear();
    out.flags.resize(parts.edges.len(), 0);
    let count = |n: u64| n.min(u64::from(u32::MAX)) as u32;
    PuzzleTaskMetrics {
        puzzle_kind: p.kind.code(),
        vertices: parts.n,
        edges: parts.edges.len() as u32,
        colors: p.metrics.colors,
        solver_nodes: count(p.metrics.solver_nodes),
        odd_vertices: parts.odd_vertices().len() as u32,
        draws: draw,
        answer_length: out.answer.len() as u32,
    }
    .write_to(&mut out.metrics);
}

/// A walk given as edge indices, as the vertices it visits separated by spaces.
fn write_walk(edges: &[(u32, u32)], walk: &[u32], out: &mut String) {
    let Some(&first) = walk.first() else { return };
    let (a, b) = edges[first as usize];
    // The start is the first edge's end that the second edge does not touch (a simple graph
    // has no two edges with both ends in common).
    let mut at = match walk.get(1).map(|&e| edges[e as usize]) {
        Some((c, d)) if a == c || a == d => b,
        _ => a,
    };
    let _ = write!(out, "{at}");
    for &e in walk {
        let (a, b) = edges[e as usize];
        at = if at == a { b } else { a };
        let _ = write!(out, " {at}");
    }
}

/// The question: what to do, the graph, the answer's form.
fn write_question(parts: &Parts, q: &mut String) {
    q.clear();
    let list = |q: &mut String, values: &mut dyn Iterator<Item = u32>| {
        q.push('[');
        for (i, v) in values.enumerate() {
            let _ = write!(q, "{}{v}", if i == 0 { "" } else { ", " });
        }
        q.push(']');
    };
    match parts.kind() {
        PuzzleKind::EulerPath => {
            let odd = parts.odd_vertices();
            let (s, t) = (odd.first().copied(), odd.get(1).copied());
            let _ = write!(
                q,
                "Find an Eulerian path in this graph: a walk that goes along every edge exactly \
                 once. Vertices {} and {} are the only ones with an odd number of edges, so the \
                 walk must start at one of them and end at the other.\n\n",
                s.unwrap_or(0),
                t.unwrap_or(0)
            );
        }
        PuzzleKind::EulerCycle => q.push_str(
            "Find an Eulerian cycle in this graph: a closed walk that goes along every edge \
             exactly once and ends at the vertex it started from. It may start at any vertex.\n\n",
        ),
        _ => {
            let _ = write!(
                q,
                "Color the edges of this graph. Every vertex has a fixed color. Give every edge \
                 one of the colors 1 to {} so that no edge has the color of either of its two \
                 vertices, and so that each color is used on exactly as many edges as listed.\n\n",
                parts.k
            );
        }
    }
    q.push_str("Vertices: ");
    list(q, &mut (0..parts.n));
    if parts.kind() == PuzzleKind::Edge {
        q.push_str("\nVertex colors: {");
        for (v, c) in parts.vertex_colors.iter().enumerate() {
            let _ = write!(q, "{}\"{v}\": {c}", if v == 0 { "" } else { ", " });
        }
        q.push_str("}\nEdges (edge id: its two vertices):");
        for (e, (a, b)) in parts.edges.iter().enumerate() {
            let _ = write!(q, "\n{e}: ({a}, {b})");
        }
        q.push_str("\nPossible colors: ");
        list(q, &mut (1..=parts.k));
        q.push_str("\nEdges per color: {");
        for (c, n) in parts.quota.iter().enumerate() {
            let _ = write!(q, "{}\"{}\": {n}", if c == 0 { "" } else { ", " }, c + 1);
        }
        q.push_str(
            "}\n\nReturn your solution as a JSON map of edge ids to colors. (For example: \
             {\"0\": 1, \"1\": 3, \"2\": 2}.)\n",
        );
        return;
    }
    q.push_str("\nEdges: [");
    for (i, &(a, b)) in parts.edges.iter().enumerate() {
        let _ = write!(q, "{}({a}, {b})", if i == 0 { "" } else { ", " });
    }
    q.push_str("]\n\nAnswer with the vertices of the walk in order, separated by spaces");
    q.push_str(if parts.kind() == PuzzleKind::EulerCycle {
        ", the first vertex again at the end (for example: 0 2 1 0).\n"
    } else {
        " (for example: 3 0 1 2).\n"
    });
}

/// `{"task":"coloring-puzzle","puzzle":"edge","n":..,"edges":[[a,b],..],"k":..,
/// "vertex_colors":[..],"quota":[..]}` (the last three for edge puzzles only).
fn write_ground_truth(parts: &Parts, out: &mut String) {
    out.clear();
    let _ = write!(
        out,
        "{{\"task\":\"coloring-puzzle\",\"puzzle\":\"{}\",\"n\":{},\"edges\":[",
        parts.kind().name(),
        parts.n
    );
    for (i, &(a, b)) in parts.edges.iter().enumerate() {
        let _ = write!(out, "{}[{a},{b}]", if i == 0 { "" } else { "," });
    }
    out.push(']');
    if parts.kind() == PuzzleKind::Edge {
        let _ = write!(out, ",\"k\":{},\"vertex_colors\":[", parts.k);
        for (i, c) in parts.vertex_colors.iter().enumerate() {
            let _ = write!(out, "{}{c}", if i == 0 { "" } else { "," });
        }
        out.push_str("],\"quota\":[");
        for (i, q) in parts.quota.iter().enumerate() {
            let _ = write!(out, "{}{q}", if i == 0 { "" } else { "," });
        }
        out.push(']');
    }
    out.push('}');
}

/// The parts a ground truth states (unchecked).
fn parts_of(t: &PuzzleTruth) -> Parts {
    Parts {
        kind: Some(t.puzzle),
        n: t.n,
        edges: t.edges.iter().map(|&[a, b]| (a, b)).collect(),
        k: t.k,
        vertex_colors: t.vertex_colors.clone(),
        quota: t.quota.clone(),
    }
}

/// Re-checks a stored item beyond its answer's score (which `verify` already found to be 1):
/// the ground truth is the profile's kind of puzzle and its graph the stored one; the question
/// and the ground truth are exactly what that puzzle makes; its identity lies in the split;
/// an edge puzzle's colours and quotas are in range and the exact solver solves it again from
/// its start in the stored number of nodes; the metrics agree.
///
/// # Runtime
/// O(n + E) text, plus the edge solver's search for edge puzzles.
pub fn verify(cfg: &TaskConfig, record: &LevelRecord<'_>) -> Result<(), Violation> {
    let coloring = puzzle_config(cfg);
    let level = &record.level;
    let text = |i: usize| {
        level
            .extra
            .get(i)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
    };
    let graph = level
        .graph
        .ok_or_else(|| Violation::new("a coloring-puzzle item stores no graph"))?;
    let truth: PuzzleTruth = serde_json::from_str(text(2))
        .map_err(|e| Violation::new(format!("the ground truth does not read: {e}")))?;
    ensure_level!(
        truth.puzzle == coloring.puzzle,
        "the ground truth is a {} puzzle, the spec asks for {}",
        truth.puzzle.name(),
        coloring.puzzle.name()
    );
    let parts = parts_of(&truth);
    check_graph(&parts, &graph)?;
    let mut written = String::new();
    write_ground_truth(&parts, &mut written);
    ensure_level!(
        text(2) == written,
        "the ground truth is not in its canonical form"
    );
    write_question(&parts, &mut written);
    ensure_level!(text(0) == written, "the question is not the puzzle's");
    ensure_level!(
        in_split(parts.identity(&mut IdentityScratch::default()), cfg.split),
        "the puzzle is not in split {}'s third of the identity space",
        cfg.split.name()
    );
    let m = PuzzleTaskMetrics::from_values(level.metrics)
        .ok_or_else(|| Violation::new("the metric row has the wrong length"))?;
    let odd = parts.odd_vertices().len() as u32;
    let nodes = match parts.kind() {
        PuzzleKind::Edge => edge_nodes(&parts, &coloring)?,
        _ => {
            let want = if parts.kind() == PuzzleKind::EulerCycle {
                0
            } else {
                2
            };
            ensure_level!(odd == want, "{odd} vertices of odd degree, expected {want}");
            parts.edges.len() as u32
        }
    };
    let expected = PuzzleTaskMetrics {
        puzzle_kind: coloring.puzzle.code(),
        vertices: parts.n,
        edges: parts.edges.len() as u32,
        colors: if parts.kind() == PuzzleKind::Edge {
            parts.k
        } else {
            1
        },
        solver_nodes: nodes,
        odd_vertices: odd,
        draws: m.draws.clamp(1, DRAWS),
        answer_length: text(1).len() as u32,
    };
    ensure_level!(
        m == expected,
        "the metrics {m:?} are not the puzzle's {expected:?}"
    );
    Ok(())
}

/// The stored graph is the ground truth's: its vertices, its edges in order, zero flags.
fn check_graph(
    parts: &Parts,
    graph: &crate::core::generator::GraphView<'_>,
) -> Result<(), Violation> {
    ensure_level!(
        graph.x.len() == parts.n as usize && graph.y.len() == graph.x.len(),
        "the graph has {} vertices, the ground truth {}",
        graph.x.len(),
        parts.n
    );
    ensure_level!(
        graph.x.iter().chain(graph.y).all(|v| v.is_finite()),
        "a vertex position is not finite"
    );
    ensure_level!(
        graph.src.len() == parts.edges.len()
            && graph
                .src
                .iter()
                .zip(graph.dst)
                .map(|(&a, &b)| (a, b))
                .eq(parts.edges.iter().copied()),
        "the ground truth's edges are not the stored graph's"
    );
    ensure_level!(
        parts
            .edges
            .iter()
            .all(|&(a, b)| a != b && a.max(b) < parts.n),
        "an edge is a loop or leaves the {} vertices",
        parts.n
    );
    ensure_level!(
        graph.flags.len() == parts.edges.len() && graph.flags.iter().all(|&f| f == 0),
        "the edge flags are not one 0 per edge"
    );
    Ok(())
}

/// An edge puzzle's colours and quotas are the spec's, and the exact solver solves it from its
/// start; returns the nodes it explored (capped by the budget, as the builder stores them).
fn edge_nodes(parts: &Parts, coloring: &ColoringConfig) -> Result<u32, Violation> {
    let k = coloring.colors;
    ensure_level!(
        parts.k == k && parts.quota.len() == k as usize,
        "the puzzle has {} colours and {} quotas; the spec has {k} colours",
        parts.k,
        parts.quota.len()
    );
    ensure_level!(
        parts.vertex_colors.len() == parts.n as usize
            && parts.vertex_colors.iter().all(|c| (1..=k).contains(c)),
        "the vertex colours are not one colour of 1..={k} per vertex"
    );
    ensure_level!(
        parts.quota.iter().sum::<u32>() as usize == parts.edges.len(),
        "the quotas do not add up to the {} edges",
        parts.edges.len()
    );
    let vertex_color: Vec<u8> = parts.vertex_colors.iter().map(|&c| (c - 1) as u8).collect();
    let budget = coloring.max_solver_nodes;
    let (found, nodes) = solve_edges(&parts.edges, &vertex_color, &parts.quota, budget);
    ensure_level!(
        found != Some(false),
        "the exact solver proves the edge puzzle has no solution"
    );
    Ok(nodes.min(budget) as u32)
}

#[cfg(test)]
#[path = "puzzle_tests.rs"]
mod tests;
