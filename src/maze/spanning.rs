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
/// NOTE: every list is kept sorted by edge id, whatever order passages were opened, merged or
/// decoded in, so searches (and the diameter ends they pick among ties) are a function of the
/// tree alone; `verify` relies on this to recompute the stored metrics exactly.
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
        // NOTE: one spare slot per room lets `link_all` store unconditionally (see there).
        self.stride = max_degree + 1;
        // No clearing needed: entries past a room's degree are never read.
        self.next.resize(slots * self.stride, 0);
        self.via.resize(slots * self.stride, 0);
    }

    /// Inserts `(n, e)` into `v`'s list, keeping it sorted by edge id.
    #[inline]
    fn push(&mut self, v: u32, n: u32, e: u32) {
        let base = v as usize * self.stride;
        let d = self.degree[v as usize] as usize;
        debug_assert!(
            d + 1 < self.stride,
            "room {v} has more passages than physical neighbours"
        );
        let mut at = base + d;
        while at > base && self.via[at - 1] > e {
            self.next[at] = self.next[at - 1];
            self.via[at] = self.via[at - 1];
            at -= 1;
        }
        self.next[at] = n;
        self.via[at] = e;
        self.degree[v as usize] += 1;
    }

    /// Removes edge `e` from `v`'s list, keeping the order.
    #[inline]
    fn remove(&mut self, v: u32, e: u32) {
        let base = v as usize * self.stride;
        let d = self.degree[v as usize] as usize;
        let at = self.via[base..base + d]
            .iter()
            .position(|&x| x == e)
            .expect("passage listed");
        self.next.copy_within(base + at + 1..base + d, base + at);
        self.via.copy_within(base + at + 1..base + d, base + at);
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

    /// Marks edge `e` between `a` and `b` as a passage without listing it: Kruskal's hot loop
    /// calls this, then [`Tree::link_all`] lists every passage in one sequential pass.
    #[inline]
    pub fn mark(&mut self, e: u32, a: u32, b: u32) {
        self.passage[e as usize] = 1;
        self.degree[a as usize] += 1;
        self.degree[b as usize] += 1;
    }

    /// Rebuilds every room's neighbour list from the passage flags (sorted by edge id, because
    /// `for_each_edge` visits edges in id order).
    ///
    /// # Runtime
    /// O(E), branch-free: each physical edge is written into both rooms' spare slot and the
    /// count advances by the passage flag (0 or 1), so non-passages are overwritten later.
    pub fn link_all<T: Topology>(&mut self, topo: &T) {
        self.degree.iter_mut().for_each(|d| *d = 0);
        let s = self.stride;
        topo.for_each_edge(|e, a, b| {
            // PERF: no branch on the flag: random trees made that branch a coin flip.
            let p = self.passage[e as usize];
            let (a, b) = (a as usize, b as usize);
            let ia = a * s + self.degree[a] as usize;
            self.next[ia] = b as u32;
            self.via[ia] = e;
            self.degree[a] += p;
            let ib = b * s + self.degree[b] as usize;
            self.next[ib] = a as u32;
            self.via[ib] = e;
            self.degree[b] += p;
        });
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
            tree.mark(link.edge, link.a, link.b);
            opened += 1;
        }
    }
    tree.link_all(topo);
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
