//! The spanning-tree algorithms of `maze.algorithm` besides seed 001's weighted Kruskal: the ones
//! maze datasets are defined by (Jamis Buck's catalogue, Walter Pullen's). Each opens exactly
//! `rooms - 1` passages of the physical graph, connecting every room, into a [`Tree`]; dead-end
//! merging and braiding apply afterwards as for seed 001.
//!
//! - Graph algorithms (any physical graph: lattices with holes, Delaunay rooms): `dfs`
//!   (recursive backtracker), `wilson` (loop-erased random walks; uniform over spanning trees),
//!   `aldous-broder` (a random walk that enters each room once through a passage; uniform),
//!   `kruskal` (edges in a uniformly shuffled order: seed 001's tree under its default random
//!   weighting, draw for draw), `prim` ("true Prim": random room costs, the cheapest room in the
//!   maze grows into its cheapest unvisited neighbour; Prim's algorithm with random weights on
//!   the rooms, since random weights on the edges would only give Kruskal's trees again),
//!   `prim-simplified` (a random frontier room joined to a random neighbour in the maze),
//!   `hunt-and-kill` and `growing-tree` (a share of newest-room picks, else a random active
//!   room).
//! - Lattice algorithms (a lattice without holes, row by row or by walls): `eller`,
//!   `sidewinder`, `binary-tree` (north or west from every room) and `recursive-division`
//!   (walls added to an open room, each with one gap).
//!
//! Every algorithm works in its scratch's reused buffers: no allocation once warm.

use serde::{Deserialize, Serialize};

use crate::core::rng::WarrenRng;
use crate::core::sets::UnionFind;
use crate::maze::spanning::Tree;
use crate::maze::topology::{Link, Topology};

use lattice::{binary_tree, eller, recursive_division, sidewinder};
use prim::prim;

mod lattice;
mod prim;
mod walk;

/// Lattice slots: north, west, east, south.
const NORTH: u32 = 0;
const WEST: u32 = 1;
const EAST: u32 = 2;
const SOUTH: u32 = 3;

/// How the spanning tree is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// Seed 001's: Kruskal over the edges in the order `maze.weighting` gives them.
    #[default]
    Seed001,
    /// Recursive backtracker (depth-first search): long corridors, few dead ends.
    Dfs,
    /// Wilson's loop-erased random walks: uniform over all spanning trees.
    Wilson,
    /// Aldous-Broder's random walk: uniform over all spanning trees.
    AldousBroder,
    /// Kruskal over a uniformly shuffled edge order.
    Kruskal,
    /// "True Prim": random room costs, the cheapest room in the maze grows.
    Prim,
    /// A random frontier room joined to a random neighbour already in the maze.
    PrimSimplified,
    /// Eller's row-by-row sets (lattice).
    Eller,
    /// Random walks to a dead end, then a hunt (in room order) for the next start.
    HuntAndKill,
    /// Runs along each row, each closed by one passage north (lattice).
    Sidewinder,
    /// North or west from every room (lattice).
    BinaryTree,
    /// Walls added to an open area, each with one gap, recursively (lattice).
    RecursiveDivision,
    /// An active list: the newest room with probability `maze.growing_tree_newest`, else a
    /// random one, grows by a random unvisited neighbour.
    GrowingTree,
}

impl Algorithm {
    /// Every algorithm, in the order the docs list them.
    pub const ALL: [Algorithm; 13] = [
        Algorithm::Seed001,
        Algorithm::Dfs,
        Algorithm::Wilson,
        Algorithm::AldousBroder,
        Algorithm::Kruskal,
        Algorithm::Prim,
        Algorithm::PrimSimplified,
        Algorithm::Eller,
        Algorithm::HuntAndKill,
        Algorithm::Sidewinder,
        Algorithm::BinaryTree,
        Algorithm::RecursiveDivision,
        Algorithm::GrowingTree,
    ];

    /// Whether it needs a lattice without holes (it works row by row or by walls).
    pub fn lattice_only(self) -> bool {
        matches!(
            self,
            Algorithm::Eller
                | Algorithm::Sidewinder
                | Algorithm::BinaryTree
                | Algorithm::RecursiveDivision
        )
    }

    /// The name profiles use.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Seed001 => "seed001",
            Algorithm::Dfs => "dfs",
            Algorithm::Wilson => "wilson",
            Algorithm::AldousBroder => "aldous-broder",
            Algorithm::Kruskal => "kruskal",
            Algorithm::Prim => "prim",
            Algorithm::PrimSimplified => "prim-simplified",
            Algorithm::Eller => "eller",
            Algorithm::HuntAndKill => "hunt-and-kill",
            Algorithm::Sidewinder => "sidewinder",
            Algorithm::BinaryTree => "binary-tree",
            Algorithm::RecursiveDivision => "recursive-division",
            Algorithm::GrowingTree => "growing-tree",
        }
    }
}

/// Reused memory of the algorithms.
#[derive(Default)]
pub struct AlgoScratch {
    /// Per slot: in the maze yet.
    visited: Vec<bool>,
    /// Per slot: the slots of its neighbours not yet visited (see [`visit`]).
    avail: Vec<u16>,
    stack: Vec<u32>,
    /// Wilson: per slot, the slot its walk last left by.
    via: Vec<u8>,
    links: Vec<Link>,
    /// Prim: each room's cost, and its successor in its cost's stack.
    cost: Vec<u8>,
    via32: Vec<u32>,
    uf: UnionFind,
    /// Eller: per set root, cells left in the row and whether one went down.
    left: Vec<u32>,
    down: Vec<bool>,
    regions: Vec<[u32; 4]>,
    /// Growing-tree: the active rooms in the order they came.
    recent: Vec<u32>,
    /// Wilson on a lattice without holes.
    padded: walk::Padded,
    /// Aldous-Broder on a lattice without holes.
    deep: walk::Deep,
}

/// Settings the algorithms read.
#[derive(Clone, Copy, Debug)]
pub struct AlgoParams {
    /// Lattice columns and rows (lattice algorithms only).
    pub width: u32,
    /// See `width`.
    pub height: u32,
    /// `growing-tree`: share of newest-room picks.
    pub newest: f64,
}

/// Grows the spanning tree of `topo` (`rooms` rooms, connected) with `algorithm` into `tree`.
/// `all_links` lists every physical edge when the caller has it. Returns the passages opened.
///
/// # Panics
/// For [`Algorithm::Seed001`] (the caller's weighted Kruskal draws it).
#[allow(clippy::too_many_arguments)]
pub fn grow_tree<T: Topology>(
    algorithm: Algorithm,
    topo: &T,
    all_links: Option<&[Link]>,
    rooms: usize,
    p: AlgoParams,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    let n = topo.slot_count();
    tree.reset(n, topo.edge_slots());
    s.visited.clear();
    s.visited.resize(n, false);
    s.avail.clear();
    s.avail.extend((0..n as u32).map(|v| {
        if topo.is_room(v) {
            topo.physical_mask(v)
        } else {
            0
        }
    }));
    // The spare entry `visit` writes a missing neighbour's update to.
    s.avail.push(0);
    if rooms == 0 {
        return 0;
    }
    match algorithm {
        Algorithm::Seed001 => unreachable!("seed 001's Kruskal is the caller's"),
        Algorithm::Dfs => dfs(topo, rng, s, tree),
        Algorithm::Wilson => wilson(topo, rooms, rng, s, tree),
        Algorithm::AldousBroder => aldous_broder(topo, rooms, rng, s, tree),
        Algorithm::Kruskal => kruskal(topo, all_links, rooms, rng, s, tree),
        Algorithm::Prim => prim(topo, rooms, rng, s, tree),
        Algorithm::PrimSimplified => prim_simplified(topo, rng, s, tree),
        Algorithm::HuntAndKill => hunt_and_kill(topo, rng, s, tree),
        Algorithm::GrowingTree => growing_tree(topo, rooms, p.newest, rng, s, tree),
        Algorithm::Eller => eller(topo, p, rng, s, tree),
        Algorithm::Sidewinder => sidewinder(topo, p, rng, tree),
        Algorithm::BinaryTree => binary_tree(topo, p, rng, tree),
        Algorithm::RecursiveDivision => recursive_division(topo, p, rng, s, tree),
    }
}

/// Random bits drawn 64 at a time, for the small choices the walks make at every step (one of
/// at most four neighbours, a coin): exact uniform draws at a fraction of a full draw's cost.
#[derive(Default)]
struct Bits {
    bits: u64,
    left: u32,
}

impl Bits {
    /// `k` fresh random bits (`k <= 8`).
    #[inline]
    fn take(&mut self, rng: &mut WarrenRng, k: u32) -> u32 {
        if self.left < k {
            self.bits = rng.next_u64();
            self.left = 64;
        }
        let v = (self.bits & ((1 << k) - 1)) as u32;
        self.bits >>= k;
        self.left -= k;
        v
    }

    /// A fair coin.
    #[inline]
    fn coin(&mut self, rng: &mut WarrenRng) -> bool {
        self.take(rng, 1) == 1
    }

    /// Uniform in `0..n` (`n >= 1`): from two bits for `n <= 4` (3 by rejection), else a full
    /// draw.
    #[inline(always)]
    fn below(&mut self, rng: &mut WarrenRng, n: u32) -> u32 {
        match n {
            1 => 0,
            2 => self.take(rng, 1),
            4 => self.take(rng, 2),
            3 => loop {
                let v = self.take(rng, 2);
                if v < 3 {
                    break v;
                }
            },
            _ => rng.below(n),
        }
    }

    /// A uniformly random set bit of the non-empty `m`.
    ///
    /// PERF: a lattice mask (four slots) takes two bits and one table load, drawn again only
    /// when three slots are set and the bits say 3: `below`'s match on the count was an
    /// indirect jump that missed on most steps of the walks.
    #[inline(always)]
    fn pick(&mut self, rng: &mut WarrenRng, m: u16) -> u32 {
        if m < 16 {
            loop {
                let slot = PICK[usize::from(m) * 4 + self.take(rng, 2) as usize];
                if slot != REJECT {
                    return u32::from(slot);
                }
            }
        }
        nth_bit(m, self.below(rng, m.count_ones()))
    }
}

/// The lattice's width and height when `topo` is a lattice without holes (every slot a room).
fn hole_free_lattice<T: Topology>(topo: &T, rooms: usize) -> Option<(u32, u32)> {
    if !T::LATTICE || rooms != topo.slot_count() {
        return None;
    }
    topo.lattice_size()
}

/// A uniformly random room.
fn random_room<T: Topology>(topo: &T, rng: &mut WarrenRng) -> u32 {
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
fn visit<T: Topology>(topo: &T, u: u32, visited: &mut [bool], avail: &mut [u16]) {
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
fn grow_into<T: Topology>(
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

/// The `i`-th set bit of `m` (0-based), `m` having more than `i` bits.
#[inline]
fn nth_bit(mut m: u16, i: u32) -> u32 {
    if m < 16 {
        // PERF: lattice masks have four slots: a table of (mask, i) -> slot.
        return u32::from(NTH[usize::from(m) * 4 + i as usize]);
    }
    for _ in 0..i {
        m &= m - 1;
    }
    m.trailing_zeros()
}

/// A [`PICK`] entry that draws again.
const REJECT: u8 = u8::MAX;

/// `PICK[m * 4 + r]`: the slot two random bits `r` pick among the set bits of the 4-bit mask
/// `m`, each set bit equally often ([`REJECT`] for `r = 3` of a three-bit mask).
const PICK: [u8; 64] = {
    let mut t = [REJECT; 64];
    let mut m = 1;
    while m < 16 {
        let n = (m as u16).count_ones() as usize;
        let mut r = 0;
        while r < 4 {
            let i = match n {
                1 => 0,
                2 => r & 1,
                3 if r == 3 => 4,
                _ => r,
            };
            if i < 4 {
                t[m * 4 + r] = NTH[m * 4 + i];
            }
            r += 1;
        }
        m += 1;
    }
    t
};

/// `NTH[m * 4 + i]`: the `i`-th set bit of the 4-bit mask `m`.
const NTH: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut m = 0;
    while m < 16 {
        let (mut i, mut b) = (0, 0);
        while b < 4 {
            if m & (1 << b) != 0 {
                t[m * 4 + i] = b as u8;
                i += 1;
            }
            b += 1;
        }
        m += 1;
    }
    t
};

fn dfs<T: Topology>(topo: &T, rng: &mut WarrenRng, s: &mut AlgoScratch, tree: &mut Tree) -> usize {
    let start = random_room(topo, rng);
    visit(topo, start, &mut s.visited, &mut s.avail);
    // PERF: the stack is a local while the walk runs, so its length stays in a register
    // instead of being stored and reloaded around every step (a fifth of the walk).
    let mut stack = std::mem::take(&mut s.stack);
    stack.clear();
    stack.push(start);
    let mut opened = 0;
    let mut bits = Bits::default();
    while let Some(&v) = stack.last() {
        let m = s.avail[v as usize];
        if m == 0 {
            stack.pop();
            continue;
        }
        let u = grow_into(topo, v, m, &mut bits, rng, s, tree);
        opened += 1;
        stack.push(u);
    }
    s.stack = stack;
    opened
}

fn wilson<T: Topology>(
    topo: &T,
    rooms: usize,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    let n = topo.slot_count();
    if let Some((w, h)) = hole_free_lattice(topo, rooms) {
        // Any root gives uniform trees; the walks reach the middle room soonest (PERF: a
        // fifth fewer steps than from a random room on 32 x 32).
        let root = h / 2 * w + w / 2;
        return walk::wilson(topo, (w, h), root, rng, s, tree);
    }
    let root = random_room(topo, rng);
    s.via.clear();
    s.via.resize(n, 0);
    s.visited[root as usize] = true;
    let mut opened = 0;
    let mut bits = Bits::default();
    for v in 0..n as u32 {
        if opened + 1 == rooms {
            break;
        }
        if !topo.is_room(v) || s.visited[v as usize] {
            continue;
        }
        // A random walk from v until it meets the tree, remembering only each room's last exit:
        // following the exits from v then gives the walk with its loops erased.
        let mut u = v;
        while !s.visited[u as usize] {
            let k = bits.pick(rng, topo.physical_mask(u));
            s.via[u as usize] = k as u8;
            u = topo.neighbour_room(u, k);
        }
        let mut u = v;
        while !s.visited[u as usize] {
            let link = Tree::link(topo, u, u32::from(s.via[u as usize]));
            tree.open(link);
            opened += 1;
            s.visited[u as usize] = true;
            u = link.b;
        }
    }
    opened
}

fn aldous_broder<T: Topology>(
    topo: &T,
    rooms: usize,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    let mut v = random_room(topo, rng);
    if let Some(dims) = hole_free_lattice(topo, rooms) {
        return walk::aldous_broder(topo, dims, v, rng, s, tree);
    }
    s.visited[v as usize] = true;
    let mut opened = 0;
    let mut bits = Bits::default();
    while opened + 1 < rooms {
        let k = bits.pick(rng, topo.physical_mask(v));
        let (u, _) = topo.neighbour(v, k);
        if !s.visited[u as usize] {
            tree.open(Tree::link(topo, v, k));
            opened += 1;
            s.visited[u as usize] = true;
        }
        v = u;
    }
    opened
}

fn kruskal<T: Topology>(
    topo: &T,
    all_links: Option<&[Link]>,
    rooms: usize,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    s.links.clear();
    match all_links {
        Some(links) => s.links.extend_from_slice(links),
        None => topo.for_each_edge(|l| s.links.push(l)),
    }
    rng.shuffle(&mut s.links);
    s.uf.reset(topo.slot_count());
    let mut opened = 0;
    for &link in &s.links {
        if opened + 1 == rooms {
            break;
        }
        if s.uf.union(link.a, link.b) {
            tree.open(link);
            opened += 1;
        }
    }
    opened
}

fn prim_simplified<T: Topology>(
    topo: &T,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    // `down` marks rooms on the frontier; `frontier[..len]` lists them.
    let n = topo.slot_count();
    s.down.clear();
    s.down.resize(n, false);
    // PERF: the frontier is a local while the walk runs (see `dfs`), with room for every room
    // plus one spare slot: a push is a store and an add, whether or not the room was already
    // on the frontier (no branch on it).
    let mut frontier = std::mem::take(&mut s.stack);
    frontier.clear();
    frontier.resize(n + 1, 0);
    let mut len = 0usize;
    let start = random_room(topo, rng);
    visit(topo, start, &mut s.visited, &mut s.avail);
    let add_frontier = |v: u32, s: &mut AlgoScratch, frontier: &mut [u32], len: &mut usize| {
        let mut m = s.avail[v as usize];
        while m != 0 {
            let k = m.trailing_zeros();
            m &= m - 1;
            let u = topo.neighbour_room(v, k);
            let new = !s.down[u as usize];
            s.down[u as usize] = true;
            frontier[*len] = u;
            *len += usize::from(new);
        }
    };
    add_frontier(start, s, &mut frontier, &mut len);
    let mut opened = 0;
    let mut bits = Bits::default();
    while len > 0 {
        let i = rng.below(len as u32) as usize;
        let v = frontier[i];
        len -= 1;
        frontier[i] = frontier[len];
        // Joined to a random neighbour already in the maze.
        let inside = topo.physical_mask(v) & !s.avail[v as usize];
        debug_assert!(inside != 0, "a frontier room touches the maze");
        tree.open(Tree::link(topo, v, bits.pick(rng, inside)));
        opened += 1;
        visit(topo, v, &mut s.visited, &mut s.avail);
        add_frontier(v, s, &mut frontier, &mut len);
    }
    s.stack = frontier;
    opened
}

fn hunt_and_kill<T: Topology>(
    topo: &T,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    let n = topo.slot_count() as u32;
    let mut v = random_room(topo, rng);
    visit(topo, v, &mut s.visited, &mut s.avail);
    let mut opened = 0;
    // Rooms below `from` are all visited (or holes): the hunt starts there.
    let mut from = 0u32;
    let mut bits = Bits::default();
    loop {
        let m = s.avail[v as usize];
        if m != 0 {
            v = grow_into(topo, v, m, &mut bits, rng, s, tree);
            opened += 1;
            continue;
        }
        // The hunt: the first unvisited room (in room order) next to the maze, joined to a
        // random neighbour in it.
        while from < n && (s.visited[from as usize] || !topo.is_room(from)) {
            from += 1;
        }
        let found = (from..n).find(|&u| {
            topo.is_room(u)
                && !s.visited[u as usize]
                && topo.physical_mask(u) & !s.avail[u as usize] != 0
        });
        let Some(u) = found else {
            return opened;
        };
        let inside = topo.physical_mask(u) & !s.avail[u as usize];
        tree.open(Tree::link(topo, u, bits.pick(rng, inside)));
        opened += 1;
        visit(topo, u, &mut s.visited, &mut s.avail);
        v = u;
    }
}

fn growing_tree<T: Topology>(
    topo: &T,
    rooms: usize,
    newest: f64,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    let start = random_room(topo, rng);
    visit(topo, start, &mut s.visited, &mut s.avail);
    // The active rooms twice: unordered in `active` (each at `pos[room]`), so a room leaves by
    // a swap; and in the order they came in `recent`, whose top is the newest once the rooms
    // that left are popped off it. PERF: one ordered list made leaving a shift, which was a
    // fifth of the maze's time (memmove).
    let mut active = std::mem::take(&mut s.stack);
    let mut recent = std::mem::take(&mut s.recent);
    let pos = &mut s.via32;
    pos.clear();
    pos.resize(topo.slot_count(), GONE);
    active.clear();
    recent.clear();
    pos[start as usize] = 0;
    active.push(start);
    recent.push(start);
    let mut opened = 0;
    let mut bits = Bits::default();
    // The newest with probability `newest`: a 32-bit draw below this.
    let newest_below = (newest * 4_294_967_296.0) as u64;
    // PERF: stops at the last passage; the active rooms left then are all spent.
    while opened + 1 < rooms && !active.is_empty() {
        // One draw: its low half tosses for the newest, its high half picks at random. PERF:
        // both rooms are looked up and one kept without a branch (the toss is a coin's).
        let r = rng.next_u64();
        let any = active[rng.below_from((r >> 32) as u32, active.len() as u32) as usize];
        let newest = recent[recent.len() - 1];
        let v = if (r & 0xFFFF_FFFF) < newest_below {
            newest
        } else {
            any
        };
        let m = s.avail[v as usize];
        if m == 0 {
            let i = pos[v as usize] as usize;
            let end = active.len() - 1;
            active.swap(i, end);
            pos[active[i] as usize] = i as u32;
            active.pop();
            pos[v as usize] = GONE;
            // The top of `recent` stays the newest active room.
            while recent.last().is_some_and(|&t| pos[t as usize] == GONE) {
                recent.pop();
            }
            continue;
        }
        let link = Tree::link(topo, v, bits.pick(rng, m));
        tree.open(link);
        visit(topo, link.b, &mut s.visited, &mut s.avail);
        opened += 1;
        pos[link.b as usize] = active.len() as u32;
        active.push(link.b);
        recent.push(link.b);
    }
    (s.stack, s.recent) = (active, recent);
    opened
}

/// A room not among growing-tree's active rooms.
const GONE: u32 = u32::MAX;

#[cfg(test)]
mod tests;
