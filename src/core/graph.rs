//! The struct-of-arrays graph of DESIGN.md ("SoA graph"), allocated in a worker's
//! [`bumpalo::Bump`] and reset between levels, with CSR adjacency built on demand.
//!
//! Irregular maze graphs (seed 001's physical graph from a triangulation) live here; the grammar
//! and layout modules will use the same type. Arena types are plain data: bumpalo runs no `Drop`
//! on reset, so nothing here owns heap memory.

use bumpalo::Bump;
use bumpalo::collections::Vec as BumpVec;

/// The documented "no vertex / no edge" sentinel for `u32` ids.
pub const NONE: u32 = u32::MAX;

/// Edge flag bits shared by all generators (bits 0-1); generators document their own above.
pub mod edge_flag {
    /// A cosmetic edge (drawn and laid out, not walkable in the grammar's sense).
    pub const COSMETIC: u8 = 1 << 0;
    /// A subdivide edge (grammar rules).
    pub const SUBDIVIDE: u8 = 1 << 1;
    /// Maze: this physical edge is a logical passage (part of the spanning tree).
    pub const PASSAGE: u8 = 1 << 2;
}

/// A graph as parallel arrays in an arena: vertex `v` is `(x[v], y[v], tag[v])`, edge `e` joins
/// `src[e]` and `dst[e]` (undirected unless a generator says otherwise).
pub struct Graph<'a> {
    /// Vertex x coordinates.
    pub x: BumpVec<'a, f32>,
    /// Vertex y coordinates.
    pub y: BumpVec<'a, f32>,
    /// Interned vertex tags.
    pub tag: BumpVec<'a, u16>,
    /// Edge sources.
    pub src: BumpVec<'a, u32>,
    /// Edge destinations.
    pub dst: BumpVec<'a, u32>,
    /// Edge flags ([`edge_flag`]).
    pub flags: BumpVec<'a, u8>,
    /// Edge length factors (1.0 by default).
    pub length_factor: BumpVec<'a, f32>,
}

impl<'a> Graph<'a> {
    /// An empty graph allocating in `bump`.
    pub fn new_in(bump: &'a Bump) -> Self {
        Self {
            x: BumpVec::new_in(bump),
            y: BumpVec::new_in(bump),
            tag: BumpVec::new_in(bump),
            src: BumpVec::new_in(bump),
            dst: BumpVec::new_in(bump),
            flags: BumpVec::new_in(bump),
            length_factor: BumpVec::new_in(bump),
        }
    }

    /// Number of vertices.
    #[inline]
    pub fn vertex_count(&self) -> usize {
        self.x.len()
    }

    /// Number of edges.
    #[inline]
    pub fn edge_count(&self) -> usize {
        self.src.len()
    }

    /// Appends a vertex and returns its id.
    pub fn add_vertex(&mut self, x: f32, y: f32, tag: u16) -> u32 {
        let id = self.x.len() as u32;
        self.x.push(x);
        self.y.push(y);
        self.tag.push(tag);
        id
    }

    /// Appends an edge and returns its id.
    pub fn add_edge(&mut self, src: u32, dst: u32, flags: u8) -> u32 {
        debug_assert!(
            (src as usize) < self.vertex_count() && (dst as usize) < self.vertex_count(),
            "edge {src}-{dst} names a vertex that does not exist"
        );
        let id = self.src.len() as u32;
        self.src.push(src);
        self.dst.push(dst);
        self.flags.push(flags);
        self.length_factor.push(1.0);
        id
    }

    /// Builds undirected CSR adjacency in `bump`.
    ///
    /// # Runtime
    /// O(V + E), three arena allocations.
    pub fn csr<'b>(&self, bump: &'b Bump) -> Csr<'b> {
        Csr::build(self.vertex_count(), &self.src, &self.dst, bump)
    }
}

/// Undirected compressed-sparse-row adjacency: the neighbours of `v` are
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
    /// O(n + E); neighbours of each vertex are listed in edge-id order.
    pub fn build(n: usize, src: &[u32], dst: &[u32], bump: &'a Bump) -> Self {
        let offset = bump.alloc_slice_fill_copy(n + 1, 0u32);
        for (&s, &d) in src.iter().zip(dst) {
            offset[s as usize + 1] += 1;
            offset[d as usize + 1] += 1;
        }
        for v in 0..n {
            offset[v + 1] += offset[v];
        }
        let total = offset[n] as usize;
        let neighbour = bump.alloc_slice_fill_copy(total, NONE);
        let edge = bump.alloc_slice_fill_copy(total, NONE);
        let cursor = bump.alloc_slice_copy(&offset[..n]);
        for (e, (&s, &d)) in src.iter().zip(dst).enumerate() {
            let cs = &mut cursor[s as usize];
            neighbour[*cs as usize] = d;
            edge[*cs as usize] = e as u32;
            *cs += 1;
            let cd = &mut cursor[d as usize];
            neighbour[*cd as usize] = s;
            edge[*cd as usize] = e as u32;
            *cd += 1;
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csr_lists_both_directions_with_edge_ids() {
        let bump = Bump::new();
        let mut g = Graph::new_in(&bump);
        for i in 0..4 {
            g.add_vertex(i as f32, 0.0, 0);
        }
        g.add_edge(0, 1, 0);
        g.add_edge(1, 2, 0);
        g.add_edge(3, 1, edge_flag::COSMETIC);
        let csr = g.csr(&bump);
        let n1: Vec<_> = csr.neighbours(1).collect();
        assert_eq!(n1, vec![(0, 0), (2, 1), (3, 2)]);
        assert_eq!(csr.neighbours(3).collect::<Vec<_>>(), vec![(1, 2)]);
        assert_eq!(csr.vertex_count(), 4);
    }
}
