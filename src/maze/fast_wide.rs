//! The fast lattice path with `u32` room ids, for lattices of more than `fast_plan::MAX_ROOMS`
//! (65,535) rooms: 801 x 801 has 641,601. The steps and their results are `fast.rs`'s (and so
//! the general path's, which the tests check); what changes is what a large maze costs:
//! - an edge is one `u32`, its west or north room shifted left by one above a south bit: the
//!   shuffle moves 4 bytes per edge, half of a pair of ids;
//! - Kruskal's edge step is `fast.rs`'s branch-free one, and the union-find entries of the
//!   edges a few steps ahead are prefetched: the forest outgrows the core's cache, and a random
//!   order of a large lattice would otherwise miss on nearly every room;
//! - the per-room arrays are plain vectors that grow to the largest lattice seen and are reused.
//!
//! Kruskal's tree depends on the edge order alone (an edge joins two rooms exactly when no
//! earlier edge connected them), not on the union-find that answers the question, so any
//! union-find gives the same maze.

use crate::core::prefetch::prefetch;
use crate::maze::fast_bits::{self, RoomSets};
use crate::maze::fast_plan::LatticePlan;
use crate::maze::metrics::MazeMetrics;

/// Edges Kruskal looks ahead to prefetch their rooms' union-find entries (and half as far for
/// their parents').
///
/// PERF: measured on 801 x 801 against 8 and 32 (and 64) ahead, and a third stage for the
/// grandparents, which gained nothing.
const PREFETCH_AHEAD: usize = 16;

/// Rooms the peel looks ahead in its queue to prefetch their reaches (and half as far for their
/// parents'); measured against 16, 64 and 128.
const FOLD_AHEAD: usize = 32;

/// One worker's per-room arrays for lattices of more than `fast_plan::MAX_ROOMS` rooms.
#[derive(Default)]
pub struct WideScratch {
    /// Union-find parents, and one sentinel entry past the rooms.
    up: Vec<u32>,
    /// Per room, zero past the last room up to a whole bitset word: the passage slots.
    pub(super) mask: Vec<u8>,
    /// Per room during the peel: the passages not yet folded (at the end, the parent link).
    rem: Vec<u8>,
    /// Per room during the peel: `height << 32 | (u32::MAX - deepest leaf)`.
    reach: Vec<u64>,
    /// The peel's order: dead ends first, then each room as it becomes a leaf.
    queue: Vec<u32>,
    mark: Vec<u32>,
    stamp: u32,
    path: Vec<u32>,
    back: Vec<u32>,
    /// Kruskal's tree edges, packed like the order.
    tree: Vec<u32>,
}

impl WideScratch {
    /// The mask array, `padded` rooms long and all zero.
    pub(super) fn clear_mask(&mut self, padded: usize) -> &mut [u8] {
        self.mask.clear();
        self.mask.resize(padded, 0);
        &mut self.mask
    }
}

/// The two rooms of a packed edge and whether it is a south one.
#[inline(always)]
fn unpack(width: u32, e: u32) -> (u32, u32, u32) {
    let (a, south) = (e >> 1, e & 1);
    (a, a + if south == 1 { width } else { 1 }, south)
}

/// The root of `x`'s tree in `up`, pointing the first two links of the walk at it (the
/// branch-free find of `fast::find`, over `u32` ids).
#[inline(always)]
fn find(up: &mut [u32], x: u32) -> u32 {
    let p1 = up[x as usize];
    let p2 = up[p1 as usize];
    let mut r = up[p2 as usize];
    loop {
        let next = up[r as usize];
        if next == r {
            break;
        }
        r = next;
    }
    up[x as usize] = r;
    up[p1 as usize] = r;
    r
}

/// Kruskal over `order` (packed by `fast_plan::pack_wide`) as `fast::kruskal` runs it, over `u32` ids: each
/// edge step is branch-free (fixed-length finds, the union stored one edge late and to a
/// sentinel when the edge closes a cycle), and leaves each room's passage mask in `s.mask`.
///
/// PERF: on a large lattice nearly every find misses the cache, so the rooms of the edge
/// [`PREFETCH_AHEAD`] steps ahead are prefetched, and half way there, once they have arrived,
/// their parents. Measured on 801 x 801: 13 ms per maze against 24 ms without prefetching and
/// 25 ms for Rem's union-find with splicing (its walks branch on every step, and mispredict).
#[inline(never)]
pub fn kruskal(plan: &LatticePlan, order: &[u32], s: &mut WideScratch) {
    let n = plan.rooms;
    s.clear_mask(n.div_ceil(64) * 64);
    s.up.clear();
    // One entry past the rooms: the sentinel a union that must not happen stores to.
    s.up.extend(0..=n as u32);
    let dummy = n as u32;
    let target = n - 1;
    // Every entry the mask pass reads is written below first: no need to clear.
    if s.tree.len() != target {
        s.tree.resize(target, 0);
    }
    let (w, up, tree) = (plan.width, &mut s.up[..], &mut s.tree[..]);
    let mut opened = 0;
    let (mut lower, mut upper) = (dummy, dummy);
    for (i, &e) in order.iter().enumerate() {
        if let Some(&ahead) = order.get(i + PREFETCH_AHEAD) {
            let (a, b, _) = unpack(w, ahead);
            prefetch(up, a as usize);
            prefetch(up, b as usize);
        }
        if let Some(&ahead) = order.get(i + PREFETCH_AHEAD / 2) {
            let (a, b, _) = unpack(w, ahead);
            prefetch(up, up[a as usize] as usize);
            prefetch(up, up[b as usize] as usize);
        }
        let (a, b, _) = unpack(w, e);
        let (x, y) = (find(up, a), find(up, b));
        // The previous edge's union, stored only now (see `fast::kruskal`).
        up[lower as usize] = upper;
        let x = std::hint::select_unpredictable(x == lower, upper, x);
        let y = std::hint::select_unpredictable(y == lower, upper, y);
        let joined = x != y;
        // Union by index: the lower root hangs under the higher one.
        lower = std::hint::select_unpredictable(joined, x.min(y), dummy);
        upper = x.max(y);
        // Written always, kept (the list grows) only when the edge joined.
        tree[opened] = e;
        opened += usize::from(joined);
        if opened == target {
            break;
        }
    }
    debug_assert_eq!(opened, target, "a lattice is connected");
    let mask = &mut s.mask[..];
    for &e in &s.tree {
        let (a, b, south) = unpack(w, e);
        mask[a as usize] |= 4 << south;
        mask[b as usize] |= 2 >> south;
    }
}

/// Seed 001's merge over the `u32` path's masks (see `fast_bits::merge`).
pub fn merge(plan: &LatticePlan, sets: &mut RoomSets, s: &mut WideScratch) -> u32 {
    // A neighbour off the lattice wraps below zero or past the last room: clamped to the last
    // entry, it reads a room whose answer the merge ignores.
    let last = s.mask.len() - 1;
    fast_bits::merge(plan, sets, &mut s.mask[..], |v| (v as usize).min(last))
}

/// The four slot offsets (north `-w`, west `-1`, east `+1`, south `+w`) as wrapping `u32`s.
fn offsets(w: u32) -> [u32; 4] {
    [w.wrapping_neg(), u32::MAX, 1, w]
}

/// The smallest diameter end pair and the diameter by peeling leaves, as `fast::peel` computes
/// them (see there). Leaves each folded room's passage to its parent as the one bit of `s.rem`.
#[inline(never)]
pub fn peel(plan: &LatticePlan, sets: &RoomSets, s: &mut WideScratch) -> (u32, u32, u32) {
    let n = plan.rooms;
    s.rem.clear();
    s.rem.extend_from_slice(&s.mask[..n]);
    s.reach.clear();
    s.reach
        .extend((0..n as u64).map(|v| u64::from(u32::MAX) - v));
    // Every room enters once, and the fold stores one past the last entry before it advances.
    // Entries are read only once written, but for prefetch hints: no need to clear.
    if s.queue.len() < n + 1 {
        s.queue.resize(n + 1, 0);
    }
    let mut len = 0;
    for (i, &word) in sets.dead.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            s.queue[len] = (64 * i + bits.trailing_zeros() as usize) as u32;
            len += 1;
            bits &= bits - 1;
        }
    }
    let best = fold_leaves(s, offsets(plan.width), n, len);
    let pair = best as u64;
    let first = u32::MAX - (pair >> 32) as u32;
    let second = u32::MAX - pair as u32;
    (first, second, (best >> 64) as u32)
}

/// The peel's loop (see `fast::fold_leaves`, whose keys it widens): a branch's reach packs its
/// height above its deepest leaf's complement in a `u64`, a candidate path its length above its
/// ends' complements in a `u128`, so both comparisons stay integer maxima.
///
/// PERF: the reaches of a large maze outgrow the core's cache, and the queue's rooms are spread
/// over it; prefetching [`FOLD_AHEAD`] rooms ahead took the loop from 10.5 to 6.9 ms per
/// 801 x 801 maze.
#[inline(never)]
fn fold_leaves(s: &mut WideScratch, offsets: [u32; 4], n: usize, mut len: usize) -> u128 {
    const LOW32: u64 = 0xFFFF_FFFF;
    let (queue, rem, reach) = (&mut s.queue[..], &mut s.rem[..], &mut s.reach[..]);
    let mut best = u128::from(LOW32 << 32 | LOW32); // length 0, ends (0, 0)
    for head in 0..n - 1 {
        // PERF: the rooms queued ahead, and half as far ahead their parents (the queue may not
        // reach that far yet: then the hint is for a stale entry, and harmless).
        if let Some(&v) = queue.get(head + FOLD_AHEAD) {
            prefetch(reach, v as usize);
        }
        if let Some(&v) = queue.get(head + FOLD_AHEAD / 2)
            && let Some(&r) = rem.get(v as usize)
        {
            let k = r.trailing_zeros() & 3;
            prefetch(reach, v.wrapping_add(offsets[k as usize]) as usize);
        }
        let u = queue[head];
        // `u` is a leaf: one passage left, in slot k (it stays in `rem[u]`: the parent link).
        let k = rem[u as usize].trailing_zeros() & 3;
        let p = u.wrapping_add(offsets[k as usize]);
        let (u, p) = (u as usize, p as usize);
        let through = reach[u] + (1 << 32);
        let here = reach[p];
        let length = (through >> 32) + (here >> 32);
        let (cu, cp) = (through & LOW32, here & LOW32);
        let pair = (cu << 32 | cp).max(cp << 32 | cu);
        best = best.max(u128::from(length) << 64 | u128::from(pair));
        reach[p] = std::hint::select_unpredictable(here > through, here, through);
        let left = rem[p] & !(8u8 >> k);
        rem[p] = left;
        queue[len] = p as u32;
        len += usize::from(left.count_ones() == 1);
    }
    best
}

/// The parent of a room folded by [`peel`]: its one remaining passage in `rem` leads there.
#[inline(always)]
fn parent(rem: &[u8], offsets: [u32; 4], v: u32) -> u32 {
    let k = rem[v as usize].trailing_zeros() & 3;
    v.wrapping_add(offsets[k as usize])
}

/// The solution from `start` to `goal` and its metrics, as `fast::solution` computes them.
#[inline(never)]
pub fn solution(
    plan: &LatticePlan,
    s: &mut WideScratch,
    start: u32,
    goal: u32,
    m: &mut MazeMetrics,
) {
    let n = plan.rooms;
    s.path.clear();
    s.back.clear();
    if s.mark.len() < n || s.stamp == u32::MAX {
        s.mark.clear();
        s.mark.resize(n, 0);
        s.stamp = 0;
    }
    s.stamp += 1;
    let (stamp, rem, mark) = (s.stamp, &s.rem[..], &mut s.mark[..]);
    // The peel's root is the one room without a parent; walking up from `start` marks its
    // ancestors, walking up from `goal` stops at the first marked one: their meeting room.
    let root = s.queue[n - 1];
    let offs = offsets(plan.width);
    let mut x = start;
    loop {
        mark[x as usize] = stamp;
        if x == root {
            break;
        }
        x = parent(rem, offs, x);
    }
    let mut y = goal;
    while mark[y as usize] != stamp {
        s.back.push(y);
        y = parent(rem, offs, y);
    }
    let mut x = start;
    while x != y {
        s.path.push(x);
        x = parent(rem, offs, x);
    }
    s.path.push(y);
    s.path.extend(s.back.iter().rev());
    let mask = &s.mask;
    fast_bits::path_metrics(&s.path, |v| mask[v as usize], m);
}
