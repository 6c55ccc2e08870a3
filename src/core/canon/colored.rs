//! The input graph normalised for the search: every vertex and every vertex pair gets a colour
//! rank (a dense `u32` that orders the colours by content, so ranks are the same for isomorphic
//! graphs), and the simple graph of pairs is stored as a CSR adjacency.
//!
//! A vertex's colour is its label together with the multiset of its self-loops' labels; a pair's
//! colour is the multiset of the labels of the edges joining it (one entry per parallel edge).

use std::cmp::Ordering;

use crate::core::rng::splitmix64;

/// Vertex colours, pair colours and adjacency of one input graph, rebuilt in place per call.
#[derive(Default)]
pub(super) struct ColoredGraph {
    /// Vertex count.
    pub n: usize,
    /// Colour rank of each vertex; vertices of equal rank have equal labels and self-loops.
    pub colour: Vec<u32>,
    /// The vertices sorted by colour rank: the root partition's order.
    pub by_colour: Vec<u32>,
    /// `adj_start[v]..adj_start[v + 1]` indexes `v`'s neighbours in `adj_vertex` and `adj_rank`.
    pub adj_start: Vec<u32>,
    /// Neighbour of each adjacency entry (every pair appears once from each end).
    pub adj_vertex: Vec<u32>,
    /// Colour rank of each adjacency entry's pair.
    pub adj_rank: Vec<u32>,
    /// Refinement weight of each pair colour rank (1 for rank 0, odd hashes above).
    pub weight: Vec<u64>,
    /// The input edges as `(min, max, label)`, sorted: parallel edges and each vertex's loops
    /// sit together.
    edges: Vec<(u32, u32, u64)>,
    /// Range of `edges` holding each vertex's self-loops.
    loops: Vec<(u32, u32)>,
    /// Ranges of `edges` holding the edges of one pair of distinct vertices.
    pairs: Vec<(u32, u32)>,
    /// Pair indices sorted by colour.
    pair_order: Vec<u32>,
    /// Colour rank of each pair.
    pair_rank: Vec<u32>,
}

/// The labels of the edges in `range` of `edges`.
fn labels_of(edges: &[(u32, u32, u64)], range: (u32, u32)) -> impl Iterator<Item = u64> + '_ {
    edges[range.0 as usize..range.1 as usize]
        .iter()
        .map(|e| e.2)
}

impl ColoredGraph {
    /// Rebuilds the graph from validated input (every endpoint below `n`, one label per vertex,
    /// fewer than 2^31 edges).
    ///
    /// # Runtime
    /// O(n log n + m log m); no allocation once the buffers have grown.
    pub fn build(&mut self, n: usize, labels: &[u64], edges: &[(u32, u32, u64)]) {
        self.n = n;
        self.edges.clear();
        self.edges
            .extend(edges.iter().map(|&(u, v, l)| (u.min(v), u.max(v), l)));
        self.edges.sort_unstable();
        self.group_edges();
        self.rank_vertices(labels);
        self.rank_pairs();
        self.fill_adjacency();
    }

    /// Splits the sorted edges into each vertex's loops and the pairs of distinct vertices.
    fn group_edges(&mut self) {
        self.loops.clear();
        self.loops.resize(self.n, (0, 0));
        self.pairs.clear();
        let edges = &self.edges;
        let mut i = 0;
        while i < edges.len() {
            let (u, v, _) = edges[i];
            let mut j = i + 1;
            while j < edges.len() && edges[j].0 == u && edges[j].1 == v {
                j += 1;
            }
            let range = (i as u32, j as u32);
            if u == v {
                self.loops[u as usize] = range;
            } else {
                self.pairs.push(range);
            }
            i = j;
        }
    }

    /// Sorts the vertices by (label, loop labels) and numbers the distinct colours in order.
    fn rank_vertices(&mut self, labels: &[u64]) {
        let (edges, loops) = (&self.edges, &self.loops);
        let cmp = |a: u32, b: u32| {
            labels[a as usize].cmp(&labels[b as usize]).then_with(|| {
                labels_of(edges, loops[a as usize]).cmp(labels_of(edges, loops[b as usize]))
            })
        };
        self.by_colour.clear();
        self.by_colour.extend(0..self.n as u32);
        self.by_colour.sort_unstable_by(|&a, &b| cmp(a, b));
        self.colour.clear();
        self.colour.resize(self.n, 0);
        let mut rank = 0;
        for i in 1..self.n {
            let (prev, v) = (self.by_colour[i - 1], self.by_colour[i]);
            if cmp(prev, v) != Ordering::Equal {
                rank += 1;
            }
            self.colour[v as usize] = rank;
        }
    }

    /// Numbers the distinct pair colours (label multisets) in lexicographic order.
    fn rank_pairs(&mut self) {
        let (edges, pairs) = (&self.edges, &self.pairs);
        let cmp = |a: u32, b: u32| {
            labels_of(edges, pairs[a as usize]).cmp(labels_of(edges, pairs[b as usize]))
        };
        self.pair_order.clear();
        self.pair_order.extend(0..pairs.len() as u32);
        self.pair_order.sort_unstable_by(|&a, &b| cmp(a, b));
        self.pair_rank.clear();
        self.pair_rank.resize(pairs.len(), 0);
        let mut rank = 0;
        for i in 1..self.pair_order.len() {
            let (prev, p) = (self.pair_order[i - 1], self.pair_order[i]);
            if cmp(prev, p) != Ordering::Equal {
                rank += 1;
            }
            self.pair_rank[p as usize] = rank;
        }
        self.weight.clear();
        // NOTE: weight 1 for rank 0 makes the refinement count neighbours exactly when all edges
        // look alike; above, sums of odd hashes separate edge colours with high probability.
        // A collision only makes the refinement coarser, never the form wrong.
        self.weight
            .extend((0..=rank as u64).map(|r| if r == 0 { 1 } else { splitmix64(r) | 1 }));
    }

    /// Builds the CSR adjacency of the pairs, each from both ends.
    fn fill_adjacency(&mut self) {
        let n = self.n;
        self.adj_start.clear();
        self.adj_start.resize(n + 1, 0);
        for &(i, _) in &self.pairs {
            let (u, v, _) = self.edges[i as usize];
            self.adj_start[u as usize + 1] += 1;
            self.adj_start[v as usize + 1] += 1;
        }
        for v in 0..n {
            self.adj_start[v + 1] += self.adj_start[v];
        }
        let total = self.adj_start[n] as usize;
        self.adj_vertex.clear();
        self.adj_vertex.resize(total, 0);
        self.adj_rank.clear();
        self.adj_rank.resize(total, 0);
        // `fill[v]` is the next free slot of v: starts at adj_start[v], ends at adj_start[v + 1].
        let mut fill = std::mem::take(&mut self.pair_order);
        fill.clear();
        fill.extend_from_slice(&self.adj_start[..n]);
        for (p, &(i, _)) in self.pairs.iter().enumerate() {
            let (u, v, _) = self.edges[i as usize];
            let rank = self.pair_rank[p];
            for (a, b) in [(u, v), (v, u)] {
                let slot = fill[a as usize] as usize;
                self.adj_vertex[slot] = b;
                self.adj_rank[slot] = rank;
                fill[a as usize] += 1;
            }
        }
        self.pair_order = fill;
    }

    /// The adjacency range of `v`.
    #[inline]
    pub fn neighbours(&self, v: u32) -> std::ops::Range<usize> {
        self.adj_start[v as usize] as usize..self.adj_start[v as usize + 1] as usize
    }
}
