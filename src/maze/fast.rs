//! The hole-free lattice fast path (the default profile): seed 001's maze, Kruskal tree,
//! dead-end merge and metrics, computed on compact lattice data. It produces exactly the grid and
//! the metrics of the general path (`grow` + `rasterize`), which the tests use as its oracle, and
//! `verify` re-derives everything from the stored grid with the general code.
//!
//! What changes is the representation, never the algorithm:
//! - an edge is one packed `u32`, `a | b << 16` (`a` the west or north room): the shuffle moves
//!   4 bytes per edge, and Kruskal reads both endpoints with a mask and a shift;
//! - union-find labels are `u16` and each room's passages are one `u8` mask (slots north 0,
//!   west 1, east 2, south 3, as in [`Lattice`](crate::maze::Lattice));
//! - lattice-wide predicates (dead end, crossroad, passage east...) are bitsets built eight rooms
//!   at a time from the masks, so the merge visits only its candidates and the counts are
//!   popcounts;
//! - the diameter comes from one leaf-peeling pass instead of a breadth-first search plus a
//!   bottom-up fold: the peeling order is a valid bottom-up order for the same fold.
//!
//! Lattices of more than [`MAX_ROOMS`] rooms (801 x 801 has 641,601) take the same steps with
//! `u32` room ids (`fast_wide.rs`); the bitsets, the merge and the raster (`fast_bits.rs`) serve
//! both widths.

use crate::core::grid::Grid;
use crate::core::rng::WarrenRng;
use crate::maze::config::{MazeConfig, Weighting};
use crate::maze::fast_bits::{self, RoomSets};
use crate::maze::fast_wide::{self, WideScratch};
use crate::maze::metrics::MazeMetrics;
use crate::maze::topology::{Lattice, Link};
use crate::maze::weights::{self, OrderScratch};

/// Entries of a per-room array: every `u16`.
const SLOTS: usize = MAX_ROOMS + 1;

pub use crate::maze::fast_plan::{LatticePlan, MAX_ROOMS};

/// A per-room entry no room uses: stores that must not happen go there instead of behind a
/// branch.
const DUMMY: u16 = u16::MAX;

/// A per-room array covering every `u16` room id, viewed as `[T; SLOTS]`.
///
/// PERF: indexed by `u16` room ids, the view needs no bounds checks (the index cannot exceed
/// the length), which takes a compare and a branch off every access in the hot loops. Only the
/// first `rooms` entries are touched, so the cache footprint is the maze's own. Each array starts
/// at its own offset (`skew`) within its allocation: large allocations are page-aligned, and
/// arrays read at the same index would otherwise all fall into the same L1 cache sets.
struct PerRoom<T> {
    buf: Vec<T>,
    skew: usize,
}

impl<T: Copy + Default> PerRoom<T> {
    fn new(slot: usize) -> Self {
        // 64 bytes more per slot: consecutive arrays land on different cache sets.
        let skew = slot * 64 / size_of::<T>();
        Self {
            buf: vec![T::default(); SLOTS + skew],
            skew,
        }
    }
}

impl<T> std::ops::Deref for PerRoom<T> {
    type Target = [T; SLOTS];
    fn deref(&self) -> &[T; SLOTS] {
        self.buf[self.skew..].try_into().expect("SLOTS entries")
    }
}

impl<T> std::ops::DerefMut for PerRoom<T> {
    fn deref_mut(&mut self) -> &mut [T; SLOTS] {
        (&mut self.buf[self.skew..])
            .try_into()
            .expect("SLOTS entries")
    }
}

/// Room id `v` as an index into a [`PerRoom`] array: ids are below [`MAX_ROOMS`], so the
/// truncation keeps the value and tells the compiler the index is in bounds.
#[inline]
fn ix(v: u32) -> usize {
    usize::from(v as u16)
}

/// One worker's reusable fast-path memory.
pub struct FastScratch {
    order: Vec<u32>,
    /// Kruskal's tree edges, packed like `order`.
    tree: Vec<u32>,
    /// Union-find forest (Kruskal).
    root: PerRoom<u16>,
    /// Per room (zero past the last room): the passage slots.
    mask: PerRoom<u8>,
    sets: RoomSets,
    rem: PerRoom<u8>,
    /// Per room during the peel: `height << 16 | (0xFFFF - deepest leaf)`.
    reach: PerRoom<u32>,
    /// The peel's order: dead ends first, then each room as it becomes a leaf.
    queue: PerRoom<u16>,
    mark: PerRoom<u32>,
    stamp: u32,
    path: Vec<u32>,
    back: Vec<u32>,
    links: Vec<Link>,
    link_scratch: OrderScratch,
    /// The `u32` path's per-room arrays (empty until a lattice needs them).
    wide: WideScratch,
}

impl Default for FastScratch {
    fn default() -> Self {
        Self {
            order: Vec::new(),
            tree: Vec::new(),
            root: PerRoom::new(0),
            mask: PerRoom::new(3),
            sets: RoomSets::default(),
            rem: PerRoom::new(4),
            reach: PerRoom::new(5),
            queue: PerRoom::new(9),
            mark: PerRoom::new(8),
            stamp: 0,
            path: Vec::new(),
            back: Vec::new(),
            links: Vec::new(),
            link_scratch: OrderScratch::default(),
            wide: WideScratch::default(),
        }
    }
}

/// Generates one maze: fills `grid` and returns the metrics, exactly as the general path would
/// for the same configuration and generator state.
///
/// # Runtime
/// O(E + V log V) for Kruskal, O(V) for everything else; no allocation after warm-up.
pub fn generate(
    plan: &LatticePlan,
    cfg: &MazeConfig,
    rng: &mut WarrenRng,
    s: &mut FastScratch,
    grid: &mut Grid,
    depth: Depth,
) -> MazeMetrics {
    edge_order(plan, cfg, rng, s);
    if plan.is_narrow() {
        kruskal(plan, s);
    } else {
        fast_wide::kruskal(plan, &s.order, &mut s.wide);
    }
    finish(plan, cfg, s, grid, depth)
}

/// One maze whose tree another algorithm drew (`tree`, over the same lattice): the merge, the
/// metrics and the grid, exactly as the general path computes them for that tree.
pub fn generate_from_tree(
    plan: &LatticePlan,
    cfg: &MazeConfig,
    tree: &crate::maze::spanning::Tree,
    s: &mut FastScratch,
    grid: &mut Grid,
    depth: Depth,
) -> MazeMetrics {
    let mask = if plan.is_narrow() {
        &mut s.mask[..plan.padded()]
    } else {
        s.wide.clear_mask(plan.padded())
    };
    mask.fill(0);
    for (m, &t) in mask[..plan.rooms].iter_mut().zip(&tree.mask) {
        *m = t as u8;
    }
    finish(plan, cfg, s, grid, depth)
}

/// How much of a maze [`finish`] computes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Depth {
    /// Every metric, the diameter's ends and the solution.
    Full,
    /// The grid only (the same cells as `Full`): of the metrics just `rooms` and `merges` are
    /// set, the rest stay zero.
    Grid,
}

/// Everything after the tree: census, merge, counts, diameter, solution and grid (with
/// [`Depth::Grid`], the census and merge only when merging, then the grid).
fn finish(
    plan: &LatticePlan,
    cfg: &MazeConfig,
    s: &mut FastScratch,
    grid: &mut Grid,
    depth: Depth,
) -> MazeMetrics {
    let mut m = MazeMetrics {
        rooms: plan.rooms as u32,
        ..Default::default()
    };
    if depth == Depth::Grid {
        if cfg.merge_dead_ends {
            census(plan, s);
            m.merges = merge(plan, s);
        }
        fast_bits::rasterize(plan, s.masks(plan), grid);
        return m;
    }
    census(plan, s);
    if cfg.merge_dead_ends {
        m.merges = merge(plan, s);
    }
    let (dead_ends, crossroads, at_crossroad, mergeable) = fast_bits::counts(plan, &mut s.sets);
    debug_assert!(
        !cfg.merge_dead_ends || mergeable == 0,
        "merge left a candidate"
    );
    m.dead_ends = dead_ends;
    m.crossroads = crossroads;
    m.dead_ends_at_crossroad = at_crossroad;
    m.mergeable_dead_ends = mergeable;
    let (start, goal, diameter) = if plan.is_narrow() {
        peel(plan, s)
    } else {
        fast_wide::peel(plan, &s.sets, &mut s.wide)
    };
    m.start_room = start;
    m.goal_room = goal;
    m.diameter = diameter;
    if plan.is_narrow() {
        solution(plan, s, start, goal, &mut m);
    } else {
        fast_wide::solution(plan, &mut s.wide, start, goal, &mut m);
    }
    let square = |room: u32| (2 * (room % plan.width) + 1, 2 * (room / plan.width) + 1);
    (m.start_x, m.start_y) = square(start);
    (m.goal_x, m.goal_y) = square(goal);
    m.path_length = 2 * diameter;
    fast_bits::rasterize(plan, s.masks(plan), grid);
    m
}

impl FastScratch {
    /// The rooms' passage masks, padded to whole bitset words with zeros.
    fn masks(&self, plan: &LatticePlan) -> &[u8] {
        if plan.is_narrow() {
            &self.mask[..plan.padded()]
        } else {
            &self.wide.mask[..plan.padded()]
        }
    }
}

/// The room bitsets from the masks (see `fast_bits::census`).
fn census(plan: &LatticePlan, s: &mut FastScratch) {
    let FastScratch {
        mask, wide, sets, ..
    } = s;
    let masks = if plan.is_narrow() {
        &mask[..plan.padded()]
    } else {
        &wide.mask[..plan.padded()]
    };
    fast_bits::census(plan, masks, sets);
}

/// Seed 001's merge over the masks of either width (see `fast_bits::merge`).
fn merge(plan: &LatticePlan, s: &mut FastScratch) -> u32 {
    if plan.is_narrow() {
        fast_bits::merge(plan, &mut s.sets, &mut *s.mask, ix)
    } else {
        fast_wide::merge(plan, &mut s.sets, &mut s.wide)
    }
}

/// The packed edges in Kruskal's order.
fn edge_order(plan: &LatticePlan, cfg: &MazeConfig, rng: &mut WarrenRng, s: &mut FastScratch) {
    s.order.clear();
    if cfg.weighting == Weighting::Random {
        // PERF: the same Fisher-Yates draws as the general path's shuffle of `Link`s (same
        // length, same RNG calls), on 4-byte items.
        s.order.extend_from_slice(&plan.edges);
        if plan.is_narrow() {
            rng.shuffle(&mut s.order);
        } else {
            rng.shuffle_prefetched(&mut s.order);
        }
        return;
    }
    // The weighted orders are rarer and cost a sort anyway: reuse the general code and pack.
    let lattice = Lattice::new(plan.width, plan.height, None);
    weights::edge_order(&lattice, cfg, rng, &mut s.link_scratch, &mut s.links, None);
    s.order.extend(s.links.iter().map(|link| plan.pack(link)));
}

/// The root of `x`'s tree in the union-find forest `up`, pointing the first two links of the
/// walk at it.
///
/// PERF: the walk is three unconditional loads (union by index with path compression keeps
/// almost every tree that shallow; deeper ones take the rare loop). Both compressing stores
/// always happen, to `x` and its parent: their addresses are known at once, so the loads of the
/// next finds are not held back waiting to learn whether they alias (measured: 19.1 against
/// 18.4 us per 32 x 32 maze, with the delayed union in [`kruskal`]).
#[inline(always)]
fn find(up: &mut [u16; SLOTS], x: u32) -> u32 {
    // PERF: ids stay zero-extended `u32`s between loads (as `u16`s, every load and compare
    // re-extended them).
    let at = |up: &[u16; SLOTS], v: u32| {
        debug_assert!((v as usize) < SLOTS);
        // SAFETY: every id here is a room id or DUMMY, read from or fitting in a u16, so below
        // SLOTS = 2^16, the array's length.
        u32::from(unsafe { *up.get_unchecked(v as usize) })
    };
    let p1 = at(up, x);
    let p2 = at(up, p1);
    let mut r = at(up, p2);
    loop {
        let next = at(up, r);
        if next == r {
            break;
        }
        r = next;
    }
    for from in [x, p1] {
        // SAFETY: as above.
        unsafe { *up.get_unchecked_mut(from as usize) = r as u16 };
    }
    r
}

/// Kruskal over `s.order` with a union-find forest. Leaves each room's passage mask in `s.mask`.
///
/// The general path's quick-find labels (see `spanning::UnionFind`) spend their time in
/// relabelling walks and their mispredicted exits; here the whole edge step is branch-free:
/// finds are fixed-length, the union stores to [`DUMMY`] when the edge closes a cycle, and the
/// edge is written to the tree list unconditionally, the list growing only when it joined. The
/// passage masks are set from the tree list afterwards. Measured on 32 x 32: 7.8 us against
/// 14 us for quick-find.
///
/// PERF: each union is stored one edge late, after the next edge's finds: its address (the
/// lower root) is known only at the end of an edge, and loads behind a store with an unknown
/// address wait. The next edge corrects for it: a root its finds return that the pending union
/// hangs under another is that other (roots only ever gain parents, so no other answer can be
/// stale, and its compressions point at a former root, still an ancestor).
#[inline(never)]
fn kruskal(plan: &LatticePlan, s: &mut FastScratch) {
    let n = plan.rooms;
    let padded = n.div_ceil(64) * 64;
    for v in 0..n {
        s.root[v] = v as u16;
    }
    s.mask[..padded].fill(0);
    let target = n - 1;
    if target == 0 {
        return;
    }
    let up = &mut *s.root;
    // Every entry the mask pass reads is written below first: no need to clear.
    if s.tree.len() != target {
        s.tree.resize(target, 0);
    }
    let tree = s.tree.as_mut_ptr();
    let mut opened = 0;
    let (mut lower, mut upper) = (u32::from(DUMMY), u32::from(DUMMY));
    for &e in &s.order {
        let (a, b) = (e & 0xFFFF, e >> 16);
        let (x, y) = (find(up, a), find(up, b));
        // The previous edge's union, stored only now: this edge's finds did not wait for its
        // late address. A root it hung under another is that other's.
        up[ix(lower)] = upper as u16;
        let x = std::hint::select_unpredictable(x == lower, upper, x);
        let y = std::hint::select_unpredictable(y == lower, upper, y);
        let joined = x != y;
        // Union by index: the lower root hangs under the higher one.
        lower = std::hint::select_unpredictable(joined, x.min(y), u32::from(DUMMY));
        upper = x.max(y);
        // SAFETY: opened < target = tree.len() here: the loop ends as soon as it reaches target.
        unsafe { *tree.add(opened) = e };
        opened += usize::from(joined);
        if opened == target {
            break;
        }
    }
    debug_assert_eq!(opened, target, "a lattice is connected");
    // The passages: an edge to the next room is east of `a` and west of `b`, any other is south
    // of `a` and north of `b` (on a one-room-wide lattice every edge is a south one).
    let (w, mask) = (plan.width, &mut *s.mask);
    for &e in &s.tree {
        let (a, b) = (e & 0xFFFF, e >> 16);
        let south = u8::from(b - a == w);
        mask[ix(a)] |= 4 << south;
        mask[ix(b)] |= 2 >> south;
    }
}

/// The smallest diameter end pair and the diameter, by peeling leaves: a room is folded into its
/// last unpeeled neighbour once all its other neighbours are folded into it, which is a valid
/// bottom-up order of the tree rooted at the last room, so the fold (and its tie-breaking, see
/// `metrics::Bfs::diameter_ends`) gives the general path's answer. Leaves each folded room's
/// passage to its parent as the one bit of `s.rem` (see [`parent`]).
#[inline(never)]
fn peel(plan: &LatticePlan, s: &mut FastScratch) -> (u32, u32, u32) {
    let n = plan.rooms;
    if n == 1 {
        return (0, 0, 0);
    }
    let w = plan.width;
    s.rem[..n].copy_from_slice(&s.mask[..n]);
    for v in 0..n {
        s.reach[v] = 0xFFFF - v as u32;
    }
    let mut len = 0;
    for (i, &word) in s.sets.dead.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            s.queue[len & (SLOTS - 1)] = (64 * i + bits.trailing_zeros() as usize) as u16;
            len += 1;
            bits &= bits - 1;
        }
    }
    let best = fold_leaves(&mut s.queue, &mut s.rem, &mut s.reach, offsets(w), n, len);
    const LOW16: u32 = 0xFFFF;
    let first = LOW16 - (best as u32 >> 16 & LOW16);
    let second = LOW16 - (best as u32 & LOW16);
    (first, second, (best >> 32) as u32)
}

/// The peel's loop (see [`peel`]): folds the first `n - 1` rooms of `queue` (its first `len`
/// entries are the dead ends, the rest is appended as rooms become leaves) into their parents and
/// returns the best path key.
///
/// PERF: the fold's comparisons become integer maxima. A branch's reach packs its height above
/// its lowest-id deepest leaf's complement, so "deeper, or as deep with a lower leaf" is `>`; a
/// candidate path packs its length above the complements of its ends' lower and higher id, so
/// "longer, or as long with a smaller end pair" is `>` as well. No branch remains in the loop. A
/// function of its own: inlined into `peel`, the loop lost registers to shuffling array bases.
#[inline(never)]
fn fold_leaves(
    queue: &mut [u16; SLOTS],
    rem: &mut [u8; SLOTS],
    reach: &mut [u32; SLOTS],
    offsets: u64,
    n: usize,
    mut len: usize,
) -> u64 {
    const LOW16: u32 = 0xFFFF;
    let mut best = u64::from(LOW16 << 16 | LOW16); // length 0, ends (0, 0)
    for head in 0..n - 1 {
        let u = queue[head & (SLOTS - 1)];
        // `u` is a leaf: one passage left, in slot k (it stays in `rem[u]`: the parent link).
        let k = rem[usize::from(u)].trailing_zeros() & 3;
        let p = neighbour(offsets, u, k);
        let (u, p) = (usize::from(u), usize::from(p));
        let through = reach[u] + (1 << 16);
        let here = reach[p];
        let length = u64::from((through >> 16) + (here >> 16));
        // The end pair, higher complement first: the larger of the two orders.
        let (cu, cp) = (through & LOW16, here & LOW16);
        let pair = (cu << 16 | cp).max(cp << 16 | cu);
        best = best.max(length << 32 | u64::from(pair));
        // PERF: a select, not the branch the compiler would otherwise make of `max` here.
        reach[p] = std::hint::select_unpredictable(here > through, here, through);
        // PERF: the parent's remaining passages stay in a register for the leaf test.
        let left = rem[p] & !(8u8 >> k);
        rem[p] = left;
        // PERF: append unconditionally and advance only when `p` became a leaf.
        // Every room enters once, so `len` stays below n <= MAX_ROOMS (the mask is free).
        queue[len & (SLOTS - 1)] = p as u16;
        len += usize::from(left.count_ones() == 1);
    }
    best
}

/// The four slot offsets (north `-w`, west `-1`, east `+1`, south `+w`) as 16-bit lanes of one
/// word: room ids are `u16`, so a neighbour is a wrapping 16-bit add.
///
/// PERF: a register instead of a table in memory (the fold's loop had no register left for
/// the table's address and reloaded it every room).
fn offsets(w: u32) -> u64 {
    let w = w as u16;
    u64::from(w.wrapping_neg()) | u64::from(u16::MAX) << 16 | 1 << 32 | u64::from(w) << 48
}

/// The neighbour of room `v` in slot `k` (below 4).
#[inline(always)]
fn neighbour(offsets: u64, v: u16, k: u32) -> u16 {
    v.wrapping_add((offsets >> (16 * k)) as u16)
}

/// The parent of a room folded by [`peel`]: its one remaining passage in `rem` leads there.
#[inline(always)]
fn parent(s: &FastScratch, offsets: u64, v: u32) -> u32 {
    let v = v as u16;
    let k = s.rem[usize::from(v)].trailing_zeros() & 3;
    u32::from(neighbour(offsets, v, k))
}

/// The solution from `start` to `goal` (left in `s.path`) and its metrics.
#[inline(never)]
fn solution(plan: &LatticePlan, s: &mut FastScratch, start: u32, goal: u32, m: &mut MazeMetrics) {
    let n = plan.rooms;
    s.path.clear();
    s.back.clear();
    if s.stamp == u32::MAX {
        s.mark.fill(0);
        s.stamp = 0;
    }
    s.stamp += 1;
    let stamp = s.stamp;
    // The peel's root is the one room without a parent; walking up from `start` marks its
    // ancestors, walking up from `goal` stops at the first marked one: their meeting room.
    let root = if n == 1 { 0 } else { u32::from(s.queue[n - 1]) };
    let offs = offsets(plan.width);
    let mut x = start;
    loop {
        s.mark[ix(x)] = stamp;
        if x == root {
            break;
        }
        x = parent(s, offs, x);
    }
    let mut y = goal;
    while s.mark[ix(y)] != stamp {
        s.back.push(y);
        y = parent(s, offs, y);
    }
    let mut x = start;
    while x != y {
        s.path.push(x);
        x = parent(s, offs, x);
    }
    s.path.push(y);
    s.path.extend(s.back.iter().rev());
    let mask = &*s.mask;
    fast_bits::path_metrics(&s.path, |v| mask[ix(v)], m);
}

#[cfg(test)]
#[path = "fast_tests.rs"]
mod tests;
