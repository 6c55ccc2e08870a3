//! The logical graph of seed 001: a minimum spanning tree of the physical graph (Kruskal with a
//! union-find), stored as a passage flag per physical edge plus each room's logical degree.

use crate::maze::topology::Topology;
use crate::maze::weights::Link;

/// Disjoint sets by Rem's algorithm with splicing: parents always have larger ids than their
/// children, and a union walks both paths upward in step, re-pointing as it goes.
///
/// PERF: Rem's interleaved union is the fastest union-find in practice (Patwary, Blair and Manne,
/// "Experiments on union-find algorithms for the disjoint-set data structure", 2010): no rank
/// array, one pass, and it stops at the first common ancestor instead of at both roots.
#[derive(Default)]
pub struct UnionFind {
    parent: Vec<u32>,
}

impl UnionFind {
    /// Resets to `n` singleton sets, keeping the allocation.
    pub fn reset(&mut self, n: usize) {
        self.parent.clear();
        self.parent.extend(0..n as u32);
    }

    /// The representative of `v`'s set (tests compare against a brute-force labelling).
    #[cfg(test)]
    pub fn find(&self, mut v: u32) -> u32 {
        while self.parent[v as usize] != v {
            v = self.parent[v as usize];
        }
        v
    }

    /// Joins the sets of `a` and `b`; false when they were already one set.
    #[inline]
    pub fn union(&mut self, mut a: u32, mut b: u32) -> bool {
        let p = &mut self.parent;
        while p[a as usize] != p[b as usize] {
            if p[a as usize] < p[b as usize] {
                if a == p[a as usize] {
                    p[a as usize] = p[b as usize];
                    return true;
                }
                let next = p[a as usize];
                p[a as usize] = p[b as usize];
                a = next;
            } else {
                if b == p[b as usize] {
                    p[b as usize] = p[a as usize];
                    return true;
                }
                let next = p[b as usize];
                p[b as usize] = p[a as usize];
                b = next;
            }
        }
        false
    }
}

/// The logical graph: which physical edges are passages, each room's passage count, and each
/// room's logical neighbours as a small fixed-stride list.
///
/// NOTE: list order depends on the order passages were opened and merged; every metric is
/// computed so that it does not (see `metrics::Bfs::diameter_ends`).
///
/// PERF: neighbour lists make "the one passage of a dead end" O(1) and let searches visit only
/// passages; scanning physical neighbours and testing each edge's flag mispredicted a branch per
/// neighbour and cost half of a 32 x 32 maze's time.
#[derive(Default, Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    /// Per physical edge id: 1 when it is a passage.
    pub passage: Vec<u8>,
    /// Per room slot: number of passages (logical degree).
    pub degree: Vec<u8>,
    stride: usize,
    next: Vec<u32>,
    via: Vec<u32>,
}

impl Tree {
    /// Clears to `slots` rooms and `edges` edges, no passages; `max_degree` bounds the physical
    /// degree of any room.
    pub fn reset(&mut self, slots: usize, edges: usize, max_degree: usize) {
        self.passage.clear();
        self.passage.resize(edges, 0);
        self.degree.clear();
        self.degree.resize(slots, 0);
        self.stride = max_degree;
        // No clearing needed: entries past a room's degree are never read.
        self.next.resize(slots * self.stride, 0);
        self.via.resize(slots * self.stride, 0);
    }

    #[inline]
    fn push(&mut self, v: u32, n: u32, e: u32) {
        let at = v as usize * self.stride + self.degree[v as usize] as usize;
        debug_assert!(
            (self.degree[v as usize] as usize) < self.stride,
            "room {v} has more passages than physical neighbours"
        );
        self.next[at] = n;
        self.via[at] = e;
        self.degree[v as usize] += 1;
    }

    #[inline]
    fn remove(&mut self, v: u32, e: u32) {
        let base = v as usize * self.stride;
        let d = self.degree[v as usize] as usize;
        let at = self.via[base..base + d]
            .iter()
            .position(|&x| x == e)
            .expect("passage listed");
        self.next[base + at] = self.next[base + d - 1];
        self.via[base + at] = self.via[base + d - 1];
        self.degree[v as usize] -= 1;
    }

    /// Marks edge `e` between `a` and `b` as a passage.
    #[inline]
    pub fn open(&mut self, e: u32, a: u32, b: u32) {
        debug_assert_eq!(self.passage[e as usize], 0, "edge {e} opened twice");
        self.passage[e as usize] = 1;
        self.push(a, b, e);
        self.push(b, a, e);
    }

    /// Closes passage `e` between `a` and `b`.
    #[inline]
    pub fn close(&mut self, e: u32, a: u32, b: u32) {
        debug_assert_eq!(self.passage[e as usize], 1, "edge {e} is not a passage");
        self.passage[e as usize] = 0;
        self.remove(a, e);
        self.remove(b, e);
    }

    /// Whether edge `e` is a passage.
    #[inline]
    pub fn is_passage(&self, e: u32) -> bool {
        self.passage[e as usize] != 0
    }

    /// The logical neighbours of `v` and the edges leading to them.
    #[inline]
    pub fn passages(&self, v: u32) -> (&[u32], &[u32]) {
        let base = v as usize * self.stride;
        let d = self.degree[v as usize] as usize;
        (&self.next[base..base + d], &self.via[base..base + d])
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
    tree.reset(topo.slot_count(), topo.edge_slots(), topo.max_degree());
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
    fn union_find_agrees_with_brute_force_labels() {
        let mut rng = crate::core::rng::WarrenRng::new(9);
        let n = 60;
        let mut uf = UnionFind::default();
        uf.reset(n);
        let mut label: Vec<usize> = (0..n).collect();
        for _ in 0..400 {
            let (a, b) = (rng.below(n as u32), rng.below(n as u32));
            let joined = label[a as usize] != label[b as usize];
            assert_eq!(uf.union(a, b), joined);
            if joined {
                let (from, to) = (label[a as usize], label[b as usize]);
                label
                    .iter_mut()
                    .filter(|l| **l == from)
                    .for_each(|l| *l = to);
            }
            for v in 0..n as u32 {
                assert_eq!(
                    uf.find(v) == uf.find(a),
                    label[v as usize] == label[a as usize]
                );
            }
        }
    }

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
