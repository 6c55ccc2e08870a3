//! Edge-coloring puzzles: vertices in fixed colors, every edge starts gray and must take a color
//! unlike both its ends, with an exact number of edges per color. The quotas are read off a
//! planted random solution (the proof); a backtracking solver (fewest options first) solves the
//! puzzle again from its start to measure how hard it is.

use crate::coloring::config::{ColoringConfig, PuzzleKind};
use crate::coloring::puzzle::level_doc::{GRAY, base_doc, finish, palette, score_values};
use crate::coloring::puzzle::planar::connected_graph;
use crate::coloring::puzzle::solved::{Puzzle, PuzzleMetrics, PuzzleScratch, Solution};
use crate::core::error::GenError;
use crate::core::rng::WarrenRng;
use crate::levelxml::model::{Bound, ColorSel, Item, Protect, Rule};

/// "No color yet".
const NONE: u8 = u8::MAX;

/// Backtracking over edges: the unassigned edge with the fewest colors left goes first; a color
/// whose remaining quota exceeds the open edges that could take it ends the branch.
struct EdgeSearch<'a> {
    ends: &'a [(u32, u32)],
    vertex_color: &'a [u8],
    k: u8,
    left: Vec<u32>,
    assigned: Vec<u8>,
    nodes: u64,
    budget: u64,
}

impl EdgeSearch<'_> {
    fn options(&self, e: usize) -> impl Iterator<Item = u8> + '_ {
        let (a, b) = self.ends[e];
        let (ca, cb) = (self.vertex_color[a as usize], self.vertex_color[b as usize]);
        (0..self.k).filter(move |&c| c != ca && c != cb && self.left[usize::from(c)] > 0)
    }

    /// `None`: gave up.
    fn search(&mut self, remaining: usize) -> Option<bool> {
        if remaining == 0 {
            return Some(true);
        }
        // PERF: one pass finds the edge with the fewest options and, per color, how many
        // open edges could still take it: a quota above that is a dead end (forward checking),
        // which cut the mean search on the default profile from about 16,000 nodes to 110
        // (64 edges) and the puzzles per second from 250 to 9,800.
        let mut best = (usize::MAX, usize::MAX);
        let mut room = [0u32; 8];
        for e in 0..self.ends.len() {
            if self.assigned[e] == NONE {
                let (a, b) = self.ends[e];
                let (ca, cb) = (self.vertex_color[a as usize], self.vertex_color[b as usize]);
                let mut n = 0;
                for c in 0..self.k {
                    if c != ca && c != cb {
                        room[usize::from(c)] += 1;
                        n += usize::from(self.left[usize::from(c)] > 0);
                    }
                }
                if n < best.1 {
                    best = (e, n);
                }
            }
        }
        if (0..usize::from(self.k)).any(|c| self.left[c] > room[c]) {
            return Some(false);
        }
        let e = best.0;
        let options: Vec<u8> = self.options(e).collect();
        for c in options {
            self.nodes += 1;
            if self.nodes > self.budget {
                return None;
            }
            self.assigned[e] = c;
            self.left[usize::from(c)] -= 1;
            let found = self.search(remaining - 1);
            if found != Some(false) {
                return found;
            }
            self.left[usize::from(c)] += 1;
            self.assigned[e] = NONE;
        }
        Some(false)
    }
}

/// Solves an edge puzzle from scratch (`ends` the edges, `vertex_color` each vertex's fixed
/// color, `quota[c]` the edges color `c` must take, at most 8 colors) within `budget` search
/// nodes; returns whether it found a solution (`None`: gave up) and the nodes explored.
///
/// # Runtime
/// Exponential in the worst case; each node costs O(E k). Allocates the search's state.
pub fn solve_edges(
    ends: &[(u32, u32)],
    vertex_color: &[u8],
    quota: &[u32],
    budget: u64,
) -> (Option<bool>, u64) {
    debug_assert!(quota.len() <= 8, "at most 8 colors");
    let mut s = EdgeSearch {
        ends,
        vertex_color,
        k: quota.len() as u8,
        left: quota.to_vec(),
        assigned: vec![NONE; ends.len()],
        nodes: 0,
        budget,
    };
    let found = s.search(ends.len());
    (found, s.nodes)
}

/// One graph drawn with a planted solution.
pub(super) fn attempt(
    cfg: &ColoringConfig,
    rng: &mut WarrenRng,
    s: &mut PuzzleScratch,
) -> Result<Puzzle, GenError> {
    connected_graph(cfg, rng, &mut s.graph, &mut s.planar).map_err(|e| GenError {
        reason: "degenerate points".into(),
        detail: e.to_string(),
    })?;
    let (g, k) = (&s.graph, cfg.colors);
    let vertex_color: Vec<u8> = (0..g.vertex_count()).map(|_| rng.below(k) as u8).collect();
    let mut quota = vec![0u32; k as usize];
    let mut planted = Vec::with_capacity(g.edges.len());
    for &(a, b) in &g.edges {
        let (ca, cb) = (vertex_color[a as usize], vertex_color[b as usize]);
        let allowed: Vec<u8> = (0..k as u8).filter(|&c| c != ca && c != cb).collect();
        let c = allowed[rng.below(allowed.len() as u32) as usize];
        quota[usize::from(c)] += 1;
        planted.push(c);
    }
    let (found, nodes) = solve_edges(&g.edges, &vertex_color, &quota, cfg.max_solver_nodes);
    debug_assert_ne!(found, Some(false), "a planted solution exists");
    let colors = palette(k, true);
    let wanted: Vec<String> = quota
        .iter()
        .zip(&colors[1..])
        .filter(|(q, _)| **q > 0)
        .map(|(q, c)| format!("{q} {}", c.name))
        .collect();
    let description = format!(
        "Color every edge unlike both of its ends.;Use exactly {} edges.",
        wanted.join(", ")
    );
    let mut doc = base_doc(
        g,
        ["Edge coloring", &description, "Recolor every edge."],
        colors,
    );
    for (v, &c) in doc.vertices.iter_mut().zip(&vertex_color) {
        v.color = Some(doc.colors[1 + usize::from(c)].name.clone());
    }
    doc.vertex_protect = Some(
        Protect::ADD
            .with(Protect::COLOR)
            .with(Protect::DELETE)
            .with(Protect::EDGES),
    );
    doc.edge_protect = Some(Protect::ADD.with(Protect::DELETE));
    doc.rules = vec![
        Rule::EdgeBan {
            v1: ColorSel::Same,
            edge: ColorSel::Same,
            v2: ColorSel::Any,
        },
        Rule::Count {
            item: Item::Edge,
            bound: Bound::Max,
            color: ColorSel::Named(GRAY.0.to_string()),
            limit: 0,
        },
    ];
    for (c, &q) in quota.iter().enumerate() {
        if q > 0 {
            doc.rules.push(Rule::Count {
                item: Item::Edge,
                bound: Bound::Min,
                color: ColorSel::Named(doc.colors[1 + c].name.clone()),
                limit: i64::from(q),
            });
        }
    }
    doc.values = score_values("E", "E");
    let metrics = PuzzleMetrics {
        vertices: g.vertex_count() as u32,
        edges: g.edges.len() as u32,
        colors: k,
        solver_nodes: nodes.min(cfg.max_solver_nodes),
        ..PuzzleMetrics::default()
    };
    Ok(finish(
        PuzzleKind::Edge,
        doc,
        g,
        Solution::EdgeColors(planted),
        metrics,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: every assignment of k colors to the edges.
    fn brute(ends: &[(u32, u32)], vc: &[u8], quota: &[u32]) -> bool {
        let k = quota.len() as u64;
        (0..k.pow(ends.len() as u32)).any(|mut code| {
            let mut count = vec![0u32; quota.len()];
            for &(a, b) in ends {
                let c = (code % k) as u8;
                code /= k;
                if c == vc[a as usize] || c == vc[b as usize] {
                    return false;
                }
                count[usize::from(c)] += 1;
            }
            count == quota
        })
    }

    #[test]
    fn edge_solver_agrees_with_brute_force() {
        let mut rng = WarrenRng::new(5);
        let (mut yes, mut no) = (0, 0);
        for _ in 0..200 {
            let n = 2 + rng.below(4);
            let m = 1 + rng.below(6) as usize;
            let ends: Vec<(u32, u32)> = (0..m)
                .map(|_| {
                    let a = rng.below(n);
                    (a, (a + 1 + rng.below(n - 1)) % n)
                })
                .collect();
            let k = 3 + rng.below(2);
            let vc: Vec<u8> = (0..n).map(|_| rng.below(k) as u8).collect();
            let mut quota = vec![0u32; k as usize];
            for _ in 0..m {
                quota[rng.below(k) as usize] += 1;
            }
            let want = brute(&ends, &vc, &quota);
            let (found, _) = solve_edges(&ends, &vc, &quota, u64::MAX);
            assert_eq!(found, Some(want), "{ends:?} {vc:?} {quota:?}");
            if want { yes += 1 } else { no += 1 }
        }
        assert!(yes > 20 && no > 20, "{yes} yes, {no} no");
    }
}
