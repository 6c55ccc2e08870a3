//! Undirected compressed-sparse-row adjacency, built one way for every graph in the crate: a
//! count of each vertex's edge ends, a prefix sum into offsets, and a pass that lists each edge
//! at both ends. [`Csr`] holds the lists in a worker's [`bumpalo::Bump`] (Delaunay mazes);
//! [`Adjacency`] holds them in buffers a caller reuses, one entry type of its choosing per
//! slot (a neighbour, an edge id, or both).
//!
//! NOTE: the order is part of the contract. Vertex `v`'s list holds its edges in the order the
//! edge list gives them (an edge `(a, b)` at position `e` adds `b` to `a`'s list, then `a` to
//! `b`'s), and RNG-driven walks over the lists depend on it.

use std::ops::{Index, Range};

use bumpalo::Bump;

/// Fills `offset` (`n + 1` zeros) with the prefix sums of each vertex's edge-end count.
fn count_ends(offset: &mut [u32], edges: impl Iterator<Item = (u32, u32)>) {
    for (a, b) in edges {
        offset[a as usize + 1] += 1;
        offset[b as usize + 1] += 1;
    }
    for v in 0..offset.len() - 1 {
        offset[v + 1] += offset[v];
    }
}

/// Lists each edge at both ends: `put(slot, e, neighbour)` for the edge at position `e`, first
/// at its first end, then at its second. `cursor` starts as each vertex's first slot.
fn place_ends(
    cursor: &mut [u32],
    edges: impl Iterator<Item = (u32, u32)>,
    mut put: impl FnMut(usize, u32, u32),
) {
    for (e, (a, b)) in edges.enumerate() {
        let ca = &mut cursor[a as usize];
        put(*ca as usize, e as u32, b);
        *ca += 1;
        let cb = &mut cursor[b as usize];
        put(*cb as usize, e as u32, a);
        *cb += 1;
    }
}

/// Undirected compressed-sparse-row adjacency in an arena: the neighbours of `v` are
/// `neighbour[offset[v]..offset[v + 1]]`, reached through edges `edge[..]` of the same range.
#[derive(Clone, Copy)]
pub struct Csr<'a> {
    /// `V + 1` offsets into `neighbour` and `edge`.
    pub offset: &'a [u32],
    /// Neighbour vertex ids, grouped by vertex.
    pub neighbour: &'a [u32],
    /// The edge id joining the vertex to each neighbour.
    pub edge: &'a [u32],
}

impl<'a> Csr<'a> {
    /// Builds adjacency for `n` vertices from edge endpoint arrays.
    ///
    /// # Runtime
    /// O(n + E), four arena allocations; neighbours of each vertex are listed in edge-id order.
    pub fn build(n: usize, src: &[u32], dst: &[u32], bump: &'a Bump) -> Self {
        let ends = || src.iter().copied().zip(dst.iter().copied());
        let offset = bump.alloc_slice_fill_copy(n + 1, 0u32);
        count_ends(offset, ends());
        let total = offset[n] as usize;
        // NOTE: every slot is written below; `u32::MAX` (the crate's NONE) shows one that is not.
        let neighbour = bump.alloc_slice_fill_copy(total, u32::MAX);
        let edge = bump.alloc_slice_fill_copy(total, u32::MAX);
        let cursor = bump.alloc_slice_copy(&offset[..n]);
        place_ends(cursor, ends(), |slot, e, w| {
            neighbour[slot] = w;
            edge[slot] = e;
        });
        Self {
            offset,
            neighbour,
            edge,
        }
    }

    /// Number of vertices.
    #[inline]
    pub fn vertex_count(&self) -> usize {
        self.offset.len() - 1
    }

    /// `(neighbour, edge)` pairs of `v`.
    #[inline]
    pub fn neighbours(&self, v: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        let lo = self.offset[v as usize] as usize;
        let hi = self.offset[v as usize + 1] as usize;
        self.neighbour[lo..hi]
            .iter()
            .copied()
            .zip(self.edge[lo..hi].iter().copied())
    }
}

/// Undirected compressed-sparse-row adjacency in reusable buffers: `adj[v]` is vertex `v`'s
/// list of entries, one per edge end, each made by the `entry(edge, neighbour)` the last
/// [`rebuild`](Self::rebuild) was given (a neighbour id, an edge id, or a pair).
#[derive(Debug, Default)]
pub struct Adjacency<T> {
    offset: Vec<u32>,
    slots: Vec<T>,
    cursor: Vec<u32>,
}

impl<T: Clone> Clone for Adjacency<T> {
    fn clone(&self) -> Self {
        Self {
            offset: self.offset.clone(),
            slots: self.slots.clone(),
            cursor: Vec::new(),
        }
    }

    // Reuses this adjacency's buffers (a worker's scratch copies graphs every level).
    fn clone_from(&mut self, other: &Self) {
        self.offset.clone_from(&other.offset);
        self.slots.clone_from(&other.slots);
    }
}

impl<T: Copy + Default> Adjacency<T> {
    /// The adjacency of `n` vertices and `edges`, each edge's position in `edges` its id.
    ///
    /// # Runtime
    /// O(n + E), three allocations.
    pub fn from_edges<I>(n: usize, edges: I, entry: impl FnMut(u32, u32) -> T) -> Self
    where
        I: Iterator<Item = (u32, u32)> + Clone,
    {
        let mut adj = Self::default();
        adj.rebuild(n, edges, entry);
        adj
    }

    /// Rebuilds the lists for `n` vertices and `edges` (each edge's position in `edges` its
    /// id): the edge `(a, b)` at position `e` puts `entry(e, b)` in `a`'s list, then
    /// `entry(e, a)` in `b`'s.
    ///
    /// # Runtime
    /// O(n + E), no allocation once the buffers have grown.
    pub fn rebuild<I>(&mut self, n: usize, edges: I, mut entry: impl FnMut(u32, u32) -> T)
    where
        I: Iterator<Item = (u32, u32)> + Clone,
    {
        self.offset.clear();
        self.offset.resize(n + 1, 0);
        count_ends(&mut self.offset, edges.clone());
        self.slots.clear();
        self.slots.resize(self.offset[n] as usize, T::default());
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.offset[..n]);
        let slots = &mut self.slots;
        place_ends(&mut self.cursor, edges, |slot, e, w| {
            slots[slot] = entry(e, w);
        });
    }
}

impl<T> Adjacency<T> {
    /// Empties the lists, keeping the buffers.
    pub fn clear(&mut self) {
        self.offset.clear();
        self.slots.clear();
    }

    /// Number of vertices.
    #[inline]
    pub fn vertex_count(&self) -> usize {
        self.offset.len().saturating_sub(1)
    }

    /// The slots of `v`'s list, indexes into [`slots`](Self::slots).
    #[inline]
    pub fn range(&self, v: usize) -> Range<usize> {
        self.offset[v] as usize..self.offset[v + 1] as usize
    }

    /// Number of entries in `v`'s list (each parallel edge and each end of a loop counted).
    #[inline]
    pub fn degree(&self, v: usize) -> u32 {
        self.offset[v + 1] - self.offset[v]
    }

    /// Every list, one after the other.
    #[inline]
    pub fn slots(&self) -> &[T] {
        &self.slots
    }
}

impl<T> Index<usize> for Adjacency<T> {
    type Output = [T];

    /// Vertex `v`'s list.
    #[inline]
    fn index(&self, v: usize) -> &[T] {
        &self.slots[self.range(v)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EDGES: [(u32, u32); 4] = [(0, 1), (1, 2), (3, 1), (2, 2)];

    #[test]
    fn adjacency_lists_each_end_in_edge_order() {
        let adj = Adjacency::from_edges(4, EDGES.iter().copied(), |e, w| (w, e));
        assert_eq!(adj.vertex_count(), 4);
        assert_eq!(&adj[1], &[(0, 0), (2, 1), (3, 2)]);
        assert_eq!(&adj[2], &[(1, 1), (2, 3), (2, 3)]);
        assert_eq!(adj.degree(3), 1);
        assert_eq!(adj.range(3), 7..8);
    }

    #[test]
    fn adjacency_matches_the_arena_csr() {
        let bump = Bump::new();
        let (src, dst): (Vec<u32>, Vec<u32>) = EDGES.iter().copied().unzip();
        let csr = Csr::build(5, &src, &dst, &bump);
        let mut adj = Adjacency::default();
        adj.rebuild(9, [(8, 8)].into_iter(), |e, w| (w, e));
        adj.rebuild(5, EDGES.iter().copied(), |e, w| (w, e));
        for v in 0..5 {
            assert_eq!(csr.neighbours(v).collect::<Vec<_>>(), adj[v as usize]);
        }
        let mut copy = Adjacency::default();
        copy.clone_from(&adj);
        assert_eq!(copy.slots(), adj.slots());
        assert_eq!(copy.clone().range(4), 8..8);
    }
}
