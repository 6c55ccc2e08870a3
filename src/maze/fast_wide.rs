//! The fast lattice path with `u32` room ids, for lattices of more than `fast::MAX_ROOMS`
//! (65,535) rooms: 801 x 801 has 641,601. The steps and their results are `fast.rs`'s (and so
//! the general path's, which the tests check); what changes is what a large maze costs:
//! - an edge is one `u32`, its west or north room shifted left by one above a south bit: the
//!   shuffle moves 4 bytes per edge, half of a pair of ids;
//! - Kruskal's union-find is Rem's algorithm with splicing, whose walks stop as soon as the two
//!   rooms meet a common parent, and which touches few cache lines; the rooms of the edges a few
//!   steps ahead are prefetched, since a random order of a large lattice misses the cache on
//!   nearly every room;
//! - the per-room arrays are plain vectors that grow to the largest lattice seen and are reused.
//!
//! Kruskal's tree depends on the edge order alone (an edge joins two rooms exactly when no
//! earlier edge connected them), not on the union-find that answers the question, so any
//! union-find gives the same maze.

use crate::maze::fast::LatticePlan;
use crate::maze::fast_bits::{self, RoomSets};
use crate::maze::metrics::MazeMetrics;
use crate::maze::topology::Link;

/// Rooms the `u32` path handles: a room id shifted left by one fits in a `u32` edge. The
/// configuration allows far fewer (2^22).
pub const MAX_ROOMS: usize = 1 << 31;

/// Edges Kruskal looks ahead to prefetch their rooms' union-find entries.
///
/// PERF: a miss costs about as much as the work of a few dozen edges; 16 ahead keeps the lines
/// in flight without evicting those still needed.
const PREFETCH_AHEAD: usize = 16;

/// One worker's per-room arrays for lattices of more than `fast::MAX_ROOMS` rooms.
#[derive(Default)]
pub struct WideScratch {
    /// Union-find parents (Rem's invariant: a room's parent id is never below its own).
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
}

impl WideScratch {
    /// The mask array, `padded` rooms long and all zero.
    pub(super) fn clear_mask(&mut self, padded: usize) -> &mut [u8] {
        self.mask.clear();
        self.mask.resize(padded, 0);
        &mut self.mask
    }
}

/// A lattice edge as one `u32`: its west or north room `a` shifted left by one, above a bit set
/// when the other room is south of `a` (on a lattice `width` rooms wide).
#[inline]
pub fn pack(width: u32, link: &Link) -> u32 {
    let (a, b) = (link.a.min(link.b), link.a.max(link.b));
    debug_assert!((b as usize) < MAX_ROOMS);
    a << 1 | u32::from(b - a == width)
}

/// The two rooms of a packed edge and whether it is a south one.
#[inline(always)]
fn unpack(width: u32, e: u32) -> (u32, u32, u32) {
    let (a, south) = (e >> 1, e & 1);
    (a, a + if south == 1 { width } else { 1 }, south)
}

/// Hints the processor to fetch `up[i]` into the cache.
#[inline(always)]
fn prefetch(up: &[u32], i: u32) {
    #[cfg(target_arch = "x86_64")]
    if let Some(at) = up.get(i as usize) {
        // SAFETY: a prefetch never faults and changes no memory; SSE is part of x86-64.
        unsafe {
            std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                std::ptr::from_ref(at).cast(),
            );
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (up, i);
}

/// Joins the sets of `x` and `y` in the forest `up`; false when they were one set already.
///
/// Rem's algorithm with splicing (Patwary, Blair and Manne, "Experiments on union-find
/// algorithms for the disjoint-set data structure", 2010): both walks climb together, always
/// from the side with the lower parent, and each step hangs the climbed room under the other
/// side's higher parent, compressing as it goes.
#[inline(always)]
fn unite(up: &mut [u32], x: u32, y: u32) -> bool {
    let (mut x, mut y) = (x as usize, y as usize);
    loop {
        let (px, py) = (up[x], up[y]);
        if px == py {
            return false;
        }
        if px < py {
            up[x] = py;
            if x == px as usize {
                return true;
            }
            x = px as usize;
        } else {
            up[y] = px;
            if y == py as usize {
                return true;
            }
            y = py as usize;
        }
    }
}

/// Kruskal over `order` (packed by [`pack`]); leaves each room's passage mask in `s.mask`.
#[inline(never)]
pub fn kruskal(plan: &LatticePlan, order: &[u32], s: &mut WideScratch) {
    let n = plan.rooms;
    s.clear_mask(n.div_ceil(64) * 64);
    s.up.clear();
    s.up.extend(0..n as u32);
    let target = n - 1;
    let (w, up, mask) = (plan.width, &mut s.up[..], &mut s.mask[..]);
    let mut opened = 0;
    for (i, &e) in order.iter().enumerate() {
        if let Some(&ahead) = order.get(i + PREFETCH_AHEAD) {
            let (a, b, _) = unpack(w, ahead);
            prefetch(up, a);
            prefetch(up, b);
        }
        let (a, b, south) = unpack(w, e);
        if unite(up, a, b) {
            // An east passage is east of `a` and west of `b`, a south one south of `a` and
            // north of `b`.
            mask[a as usize] |= 4 << south;
            mask[b as usize] |= 2 >> south;
            opened += 1;
            if opened == target {
                break;
            }
        }
    }
    debug_assert_eq!(opened, target, "a lattice is connected");
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
    s.queue.clear();
    // Every room enters once, and the fold stores one past the last entry before it advances.
    s.queue.resize(n + 1, 0);
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
#[inline(never)]
fn fold_leaves(s: &mut WideScratch, offsets: [u32; 4], n: usize, mut len: usize) -> u128 {
    const LOW32: u64 = 0xFFFF_FFFF;
    let (queue, rem, reach) = (&mut s.queue[..], &mut s.rem[..], &mut s.reach[..]);
    let mut best = u128::from(LOW32 << 32 | LOW32); // length 0, ends (0, 0)
    for head in 0..n - 1 {
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
