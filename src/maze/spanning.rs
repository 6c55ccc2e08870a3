//! The logical graph of seed 001: a minimum spanning tree of the physical graph (Kruskal with
//! [`UnionFind`]), stored as a passage flag per physical edge plus each room's logical degree.

pub use crate::core::sets::UnionFind;
use crate::maze::topology::{Link, Topology};

/// The logical graph: which physical edges are passages, and for each room the bit mask of
/// slots (see [`Topology`]) holding a passage. A room's logical degree is its mask's popcount.
///
/// PERF: opening a passage is two OR instructions and a store, a room's passages are the set
/// bits of one `u16`, and degree tests are popcounts: no adjacency lists to maintain, and no
/// scan of physical neighbours testing edge flags (a coin-flip branch per neighbour).
#[derive(Default, Clone, Debug, PartialEq, Eq)]
pub struct Tree {
    /// Per physical edge id: 1 when it is a passage.
    pub passage: Vec<u8>,
    /// Per room slot: the slots of its passages.
    pub mask: Vec<u16>,
}

impl Tree {
    /// Clears to `slots` rooms and `edges` edges, no passages.
    pub fn reset(&mut self, slots: usize, edges: usize) {
        self.passage.clear();
        self.passage.resize(edges, 0);
        self.mask.clear();
        self.mask.resize(slots, 0);
    }

    /// Opens the passage along `link`.
    #[inline]
    pub fn open(&mut self, link: Link) {
        debug_assert_eq!(
            self.passage[link.edge as usize], 0,
            "edge {} opened twice",
            link.edge
        );
        self.passage[link.edge as usize] = 1;
        self.mask[link.a as usize] |= 1 << link.slot_a;
        self.mask[link.b as usize] |= 1 << link.slot_b;
    }

    /// Closes the passage along `link`.
    #[inline]
    pub fn close(&mut self, link: Link) {
        debug_assert_eq!(
            self.passage[link.edge as usize], 1,
            "edge {} is not open",
            link.edge
        );
        self.passage[link.edge as usize] = 0;
        self.mask[link.a as usize] &= !(1 << link.slot_a);
        self.mask[link.b as usize] &= !(1 << link.slot_b);
    }

    /// Logical degree of room `v`.
    #[inline]
    pub fn degree(&self, v: u32) -> u32 {
        self.mask[v as usize].count_ones()
    }

    /// Whether edge `e` is a passage.
    #[inline]
    pub fn is_passage(&self, e: u32) -> bool {
        self.passage[e as usize] != 0
    }

    /// The link from room `v` through its slot `k` (which must be a physical slot).
    #[inline]
    pub fn link<T: Topology>(topo: &T, v: u32, k: u32) -> Link {
        let (b, edge) = topo.neighbour(v, k);
        Link {
            edge,
            a: v,
            b,
            slot_a: k as u8,
            slot_b: topo.reverse_slot(v, k) as u8,
        }
    }
}

/// Builds the spanning tree by taking edges in `order` (Kruskal). Returns the passage count.
///
/// # Runtime
/// O(E + V log V) (quick-find relabelling); stops as soon as `rooms - 1` passages are open.
/// No allocation after warm-up.
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
            tree.open(*link);
            opened += 1;
        }
    }
    opened
}
