//! The graphs of `graph-color`: a random graph with a planted k-colouring (so its chromatic
//! number is at most k), greedy colouring in index order, the exact proof that k - 1 colours
//! do not suffice (so it is exactly k), and the graph's identity hash.
//!
//! Graphs here have at most 64 vertices ([`MAX_VERTICES`]) and their edges `(a, b)` with
//! `a < b`, sorted: the canonical form the identity hashes and the ground truth lists.

use crate::coloring::puzzle::{ColoringSolver, Outcome};
use crate::core::canon::{CanonScratch, canonical_hash};
use crate::core::hash::ContentHasher;
use crate::core::rng::WarrenRng;
use crate::task::config::MAX_VERTICES;

/// Search nodes the exact solver may spend on one proof or one colouring; a graph it cannot
/// settle within them is drawn again (and `verify` spends the same).
pub const SOLVER_BUDGET: u64 = 1 << 20;

/// Draws a graph on `n` vertices with a planted colouring: each vertex takes one of `k`
/// classes (`k` distinct vertices drawn first take one class each, so no class is empty), and
/// each pair of vertices in different classes is joined with probability `p`. Fills `class`
/// and `edges` (sorted, `a < b`).
///
/// # Runtime
/// O(n^2) random draws; no allocation once the buffers have grown.
pub fn draw_planted(
    rng: &mut WarrenRng,
    n: u32,
    k: u32,
    p: f64,
    class: &mut Vec<u8>,
    edges: &mut Vec<(u32, u32)>,
) {
    debug_assert!(k >= 1 && k <= n && n <= MAX_VERTICES, "k {k}, n {n}");
    class.clear();
    class.extend((0..n).map(|_| rng.below(k) as u8));
    // Partial Fisher-Yates over the vertices: the first k of a random order open the classes.
    let mut order = [0u8; MAX_VERTICES as usize];
    for (v, slot) in order.iter_mut().enumerate().take(n as usize) {
        *slot = v as u8;
    }
    for c in 0..k as usize {
        let j = c + rng.below(n - c as u32) as usize;
        order.swap(c, j);
        class[usize::from(order[c])] = c as u8;
    }
    edges.clear();
    for a in 0..n {
        for b in a + 1..n {
            if class[a as usize] != class[b as usize] && rng.chance(p) {
                edges.push((a, b));
            }
        }
    }
}

/// Colours greedy colouring uses going through the vertices in index order, each taking the
/// smallest colour none of its earlier neighbours has.
///
/// # Runtime
/// O(n^2 / 64 + E) with one adjacency bit mask per vertex; no allocation.
pub fn greedy_colors(n: u32, edges: &[(u32, u32)]) -> u32 {
    debug_assert!(n <= MAX_VERTICES, "n {n}");
    let mut adj = [0u64; MAX_VERTICES as usize];
    for &(a, b) in edges {
        adj[a as usize] |= 1 << b;
        adj[b as usize] |= 1 << a;
    }
    // PERF: `class[c]` holds the vertices of colour c as a mask, so a vertex finds its colour
    // with one AND per colour tried.
    let mut class = [0u64; MAX_VERTICES as usize];
    let mut used = 0usize;
    for (v, &near) in adj.iter().enumerate().take(n as usize) {
        let c = (0..used).find(|&c| class[c] & near == 0).unwrap_or(used);
        class[c] |= 1 << v;
        used = used.max(c + 1);
    }
    used as u32
}

/// Reusable memory of [`identity`].
#[derive(Default)]
pub struct IdentityScratch {
    canon: CanonScratch,
    labels: Vec<u64>,
    edges: Vec<(u32, u32, u64)>,
}

/// The identity hash of a graph on `n` vertices: the `canonical_hash` the archive stores for
/// it (`core::identity` of a graph without tags and with zero edge flags), the same for every
/// renumbering of its vertices, so that a split holds all of them or none.
///
/// # Runtime
/// The canonical form's search (`core::canon`): microseconds at the task's sizes.
pub fn identity(n: u32, edges: &[(u32, u32)], s: &mut IdentityScratch) -> u64 {
    s.labels.clear();
    s.labels.resize(n as usize, 0);
    s.edges.clear();
    s.edges.extend(edges.iter().map(|&(a, b)| (a, b, 0)));
    canonical_hash(n as usize, &s.labels, &s.edges, &mut s.canon).unwrap_or_else(|_| {
        // Unreachable for the graphs made here (every end below n); still a hash.
        let mut h = ContentHasher::new();
        h.word(u64::from(n));
        for &(a, b) in edges {
            h.word(u64::from(a) << 32 | u64::from(b));
        }
        h.finish()
    })
}

/// What the proof that `k - 1` colours do not suffice found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proof {
    /// No `(k - 1)`-colouring exists: with a k-colouring, the chromatic number is k. Holds the
    /// search nodes of the refutation.
    Refuted(u64),
    /// The graph has a `(k - 1)`-colouring.
    Fewer,
    /// The budget ran out first.
    GaveUp,
}

/// Runs the exact solver with `k - 1` colours (`k >= 2`) on the graph.
///
/// # Runtime
/// At most [`SOLVER_BUDGET`] search nodes of O(n + degree) each.
pub fn refute_fewer(solver: &mut ColoringSolver, n: u32, edges: &[(u32, u32)], k: u32) -> Proof {
    debug_assert!(k >= 2, "k {k}");
    solver.set_tracing(false);
    match solver.solve(n as usize, edges, k - 1, &[], SOLVER_BUDGET) {
        (Outcome::Impossible, nodes) => Proof::Refuted(nodes),
        (Outcome::Colored, _) => Proof::Fewer,
        (Outcome::GaveUp, _) => Proof::GaveUp,
    }
}

/// Colours the graph with `k` colours by the exact solver, recording its steps when `traced`;
/// `Some(nodes)` when it found a colouring (in `solver.colors()`, `solver.steps()`).
pub fn color_with(
    solver: &mut ColoringSolver,
    n: u32,
    edges: &[(u32, u32)],
    k: u32,
    traced: bool,
) -> Option<u64> {
    solver.set_tracing(traced);
    let (outcome, nodes) = solver.solve(n as usize, edges, k, &[], SOLVER_BUDGET);
    (outcome == Outcome::Colored).then_some(nodes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planted_graphs_keep_their_classes_apart_and_fill_each() {
        let mut rng = WarrenRng::new(3);
        let (mut class, mut edges) = (Vec::new(), Vec::new());
        for _ in 0..500 {
            let n = 1 + rng.below(MAX_VERTICES);
            let k = 1 + rng.below(n.min(8));
            draw_planted(&mut rng, n, k, 0.5, &mut class, &mut edges);
            assert_eq!(class.len(), n as usize);
            for c in 0..k as u8 {
                assert!(class.contains(&c), "class {c} of {k} is empty (n {n})");
            }
            assert!(edges.windows(2).all(|w| w[0] < w[1]));
            for &(a, b) in &edges {
                assert!(a < b && b < n);
                assert_ne!(class[a as usize], class[b as usize]);
            }
        }
    }

    #[test]
    fn greedy_counts_first_fit_colours() {
        // The path 0 - 2 - 3 - 1 is bipartite, but index order gives 0 and 1 one colour, 2
        // another, and 3 (next to both) a third.
        assert_eq!(greedy_colors(4, &[(0, 2), (1, 3), (2, 3)]), 3);
        assert_eq!(greedy_colors(4, &[(0, 1), (1, 2), (2, 3)]), 2);
        assert_eq!(greedy_colors(3, &[]), 1);
        assert_eq!(greedy_colors(0, &[]), 0);
        let k5: Vec<(u32, u32)> = (0..5)
            .flat_map(|a| (a + 1..5).map(move |b| (a, b)))
            .collect();
        assert_eq!(greedy_colors(5, &k5), 5);
    }

    #[test]
    fn identity_separates_graphs_and_not_their_renumberings() {
        let s = &mut IdentityScratch::default();
        let a = identity(4, &[(0, 1)], s);
        assert_ne!(a, identity(5, &[(0, 1)], s));
        assert_ne!(a, identity(4, &[(0, 1), (2, 3)], s));
        assert_eq!(
            a,
            identity(4, &[(0, 2)], s),
            "a renumbering of the same graph"
        );
        assert_eq!(a, identity(4, &[(2, 3)], s));
        // A path and a star on 4 vertices: as many edges, not isomorphic.
        assert_ne!(
            identity(4, &[(0, 1), (1, 2), (2, 3)], s),
            identity(4, &[(0, 1), (0, 2), (0, 3)], s)
        );
    }

    #[test]
    fn proofs_settle_small_cases() {
        let mut s = ColoringSolver::default();
        let triangle = [(0, 1), (0, 2), (1, 2)];
        assert!(matches!(
            refute_fewer(&mut s, 3, &triangle, 3),
            Proof::Refuted(_)
        ));
        assert!(matches!(
            refute_fewer(&mut s, 3, &triangle, 2),
            Proof::Refuted(_)
        ));
        assert_eq!(refute_fewer(&mut s, 4, &[(0, 1), (2, 3)], 3), Proof::Fewer);
        assert!(color_with(&mut s, 3, &triangle, 3, true).is_some());
        assert!(!s.steps().is_empty());
        assert!(color_with(&mut s, 3, &triangle, 2, false).is_none());
    }
}
