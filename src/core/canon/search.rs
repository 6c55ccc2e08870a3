//! The search tree of individualisation-refinement (McKay and Piperno, "Practical graph
//! isomorphism II", 2014): a node is a refined partition; its children individualise each vertex
//! of its target cell (the first non-singleton cell) and refine again; leaves are discrete
//! partitions, that is, labellings. The canonical labelling is the leaf with the smallest key:
//! the node invariants (refinement trace hashes) along its path, then the relabelled graph.
//!
//! Pruning removes only subtrees that hold no smaller key than one already seen:
//! - a node whose invariants differ from the first leaf's path and exceed the best leaf's;
//! - a leaf equal to the first (or best) leaf gives an automorphism `gamma`; if `gamma` maps that
//!   leaf's path onto the current one, the subtree below their common ancestor is an image of
//!   one already searched, so the search returns to the ancestor;
//! - at the nodes of the first path, children in one orbit of the automorphisms found that fix
//!   the path's vertices are equivalent: only the smallest vertex of each orbit is tried.

use std::cmp::Ordering;

use super::colored::ColoredGraph;
use super::partition::Partition;

/// "No vertex" in [`Search::tried`].
const NONE: u32 = u32::MAX;

/// Automorphisms stored for orbit pruning; later ones still cut subtrees but are not kept.
const MAX_GENERATORS: usize = 128;

/// A leaf kept for comparison: the first one found, or the best so far.
#[derive(Default)]
struct Leaf {
    /// Its level: the number of vertices individualised on its path.
    depth: usize,
    /// The vertex individualised at each level of its path.
    chosen: Vec<u32>,
    /// The node invariant at each level of its path, the leaf's own last.
    inv: Vec<u64>,
    /// Its labelling: the vertex at each position.
    lab: Vec<u32>,
    /// The relabelled graph ([`leaf_certificate`]).
    cert: Vec<u64>,
}

/// What the search does after entering a node.
enum Step {
    /// Skip this node's subtree.
    Prune,
    /// Search this node's children.
    Descend,
    /// Continue with the next child of the node at this level.
    Back(usize),
}

/// State of one canonical-labelling search, reused between calls.
#[derive(Default)]
pub(super) struct Search {
    /// Per level of the current path: first position of the node's target cell.
    target: Vec<u32>,
    /// Per level: the last child tried (a vertex of the target cell), or [`NONE`].
    tried: Vec<u32>,
    /// Per level: the vertex individualised to reach the next level.
    chosen: Vec<u32>,
    /// Per level: the node invariant.
    inv: Vec<u64>,
    /// Per level: the node is on the first leaf's path.
    on_first: Vec<bool>,
    /// Per level: the invariants so far equal the first leaf's path's.
    eq_first: Vec<bool>,
    /// Per level: the invariants so far compared with the best leaf's path's.
    vs_best: Vec<Ordering>,
    have_first: bool,
    first: Leaf,
    best: Leaf,
    /// The current leaf's certificate.
    cert: Vec<u64>,
    /// Stored automorphisms, `n` entries each: `gens[i * n + v]` is the image of `v`.
    gens: Vec<u32>,
    gamma: Vec<u32>,
    /// Union-find of orbits (root = smallest vertex) under the stored automorphisms that fix the
    /// first path down to `orbit_level`, built from the first `orbit_gens` of them.
    orbit: Vec<u32>,
    orbit_level: usize,
    orbit_gens: usize,
    /// Nodes entered by the last search (the root counted).
    pub nodes: u64,
    /// Automorphisms found by the last search.
    pub automorphisms: u64,
}

impl Search {
    fn reset(&mut self, n: usize) {
        let levels = n + 1;
        self.target.resize(levels, 0);
        self.tried.resize(levels, NONE);
        self.chosen.resize(levels, 0);
        self.inv.resize(levels, 0);
        self.on_first.resize(levels, false);
        self.eq_first.resize(levels, false);
        self.vs_best.resize(levels, Ordering::Equal);
        self.have_first = false;
        self.gens.clear();
        self.gamma.resize(n, 0);
        self.orbit.resize(n, 0);
        self.orbit_level = usize::MAX;
        self.orbit_gens = 0;
        self.nodes = 1;
        self.automorphisms = 0;
    }

    /// The canonical labelling of the last search: the vertex at each canonical position.
    pub fn canonical_lab(&self) -> &[u32] {
        &self.best.lab
    }

    /// Searches the tree of `g` from its root partition, leaving the smallest leaf in `best`.
    ///
    /// # Runtime
    /// Exponential in the worst case (as for every practical canonical labelling algorithm); a
    /// few refinements for graphs with few symmetries, polynomial for the symmetric families of
    /// the tests.
    pub fn run(&mut self, g: &ColoredGraph, p: &mut Partition) {
        let n = g.n;
        self.reset(n);
        p.init(g);
        self.inv[0] = p.refine(g, 0);
        self.on_first[0] = true;
        self.eq_first[0] = true;
        self.vs_best[0] = Ordering::Equal;
        if p.is_discrete() {
            self.record_first(0, g, p);
            return;
        }
        self.open(0, p);
        let mut k = 0;
        loop {
            if p.level as usize > k {
                p.restore(k as u32);
            }
            let Some(w) = self.next_child(k, p) else {
                if k == 0 {
                    return;
                }
                k -= 1;
                continue;
            };
            self.chosen[k] = w;
            p.individualise(w, k as u32 + 1);
            let h = p.refine(g, k as u32 + 1);
            match self.enter(k + 1, h, g, p) {
                Step::Prune => {}
                Step::Descend => {
                    k += 1;
                    self.open(k, p);
                }
                Step::Back(level) => k = level,
            }
        }
    }

    /// Prepares the node at `level` for its children: its target cell, none tried.
    fn open(&mut self, level: usize, p: &Partition) {
        // NOTE: cells before the parent's target cell are singletons, so the scan starts there.
        let from = if level == 0 {
            0
        } else {
            self.target[level - 1]
        };
        self.target[level] = p.first_nonsingleton(from).unwrap_or(0);
        self.tried[level] = NONE;
    }

    /// The next child of the node at `level` in increasing vertex order, skipping vertices whose
    /// orbit holds a smaller one on the first path.
    fn next_child(&mut self, level: usize, p: &Partition) -> Option<u32> {
        let start = self.target[level] as usize;
        let cell = &p.lab[start..p.cell_end[start] as usize];
        let use_orbits = self.have_first && self.on_first[level];
        if use_orbits {
            self.update_orbits(level);
        }
        loop {
            let tried = self.tried[level];
            // PERF: a scan of the cell per child instead of a sorted copy per level keeps the
            // memory O(n); cells of level graphs are short.
            let next = cell
                .iter()
                .copied()
                .filter(|&v| tried == NONE || v > tried)
                .min()?;
            self.tried[level] = next;
            if !use_orbits || self.find(next) == next {
                return Some(next);
            }
        }
    }

    /// Enters the refined child at `level` (its invariant `h`) and decides what to do with it.
    fn enter(&mut self, level: usize, h: u64, g: &ColoredGraph, p: &Partition) -> Step {
        self.nodes += 1;
        let parent = level - 1;
        self.inv[level] = h;
        if !self.have_first {
            self.on_first[level] = true;
            self.eq_first[level] = true;
            self.vs_best[level] = Ordering::Equal;
            if !p.is_discrete() {
                return Step::Descend;
            }
            self.record_first(level, g, p);
            return Step::Back(parent);
        }
        self.on_first[level] =
            self.on_first[parent] && self.chosen[parent] == self.first.chosen[parent];
        self.eq_first[level] =
            self.eq_first[parent] && level <= self.first.depth && h == self.first.inv[level];
        self.vs_best[level] = match self.vs_best[parent] {
            // A path longer than the best one with the same invariants is larger.
            Ordering::Equal if level > self.best.depth => Ordering::Greater,
            Ordering::Equal => h.cmp(&self.best.inv[level]),
            other => other,
        };
        if !self.eq_first[level] && self.vs_best[level] == Ordering::Greater {
            return Step::Prune;
        }
        if !p.is_discrete() {
            return Step::Descend;
        }
        Step::Back(self.leaf(level, g, p))
    }

    /// Compares the leaf at `level` with the first and best leaves; returns the level to go on
    /// from.
    fn leaf(&mut self, level: usize, g: &ColoredGraph, p: &Partition) -> usize {
        leaf_certificate(g, p, &mut self.cert);
        if self.eq_first[level] && self.cert == self.first.cert {
            return self.automorphism(true, level, p);
        }
        let order = match self.vs_best[level] {
            Ordering::Equal => self.cert.cmp(&self.best.cert),
            other => other,
        };
        match order {
            Ordering::Equal => self.automorphism(false, level, p),
            Ordering::Less => {
                self.record_best(level, p);
                level - 1
            }
            Ordering::Greater => level - 1,
        }
    }

    /// Records the automorphism from the first (or best) leaf to the current one at `level`,
    /// and returns the level to go on from: their common ancestor when the automorphism maps
    /// one path onto the other, else the parent.
    fn automorphism(&mut self, from_first: bool, level: usize, p: &Partition) -> usize {
        self.automorphisms += 1;
        let leaf = if from_first { &self.first } else { &self.best };
        for (&a, &b) in leaf.lab.iter().zip(&p.lab) {
            self.gamma[a as usize] = b;
        }
        let Some(ancestor) = (0..level).find(|&i| self.chosen[i] != leaf.chosen[i]) else {
            return level - 1;
        };
        let maps_path =
            (0..=ancestor).all(|i| self.gamma[leaf.chosen[i] as usize] == self.chosen[i]);
        let n = self.gamma.len();
        if self.gens.len() < MAX_GENERATORS * n {
            self.gens.extend_from_slice(&self.gamma);
        }
        if maps_path { ancestor } else { level - 1 }
    }

    fn record_first(&mut self, level: usize, g: &ColoredGraph, p: &Partition) {
        leaf_certificate(g, p, &mut self.cert);
        self.have_first = true;
        self.record_best(level, p);
        let (first, best) = (&mut self.first, &self.best);
        first.depth = best.depth;
        for (dst, src) in [
            (&mut first.chosen, &best.chosen),
            (&mut first.lab, &best.lab),
        ] {
            dst.clone_from(src);
        }
        first.inv.clone_from(&best.inv);
        first.cert.clone_from(&best.cert);
    }

    /// Makes the current leaf (at `level`, certificate in `cert`) the best one.
    fn record_best(&mut self, level: usize, p: &Partition) {
        let best = &mut self.best;
        best.depth = level;
        best.chosen.clear();
        best.chosen.extend_from_slice(&self.chosen[..level]);
        best.inv.clear();
        best.inv.extend_from_slice(&self.inv[..=level]);
        best.lab.clone_from(&p.lab);
        std::mem::swap(&mut best.cert, &mut self.cert);
        // The current path is now the best one: its nodes compare equal to it.
        self.vs_best[..=level].fill(Ordering::Equal);
    }

    /// Brings the orbits up to date for the first path's node at `level`.
    fn update_orbits(&mut self, level: usize) {
        let n = self.gamma.len();
        if self.orbit_level != level {
            for (v, o) in self.orbit.iter_mut().enumerate() {
                *o = v as u32;
            }
            self.orbit_level = level;
            self.orbit_gens = 0;
        }
        let stored = self.gens.len() / n.max(1);
        for i in self.orbit_gens..stored {
            let fixes_path = self.first.chosen[..level]
                .iter()
                .all(|&v| self.gens[i * n + v as usize] == v);
            if fixes_path {
                for v in 0..n {
                    self.union(v as u32, self.gens[i * n + v]);
                }
            }
        }
        self.orbit_gens = stored;
    }

    fn find(&mut self, mut v: u32) -> u32 {
        while self.orbit[v as usize] != v {
            let parent = self.orbit[v as usize];
            self.orbit[v as usize] = self.orbit[parent as usize];
            v = parent;
        }
        v
    }

    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra < rb {
            self.orbit[rb as usize] = ra;
        } else if rb < ra {
            self.orbit[ra as usize] = rb;
        }
    }
}

/// The graph relabelled by a discrete partition, as comparable words: for each position in
/// order, the number of its neighbours at later positions, then those neighbours as
/// `position << 32 | pair colour rank`, sorted. Vertex colours need no words: a position's
/// colour is fixed by the root partition.
///
/// # Runtime
/// O(m + sum of deg log deg).
fn leaf_certificate(g: &ColoredGraph, p: &Partition, out: &mut Vec<u64>) {
    out.clear();
    for (q, &v) in p.lab.iter().enumerate() {
        let row = out.len();
        out.push(0);
        for e in g.neighbours(v) {
            let r = p.pos[g.adj_vertex[e] as usize];
            if r as usize > q {
                out.push(u64::from(r) << 32 | u64::from(g.adj_rank[e]));
            }
        }
        out[row] = (out.len() - row - 1) as u64;
        out[row + 1..].sort_unstable();
    }
}
