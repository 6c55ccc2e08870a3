//! An exact k-coloring solver: DSATUR (Brélaz, 1979) with backtracking.
//!
//! The next vertex is the uncolored one whose neighbours already show the most distinct colors
//! (its saturation), ties broken by degree, then by id; its feasible colors are tried in order.
//! Without precolored vertices, colors are symmetric, so a vertex may only open the lowest
//! unused color (a k-coloring exists iff one exists in this canonical form). The search counts
//! its nodes (one per color tried), a difficulty measure, and gives up past a budget.
//!
//! The solver proves both ways: [`Outcome::Colored`] comes with a proper coloring, and
//! [`Outcome::Impossible`] means the whole search space was refuted (so, for k - 1 colors, that
//! the chromatic number is at least k).

use crate::core::csr::Adjacency;

/// What the search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A proper coloring (in [`ColoringSolver::colors`]).
    Colored,
    /// No proper coloring with k colors exists.
    Impossible,
    /// The node budget ran out first.
    GaveUp,
}

/// "No color yet".
const NONE: u8 = u8::MAX;

/// One step of a traced search ([`ColoringSolver::set_tracing`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchStep {
    /// The search gives `vertex` the color `color` (one search node).
    Assign {
        /// The vertex colored.
        vertex: u32,
        /// Its color, `0..k`.
        color: u8,
    },
    /// The search takes `vertex`'s color back: the branch below it failed.
    Undo {
        /// The vertex uncolored.
        vertex: u32,
    },
}

/// Reusable solver memory.
#[derive(Default)]
pub struct ColoringSolver {
    /// CSR adjacency: `adj[v]` lists the neighbours of `v`.
    adj: Adjacency<u32>,
    color: Vec<u8>,
    /// `seen[v * k + c]`: how many neighbours of `v` have color `c`.
    seen: Vec<u16>,
    saturation: Vec<u8>,
    k: usize,
    nodes: u64,
    budget: u64,
    symmetric: bool,
    /// Whether [`Self::solve`] records its steps in `steps`.
    tracing: bool,
    steps: Vec<SearchStep>,
}

impl ColoringSolver {
    /// Searches for a proper coloring of the graph (`n` vertices, `edges`) with colors
    /// `0..k`, respecting `fixed` (`Some(c)`: vertex precolored; empty slice: none), within
    /// `budget` nodes. Returns the outcome and the nodes explored.
    ///
    /// # Runtime
    /// Exponential in the worst case (the problem is NP-complete); each node costs O(n) for the
    /// vertex choice plus the degree of the vertex colored. No allocation once warmed up.
    pub fn solve(
        &mut self,
        n: usize,
        edges: &[(u32, u32)],
        k: u32,
        fixed: &[Option<u8>],
        budget: u64,
    ) -> (Outcome, u64) {
        debug_assert!((1..=64).contains(&k), "k = {k} out of 1..=64");
        debug_assert!(fixed.is_empty() || fixed.len() == n);
        self.adj.rebuild(n, edges.iter().copied(), |_, w| w);
        self.k = k as usize;
        self.color.clear();
        self.color.resize(n, NONE);
        self.seen.clear();
        self.seen.resize(n * self.k, 0);
        self.saturation.clear();
        self.saturation.resize(n, 0);
        self.nodes = 0;
        self.budget = budget;
        self.symmetric = fixed.iter().all(Option::is_none);
        self.steps.clear();
        if edges.iter().any(|&(a, b)| a == b) {
            return (Outcome::Impossible, 0);
        }
        let mut colored = 0;
        for (v, f) in fixed.iter().enumerate() {
            if let Some(c) = *f {
                if usize::from(c) >= self.k || self.seen[v * self.k + usize::from(c)] > 0 {
                    return (Outcome::Impossible, 0);
                }
                self.assign(v, c);
                colored += 1;
            }
        }
        let outcome = match self.search(n - colored, 0) {
            Some(true) => Outcome::Colored,
            Some(false) => Outcome::Impossible,
            None => Outcome::GaveUp,
        };
        (outcome, self.nodes)
    }

    /// The coloring after [`Outcome::Colored`].
    pub fn colors(&self) -> &[u8] {
        &self.color
    }

    /// Whether later [`solve`](Self::solve) calls record every color tried and every undo
    /// ([`steps`](Self::steps)); off by default. Precolored vertices are not steps.
    ///
    /// # Runtime
    /// Tracing costs one push per search node and per undo (the buffer is reused).
    pub fn set_tracing(&mut self, on: bool) {
        self.tracing = on;
    }

    /// The steps of the last [`solve`](Self::solve), in search order (empty unless tracing):
    /// one [`SearchStep::Assign`] per search node, one [`SearchStep::Undo`] per branch given up.
    pub fn steps(&self) -> &[SearchStep] {
        &self.steps
    }

    fn assign(&mut self, v: usize, c: u8) {
        self.color[v] = c;
        for &w in &self.adj[v] {
            let w = w as usize;
            let slot = &mut self.seen[w * self.k + usize::from(c)];
            if *slot == 0 {
                self.saturation[w] += 1;
            }
            *slot += 1;
        }
    }

    fn unassign(&mut self, v: usize, c: u8) {
        self.color[v] = NONE;
        for &w in &self.adj[v] {
            let w = w as usize;
            let slot = &mut self.seen[w * self.k + usize::from(c)];
            *slot -= 1;
            if *slot == 0 {
                self.saturation[w] -= 1;
            }
        }
    }

    /// The uncolored vertex of highest saturation, then degree, then lowest id.
    fn pick(&self) -> usize {
        let mut best = usize::MAX;
        let mut key = (0u8, 0u32);
        for v in 0..self.color.len() {
            if self.color[v] != NONE {
                continue;
            }
            let k = (self.saturation[v], self.adj.degree(v));
            if best == usize::MAX || k > key {
                best = v;
                key = k;
            }
        }
        best
    }

    /// Colors `left` more vertices; `used` colors are open (symmetric case). `None`: gave up.
    fn search(&mut self, left: usize, used: usize) -> Option<bool> {
        if left == 0 {
            return Some(true);
        }
        let v = self.pick();
        // PERF: a vertex whose neighbours show all k colors fails without trying any.
        if usize::from(self.saturation[v]) == self.k {
            return Some(false);
        }
        let limit = if self.symmetric {
            (used + 1).min(self.k)
        } else {
            self.k
        };
        for c in 0..limit {
            if self.seen[v * self.k + c] > 0 {
                continue;
            }
            self.nodes += 1;
            if self.nodes > self.budget {
                return None;
            }
            self.assign(v, c as u8);
            if self.tracing {
                self.steps.push(SearchStep::Assign {
                    vertex: v as u32,
                    color: c as u8,
                });
            }
            let found = self.search(left - 1, used.max(c + 1));
            if found != Some(false) {
                return found;
            }
            self.unassign(v, c as u8);
            if self.tracing {
                self.steps.push(SearchStep::Undo { vertex: v as u32 });
            }
        }
        Some(false)
    }
}

/// Whether `colors` is a proper coloring of `edges` with colors below `k`.
pub fn is_proper(edges: &[(u32, u32)], colors: &[u8], k: u32) -> bool {
    colors.iter().all(|&c| u32::from(c) < k)
        && edges
            .iter()
            .all(|&(a, b)| colors[a as usize] != colors[b as usize])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::WarrenRng;

    /// Brute force: try all k^n colorings.
    fn colorable_brute(n: usize, edges: &[(u32, u32)], k: u32, fixed: &[Option<u8>]) -> bool {
        let total = (k as u64).pow(n as u32);
        let mut colors = vec![0u8; n];
        (0..total).any(|mut code| {
            for c in colors.iter_mut() {
                *c = (code % u64::from(k)) as u8;
                code /= u64::from(k);
            }
            let fits = fixed
                .iter()
                .zip(&colors)
                .all(|(f, &c)| f.is_none_or(|f| f == c));
            fits && is_proper(edges, &colors, k)
        })
    }

    fn random_graph(rng: &mut WarrenRng, n: usize, p: f64) -> Vec<(u32, u32)> {
        let mut edges = Vec::new();
        for a in 0..n as u32 {
            for b in a + 1..n as u32 {
                if rng.chance(p) {
                    edges.push((a, b));
                }
            }
        }
        edges
    }

    #[test]
    fn agrees_with_brute_force_on_small_graphs() {
        let mut rng = WarrenRng::new(2);
        let mut solver = ColoringSolver::default();
        let (mut yes, mut no) = (0, 0);
        for round in 0..300 {
            let n = 1 + rng.below(7) as usize;
            let p = 0.3 + 0.5 * rng.unit_f64();
            let edges = random_graph(&mut rng, n, p);
            let k = 1 + rng.below(4);
            let fixed: Vec<Option<u8>> = if round % 3 == 0 {
                (0..n)
                    .map(|_| rng.chance(0.3).then(|| rng.below(k) as u8))
                    .collect()
            } else {
                Vec::new()
            };
            let want = colorable_brute(n, &edges, k, &fixed);
            let (outcome, _) = solver.solve(n, &edges, k, &fixed, u64::MAX);
            assert_eq!(
                outcome == Outcome::Colored,
                want,
                "n {n} k {k} {edges:?} {fixed:?}"
            );
            assert_ne!(outcome, Outcome::GaveUp);
            if want {
                yes += 1;
                assert!(is_proper(&edges, solver.colors(), k));
                for (v, f) in fixed.iter().enumerate() {
                    assert!(f.is_none_or(|f| f == solver.colors()[v]));
                }
            } else {
                no += 1;
            }
        }
        assert!(
            yes > 50 && no > 50,
            "both answers tested: {yes} yes, {no} no"
        );
    }

    #[test]
    fn known_chromatic_numbers() {
        let mut s = ColoringSolver::default();
        // K4 needs 4; an odd wheel (hub + 5-cycle) needs 4; an even cycle needs 2.
        let k4 = [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)];
        assert_eq!(s.solve(4, &k4, 3, &[], 1000).0, Outcome::Impossible);
        assert_eq!(s.solve(4, &k4, 4, &[], 1000).0, Outcome::Colored);
        let wheel = [
            (0, 1),
            (0, 2),
            (0, 3),
            (0, 4),
            (0, 5),
            (1, 2),
            (2, 3),
            (3, 4),
            (4, 5),
            (5, 1),
        ];
        assert_eq!(s.solve(6, &wheel, 3, &[], 1000).0, Outcome::Impossible);
        assert_eq!(s.solve(6, &wheel, 4, &[], 1000).0, Outcome::Colored);
        let c6 = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 0)];
        assert_eq!(s.solve(6, &c6, 2, &[], 1000).0, Outcome::Colored);
        assert_eq!(s.solve(6, &c6, 1, &[], 1000).0, Outcome::Impossible);
        // A budget of one node cannot settle K4 with 3 colors.
        assert_eq!(s.solve(4, &k4, 3, &[], 1).0, Outcome::GaveUp);
    }

    #[test]
    fn a_traced_search_replays_to_its_coloring() {
        let mut rng = WarrenRng::new(9);
        let mut plain = ColoringSolver::default();
        let mut traced = ColoringSolver::default();
        traced.set_tracing(true);
        let mut undos = 0;
        for _ in 0..200 {
            let n = 4 + rng.below(10) as usize;
            let edges = random_graph(&mut rng, n, 0.5);
            let k = 2 + rng.below(3);
            let a = plain.solve(n, &edges, k, &[], u64::MAX);
            let b = traced.solve(n, &edges, k, &[], u64::MAX);
            assert_eq!(a, b, "tracing changes nothing");
            assert!(plain.steps().is_empty());
            let assigns = traced
                .steps()
                .iter()
                .filter(|s| matches!(s, SearchStep::Assign { .. }))
                .count() as u64;
            assert_eq!(assigns, b.1, "one assign per node");
            // Replaying the steps leaves exactly the solver's coloring (or nothing).
            let mut color = vec![NONE; n];
            for step in traced.steps() {
                match *step {
                    SearchStep::Assign { vertex, color: c } => {
                        assert_eq!(color[vertex as usize], NONE);
                        color[vertex as usize] = c;
                    }
                    SearchStep::Undo { vertex } => {
                        assert_ne!(color[vertex as usize], NONE);
                        color[vertex as usize] = NONE;
                        undos += 1;
                    }
                }
            }
            if b.0 == Outcome::Colored {
                assert_eq!(color, plain.colors());
            } else {
                assert!(color.iter().all(|&c| c == NONE));
            }
        }
        assert!(undos > 0, "some searches backtrack");
    }
}
