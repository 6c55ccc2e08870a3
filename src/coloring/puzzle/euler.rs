//! Eulerian puzzles: a connected planar graph whose degrees are all even (cycle) or all even but
//! two (path), every item protected, scored one point per edge walked against the objective `E`:
//! only a walk through every edge once completes the level. Proof: Hierholzer's walk.
//!
//! The graph: a random share of the triangulation's edges, then for each pair of odd vertices
//! (nearest first, in random order) the edges of a shortest triangulation path between them are
//! toggled, which fixes both ends' parity and keeps every inner vertex's. The largest component
//! by edges is kept; it must hold at least half the points (and, for a path, both odd vertices).

use std::collections::VecDeque;

use crate::coloring::config::{ColoringConfig, PuzzleKind};
use crate::coloring::puzzle::level_doc::{base_doc, finish, palette, score_values, walk_spec};
use crate::coloring::puzzle::planar::{PlanarGraph, jittered_points, triangulate};
use crate::coloring::puzzle::solved::{Puzzle, PuzzleMetrics, PuzzleScratch, Solution};
use crate::core::csr::Adjacency;
use crate::core::error::GenError;
use crate::core::graph::NONE;
use crate::core::rng::WarrenRng;
use crate::levelxml::model::Protect;

fn fail(reason: &'static str, detail: String) -> GenError {
    GenError {
        reason: reason.into(),
        detail,
    }
}

/// Adjacency lists of `(edge, other end)`, in edge order.
fn adjacency(n: usize, edges: &[(u32, u32)]) -> Adjacency<(u32, u32)> {
    Adjacency::from_edges(n, edges.iter().copied(), |e, w| (e, w))
}

/// Toggles the edges of a shortest path from `u` to the nearest vertex marked in `odd`;
/// returns that vertex.
fn pair_up(u: u32, odd: &[bool], adj: &Adjacency<(u32, u32)>, kept: &mut [bool]) -> Option<u32> {
    let mut via = vec![NONE; adj.vertex_count()];
    let mut seen = vec![false; adj.vertex_count()];
    let mut queue = VecDeque::from([u]);
    seen[u as usize] = true;
    while let Some(v) = queue.pop_front() {
        if v != u && odd[v as usize] {
            let mut w = v;
            while w != u {
                let e = via[w as usize];
                kept[e as usize] ^= true;
                w = adj[w as usize]
                    .iter()
                    .find(|&&(f, _)| f == e)
                    .map_or(u, |&(_, x)| x);
            }
            return Some(v);
        }
        for &(e, w) in &adj[v as usize] {
            if !seen[w as usize] {
                seen[w as usize] = true;
                via[w as usize] = e;
                queue.push_back(w);
            }
        }
    }
    None
}

/// Hierholzer's algorithm: an Eulerian walk from `start` as edge indices.
pub(crate) fn hierholzer(n: usize, edges: &[(u32, u32)], start: u32) -> Vec<u32> {
    let adj = adjacency(n, edges);
    let mut next = vec![0usize; n];
    let mut used = vec![false; edges.len()];
    let mut stack = vec![(start, NONE)];
    let mut walk = Vec::with_capacity(edges.len());
    while let Some(&(v, arrived_by)) = stack.last() {
        let list = &adj[v as usize];
        while next[v as usize] < list.len() && used[list[next[v as usize]].0 as usize] {
            next[v as usize] += 1;
        }
        match list.get(next[v as usize]) {
            Some(&(e, w)) => {
                used[e as usize] = true;
                stack.push((w, e));
            }
            None => {
                stack.pop();
                if arrived_by != NONE {
                    walk.push(arrived_by);
                }
            }
        }
    }
    walk.reverse();
    walk
}

/// One graph drawn, made Eulerian and walked.
pub(super) fn attempt(
    cfg: &ColoringConfig,
    rng: &mut WarrenRng,
    s: &mut PuzzleScratch,
) -> Result<Puzzle, GenError> {
    let cycle = cfg.puzzle == PuzzleKind::EulerCycle;
    jittered_points(cfg, rng, &mut s.graph);
    triangulate(&s.graph, cfg.spacing, &mut s.planar, &mut s.all)
        .map_err(|e| fail("degenerate points", e.to_string()))?;
    let target = if cycle { 0 } else { 2 };
    let kept = even_degrees(cfg, rng, &s.all, s.graph.vertex_count(), cycle)?;
    let part = kept_component(&s.graph, &s.all, &kept, target)?;
    let sub = &part.graph;
    let walk = hierholzer(sub.vertex_count(), &sub.edges, part.start);
    if walk.len() != sub.edges.len() {
        return Err(fail(
            "not eulerian",
            format!("{} of {} edges walked", walk.len(), sub.edges.len()),
        ));
    }
    Ok(euler_puzzle(cfg.puzzle, &part, walk))
}

/// Whether each of the `n` vertices has an odd degree in the kept edges of `all`.
fn odd_degrees(n: usize, all: &[(u32, u32)], kept: &[bool]) -> Vec<bool> {
    let mut odd = vec![false; n];
    for (&(a, b), _) in all.iter().zip(kept).filter(|(_, k)| **k) {
        odd[a as usize] ^= true;
        odd[b as usize] ^= true;
    }
    odd
}

/// Keeps each of the triangulation's edges `all` (over `n` vertices) with probability
/// `cfg.keep`, then pairs the odd vertices up in random order, toggling a shortest path between
/// each and its nearest odd partner, until none are left for a cycle or two for a path (a path
/// with none left toggles one random edge). Returns which edges are kept.
fn even_degrees(
    cfg: &ColoringConfig,
    rng: &mut WarrenRng,
    all: &[(u32, u32)],
    n: usize,
    cycle: bool,
) -> Result<Vec<bool>, GenError> {
    let adj = adjacency(n, all);
    let mut kept: Vec<bool> = all.iter().map(|_| rng.chance(cfg.keep)).collect();
    let mut odd = odd_degrees(n, all, &kept);
    let mut order: Vec<u32> = (0..n as u32).filter(|&v| odd[v as usize]).collect();
    rng.shuffle(&mut order);
    let target = if cycle { 0 } else { 2 };
    while order.len() > target {
        let u = order.pop().expect("more odd vertices than the target");
        odd[u as usize] = false;
        let w = pair_up(u, &odd, &adj, &mut kept)
            .ok_or_else(|| fail("odd vertex alone", format!("vertex {u}")))?;
        odd[w as usize] = false;
        order.retain(|&x| x != w);
    }
    if !cycle && order.is_empty() {
        let e = rng.below(all.len() as u32) as usize;
        kept[e] ^= true;
    }
    Ok(kept)
}

/// The part of the graph a puzzle is made of.
struct Component {
    /// Its vertices (renumbered in order) and kept edges (sorted).
    graph: PlanarGraph,
    /// Where the walk starts: its first odd vertex, else vertex 0.
    start: u32,
    /// Its vertices of odd degree.
    odd_vertices: u32,
}

/// The component with the most kept edges as a graph of its own.
///
/// # Errors
/// When it holds fewer than half the points (or fewer than 3), or when its odd vertices are not
/// `target` (0 for a cycle, 2 for a path).
fn kept_component(
    graph: &PlanarGraph,
    all: &[(u32, u32)],
    kept: &[bool],
    target: usize,
) -> Result<Component, GenError> {
    let n = graph.vertex_count();
    let component = largest_component(n, all, kept);
    let odd = odd_degrees(n, all, kept);
    let odd_in: Vec<u32> = (0..n as u32)
        .filter(|&v| odd[v as usize] && component[v as usize] != NONE)
        .collect();
    let inside = component.iter().filter(|&&c| c != NONE).count();
    if inside * 2 < n || inside < 3 {
        return Err(fail(
            "component too small",
            format!("{inside} of {n} vertices"),
        ));
    }
    if odd_in.len() != target {
        return Err(fail(
            "odd vertices apart",
            format!("{} odd vertices in the component", odd_in.len()),
        ));
    }
    Ok(Component {
        graph: subgraph(graph, all, kept, &component),
        start: odd_in.first().map_or(0, |&v| component[v as usize]),
        odd_vertices: odd_in.len() as u32,
    })
}

/// The kept edges of `all` inside `component` (each vertex's new index, `NONE` outside) as a
/// graph: its vertices in order, its edges sorted.
fn subgraph(
    graph: &PlanarGraph,
    all: &[(u32, u32)],
    kept: &[bool],
    component: &[u32],
) -> PlanarGraph {
    let mut sub = PlanarGraph::default();
    for (v, _) in component.iter().enumerate().filter(|(_, c)| **c != NONE) {
        sub.x.push(graph.x[v]);
        sub.y.push(graph.y[v]);
    }
    for (&(a, b), _) in all.iter().zip(kept).filter(|(_, k)| **k) {
        let (a, b) = (component[a as usize], component[b as usize]);
        if a != NONE {
            debug_assert_ne!(b, NONE, "an edge lies in one component");
            sub.edges.push((a, b));
        }
    }
    sub.edges.sort_unstable();
    sub
}

/// The level of an Eulerian puzzle of `kind` over the component, every item protected, scored
/// one point per edge walked, with `walk` as its solution.
fn euler_puzzle(kind: PuzzleKind, part: &Component, walk: Vec<u32>) -> Puzzle {
    let (title, description, objective) = if kind == PuzzleKind::EulerCycle {
        (
            "Eulerian cycle",
            "Walk through every edge exactly once and come back to the start.;Right-click vertices in the order of the cycle.",
            "Find an Eulerian cycle.",
        )
    } else {
        (
            "Eulerian path",
            "Walk through every edge exactly once.;Two vertices have an odd degree: start at one of them.",
            "Find an Eulerian path.",
        )
    };
    let sub = &part.graph;
    let mut doc = base_doc(sub, [title, description, objective], palette(1, false));
    let all_protect = Protect::ADD.with(Protect::COLOR).with(Protect::DELETE);
    doc.vertex_protect = Some(all_protect);
    doc.edge_protect = Some(all_protect);
    doc.paths = vec![walk_spec(kind == PuzzleKind::EulerCycle)];
    doc.values = score_values("0", "E");
    let metrics = PuzzleMetrics {
        vertices: sub.vertex_count() as u32,
        edges: sub.edges.len() as u32,
        colors: 1,
        solver_nodes: walk.len() as u64,
        odd_vertices: part.odd_vertices,
        ..PuzzleMetrics::default()
    };
    finish(kind, doc, sub, Solution::Walk(walk), metrics)
}

/// The new index of each vertex of the component with the most kept edges (`NONE` outside).
fn largest_component(n: usize, all: &[(u32, u32)], kept: &[bool]) -> Vec<u32> {
    let kept_edges: Vec<(u32, u32)> = all
        .iter()
        .zip(kept)
        .filter(|(_, k)| **k)
        .map(|(&e, _)| e)
        .collect();
    let adj = adjacency(n, &kept_edges);
    let mut comp = vec![NONE; n];
    let mut best = (0usize, NONE);
    let mut stack = Vec::new();
    for root in 0..n as u32 {
        if comp[root as usize] != NONE || adj[root as usize].is_empty() {
            continue;
        }
        comp[root as usize] = root;
        stack.push(root);
        let mut degree_sum = 0;
        while let Some(v) = stack.pop() {
            degree_sum += adj[v as usize].len();
            for &(_, w) in &adj[v as usize] {
                if comp[w as usize] == NONE {
                    comp[w as usize] = root;
                    stack.push(w);
                }
            }
        }
        if degree_sum / 2 > best.0 {
            best = (degree_sum / 2, root);
        }
    }
    let mut next = 0;
    comp.iter()
        .map(|&c| {
            if c != NONE && c == best.1 {
                next += 1;
                next - 1
            } else {
                NONE
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hierholzer_walks_every_edge_once() {
        // Two triangles sharing vertex 0 (a bowtie): all degrees even.
        let edges = [(0, 1), (1, 2), (0, 2), (0, 3), (3, 4), (0, 4)];
        let walk = hierholzer(5, &edges, 0);
        assert_eq!(walk.len(), 6);
        let mut sorted = walk.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, [0, 1, 2, 3, 4, 5]);
        // Consecutive edges share a vertex, and the walk returns to 0.
        let mut at = 0;
        for &e in &walk {
            let (a, b) = edges[e as usize];
            at = if a == at {
                b
            } else {
                assert_eq!(b, at);
                a
            };
        }
        assert_eq!(at, 0);
        // A path graph from an odd end.
        let path = [(0, 1), (1, 2), (2, 3)];
        assert_eq!(hierholzer(4, &path, 0), [0, 1, 2]);
    }
}
