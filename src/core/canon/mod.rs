//! Canonical forms of vertex- and edge-labelled graphs, so that a level renumbered is
//! recognised as the same level (issue 47: datasets must not leak a puzzle graph into two
//! splits under two numberings).
//!
//! [`canonical_form`] relabels a graph so that two graphs get the same [`Canonical::certificate`]
//! exactly when they are isomorphic by a map that keeps vertex labels and edge labels. The
//! search is individualisation-refinement in the style of nauty, bliss and Traces (McKay and
//! Piperno, "Practical graph isomorphism II"): colour refinement to a stable partition, a tree
//! of individualised vertices, leaves compared by their relabelled graph, and automorphism
//! pruning (see `search.rs`). The search is complete: pruning only drops subtrees equivalent to
//! ones already searched, so the form is exact for every graph.
//!
//! # Graphs
//! Undirected, `n` vertices numbered `0..n`, a `u64` label per vertex and a list of edges
//! `(u, v, label)`. The edge list is a multiset: an edge given twice is a double edge, and the
//! certificate holds it twice; a self-loop `(v, v, label)` is allowed and kept. So a graph is
//! taken exactly as written, and two inputs get one certificate when some renumbering of the
//! vertices maps one edge multiset onto the other.

mod colored;
mod partition;
mod search;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_families;

use crate::core::hash::ContentHasher;

use colored::ColoredGraph;
use partition::Partition;
use search::Search;

/// A graph that [`canonical_form`] refuses.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CanonError {
    /// `vertex_labels` does not hold exactly one label per vertex.
    #[error("{labels} vertex labels for {n} vertices")]
    LabelCount {
        /// The vertex count.
        n: usize,
        /// The length of `vertex_labels`.
        labels: usize,
    },
    /// An edge names a vertex outside `0..n`.
    #[error("edge {index} ({u}, {v}) names a vertex outside 0..{n}")]
    VertexOutOfRange {
        /// The edge's index in the edge list.
        index: usize,
        /// Its first endpoint.
        u: u32,
        /// Its second endpoint.
        v: u32,
        /// The vertex count.
        n: usize,
    },
    /// More vertices or edges than the search numbers with `u32`.
    #[error("{n} vertices and {m} edges: at most {MAX_VERTICES} vertices and {MAX_EDGES} edges")]
    TooLarge {
        /// The vertex count.
        n: usize,
        /// The edge count.
        m: usize,
    },
}

/// Most vertices a graph may have (positions are `u32`, `u32::MAX` is a sentinel).
pub const MAX_VERTICES: usize = u32::MAX as usize - 1;
/// Most edges a graph may have (each is stored from both ends with `u32` offsets).
pub const MAX_EDGES: usize = (u32::MAX / 2) as usize;

/// A labelled graph's canonical form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// `order[v]` is vertex `v`'s canonical position (a permutation of `0..n`).
    pub order: Vec<u32>,
    /// The graph relabelled by `order`: `n`, the edge count, the vertex labels in canonical
    /// order, then the edges as `(p << 32 | q, label)` word pairs with canonical endpoints
    /// `p <= q`, sorted (a double edge appears twice). Equal for two graphs exactly when they
    /// are isomorphic (labels kept).
    pub certificate: Vec<u64>,
}

/// Reusable memory of the canonical-form search; grows to the largest graph seen, never
/// shrinks.
#[derive(Default)]
pub struct CanonScratch {
    graph: ColoredGraph,
    partition: Partition,
    search: Search,
    /// Canonical position of each vertex, from the last search.
    order: Vec<u32>,
    /// Certificate of the last search.
    certificate: Vec<u64>,
    /// The relabelled edges, sorted.
    relabelled: Vec<(u32, u32, u64)>,
}

impl CanonScratch {
    /// Search-tree nodes (refined partitions) visited by the last call, the root included.
    pub fn nodes(&self) -> u64 {
        self.search.nodes
    }

    /// Automorphisms found by the last call.
    pub fn automorphisms(&self) -> u64 {
        self.search.automorphisms
    }

    /// Computes the canonical order and certificate into `self.order` and `self.certificate`.
    fn run(
        &mut self,
        n: usize,
        labels: &[u64],
        edges: &[(u32, u32, u64)],
    ) -> Result<(), CanonError> {
        validate(n, labels, edges)?;
        self.graph.build(n, labels, edges);
        self.search.run(&self.graph, &mut self.partition);
        self.order.clear();
        self.order.resize(n, 0);
        for (position, &v) in self.search.canonical_lab().iter().enumerate() {
            self.order[v as usize] = position as u32;
        }
        self.write_certificate(labels, edges);
        Ok(())
    }

    fn write_certificate(&mut self, labels: &[u64], edges: &[(u32, u32, u64)]) {
        let order = &self.order;
        let cert = &mut self.certificate;
        cert.clear();
        cert.extend([order.len() as u64, edges.len() as u64]);
        cert.resize(2 + order.len(), 0);
        for (v, &position) in order.iter().enumerate() {
            cert[2 + position as usize] = labels[v];
        }
        self.relabelled.clear();
        self.relabelled.extend(edges.iter().map(|&(u, v, label)| {
            let (p, q) = (order[u as usize], order[v as usize]);
            (p.min(q), p.max(q), label)
        }));
        self.relabelled.sort_unstable();
        for &(p, q, label) in &self.relabelled {
            cert.extend([u64::from(p) << 32 | u64::from(q), label]);
        }
    }
}

fn validate(n: usize, labels: &[u64], edges: &[(u32, u32, u64)]) -> Result<(), CanonError> {
    if n > MAX_VERTICES || edges.len() > MAX_EDGES {
        return Err(CanonError::TooLarge { n, m: edges.len() });
    }
    if labels.len() != n {
        return Err(CanonError::LabelCount {
            n,
            labels: labels.len(),
        });
    }
    match edges
        .iter()
        .position(|&(u, v, _)| u as usize >= n || v as usize >= n)
    {
        Some(index) => {
            let (u, v, _) = edges[index];
            Err(CanonError::VertexOutOfRange { index, u, v, n })
        }
        None => Ok(()),
    }
}

/// The canonical form of the graph with `n` vertices labelled `vertex_labels` and the edge
/// multiset `edges` (`(u, v, label)`, undirected; see the module doc for loops and repeats).
///
/// # Errors
/// [`CanonError`] when `vertex_labels` has not `n` entries, an edge names a vertex `>= n`, or
/// the graph exceeds [`MAX_VERTICES`] or [`MAX_EDGES`].
///
/// # Runtime
/// A few microseconds for a sparse level graph of 20-60 vertices with few symmetries; highly
/// symmetric graphs (complete graphs, cycles, grids, hypercubes, unions of equal parts) stay
/// polynomial through automorphism pruning; exponential in the worst case, as for every known
/// practical algorithm. Allocates only the two returned vectors once `s` has grown.
pub fn canonical_form(
    n: usize,
    vertex_labels: &[u64],
    edges: &[(u32, u32, u64)],
    s: &mut CanonScratch,
) -> Result<Canonical, CanonError> {
    s.run(n, vertex_labels, edges)?;
    Ok(Canonical {
        order: s.order.clone(),
        certificate: s.certificate.clone(),
    })
}

/// A 64-bit hash of [`canonical_form`]'s certificate (with [`ContentHasher`]): the same for
/// isomorphic graphs, and for distinct classes as unlikely to collide as any 64-bit hash.
///
/// # Errors
/// As [`canonical_form`].
///
/// # Runtime
/// As [`canonical_form`], without allocation once `s` has grown.
pub fn canonical_hash(
    n: usize,
    vertex_labels: &[u64],
    edges: &[(u32, u32, u64)],
    s: &mut CanonScratch,
) -> Result<u64, CanonError> {
    s.run(n, vertex_labels, edges)?;
    let mut hasher = ContentHasher::new();
    for &word in &s.certificate {
        hasher.word(word);
    }
    Ok(hasher.finish())
}
