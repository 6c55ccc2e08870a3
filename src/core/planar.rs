//! An exact planarity test for level graphs: the left-right (LR) planarity test.
//!
//! The graph-grammar generator reports whether each level graph is planar, so that we can measure
//! how often a planar graph was nevertheless drawn with crossings. [`is_planar`] answers exactly
//! for any undirected multigraph: self-loops and parallel edges are dropped first (neither changes
//! planarity), and a disconnected graph is planar iff each of its components is.
//!
//! # Algorithm
//! De Fraysseix and Rosenstiehl's left-right criterion, made algorithmic by Brandes ("The
//! Left-Right Planarity Test", 2009), the algorithm behind networkx's and rustworkx's tests:
//!
//! 1. **Orientation.** A depth-first search orients every edge (tree edges away from the root,
//!    back edges towards it) and gives each edge its lowest and second-lowest return heights
//!    (`lowpt`, `lowpt2`) and from them a nesting depth.
//! 2. **Testing.** A second search visits each vertex's outgoing edges in nesting order and keeps
//!    a stack of conflict pairs: two intervals of back edges that must lie on opposite sides of
//!    the tree path. A back edge forced onto both sides proves the graph non-planar; a graph that
//!    survives the whole search has a left-right partition and so a planar embedding.
//!
//! We chose LR over splitting into biconnected blocks and embedding each face by face
//! (Demoucron-Malgrange-Pertuiset) because it runs in linear time with no block decomposition and
//! no face bookkeeping, which matters for the few-thousand-vertex graphs. Both searches are
//! iterative over explicit stacks, so a path of a million vertices cannot overflow the thread
//! stack. Only the test is kept: the side bookkeeping Brandes adds to produce an embedding is
//! left out, and with it the `lowpt_edge` array and the interval references that only that
//! bookkeeping reads.
//!
//! The tests check the answer against a brute-force Wagner oracle (a K5 or K3,3 minor, found by
//! exhaustive contraction) on every graph of up to six vertices and on thousands of random graphs
//! of seven and eight vertices, with the fast paths both on and off.

use crate::core::graph::NONE;

/// Graphs with at most this many distinct non-loop edges are planar: the smallest non-planar
/// graph, K3,3, has nine.
const ALWAYS_PLANAR_EDGES: usize = 8;

/// `true` if the graph on vertices `0..n` whose edge `e` joins `src[e]` and `dst[e]` is planar.
///
/// Self-loops and parallel edges are ignored; the graph may be disconnected. The answer is exact
/// and deterministic. Endpoints must be below `n` (checked by `debug_assert!`; in release builds
/// an edge with an endpoint out of range is skipped, never a panic). Allocates a fresh
/// [`PlanarityScratch`]; use [`is_planar_with`] to reuse one across many graphs.
///
/// # Runtime
/// O(n + m log m) for m edges, of which the log factor is only the sort that removes parallel
/// edges; the test itself is linear. Fast paths answer without the test when there are at most
/// eight distinct edges or four vertices (planar) or more than 3n - 6 distinct edges (not).
/// Allocates about 30 bytes per vertex and 70 per distinct edge.
///
/// ```
/// use warren::core::planar::is_planar;
///
/// // K4 is planar, K3,3 (parts {0, 1, 2} and {3, 4, 5}) is not.
/// assert!(is_planar(4, &[0, 0, 0, 1, 1, 2], &[1, 2, 3, 2, 3, 3]));
/// let (src, dst): (Vec<u32>, Vec<u32>) = (0..9).map(|i| (i / 3, 3 + i % 3)).unzip();
/// assert!(!is_planar(6, &src, &dst));
/// ```
pub fn is_planar(n: usize, src: &[u32], dst: &[u32]) -> bool {
    is_planar_with(&mut PlanarityScratch::default(), n, src, dst)
}

/// [`is_planar`] with its working memory in `scratch`, which grows and never shrinks: no
/// allocation once it has seen the largest graph.
///
/// # Runtime
/// As [`is_planar`], with no allocation when `scratch` is already large enough.
pub fn is_planar_with(scratch: &mut PlanarityScratch, n: usize, src: &[u32], dst: &[u32]) -> bool {
    let m = scratch.load_simple_edges(n, src, dst);
    if m <= ALWAYS_PLANAR_EDGES || n <= 4 {
        return true;
    }
    // Euler's bound for a simple planar graph on n >= 3 vertices.
    if m > n.saturating_mul(3) - 6 {
        return false;
    }
    scratch.left_right_test(n)
}

/// Reusable working memory for [`is_planar_with`]: per-vertex and per-edge arrays, as structs
/// of arrays indexed by `u32` ids with [`NONE`] as the sentinel.
#[derive(Debug, Default)]
pub struct PlanarityScratch {
    /// Distinct non-loop edges as `(min << 32) | max`, sorted.
    keys: Vec<u64>,
    /// Edge tails: after orientation, the end the search left the edge from.
    tail: Vec<u32>,
    /// Edge heads: after orientation, the end the search reached through the edge.
    head: Vec<u32>,
    /// CSR offsets (`n + 1`) into `incident`, then into `out` for the testing phase.
    first: Vec<u32>,
    /// Edge ids incident to each vertex, both directions, grouped by vertex.
    incident: Vec<u32>,
    /// Outgoing oriented edges of each vertex, grouped by vertex, each group in nesting order.
    out: Vec<u32>,
    /// Per-vertex position in its adjacency group during a search.
    cursor: Vec<u32>,
    /// Depth of each vertex in the DFS forest ([`NONE`] before it is reached).
    height: Vec<u32>,
    /// The tree edge that reached each vertex ([`NONE`] for roots).
    parent_edge: Vec<u32>,
    /// Lowest height an edge's subtree returns to.
    lowpt: Vec<u32>,
    /// Second-lowest such height (only compared against the tail's height).
    lowpt2: Vec<u32>,
    /// `2 lowpt + chordal`: the order in which a vertex's outgoing edges are tested.
    nesting: Vec<u32>,
    /// Counting-sort buckets over nesting depths.
    bucket: Vec<u32>,
    /// Edge ids sorted by nesting depth.
    by_nesting: Vec<u32>,
    /// Next lower back edge in the same interval ([`NONE`] below an interval's low end).
    refs: Vec<u32>,
    /// Conflict-stack depth when each edge was first visited in the testing phase.
    stack_bottom: Vec<u32>,
    /// The conflict-pair stack.
    pairs: Vec<ConflictPair>,
    /// The explicit DFS stack of vertices.
    dfs: Vec<u32>,
}

/// A run of back edges linked high to low through `refs`; both ends [`NONE`] when empty.
#[derive(Clone, Copy, Debug)]
struct Interval {
    low: u32,
    high: u32,
}

impl Interval {
    const EMPTY: Self = Self {
        low: NONE,
        high: NONE,
    };

    fn is_empty(self) -> bool {
        self.high == NONE
    }

    /// Some edge of the interval returns strictly higher than edge `b` does.
    fn conflicts(self, b: u32, lowpt: &[u32]) -> bool {
        !self.is_empty() && lowpt[self.high as usize] > lowpt[b as usize]
    }

    /// Appends `lower`, whose edges return no higher than ours, below this interval.
    fn extend_below(&mut self, lower: Self, refs: &mut [u32]) {
        if lower.is_empty() {
            return;
        }
        if self.is_empty() {
            *self = lower;
        } else {
            refs[self.low as usize] = lower.high;
            self.low = lower.low;
        }
    }

    /// Drops the back edges at the top of the interval that return to vertex `u`.
    fn trim(&mut self, u: u32, head: &[u32], refs: &[u32]) {
        while self.high != NONE && head[self.high as usize] == u {
            self.high = refs[self.high as usize];
        }
        if self.high == NONE {
            self.low = NONE;
        }
    }
}

/// Two intervals of back edges that must lie on opposite sides of the tree path.
#[derive(Clone, Copy, Debug)]
struct ConflictPair {
    left: Interval,
    right: Interval,
}

impl ConflictPair {
    const EMPTY: Self = Self {
        left: Interval::EMPTY,
        right: Interval::EMPTY,
    };

    fn is_empty(self) -> bool {
        self.left.is_empty() && self.right.is_empty()
    }

    fn swap(&mut self) {
        std::mem::swap(&mut self.left, &mut self.right);
    }

    /// Either side has an edge returning higher than edge `b`.
    fn conflicts(self, b: u32, lowpt: &[u32]) -> bool {
        self.left.conflicts(b, lowpt) || self.right.conflicts(b, lowpt)
    }

    /// The lowest return height of either side ([`NONE`] if both are empty).
    fn lowest(self, lowpt: &[u32]) -> u32 {
        let side = |i: Interval| {
            if i.is_empty() {
                NONE
            } else {
                lowpt[i.low as usize]
            }
        };
        side(self.left).min(side(self.right))
    }
}

impl PlanarityScratch {
    /// Loads the distinct non-loop edges into `tail`/`head` and returns their number.
    fn load_simple_edges(&mut self, n: usize, src: &[u32], dst: &[u32]) -> usize {
        debug_assert_eq!(
            src.len(),
            dst.len(),
            "src and dst must have one entry per edge"
        );
        self.keys.clear();
        for (&s, &d) in src.iter().zip(dst) {
            debug_assert!(
                (s as usize) < n && (d as usize) < n,
                "edge ({s}, {d}) has an endpoint outside 0..{n}"
            );
            if s != d && (s as usize) < n && (d as usize) < n {
                self.keys
                    .push((u64::from(s.min(d)) << 32) | u64::from(s.max(d)));
            }
        }
        // PERF: sorting the packed pairs is the simplest way to drop parallel edges, about a
        // tenth of the whole test on a 2,000-vertex triangulation (release build). It also
        // fixes the edge order, so the path through the algorithm ignores the input order.
        self.keys.sort_unstable();
        self.keys.dedup();
        self.tail.clear();
        self.head.clear();
        self.tail
            .extend(self.keys.iter().map(|&k| (k >> 32) as u32));
        self.head.extend(self.keys.iter().map(|&k| k as u32));
        self.keys.len()
    }

    /// Brandes' LR test on the loaded simple graph, without fast paths.
    fn left_right_test(&mut self, n: usize) -> bool {
        debug_assert!(
            self.tail.len() < 1 << 30,
            "edge ids, heights and nesting depths (below 4m) are u32"
        );
        self.build_incidence(n);
        self.orient(n);
        self.order_by_nesting(n);
        self.test_sides(n)
    }

    /// Fills `first`/`incident` with every edge listed at both ends.
    fn build_incidence(&mut self, n: usize) {
        let m = self.tail.len();
        reset(&mut self.first, n + 1, 0);
        for e in 0..m {
            self.first[self.tail[e] as usize + 1] += 1;
            self.first[self.head[e] as usize + 1] += 1;
        }
        for v in 0..n {
            self.first[v + 1] += self.first[v];
        }
        reset(&mut self.incident, 2 * m, NONE);
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.first[..n]);
        for e in 0..m {
            for v in [self.tail[e], self.head[e]] {
                let slot = &mut self.cursor[v as usize];
                self.incident[*slot as usize] = e as u32;
                *slot += 1;
            }
        }
    }

    /// Phase 1: orients the edges by an iterative DFS and computes heights, low points and
    /// nesting depths.
    fn orient(&mut self, n: usize) {
        let m = self.tail.len();
        reset(&mut self.height, n, NONE);
        reset(&mut self.parent_edge, n, NONE);
        // NOTE: `lowpt[e] == NONE` marks an edge not yet oriented.
        reset(&mut self.lowpt, m, NONE);
        reset(&mut self.lowpt2, m, 0);
        reset(&mut self.nesting, m, 0);
        // NOTE: a non-planar answer returns mid-search, so a reused stack may hold leftovers.
        self.dfs.clear();
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.first[..n]);
        for root in 0..n {
            if self.height[root] != NONE {
                continue;
            }
            self.height[root] = 0;
            self.dfs.push(root as u32);
            while let Some(&v) = self.dfs.last() {
                let v = v as usize;
                let slot = self.cursor[v] as usize;
                if slot == self.first[v + 1] as usize {
                    self.dfs.pop();
                    let e = self.parent_edge[v];
                    if e != NONE {
                        self.finish_orienting(e as usize, self.tail[e as usize] as usize);
                    }
                    continue;
                }
                self.cursor[v] += 1;
                let e = self.incident[slot] as usize;
                if self.lowpt[e] != NONE {
                    continue;
                }
                let w = (self.tail[e] ^ self.head[e] ^ v as u32) as usize;
                self.tail[e] = v as u32;
                self.head[e] = w as u32;
                self.lowpt[e] = self.height[v];
                self.lowpt2[e] = self.height[v];
                if self.height[w] == NONE {
                    self.parent_edge[w] = e as u32;
                    self.height[w] = self.height[v] + 1;
                    self.dfs.push(w as u32);
                } else {
                    self.lowpt[e] = self.height[w];
                    self.finish_orienting(e, v);
                }
            }
        }
    }

    /// Sets the nesting depth of edge `e` leaving `v` and folds its low points into the edge
    /// that reached `v`.
    fn finish_orienting(&mut self, e: usize, v: usize) {
        let (low, low2) = (self.lowpt[e], self.lowpt2[e]);
        self.nesting[e] = 2 * low + u32::from(low2 < self.height[v]);
        let p = self.parent_edge[v];
        if p == NONE {
            return;
        }
        let p = p as usize;
        if low < self.lowpt[p] {
            self.lowpt2[p] = self.lowpt[p].min(low2);
            self.lowpt[p] = low;
        } else if low > self.lowpt[p] {
            self.lowpt2[p] = self.lowpt2[p].min(low);
        } else {
            self.lowpt2[p] = self.lowpt2[p].min(low2);
        }
    }

    /// Lists each vertex's outgoing edges in `out`, in nesting order (ties by edge id).
    fn order_by_nesting(&mut self, n: usize) {
        let m = self.tail.len();
        // PERF: two stable counting sorts (by nesting depth, then by tail) keep the phase
        // linear; nesting depths are below twice the DFS depth.
        let depths = self.nesting.iter().max().map_or(0, |&d| d as usize + 1);
        reset(&mut self.bucket, depths + 1, 0);
        for &depth in &self.nesting {
            self.bucket[depth as usize + 1] += 1;
        }
        for d in 0..depths {
            self.bucket[d + 1] += self.bucket[d];
        }
        reset(&mut self.by_nesting, m, NONE);
        for e in 0..m {
            let slot = &mut self.bucket[self.nesting[e] as usize];
            self.by_nesting[*slot as usize] = e as u32;
            *slot += 1;
        }
        reset(&mut self.first, n + 1, 0);
        for &t in &self.tail {
            self.first[t as usize + 1] += 1;
        }
        for v in 0..n {
            self.first[v + 1] += self.first[v];
        }
        reset(&mut self.out, m, NONE);
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.first[..n]);
        for &e in &self.by_nesting {
            let slot = &mut self.cursor[self.tail[e as usize] as usize];
            self.out[*slot as usize] = e;
            *slot += 1;
        }
    }

    /// Phase 2: the iterative testing DFS over the oriented forest. `false` means non-planar.
    fn test_sides(&mut self, n: usize) -> bool {
        let m = self.tail.len();
        reset(&mut self.refs, m, NONE);
        reset(&mut self.stack_bottom, m, 0);
        self.pairs.clear();
        self.dfs.clear();
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.first[..n]);
        for root in 0..n {
            if self.height[root] != 0 {
                continue;
            }
            self.dfs.push(root as u32);
            while let Some(&v) = self.dfs.last() {
                let v = v as usize;
                let slot = self.cursor[v] as usize;
                if slot == self.first[v + 1] as usize {
                    self.dfs.pop();
                    let e = self.parent_edge[v];
                    if e != NONE {
                        let u = self.tail[e as usize] as usize;
                        self.trim_back_edges(u as u32);
                        let slot = self.cursor[u] as usize - 1;
                        if !self.integrate_return_edges(e, u, slot) {
                            return false;
                        }
                    }
                    continue;
                }
                self.cursor[v] += 1;
                let e = self.out[slot];
                self.stack_bottom[e as usize] = self.pairs.len() as u32;
                let w = self.head[e as usize] as usize;
                if self.parent_edge[w] == e {
                    self.dfs.push(w as u32);
                    continue;
                }
                self.pairs.push(ConflictPair {
                    left: Interval::EMPTY,
                    right: Interval { low: e, high: e },
                });
                if !self.integrate_return_edges(e, v, slot) {
                    return false;
                }
            }
            debug_assert!(
                self.pairs.is_empty(),
                "every back edge is trimmed by the time its component's root is finished"
            );
            self.pairs.clear();
        }
        true
    }

    /// Integrates the return edges of `ei`, the outgoing edge of `v` at position `slot`, into
    /// the constraints of the edge that reached `v`. `false` means non-planar.
    fn integrate_return_edges(&mut self, ei: u32, v: usize, slot: usize) -> bool {
        if self.lowpt[ei as usize] >= self.height[v] {
            return true;
        }
        // NOTE: the first outgoing edge in nesting order returns lowest and constrains nothing
        // yet. A later one returns below `v`, so `v` is not a root and has a parent edge.
        slot == self.first[v] as usize || self.add_constraints(ei, self.parent_edge[v])
    }

    /// Brandes' `add_constraints(ei, e)`: merges the return edges of `ei` into one conflict
    /// pair with the earlier siblings' return edges they conflict with. `false` means
    /// non-planar.
    fn add_constraints(&mut self, ei: u32, e: u32) -> bool {
        let Self {
            pairs,
            lowpt,
            refs,
            stack_bottom,
            ..
        } = self;
        let mut p = ConflictPair::EMPTY;
        // Merge the return edges of `ei` into `p.right`, topmost first.
        let bottom = stack_bottom[ei as usize] as usize;
        debug_assert!(bottom <= pairs.len(), "the stack fell below ei's bottom");
        while pairs.len() > bottom {
            let Some(mut q) = pairs.pop() else { break };
            if !q.left.is_empty() {
                q.swap();
            }
            if !q.left.is_empty() {
                return false;
            }
            // Return edges to exactly lowpt(e) are aligned with e's lowest return edge and
            // constrain nothing further (Brandes records the alignment only for the embedding).
            if lowpt[q.right.low as usize] > lowpt[e as usize] {
                p.right.extend_below(q.right, refs);
            }
        }
        // Merge the conflicting return edges of earlier siblings into `p.left`.
        while let Some(mut q) = pairs.pop_if(|q| q.conflicts(ei, lowpt)) {
            if q.right.conflicts(ei, lowpt) {
                q.swap();
            }
            if q.right.conflicts(ei, lowpt) {
                return false;
            }
            p.right.extend_below(q.right, refs);
            p.left.extend_below(q.left, refs);
        }
        if !p.is_empty() {
            pairs.push(p);
        }
        true
    }

    /// Removes the back edges that return to `u`, the tail of a tree edge just finished.
    fn trim_back_edges(&mut self, u: u32) {
        let Self {
            pairs,
            lowpt,
            refs,
            head,
            height,
            ..
        } = self;
        let hu = height[u as usize];
        while pairs.pop_if(|p| p.lowest(lowpt) == hu).is_some() {}
        if let Some(mut p) = pairs.pop() {
            p.left.trim(u, head, refs);
            p.right.trim(u, head, refs);
            if !p.is_empty() {
                pairs.push(p);
            }
        }
    }
}

/// Clears `v` and refills it with `len` copies of `value`, keeping its capacity.
fn reset(v: &mut Vec<u32>, len: usize, value: u32) {
    v.clear();
    v.resize(len, value);
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;
    use crate::core::rng::WarrenRng;

    /// Fixed seed for every random graph in these tests.
    const SEED: u64 = 0x504c_414e_4152;

    type Edges = Vec<(u32, u32)>;

    fn planar(n: usize, edges: &[(u32, u32)]) -> bool {
        let (src, dst): (Vec<u32>, Vec<u32>) = edges.iter().copied().unzip();
        is_planar(n, &src, &dst)
    }

    /// The LR test alone, without the fast paths, so that small and dense graphs exercise it.
    fn planar_by_lr_only(scratch: &mut PlanarityScratch, n: usize, edges: &[(u32, u32)]) -> bool {
        let (src, dst): (Vec<u32>, Vec<u32>) = edges.iter().copied().unzip();
        scratch.load_simple_edges(n, &src, &dst);
        scratch.left_right_test(n)
    }

    // The Wagner oracle. Wagner: a graph is planar iff it has neither K5 nor K3,3 as a minor.
    // Every minor of G is a subgraph of a contraction of G (deleting and contracting commute),
    // so G is non-planar iff some contraction of G contains K5 or K3,3 as a subgraph. The search
    // below tries every sequence of edge contractions, memoised on the adjacency matrix.

    /// Adjacency of a graph on at most 8 vertices: bit `w` of `adj[v]` is the edge `vw`.
    type Adjacency = [u8; 8];

    fn oracle_is_planar(edges: &[(u32, u32)]) -> bool {
        let mut adj = [0u8; 8];
        for &(a, b) in edges {
            if a != b {
                adj[a as usize] |= 1 << b;
                adj[b as usize] |= 1 << a;
            }
        }
        !has_kuratowski_minor(adj, &mut HashSet::new())
    }

    fn has_kuratowski_minor(adj: Adjacency, seen: &mut HashSet<u64>) -> bool {
        if !seen.insert(u64::from_le_bytes(adj)) {
            return false;
        }
        if has_kuratowski_subgraph(&adj) {
            return true;
        }
        let edges = adj.iter().map(|r| r.count_ones()).sum::<u32>() / 2;
        // Contraction never adds edges, and K3,3 has nine.
        if edges < 9 {
            return false;
        }
        (0..8).any(|u| {
            (u + 1..8)
                .any(|v| adj[u] >> v & 1 == 1 && has_kuratowski_minor(contract(adj, u, v), seen))
        })
    }

    /// Merges vertex `v` into `u` (they are adjacent), dropping the loop and parallel edges.
    fn contract(mut adj: Adjacency, u: usize, v: usize) -> Adjacency {
        let moved = adj[v] & !(1 << u);
        adj[v] = 0;
        for (w, row) in adj.iter_mut().enumerate() {
            if *row >> v & 1 == 1 {
                *row &= !(1 << v);
                if w != u {
                    *row |= 1 << u;
                }
            }
        }
        adj[u] |= moved;
        adj
    }

    fn has_kuratowski_subgraph(adj: &Adjacency) -> bool {
        let with_degree = |d: u32| {
            (0..8)
                .filter(|&v| adj[v].count_ones() >= d)
                .fold(0u8, |m, v| m | 1 << v)
        };
        let (k5_candidates, k33_candidates) = (with_degree(4), with_degree(3));
        let members = |mask: u8| (0..8).filter(move |&v| mask >> v & 1 == 1);
        (0..=255u8).any(|mask| match mask.count_ones() {
            5 if mask & !k5_candidates == 0 => {
                members(mask).all(|v| adj[v] & mask == mask & !(1 << v))
            }
            6 if mask & !k33_candidates == 0 => {
                let lowest = mask & mask.wrapping_neg();
                submasks(mask).any(|side| {
                    let other = mask ^ side;
                    side & lowest != 0
                        && side.count_ones() == 3
                        && members(side).all(|a| adj[a] & other == other)
                        && members(other).all(|b| adj[b] & side == side)
                })
            }
            _ => false,
        })
    }

    fn submasks(mask: u8) -> impl Iterator<Item = u8> {
        let mut next = Some(mask);
        std::iter::from_fn(move || {
            let s = next?;
            next = (s != 0).then(|| (s - 1) & mask);
            Some(s)
        })
    }

    // Graph families.

    fn complete(k: u32) -> Edges {
        (0..k)
            .flat_map(|a| (a + 1..k).map(move |b| (a, b)))
            .collect()
    }

    fn complete_bipartite(a: u32, b: u32) -> Edges {
        (0..a)
            .flat_map(|i| (a..a + b).map(move |j| (i, j)))
            .collect()
    }

    fn cycle(k: u32) -> Edges {
        (0..k).map(|i| (i, (i + 1) % k)).collect()
    }

    /// Replaces every edge by a path through `times` new vertices.
    fn subdivide(n: usize, edges: &[(u32, u32)], times: u32) -> (usize, Edges) {
        let mut next = n as u32;
        let mut out = Vec::new();
        for &(a, b) in edges {
            let mut prev = a;
            for _ in 0..times {
                out.push((prev, next));
                prev = next;
                next += 1;
            }
            out.push((prev, b));
        }
        (next as usize, out)
    }

    fn petersen() -> Edges {
        (0..5)
            .flat_map(|i| [(i, (i + 1) % 5), (i, i + 5), (i + 5, 5 + (i + 2) % 5)])
            .collect()
    }

    /// Hub 0 and a rim of `k` vertices.
    fn wheel(k: u32) -> Edges {
        (1..=k).flat_map(|i| [(0, i), (i, i % k + 1)]).collect()
    }

    fn grid(w: u32, h: u32) -> Edges {
        let mut edges = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let v = y * w + x;
                if x + 1 < w {
                    edges.push((v, v + 1));
                }
                if y + 1 < h {
                    edges.push((v, v + w));
                }
            }
        }
        edges
    }

    /// A `w` x `h` grid with one random diagonal in every cell: a triangulated disk.
    fn triangulated_grid(w: u32, h: u32, rng: &mut WarrenRng) -> Edges {
        let mut edges = grid(w, h);
        for y in 0..h - 1 {
            for x in 0..w - 1 {
                let v = y * w + x;
                edges.push(if rng.chance(0.5) {
                    (v, v + w + 1)
                } else {
                    (v + 1, v + w)
                });
            }
        }
        edges
    }

    /// [`triangulated_grid`] plus an apex joined to every boundary vertex: maximal planar
    /// (every face a triangle, `m = 3n - 6`). The apex is vertex `w * h`.
    fn apex_triangulated_grid(w: u32, h: u32, rng: &mut WarrenRng) -> Edges {
        let mut edges = triangulated_grid(w, h, rng);
        let apex = w * h;
        for y in 0..h {
            for x in 0..w {
                if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                    edges.push((apex, y * w + x));
                }
            }
        }
        edges
    }

    /// A random stacked triangulation: start from a triangle, repeatedly put a new vertex in a
    /// random face and join it to the face's corners. Maximal planar; deep and irregular.
    fn stacked_triangulation(n: u32, rng: &mut WarrenRng) -> Edges {
        let mut edges = cycle(3);
        let mut faces = vec![[0, 1, 2], [0, 1, 2]];
        for v in 3..n {
            let f = rng.below(faces.len() as u32) as usize;
            let [a, b, c] = faces[f];
            edges.extend([(a, v), (b, v), (c, v)]);
            faces[f] = [a, b, v];
            faces.extend([[b, c, v], [a, c, v]]);
        }
        edges
    }

    fn random_graph(n: u32, density: f64, rng: &mut WarrenRng) -> Edges {
        complete(n)
            .into_iter()
            .filter(|_| rng.chance(density))
            .collect()
    }

    /// The same graph under a random vertex permutation, edge order and edge direction.
    fn relabel(n: usize, edges: &[(u32, u32)], rng: &mut WarrenRng) -> Edges {
        let mut perm: Vec<u32> = (0..n as u32).collect();
        rng.shuffle(&mut perm);
        let mut out: Edges = edges
            .iter()
            .map(|&(a, b)| {
                let (a, b) = (perm[a as usize], perm[b as usize]);
                if rng.chance(0.5) { (a, b) } else { (b, a) }
            })
            .collect();
        rng.shuffle(&mut out);
        out
    }

    fn shifted(edges: &[(u32, u32)], by: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        edges.iter().map(move |&(a, b)| (a + by, b + by))
    }

    /// Asserts that `is_planar`, the LR test without fast paths and the expectation agree.
    fn check(scratch: &mut PlanarityScratch, n: usize, edges: &[(u32, u32)], expected: bool) {
        assert_eq!(
            planar(n, edges),
            expected,
            "is_planar on {n} vertices: {edges:?}"
        );
        assert_eq!(
            planar_by_lr_only(scratch, n, edges),
            expected,
            "LR only: {edges:?}"
        );
    }

    #[test]
    fn oracle_knows_the_kuratowski_graphs() {
        assert!(!oracle_is_planar(&complete(5)));
        assert!(!oracle_is_planar(&complete_bipartite(3, 3)));
        assert!(oracle_is_planar(&complete(5)[1..]));
        assert!(oracle_is_planar(&complete_bipartite(3, 3)[1..]));
        assert!(oracle_is_planar(&complete_bipartite(2, 6)));
        // K5 and K3,3 only as minors: one edge of each subdivided by a new vertex.
        let k5_subdivided: Edges = complete(5)[1..]
            .iter()
            .copied()
            .chain([(0, 5), (5, 1)])
            .collect();
        assert!(!oracle_is_planar(&k5_subdivided));
        let k33_subdivided: Edges = complete_bipartite(3, 3)[1..]
            .iter()
            .copied()
            .chain([(0, 6), (6, 3)])
            .collect();
        assert!(!oracle_is_planar(&k33_subdivided));
    }

    #[test]
    fn agrees_with_the_oracle_on_every_graph_up_to_six_vertices() {
        let mut scratch = PlanarityScratch::default();
        for n in [5u32, 6] {
            let pairs = complete(n);
            for subset in 0u32..1 << pairs.len() {
                let edges: Edges = (0..pairs.len())
                    .filter(|&i| subset >> i & 1 == 1)
                    .map(|i| pairs[i])
                    .collect();
                check(&mut scratch, n as usize, &edges, oracle_is_planar(&edges));
            }
        }
    }

    #[test]
    fn agrees_with_the_oracle_on_random_graphs_of_seven_and_eight_vertices() {
        let mut rng = WarrenRng::new(SEED);
        let mut scratch = PlanarityScratch::default();
        let mut planar_count = [0usize; 2];
        for n in [7u32, 8] {
            for density in [0.35, 0.45, 0.55, 0.65, 0.8] {
                for _ in 0..300 {
                    let edges = random_graph(n, density, &mut rng);
                    let expected = oracle_is_planar(&edges);
                    planar_count[usize::from(expected)] += 1;
                    check(&mut scratch, n as usize, &edges, expected);
                }
            }
        }
        assert!(
            planar_count.iter().all(|&c| c > 500),
            "both answers well covered: {planar_count:?}"
        );
    }

    #[test]
    fn kuratowski_graphs_and_their_subdivisions_are_not_planar() {
        let mut scratch = PlanarityScratch::default();
        check(&mut scratch, 5, &complete(5), false);
        check(&mut scratch, 6, &complete_bipartite(3, 3), false);
        for times in 1..=3 {
            let (n, edges) = subdivide(5, &complete(5), times);
            check(&mut scratch, n, &edges, false);
            let (n, edges) = subdivide(6, &complete_bipartite(3, 3), times);
            check(&mut scratch, n, &edges, false);
        }
        // One edge short of each, subdivided or not, is planar.
        check(&mut scratch, 5, &complete(5)[1..], true);
        check(&mut scratch, 6, &complete_bipartite(3, 3)[1..], true);
        let (n, edges) = subdivide(5, &complete(5)[1..], 2);
        check(&mut scratch, n, &edges, true);
    }

    #[test]
    fn petersen_graph_is_not_planar() {
        let mut scratch = PlanarityScratch::default();
        check(&mut scratch, 10, &petersen(), false);
        // Still non-planar without a vertex (it keeps a K3,3 subdivision).
        let without_9: Edges = petersen()
            .into_iter()
            .filter(|&(a, b)| a != 9 && b != 9)
            .collect();
        check(&mut scratch, 10, &without_9, false);
    }

    #[test]
    fn planar_families_are_planar() {
        let mut scratch = PlanarityScratch::default();
        check(&mut scratch, 4, &complete(4), true);
        check(&mut scratch, 9, &complete_bipartite(2, 7), true);
        for k in 3..=30 {
            check(&mut scratch, k as usize + 1, &wheel(k), true);
        }
        check(&mut scratch, 100, &grid(10, 10), true);
        check(&mut scratch, 50, &cycle(50), true);
        // The octahedron K2,2,2: maximal planar, m = 3n - 6 exactly.
        let octahedron: Edges = complete(6)
            .into_iter()
            .filter(|&(a, b)| b != a + 3)
            .collect();
        check(&mut scratch, 6, &octahedron, true);
    }

    #[test]
    fn large_triangulation_is_planar_until_an_edge_must_cross() {
        let mut rng = WarrenRng::new(SEED);
        let mut scratch = PlanarityScratch::default();
        let (w, h) = (40u32, 50u32);
        let n = (w * h + 1) as usize;
        let maximal = apex_triangulated_grid(w, h, &mut rng);
        assert_eq!(maximal.len(), 3 * n - 6, "every face a triangle");
        check(&mut scratch, n, &maximal, true);

        // Any new edge in a maximal planar graph breaks Euler's bound.
        let (u, v) = (5 * w + 5, 44 * w + 34);
        let mut crossed = maximal.clone();
        crossed.push((u, v));
        check(&mut scratch, n, &crossed, false);

        // Trading a middle edge for the long one keeps m = 3n - 6, so only the LR test can
        // answer. It is still non-planar: without its middle edge the triangulation stays
        // 3-connected (no separating triangle passes near the middle), so by Whitney it has
        // one embedding, in which u and v share no face.
        let middle = 25 * w + 20;
        let traded: Edges = maximal
            .iter()
            .copied()
            .filter(|&e| e != (middle, middle + 1))
            .chain([(u, v)])
            .collect();
        assert_eq!(traded.len(), 3 * n - 6);
        check(&mut scratch, n, &traded, false);

        // Without the apex, a long edge between two boundary vertices runs through the outer
        // face: still planar.
        let mut disk = triangulated_grid(w, h, &mut rng);
        disk.push((0, w * h - 1));
        check(&mut scratch, n - 1, &disk, true);
    }

    #[test]
    fn random_maximal_planar_graphs_subgraphs_and_one_edge_more() {
        let mut rng = WarrenRng::new(SEED ^ 1);
        let mut scratch = PlanarityScratch::default();
        for n in [10u32, 40, 200, 1000] {
            for _ in 0..4 {
                let maximal = stacked_triangulation(n, &mut rng);
                let adjacent: HashSet<(u32, u32)> = maximal
                    .iter()
                    .flat_map(|&(a, b)| [(a, b), (b, a)])
                    .collect();
                check(
                    &mut scratch,
                    n as usize,
                    &relabel(n as usize, &maximal, &mut rng),
                    true,
                );
                let sparse: Edges = maximal
                    .iter()
                    .copied()
                    .filter(|_| rng.chance(0.6))
                    .collect();
                check(
                    &mut scratch,
                    n as usize,
                    &relabel(n as usize, &sparse, &mut rng),
                    true,
                );
                let extra = loop {
                    let (a, b) = (rng.below(n), rng.below(n));
                    if a != b && !adjacent.contains(&(a, b)) {
                        break (a, b);
                    }
                };
                let mut more = maximal.clone();
                more.push(extra);
                check(
                    &mut scratch,
                    n as usize,
                    &relabel(n as usize, &more, &mut rng),
                    false,
                );
            }
        }
    }

    #[test]
    fn disconnected_graphs_are_planar_iff_every_component_is() {
        let mut scratch = PlanarityScratch::default();
        // A 10 x 10 grid, a wheel on 101..=121, K4 on 122..=125, isolated vertices up to 139.
        let planar_parts: Edges = grid(10, 10)
            .into_iter()
            .chain(shifted(&wheel(20), 101))
            .chain(shifted(&complete(4), 122))
            .collect();
        check(&mut scratch, 140, &planar_parts, true);
        let with_k33: Edges = planar_parts
            .iter()
            .copied()
            .chain(shifted(&complete_bipartite(3, 3), 130))
            .collect();
        check(&mut scratch, 140, &with_k33, false);
        let mut rng = WarrenRng::new(SEED ^ 2);
        check(&mut scratch, 140, &relabel(140, &with_k33, &mut rng), false);
        check(
            &mut scratch,
            140,
            &relabel(140, &planar_parts, &mut rng),
            true,
        );
        // Ten disjoint K5-minus-an-edge: planar, though m > 8 and far from any one vertex.
        let many: Edges = (0..10)
            .flat_map(|i| shifted(&complete(5)[1..], 5 * i).collect::<Vec<_>>())
            .collect();
        check(&mut scratch, 50, &many, true);
    }

    #[test]
    fn parallel_edges_and_loops_are_ignored() {
        let mut scratch = PlanarityScratch::default();
        // K4 five times over with loops everywhere: 34 edges on 4 vertices, still planar.
        let mut k4: Edges = complete(4).repeat(5);
        k4.extend((0..4).map(|v| (v, v)));
        assert!(planar(4, &k4));
        // A wheel with every spoke doubled (reversed) and loops: raw m > 3n - 6, planar.
        let mut w: Edges = wheel(10);
        w.extend(wheel(10).into_iter().map(|(a, b)| (b, a)));
        w.extend((0..11).map(|v| (v, v)));
        assert!(w.len() > 3 * 11 - 6);
        check(&mut scratch, 11, &w, true);
        let mut k33 = complete_bipartite(3, 3).repeat(3);
        k33.extend([(0, 0), (5, 5)]);
        check(&mut scratch, 6, &k33, false);
        check(
            &mut scratch,
            10,
            &(0..10).map(|v| (v, v)).collect::<Edges>(),
            true,
        );
    }

    #[test]
    fn deep_graphs_do_not_overflow_the_stack() {
        let mut scratch = PlanarityScratch::default();
        let k = 20_000u32;
        let path: Edges = (0..2 * k - 1).map(|i| (i, i + 1)).collect();
        check(&mut scratch, 2 * k as usize, &path, true);
        // The prism C_k x K2 is planar; the Moebius ladder (a 2k-cycle with its k long
        // diagonals) is not, and its DFS is 2k deep.
        let prism: Edges = cycle(k)
            .into_iter()
            .chain(shifted(&cycle(k), k))
            .chain((0..k).map(|i| (i, i + k)))
            .collect();
        check(&mut scratch, 2 * k as usize, &prism, true);
        let moebius: Edges = cycle(2 * k)
            .into_iter()
            .chain((0..k).map(|i| (i, i + k)))
            .collect();
        check(&mut scratch, 2 * k as usize, &moebius, false);
    }

    #[test]
    fn answer_does_not_depend_on_labels_edge_order_or_scratch_reuse() {
        let mut rng = WarrenRng::new(SEED ^ 3);
        let mut reused = PlanarityScratch::default();
        let mut seen = [0usize; 2];
        for round in 0..200 {
            let n = 12 + round % 30;
            // Mean degree 2.4: near where these random graphs stop being planar.
            let edges = random_graph(n, 2.4 / f64::from(n - 1), &mut rng);
            let expected = planar(n as usize, &edges);
            seen[usize::from(expected)] += 1;
            for _ in 0..3 {
                let shuffled = relabel(n as usize, &edges, &mut rng);
                let (src, dst): (Vec<u32>, Vec<u32>) = shuffled.iter().copied().unzip();
                assert_eq!(
                    is_planar_with(&mut reused, n as usize, &src, &dst),
                    expected
                );
            }
        }
        assert!(
            seen.iter().all(|&c| c > 50),
            "both answers covered: {seen:?}"
        );
    }

    #[test]
    fn degenerate_inputs() {
        assert!(is_planar(0, &[], &[]));
        assert!(is_planar(1, &[0, 0], &[0, 0]));
        assert!(is_planar(1000, &[], &[]));
        assert!(is_planar(3, &[0, 1, 2, 0], &[1, 2, 0, 1]));
    }
}
