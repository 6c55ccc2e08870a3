//! The struct-of-arrays graph of DESIGN.md ("SoA graph"), [`Graph`]: one type for every
//! graph-shaped level (Delaunay mazes of seed 001, the grammar's host graph of seed 000, DMG
//! object graphs of seed 003), kept in a worker's scratch and cleared between levels, with
//! CSR adjacency built on demand in the worker's [`bumpalo::Bump`] (plain data, reset between
//! levels).

use bumpalo::Bump;

pub use crate::core::csr::Csr;
use crate::core::generator::GraphView;

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

/// The one struct-of-arrays graph of every graph-shaped level: vertex `v` is `(x[v], y[v],
/// tag[v])`, edge `e` joins `src[e]` and `dst[e]` (undirected unless a generator says otherwise)
/// with `flags[e]` and a length factor `length[e]`. A worker keeps one in its scratch and
/// clears it between levels, so its buffers grow once and are reused (no allocation per level).
///
/// Delaunay mazes triangulate into it, the grammar's host graph wraps it (adding cosmetic
/// vertices and adjacency), DMG dungeons store their object graph in it; [`Graph::view`] is
/// what a level hands the archive.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Graph {
    /// Vertex x coordinates.
    pub x: Vec<f32>,
    /// Vertex y coordinates.
    pub y: Vec<f32>,
    /// Interned vertex tags.
    pub tag: Vec<u16>,
    /// Edge sources.
    pub src: Vec<u32>,
    /// Edge destinations.
    pub dst: Vec<u32>,
    /// Edge flags ([`edge_flag`]).
    pub flags: Vec<u8>,
    /// Edge length factors (target length = base length x factor; 1.0 by default).
    pub length: Vec<f32>,
}

impl Graph {
    /// Empties the graph, keeping its buffers.
    pub fn clear(&mut self) {
        self.x.clear();
        self.y.clear();
        self.tag.clear();
        self.src.clear();
        self.dst.clear();
        self.flags.clear();
        self.length.clear();
    }

    /// Makes this graph a copy of `other`, reusing its buffers.
    pub fn copy_from(&mut self, other: &Graph) {
        self.x.clone_from(&other.x);
        self.y.clone_from(&other.y);
        self.tag.clone_from(&other.tag);
        self.src.clone_from(&other.src);
        self.dst.clone_from(&other.dst);
        self.flags.clone_from(&other.flags);
        self.length.clone_from(&other.length);
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

    /// Appends an edge of length factor `length` and returns its id.
    pub fn add_edge_with_length(&mut self, src: u32, dst: u32, flags: u8, length: f32) -> u32 {
        debug_assert!(
            (src as usize) < self.vertex_count() && (dst as usize) < self.vertex_count(),
            "edge {src}-{dst} names a vertex that does not exist"
        );
        let id = self.src.len() as u32;
        self.src.push(src);
        self.dst.push(dst);
        self.flags.push(flags);
        self.length.push(length);
        id
    }

    /// Appends an edge (length factor 1) and returns its id.
    pub fn add_edge(&mut self, src: u32, dst: u32, flags: u8) -> u32 {
        self.add_edge_with_length(src, dst, flags, 1.0)
    }

    /// The graph as a level's borrowed graph columns.
    pub fn view(&self) -> GraphView<'_> {
        GraphView {
            x: &self.x,
            y: &self.y,
            tag: &self.tag,
            src: &self.src,
            dst: &self.dst,
            flags: &self.flags,
        }
    }

    /// Builds undirected CSR adjacency in `bump`.
    ///
    /// # Runtime
    /// O(V + E), four arena allocations.
    pub fn csr<'b>(&self, bump: &'b Bump) -> Csr<'b> {
        Csr::build(self.vertex_count(), &self.src, &self.dst, bump)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csr_lists_both_directions_with_edge_ids() {
        let bump = Bump::new();
        let mut g = Graph::default();
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

    #[test]
    fn clear_keeps_buffers_and_copy_matches() {
        let mut g = Graph::default();
        g.add_vertex(1.0, 2.0, 3);
        g.add_vertex(4.0, 5.0, 6);
        assert_eq!(g.add_edge_with_length(0, 1, 0, 2.5), 0);
        let mut h = Graph::default();
        h.copy_from(&g);
        assert_eq!(h, g);
        assert_eq!(h.view().tag, &[3, 6]);
        let capacity = g.x.capacity();
        g.clear();
        assert_eq!((g.vertex_count(), g.edge_count()), (0, 0));
        assert_eq!(g.x.capacity(), capacity);
    }
}
