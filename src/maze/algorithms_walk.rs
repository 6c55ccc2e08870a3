//! Wilson's and Aldous-Broder's random walks on a lattice without holes, over the lattice
//! padded with a ring of cells outside it: a step is two random bits and an add, and a step
//! onto the ring is drawn again. Rejecting the ring keeps each step uniform over the
//! neighbours that exist, as the general walks' `Bits::pick` does, so the trees have the same
//! distribution (the uniformity test runs through here). A child of `maze::algorithms`.
//!
//! PERF: the general walk loads a room's neighbour mask, picks a set bit through a table and
//! adds the slot's offset: three dependent loads per step. Here the next position depends on
//! the last by one add; whether it is inside and whether it is in the tree only steer branches
//! that are almost always predicted right.

use super::{AlgoScratch, Bits};
use crate::core::rng::WarrenRng;
use crate::maze::spanning::Tree;
use crate::maze::topology::Topology;

/// The padded lattice of a `width x height` lattice: cell `(x + 1, y + 1)` of a
/// `(width + 2) x (height + 2)` grid is room `y * width + x`.
#[derive(Default)]
pub(super) struct Padded {
    dims: (u32, u32),
    /// Per padded cell: [`RING`], [`FREE`] or [`TREE`] (one load answers both questions of a
    /// step: may it go there, and is it in the tree).
    state: Vec<u8>,
    /// Per padded cell: its room id (0 on the ring).
    room: Vec<u32>,
    /// Per padded cell (Wilson): the slot its walk last left by.
    via: Vec<u8>,
}

/// A cell of the ring outside the lattice.
const RING: u8 = 0;
/// A room not yet in the tree.
const FREE: u8 = 1;
/// A room in the tree.
const TREE: u8 = 2;

impl Padded {
    /// Sets up the `width x height` lattice (the maps are kept while the size stays) with no
    /// cell in the tree.
    fn prepare(&mut self, width: u32, height: u32) {
        let stride = (width + 2) as usize;
        let cells = stride * (height + 2) as usize;
        if self.dims != (width, height) {
            self.dims = (width, height);
            self.room.clear();
            self.room.resize(cells, 0);
            for y in 0..height {
                for x in 0..width {
                    self.room[(y as usize + 1) * stride + x as usize + 1] = y * width + x;
                }
            }
        }
        self.state.clear();
        self.state.resize(cells, RING);
        for row in self
            .state
            .chunks_exact_mut(stride)
            .skip(1)
            .take(height as usize)
        {
            row[1..=width as usize].fill(FREE);
        }
        self.via.clear();
        self.via.resize(cells, 0);
    }

    /// The padded cell of room `v`.
    fn cell(&self, v: u32) -> usize {
        let (w, stride) = (self.dims.0, self.dims.0 as usize + 2);
        (v / w + 1) as usize * stride + (v % w) as usize + 1
    }

    /// The padded offsets of the lattice's slots: north, west, east, south.
    fn offsets(&self) -> [isize; 4] {
        let stride = self.dims.0 as isize + 2;
        [-stride, -1, 1, stride]
    }
}

/// One step from `p`: a uniformly random neighbour inside the lattice, and its slot.
#[inline(always)]
fn step(
    pad: &Padded,
    offsets: &[isize; 4],
    p: usize,
    bits: &mut Bits,
    rng: &mut WarrenRng,
) -> (usize, u32) {
    loop {
        let k = bits.take(rng, 2);
        let n = p.wrapping_add_signed(offsets[k as usize]);
        if pad.state[n] != RING {
            return (n, k);
        }
    }
}

/// Wilson's algorithm on a hole-free `width x height` lattice (`topo`), the tree rooted at
/// `root`, walks started from the rooms in room order.
pub(super) fn wilson<T: Topology>(
    topo: &T,
    (width, height): (u32, u32),
    root: u32,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    let pad = &mut s.padded;
    pad.prepare(width, height);
    let offsets = pad.offsets();
    let rooms = (width * height) as usize;
    let at = pad.cell(root);
    pad.state[at] = TREE;
    let mut opened = 0;
    let mut bits = Bits::default();
    for v in 0..rooms as u32 {
        if opened + 1 == rooms {
            break;
        }
        let start = pad.cell(v);
        if pad.state[start] == TREE {
            continue;
        }
        // A random walk until it meets the tree, remembering only each cell's last exit:
        // following the exits from the start then gives the walk with its loops erased.
        let mut p = start;
        while pad.state[p] != TREE {
            let (n, k) = step(pad, &offsets, p, &mut bits, rng);
            pad.via[p] = k as u8;
            p = n;
        }
        let mut p = start;
        while pad.state[p] != TREE {
            let k = u32::from(pad.via[p]);
            tree.open(Tree::link(topo, pad.room[p], k));
            opened += 1;
            pad.state[p] = TREE;
            p = p.wrapping_add_signed(offsets[k as usize]);
        }
    }
    opened
}

/// Aldous-Broder on a hole-free `width x height` lattice (`topo`), the walk started at `start`.
pub(super) fn aldous_broder<T: Topology>(
    topo: &T,
    (width, height): (u32, u32),
    start: u32,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    let pad = &mut s.padded;
    pad.prepare(width, height);
    let offsets = pad.offsets();
    let rooms = (width * height) as usize;
    let mut p = pad.cell(start);
    pad.state[p] = TREE;
    let mut opened = 0;
    let mut bits = Bits::default();
    while opened + 1 < rooms {
        let (n, k) = step(pad, &offsets, p, &mut bits, rng);
        if pad.state[n] == FREE {
            tree.open(Tree::link(topo, pad.room[p], k));
            opened += 1;
            pad.state[n] = TREE;
        }
        p = n;
    }
    opened
}
