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

use crate::core::csr::Adjacency;
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
    /// Edge ids incident to each vertex (`incident[v]`), both directions.
    incident: Adjacency<u32>,
    /// CSR offsets (`n + 1`) into `out` for the testing phase.
    first: Vec<u32>,
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

    /// Fills `incident` with every edge listed at both ends.
    fn build_incidence(&mut self, n: usize) {
        let ends = self.tail.iter().copied().zip(self.head.iter().copied());
        self.incident.rebuild(n, ends, |e, _| e);
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
        self.cursor
            .extend((0..n).map(|v| self.incident.range(v).start as u32));
        for root in 0..n {
            if self.height[root] != NONE {
                continue;
            }
            self.height[root] = 0;
            self.dfs.push(root as u32);
            while let Some(&v) = self.dfs.last() {
                let v = v as usize;
                let slot = self.cursor[v] as usize;
                if slot == self.incident.range(v).end {
                    self.dfs.pop();
                    let e = self.parent_edge[v];
                    if e != NONE {
                        self.finish_orienting(e as usize, self.tail[e as usize] as usize);
                    }
                    continue;
                }
                self.cursor[v] += 1;
                let e = self.incident.slots()[slot] as usize;
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
#[path = "planar_tests.rs"]
mod tests;
