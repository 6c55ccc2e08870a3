//! The steps the graph algorithms share: a random room, visiting a room (its neighbours' masks
//! of unvisited slots kept up to date) and growing into a random unvisited neighbour.

use crate::core::rng::WarrenRng;
use crate::maze::algorithms::bits::Bits;
use crate::maze::algorithms::scratch::AlgoScratch;
use crate::maze::spanning::Tree;
use crate::maze::topology::Topology;

/// The lattice's width and height when `topo` is a lattice without holes (every slot a room).
pub(super) fn hole_free_lattice<T: Topology>(topo: &T, rooms: usize) -> Option<(u32, u32)> {
    if !T::LATTICE || rooms != topo.slot_count() {
        return None;
    }
    topo.lattice_size()
}

/// A uniformly random room.
pub(super) fn random_room<T: Topology>(topo: &T, rng: &mut WarrenRng) -> u32 {
    let n = topo.slot_count() as u32;
    loop {
        let v = rng.below(n);
        if topo.is_room(v) {
            return v;
        }
    }
}

/// Marks room `u` visited: it leaves the `avail` mask (the slots of unvisited neighbours) of
/// each of its neighbours.
///
/// PERF: the walks ask for a room's unvisited neighbours at every step; kept up to date here
/// (a few stores per room, once), the answer is one load instead of a branch per neighbour.
/// Always inlined: as a call it was a tenth of `prim`.
#[inline(always)]
pub(super) fn visit<T: Topology>(topo: &T, u: u32, visited: &mut [bool], avail: &mut [u16]) {
    visited[u as usize] = true;
    let m = topo.physical_mask(u);
    if T::LATTICE {
        // PERF: on a lattice all four stores happen, a missing neighbour's to the spare entry
        // past the last room, so no branch depends on the room's shape.
        let spare = (avail.len() - 1) as u32;
        for k in 0..4 {
            let present = m >> k & 1 != 0;
            let nb = if present {
                topo.neighbour_room(u, k)
            } else {
                spare
            };
            avail[nb as usize] &= !(1 << topo.reverse_slot(u, k));
        }
        return;
    }
    let mut m = m;
    while m != 0 {
        let k = m.trailing_zeros();
        m &= m - 1;
        let nb = topo.neighbour_room(u, k);
        avail[nb as usize] &= !(1 << topo.reverse_slot(u, k));
    }
}

/// Opens the passage from `v` to a random one of its unvisited neighbours (slots `m`, not
/// empty) and visits that neighbour, which it returns.
#[inline(always)]
pub(super) fn grow_into<T: Topology>(
    topo: &T,
    v: u32,
    m: u16,
    bits: &mut Bits,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> u32 {
    let link = Tree::link(topo, v, bits.pick(rng, m));
    tree.open(link);
    visit(topo, link.b, &mut s.visited, &mut s.avail);
    link.b
}
