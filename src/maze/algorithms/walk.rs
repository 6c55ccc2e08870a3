//! Wilson's and Aldous-Broder's random walks on a lattice without holes. A child of
//! `maze::algorithms`; the uniformity test runs through here.
//!
//! Wilson walks the lattice padded with a ring of cells outside it: a step is two random bits
//! and an add, and a step onto the ring is drawn again. Rejecting the ring keeps each step
//! uniform over the neighbours that exist, as the general walks' `Bits::pick` does, so the
//! trees have the same distribution.
//!
//! Aldous-Broder walks lazily (a step towards the edge stays put, which leaves the walk's moves
//! and so its tree's distribution as they were) and crosses the tree's inside four steps at a
//! time; see [`aldous_broder_jumping`].
//!
//! PERF: the general walk loads a room's neighbour mask, picks a set bit through a table and
//! adds the slot's offset: three dependent loads per step. Here the next position depends on
//! the last by one add (and a clamp or a fold); whether it is inside and whether it is in the
//! tree only steer branches that are almost always predicted right. Aldous-Broder's jumps cut a
//! 32 x 32 maze's walk from about 27,700 steps to 15,400 draws.

use crate::core::rng::WarrenRng;
use crate::maze::algorithms::bits::Bits;
use crate::maze::spanning::Tree;
use crate::maze::topology::Link;
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
    pad: &mut Padded,
    tree: &mut Tree,
) -> usize {
    pad.prepare(width, height);
    let offsets = pad.offsets();
    let rooms = (width * height) as usize;
    let at = pad.cell(root);
    pad.state[at] = TREE;
    let mut opened = 0;
    let mut bits = Bits::default();
    let stride = width as usize + 2;
    // PERF: rooms in row order by their padded cells and coordinates (no division per room).
    'rooms: for y in 0..height {
        for x in 0..width {
            if opened + 1 == rooms {
                break 'rooms;
            }
            let start = (y as usize + 1) * stride + x as usize + 1;
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
            let (mut p, mut x, mut y) = (start, x, y);
            while pad.state[p] != TREE {
                let k = u32::from(pad.via[p]);
                tree.open(lattice_link(topo, (width, height), (x, y), k));
                opened += 1;
                pad.state[p] = TREE;
                p = p.wrapping_add_signed(offsets[k as usize]);
                let (dx, dy) = STEPS[k as usize];
                (x, y) = (x.wrapping_add_signed(dx), y.wrapping_add_signed(dy));
            }
        }
    }
    opened
}

/// The link from the room at `(x, y)` of a hole-free `width x height` lattice through slot `k`
/// (north, west, east, south): [`Tree::link`] from coordinates (PERF: no division).
#[inline(always)]
fn lattice_link<T: Topology>(topo: &T, (w, h): (u32, u32), (x, y): (u32, u32), k: u32) -> Link {
    let v = y * w + x;
    let (dx, dy) = STEPS[k as usize];
    let (nx, ny) = (x.wrapping_add_signed(dx), y.wrapping_add_signed(dy));
    let b = ny * w + nx;
    // Ids: the horizontal edges row by row (`y * (w - 1) + x` east of `(x, y)`), then the
    // vertical ones (`h * (w - 1) + y * w + x` south of `(x, y)`).
    let edge = if dy == 0 {
        y * (w - 1) + x.min(nx)
    } else {
        h * (w - 1) + y.min(ny) * w + x
    };
    let link = Link {
        edge,
        a: v,
        b,
        slot_a: k as u8,
        slot_b: 3 - k as u8,
    };
    debug_assert_eq!(
        link,
        Tree::link(topo, v, k),
        "lattice link ({x}, {y}) slot {k}"
    );
    link
}

/// Aldous-Broder on a hole-free `width x height` lattice (`topo`), the walk started at `start`.
pub(super) fn aldous_broder<T: Topology>(
    topo: &T,
    dims: (u32, u32),
    start: u32,
    rng: &mut WarrenRng,
    deep: &mut Deep,
    tree: &mut Tree,
) -> usize {
    aldous_broder_jumping::<T, JUMP>(topo, dims, start, rng, deep, tree)
}

/// Steps a walk takes at once through the tree's inside, and the side of the blocks that say
/// where the inside is.
const JUMP: usize = 4;

/// Aldous-Broder that crosses the tree's inside `L` steps at a time.
///
/// The walk is the lazy one: a step towards the lattice's edge stays put. Its moves are the
/// simple random walk's, so the first entrances (the tree) have the same distribution. The lazy
/// walk on `0..w` is the free walk on the integers folded at `-1/2` and `w - 1/2` (the free
/// step is symmetric, so the fold commutes with it). So `L` lazy steps are `L` free steps,
/// summed from one table of 4^L entries, and folded once (`w, h >= L`).
///
/// That is exact only where the `L` steps cannot reach a room outside the tree. The lattice is
/// cut into `L x L` blocks, each counting its rooms not in the tree; a room whose block and the
/// blocks around it count zero is [`DEEP`], and every room `L` steps from it is in the tree. In
/// the cover time's long tail the walk wanders through such rooms: jumping them is where the
/// time goes down. `L = 1` is for the tests (on a 3 x 3 lattice).
pub(super) fn aldous_broder_jumping<T: Topology, const L: usize>(
    topo: &T,
    (width, height): (u32, u32),
    start: u32,
    rng: &mut WarrenRng,
    deep: &mut Deep,
    tree: &mut Tree,
) -> usize {
    deep.prepare::<L>(width, height);
    let (w, h) = (width as i32, height as i32);
    let rooms = (width * height) as usize;
    let jumps = &JUMPS[L - 1];
    let (mut x, mut y) = ((start % width) as i32, (start / width) as i32);
    let mut here = deep.enter::<L>(x as u32, y as u32);
    let mut opened = 0;
    let bits_per_jump = 2 * L as u32;
    while opened + 1 < rooms {
        // Walk on one random word until it runs out or the walk enters a room not in the tree.
        let mut r = rng.next_u64();
        let mut left = 64u32;
        let (nx, ny, k) = loop {
            if here == DEEP {
                if left < bits_per_jump {
                    break (x, y, u32::MAX);
                }
                debug_assert!(
                    deep.tree_within(x, y, L as i32),
                    "a jump from a room near the outside"
                );
                let (dx, dy) = jumps[(r & 0xFF) as usize];
                r >>= bits_per_jump;
                left -= bits_per_jump;
                x = fold(x + i32::from(dx), w);
                y = fold(y + i32::from(dy), h);
                here = deep.state[(y * w + x) as usize];
            } else {
                if left < 2 {
                    break (x, y, u32::MAX);
                }
                let k = (r & 3) as u32;
                r >>= 2;
                left -= 2;
                let (dx, dy) = STEPS[k as usize];
                let (nx, ny) = ((x + dx).clamp(0, w - 1), (y + dy).clamp(0, h - 1));
                here = deep.state[(ny * w + nx) as usize];
                if here == FREE {
                    break (nx, ny, k);
                }
                (x, y) = (nx, ny);
            }
        };
        if k != u32::MAX {
            tree.open(lattice_link(topo, (width, height), (x as u32, y as u32), k));
            opened += 1;
            here = deep.enter::<L>(nx as u32, ny as u32);
            (x, y) = (nx, ny);
        }
    }
    opened
}

/// A room in the tree whose every room `L` steps away is in the tree too.
const DEEP: u8 = 3;

/// The lattice's slots as steps: north, west, east, south.
pub(super) const STEPS: [(i32, i32); 4] = [(0, -1), (-1, 0), (1, 0), (0, 1)];

/// `JUMPS[L - 1][r]`: where `L` free steps go, the step `j` being bits `2j..2j + 2` of `r`.
pub(super) const JUMPS: [[(i8, i8); 256]; 4] = {
    let mut t = [[(0i8, 0i8); 256]; 4];
    let mut l = 0;
    while l < 4 {
        let mut r = 0;
        while r < 256 {
            let (mut dx, mut dy) = (0i32, 0i32);
            let mut j = 0;
            while j <= l {
                let (sx, sy) = STEPS[(r >> (2 * j)) & 3];
                dx += sx;
                dy += sy;
                j += 1;
            }
            t[l][r] = (dx as i8, dy as i8);
            r += 1;
        }
        l += 1;
    }
    t
};

/// `v` (in `-w..2w`) folded into `0..w` at `-1/2` and `w - 1/2`.
#[inline(always)]
pub(super) fn fold(v: i32, w: i32) -> i32 {
    let v = if v < 0 { -1 - v } else { v };
    if v >= w { 2 * w - 1 - v } else { v }
}

/// Aldous-Broder's rooms and blocks (see [`aldous_broder_jumping`]).
#[derive(Default)]
pub(super) struct Deep {
    /// Per room: [`FREE`], [`TREE`] or [`DEEP`].
    state: Vec<u8>,
    /// Per block: its rooms not in the tree.
    free: Vec<u16>,
    /// Per block: the blocks around it (itself included) with a room not in the tree.
    busy: Vec<u8>,
    /// The lattice's width, and the blocks across and down (`(0, 0)` when the lattice is too
    /// small to jump in).
    width: u32,
    blocks: (u32, u32),
}

impl Deep {
    /// Sets up a `width x height` lattice with no room in the tree, in blocks of `L`.
    fn prepare<const L: usize>(&mut self, width: u32, height: u32) {
        let side = L as u32;
        self.state.clear();
        self.state.resize((width * height) as usize, FREE);
        self.width = width;
        self.blocks = if width >= side && height >= side {
            (width.div_ceil(side), height.div_ceil(side))
        } else {
            (0, 0)
        };
        let (bw, bh) = self.blocks;
        self.free.clear();
        self.busy.clear();
        for by in 0..bh {
            let rows = side.min(height - by * side);
            for bx in 0..bw {
                let cols = side.min(width - bx * side);
                self.free.push((rows * cols) as u16);
                self.busy.push(around(bx, by, bw, bh).count() as u8);
            }
        }
    }

    /// Puts the room at `(x, y)` in the tree; returns its state then ([`TREE`] or [`DEEP`]).
    #[inline]
    fn enter<const L: usize>(&mut self, x: u32, y: u32) -> u8 {
        let v = (y * self.width + x) as usize;
        self.state[v] = TREE;
        let (bw, bh) = self.blocks;
        if bw > 0 {
            let (bx, by) = (x / L as u32, y / L as u32);
            let b = (by * bw + bx) as usize;
            self.free[b] -= 1;
            if self.free[b] == 0 {
                for (cx, cy) in around(bx, by, bw, bh) {
                    let c = (cy * bw + cx) as usize;
                    self.busy[c] -= 1;
                    if self.busy[c] == 0 {
                        self.deepen::<L>(cx, cy);
                    }
                }
            }
        }
        self.state[v]
    }

    /// Whether every room within `d` steps of `(x, y)` is in the tree (the tests' check of
    /// [`DEEP`]).
    fn tree_within(&self, x: i32, y: i32, d: i32) -> bool {
        let (w, h) = (
            self.width as i32,
            (self.state.len() / self.width as usize) as i32,
        );
        (y - d..=y + d).all(|ny| {
            (x - d..=x + d).all(|nx| {
                let far = (nx - x).abs() + (ny - y).abs() > d;
                far || !(0..w).contains(&nx)
                    || !(0..h).contains(&ny)
                    || self.state[(ny * w + nx) as usize] != FREE
            })
        })
    }

    /// Marks every room of block `(bx, by)` [`DEEP`].
    #[cold]
    fn deepen<const L: usize>(&mut self, bx: u32, by: u32) {
        let (w, side) = (self.width, L as u32);
        let height = self.state.len() as u32 / w;
        for y in by * side..((by + 1) * side).min(height) {
            let row = (y * w) as usize;
            let rooms = &mut self.state
                [row + (bx * side) as usize..row + ((bx + 1) * side).min(w) as usize];
            debug_assert!(!rooms.contains(&FREE), "deepening a room not in the tree");
            rooms.fill(DEEP);
        }
    }
}

/// Block `(bx, by)` and the blocks around it, of a `bw x bh` grid of blocks.
fn around(bx: u32, by: u32, bw: u32, bh: u32) -> impl Iterator<Item = (u32, u32)> {
    let xs = bx.saturating_sub(1)..(bx + 2).min(bw);
    (by.saturating_sub(1)..(by + 2).min(bh)).flat_map(move |y| xs.clone().map(move |x| (x, y)))
}
