//! The logical graph of seed 001: a minimum spanning tree of the physical graph (Kruskal with a
//! union-find), stored as a passage flag per physical edge plus each room's logical degree.

use crate::maze::topology::Topology;
use crate::maze::weights::Link;

/// Disjoint sets with union by size and path halving.
#[derive(Default)]
pub struct UnionFind {
    parent: Vec<u32>,
    size: Vec<u32>,
}

impl UnionFind {
    /// Resets to `n` singleton sets, keeping the allocation.
    pub fn reset(&mut self, n: usize) {
        self.parent.clear();
        self.parent.extend(0..n as u32);
        self.size.clear();
        self.size.resize(n, 1);
    }

    /// The representative of `v`'s set.
    #[inline]
    pub fn find(&mut self, mut v: u32) -> u32 {
        // PERF: path halving keeps trees flat without a second pass or recursion.
        while self.parent[v as usize] != v {
            let grand = self.parent[self.parent[v as usize] as usize];
            self.parent[v as usize] = grand;
            v = grand;
        }
        v
    }

    /// Joins the sets of `a` and `b`; false when they were already one set.
    #[inline]
    pub fn union(&mut self, a: u32, b: u32) -> bool {
        let (mut ra, mut rb) = (self.find(a), self.find(b));
        if ra == rb {
            return false;
        }
        if self.size[ra as usize] < self.size[rb as usize] {
            std::mem::swap(&mut ra, &mut rb);
        }
        self.parent[rb as usize] = ra;
        self.size[ra as usize] += self.size[rb as usize];
        true
    }
}

/// The logical graph: which physical edges are passages, and each room's passage count.
#[derive(Default, Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    /// Per physical edge id: 1 when it is a passage.
    pub passage: Vec<u8>,
    /// Per room slot: number of passages (logical degree).
    pub degree: Vec<u8>,
}

impl Tree {
    /// Clears to `slots` rooms and `edges` edges, no passages.
    pub fn reset(&mut self, slots: usize, edges: usize) {
        self.passage.clear();
        self.passage.resize(edges, 0);
        self.degree.clear();
        self.degree.resize(slots, 0);
    }

    /// Marks edge `e` between `a` and `b` as a passage.
    #[inline]
    pub fn open(&mut self, e: u32, a: u32, b: u32) {
        debug_assert_eq!(self.passage[e as usize], 0, "edge {e} opened twice");
        self.passage[e as usize] = 1;
        self.degree[a as usize] += 1;
        self.degree[b as usize] += 1;
    }

    /// Whether edge `e` is a passage.
    #[inline]
    pub fn is_passage(&self, e: u32) -> bool {
        self.passage[e as usize] != 0
    }

    /// The logical neighbours of `v`, via `f(neighbour, edge)`.
    #[inline]
    pub fn for_each_passage<T: Topology>(&self, topo: &T, v: u32, mut f: impl FnMut(u32, u32)) {
        topo.for_each_neighbour(v, |n, e| {
            if self.is_passage(e) {
                f(n, e);
            }
        });
    }
}

/// Builds the spanning tree by taking edges in `order` (Kruskal). Returns the passage count.
///
/// # Runtime
/// O(E α(V)); stops as soon as `rooms - 1` passages are open. No allocation after warm-up.
pub fn kruskal<T: Topology>(
    topo: &T,
    order: &[Link],
    rooms: usize,
    uf: &mut UnionFind,
    tree: &mut Tree,
) -> usize {
    uf.reset(topo.slot_count());
    tree.reset(topo.slot_count(), topo.edge_slots());
    let target = rooms.saturating_sub(1);
    let mut opened = 0;
    for link in order {
        if opened == target {
            break;
        }
        if uf.union(link.a, link.b) {
            tree.open(link.edge, link.a, link.b);
            opened += 1;
        }
    }
    opened
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn union_find_joins_and_detects_cycles() {
        let mut uf = UnionFind::default();
        uf.reset(5);
        assert!(uf.union(0, 1));
        assert!(uf.union(2, 3));
        assert!(uf.union(1, 3));
        assert!(!uf.union(0, 2));
        assert_ne!(uf.find(4), uf.find(0));
    }
}
