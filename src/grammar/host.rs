//! The host graph a grammar rewrites (seed 000): struct-of-arrays vertices and edges with
//! adjacency lists rebuilt after each rewrite, all in buffers a worker reuses across levels.

use crate::core::csr::Adjacency;
use crate::core::graph::{Graph, edge_flag};
use crate::core::sets::UnionFind;
use crate::grammar::rule::TagId;

/// A tagged, positioned multigraph: the shared SoA [`Graph`] (which the host derefs to, so
/// `host.graph.x`, `host.graph.src`, ... are the graph's columns) plus which vertices are cosmetic and the
/// adjacency lists. Vertex ids are stable (rewrites only append vertices); edges are renumbered
/// when a rewrite removes some.
#[derive(Clone, Debug, Default)]
pub struct Host {
    /// Positions, tags, edges, flags and length factors.
    pub graph: Graph,
    /// Cosmetic vertices (laid out, never rooms).
    pub cosmetic: Vec<bool>,
    /// Adjacency: `adj[v]` lists `v`'s (neighbour, edge) pairs in edge order.
    adj: Adjacency<(u32, u32)>,
}

impl std::ops::Deref for Host {
    type Target = Graph;

    fn deref(&self) -> &Graph {
        &self.graph
    }
}

impl std::ops::DerefMut for Host {
    fn deref_mut(&mut self) -> &mut Graph {
        &mut self.graph
    }
}

impl Host {
    /// Empties the graph, keeping its buffers.
    pub fn clear(&mut self) {
        self.graph.clear();
        self.cosmetic.clear();
        self.adj.clear();
    }

    /// Makes this graph a copy of `other`, reusing this one's buffers.
    pub fn copy_from(&mut self, other: &Host) {
        self.graph.copy_from(&other.graph);
        self.cosmetic.clone_from(&other.cosmetic);
        self.adj.clone_from(&other.adj);
    }

    /// Appends a vertex.
    pub fn add_vertex(&mut self, x: f32, y: f32, tag: TagId, cosmetic: bool) -> u32 {
        self.cosmetic.push(cosmetic);
        self.graph.add_vertex(x, y, tag)
    }

    /// Appends an edge (adjacency is stale until [`rebuild_adjacency`](Self::rebuild_adjacency)).
    pub fn add_edge(&mut self, a: u32, b: u32, flags: u8, length: f32) {
        self.graph.add_edge_with_length(a, b, flags, length);
    }

    /// Whether edge `e` is cosmetic.
    #[inline]
    pub fn is_cosmetic(&self, e: u32) -> bool {
        self.flags[e as usize] & edge_flag::COSMETIC != 0
    }

    /// Removes the edges `remove` marks, keeping the others in order.
    pub fn remove_edges(&mut self, remove: &[bool]) {
        let g = &mut self.graph;
        let mut k = 0;
        for (e, &gone) in remove.iter().enumerate().take(g.src.len()) {
            if !gone {
                g.src[k] = g.src[e];
                g.dst[k] = g.dst[e];
                g.flags[k] = g.flags[e];
                g.length[k] = g.length[e];
                k += 1;
            }
        }
        g.src.truncate(k);
        g.dst.truncate(k);
        g.flags.truncate(k);
        g.length.truncate(k);
    }

    /// Rebuilds the adjacency lists from the edge list.
    ///
    /// # Runtime
    /// O(V + E), no allocation once the buffers have grown.
    pub fn rebuild_adjacency(&mut self) {
        let g = &self.graph;
        let ends = g.src.iter().copied().zip(g.dst.iter().copied());
        self.adj.rebuild(g.vertex_count(), ends, |e, w| (w, e));
    }

    /// `(neighbour, edge)` of `v`, in edge order.
    #[inline]
    pub fn neighbours(&self, v: u32) -> &[(u32, u32)] {
        &self.adj[v as usize]
    }

    /// Valence of `v` (all edges, parallel ones counted).
    #[inline]
    pub fn degree(&self, v: u32) -> u32 {
        self.adj.degree(v as usize)
    }

    /// Whether every non-cosmetic vertex is reachable from every other over non-cosmetic edges
    /// (true when there are none).
    pub fn connected_walkable(&self) -> bool {
        let n = self.vertex_count();
        let Some(first) = (0..n).find(|&v| !self.cosmetic[v]) else {
            return true;
        };
        let mut sets = UnionFind::default();
        let walkable = (0..self.edge_count())
            .filter(|&e| !self.is_cosmetic(e as u32))
            .map(|e| (self.src[e], self.dst[e]));
        crate::core::sets::joins(n, walkable, &mut sets);
        let part = sets.find(first as u32);
        (0..n).all(|v| self.cosmetic[v] || sets.find(v as u32) == part)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adjacency_follows_edge_removal() {
        let mut h = Host::default();
        for i in 0..4 {
            h.add_vertex(i as f32, 0.0, 0, false);
        }
        h.add_edge(0, 1, 0, 1.0);
        h.add_edge(1, 2, edge_flag::COSMETIC, 1.0);
        h.add_edge(2, 3, 0, 1.0);
        h.rebuild_adjacency();
        assert_eq!(h.neighbours(1), &[(0, 0), (2, 1)]);
        assert_eq!(h.degree(2), 2);
        assert!(!h.connected_walkable(), "1-2 is cosmetic");
        h.remove_edges(&[false, true, false]);
        h.add_edge(1, 2, 0, 0.5);
        h.rebuild_adjacency();
        assert_eq!(h.neighbours(2), &[(3, 1), (1, 2)]);
        assert_eq!(h.length, vec![1.0, 1.0, 0.5]);
        assert!(h.connected_walkable());
    }
}
