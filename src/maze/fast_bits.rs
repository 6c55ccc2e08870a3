//! The fast lattice path's room bitsets and its grid, shared by both room-id widths (`fast.rs`
//! with `u16` ids, `fast_wide.rs` with `u32` ids): the census of dead ends, crossroads and
//! passages, seed 001's dead-end merge over its candidates, the counts, and the raster. They
//! read each room's passage mask (slots north 0, west 1, east 2, south 3) and never a room id's
//! width: only the merge indexes rooms, through the caller's index function.

use std::ops::IndexMut;

use crate::core::grid::{Grid, cell};
use crate::maze::fast_plan::LatticePlan;
use crate::maze::metrics::MazeMetrics;

/// The lattice-wide room predicates, one bit per room (64 rooms a word).
#[derive(Default)]
pub struct RoomSets {
    pub dead: Vec<u64>,
    pub cross: Vec<u64>,
    /// Passage to the east / south neighbour (a west or north passage is the neighbour's).
    pub east: Vec<u64>,
    pub south: Vec<u64>,
    pub candidates: Vec<u64>,
}

const LOW: u64 = 0x0101_0101_0101_0101;

/// Bit `i` of the result is bit 0 of byte `i` of `x`.
#[inline]
fn gather(x: u64) -> u64 {
    // PERF: the eight flag bits land on bits 56..64 of the product, no carries between them.
    ((x & LOW).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// Rebuilds the room bitsets (dead ends, crossroads, passages east and south) from the masks.
/// A room's west passage is its west neighbour's east one, its north passage its north
/// neighbour's south one: shifted reads of `east` and `south`.
///
/// `mask` holds the first `64 * ceil(rooms / 64)` rooms, zero past the last room.
pub fn census(plan: &LatticePlan, mask: &[u8], s: &mut RoomSets) {
    let words = plan.rooms.div_ceil(64);
    for set in [&mut s.dead, &mut s.cross, &mut s.east, &mut s.south] {
        set.clear();
        set.resize(words, 0);
    }
    for (i, chunk) in mask[..64 * words].chunks_exact(64).enumerate() {
        let (mut dead, mut cross, mut east, mut south) = (0, 0, 0, 0);
        // PERF: eight masks per u64 (SWAR): per-byte popcount, then one multiply packs eight
        // flags into a byte of the bitset.
        for (j, group) in chunk.chunks_exact(8).enumerate() {
            let m = u64::from_le_bytes(group.try_into().expect("8 bytes"));
            let pairs = m - ((m >> 1) & 0x5555_5555_5555_5555);
            let count = (pairs & 0x3333_3333_3333_3333) + ((pairs >> 2) & 0x3333_3333_3333_3333);
            let t = count ^ LOW;
            let one = !(t | (t >> 1) | (t >> 2)) & LOW;
            let three = (count >> 2) | ((count >> 1) & count);
            let at = 8 * j;
            dead |= gather(one) << at;
            cross |= gather(three) << at;
            east |= gather(m >> 2) << at;
            south |= gather(m >> 3) << at;
        }
        s.dead[i] = dead;
        s.cross[i] = cross;
        s.east[i] = east;
        s.south[i] = south;
    }
}

/// A shift of a room bitset by a fixed number of rooms, split once into whole words and bits.
#[derive(Clone, Copy)]
struct Shift {
    words: isize,
    bits: u32,
}

impl Shift {
    fn new(by: isize) -> Self {
        Self {
            words: by.div_euclid(64),
            bits: by.rem_euclid(64) as u32,
        }
    }

    /// Word `i` of `set` shifted so that bit `v` of the result is bit `v + by` of `set` (zero
    /// outside the set).
    ///
    /// PERF: the split is the caller's loop invariant; a word before the set wraps to an index
    /// past its end, so one unsigned test per word covers both sides.
    #[inline]
    fn read(self, set: &[u64], i: usize) -> u64 {
        let k = (i as isize + self.words) as usize;
        let word = |k: usize| if k < set.len() { set[k] } else { 0 };
        if self.bits == 0 {
            word(k)
        } else {
            (word(k) >> self.bits) | (word(k.wrapping_add(1)) << (64 - self.bits))
        }
    }
}

/// Fills `s.candidates` with the mergeable dead ends (seed 001's condition) and returns the
/// number of dead ends hanging off a crossroad and the number of candidates.
fn candidates(plan: &LatticePlan, s: &mut RoomSets) -> (u32, u32) {
    let w = plan.width as isize;
    let words = s.dead.len();
    s.candidates.clear();
    s.candidates.resize(words, 0);
    let (next, prev, below, above) = (Shift::new(1), Shift::new(-1), Shift::new(w), Shift::new(-w));
    let (dead, cross, east, south) = (
        &s.dead[..words],
        &s.cross[..words],
        &s.east[..words],
        &s.south[..words],
    );
    let (has_east, has_west) = (&plan.has_east[..words], &plan.has_west[..words]);
    let (mut at_crossroad, mut mergeable) = (0, 0);
    for (i, out) in s.candidates.iter_mut().enumerate() {
        let off_crossroad = dead[i]
            & ((east[i] & next.read(cross, i))
                | (prev.read(east, i) & prev.read(cross, i))
                | (south[i] & below.read(cross, i))
                | (above.read(south, i) & above.read(cross, i)));
        // The passage neighbour is a crossroad, so any dead-end neighbour is another room.
        let touches_dead_end = (has_east[i] & next.read(dead, i))
            | (has_west[i] & prev.read(dead, i))
            | below.read(dead, i)
            | above.read(dead, i);
        let c = off_crossroad & touches_dead_end;
        *out = c;
        at_crossroad += off_crossroad.count_ones();
        mergeable += c.count_ones();
    }
    (at_crossroad, mergeable)
}

/// Seed 001's merge, one pass in room order, visiting only the rooms that can merge (the merge
/// condition is monotone, see `merge::merge_dead_ends`: no other room can become a candidate).
/// Returns the number of merges.
///
/// `ix` maps a room id, or a room id plus a slot offset that wrapped off the lattice, to an
/// index of `mask`: whatever it reads for a room off the lattice is ignored.
#[inline(never)]
pub fn merge<M: IndexMut<usize, Output = u8> + ?Sized>(
    plan: &LatticePlan,
    s: &mut RoomSets,
    mask: &mut M,
    ix: impl Fn(u32) -> usize,
) -> u32 {
    candidates(plan, s);
    let w = plan.width;
    let offset = [w.wrapping_neg(), u32::MAX, 1, w];
    let mut merges = 0;
    for (i, &word) in s.candidates.iter().enumerate() {
        let mut bits = word;
        while bits != 0 {
            let v = (64 * i + bits.trailing_zeros() as usize) as u32;
            bits &= bits - 1;
            // Re-check against the current masks: earlier merges may have used this room's
            // crossroad or its dead-end neighbours.
            let mv = mask[ix(v)];
            if mv.count_ones() != 1 {
                continue;
            }
            let k = mv.trailing_zeros();
            let c = v.wrapping_add(offset[k as usize & 3]);
            if mask[ix(c)].count_ones() < 3 {
                continue;
            }
            // PERF: test the (up to three) other neighbours without a branch each; a room
            // off the lattice has no physical bit, so what its index reads does not count.
            let others = plan.physical[v as usize] & !mv;
            let mut dead_ends = 0u8;
            for (j, &off) in offset.iter().enumerate() {
                let n = v.wrapping_add(off);
                let dead = u8::from(mask[ix(n)].count_ones() == 1);
                dead_ends |= (others >> j & dead) << j;
            }
            if dead_ends == 0 {
                continue;
            }
            let j = dead_ends.trailing_zeros();
            let d = v.wrapping_add(offset[j as usize & 3]);
            mask[ix(v)] = 1 << j;
            mask[ix(c)] &= !(1 << (3 - k));
            mask[ix(d)] |= 1 << (3 - j);
            merges += 1;
            // Keep the bitsets true (no second census): the passages moved, the other dead end
            // became a corridor, the crossroad may have become one.
            passage(&mut s.east, &mut s.south, v, c, k, false);
            passage(&mut s.east, &mut s.south, v, d, j, true);
            put(&mut s.dead, d, false);
            put(&mut s.cross, c, mask[ix(c)].count_ones() >= 3);
        }
    }
    merges
}

/// Sets bit `v` of `set` to `on`.
#[inline]
fn put(set: &mut [u64], v: u32, on: bool) {
    let (word, bit) = (v as usize / 64, v % 64);
    set[word] = set[word] & !(1 << bit) | u64::from(on) << bit;
}

/// Records the passage between `v` and its neighbour `n` in slot `k` as `open` in the bitsets
/// (east and south passages are listed under their west and north room).
#[inline]
fn passage(east: &mut [u64], south: &mut [u64], v: u32, n: u32, k: u32, open: bool) {
    // PERF: no branch on the slot (random in the merge, so half mispredicted): the owner by a
    // select, and both sets written, the one not concerned with an empty mask.
    let owner = std::hint::select_unpredictable(k >= 2, v, n);
    // Slots west (1) and east (2) are east passages, north (0) and south (3) south ones.
    let is_east = u64::from((k ^ (k >> 1)) & 1);
    let is_south = is_east ^ 1;
    let (word, bit) = (owner as usize / 64, owner % 64);
    let open = u64::from(open);
    east[word] = east[word] & !(is_east << bit) | (open & is_east) << bit;
    south[word] = south[word] & !(is_south << bit) | (open & is_south) << bit;
}

/// Dead ends, crossroads, dead ends off a crossroad and mergeable dead ends, from the bitsets.
pub fn counts(plan: &LatticePlan, s: &mut RoomSets) -> (u32, u32, u32, u32) {
    let (at_crossroad, mergeable) = candidates(plan, s);
    let dead = s.dead.iter().map(|w| w.count_ones()).sum();
    let cross = s.cross.iter().map(|w| w.count_ones()).sum();
    (dead, cross, at_crossroad, mergeable)
}

/// The solution's metrics from its rooms `path` (start to goal) and the rooms' passage masks
/// (`mask` of a room id).
pub fn path_metrics(path: &[u32], mask: impl Fn(u32) -> u8, m: &mut MazeMetrics) {
    // Unit steps: the general path adds its distances one by one, and a sum of ones is exact in
    // f32 up to 2^24 steps, and a path has fewer steps than the largest maze has rooms (2^22,
    // `config::validate`), so the count is that same sum. PERF: no chain of dependent float
    // additions.
    m.solution_length = (path.len().max(1) - 1) as f32;
    // On a lattice every change of step is a right angle, so a turn.
    m.turns = path
        .windows(3)
        .filter(|t| t[1].wrapping_sub(t[0]) != t[2].wrapping_sub(t[1]))
        .count() as u32;
    m.decision_points = if path.len() > 2 {
        path[1..path.len() - 1]
            .iter()
            .filter(|&&v| mask(v).count_ones() >= 3)
            .count() as u32
    } else {
        0
    };
}

/// The tile grid of `raster::rasterize`, from the masks.
#[inline(never)]
pub fn rasterize(plan: &LatticePlan, mask: &[u8], grid: &mut Grid) {
    let (w, h) = (plan.width as usize, plan.height as usize);
    let gw = 2 * w + 1;
    grid.reset(gw as u32, 2 * h as u32 + 1, cell::WALL);
    const _: () = assert!(cell::WALL == 0 && cell::FLOOR == 1);
    let cells = &mut grid.cells;
    for (y, row_masks) in mask[..w * h].chunks_exact(w).enumerate() {
        // PERF: branch-free stores; the east/south mask bits are the floor/wall codes. The last
        // room of a row has no east bit and the last row no south bits: those cells stay wall.
        let row = (2 * y + 1) * gw;
        let (room_row, below) = cells[row..].split_at_mut(gw);
        // PERF: four rooms per step (SWAR): their masks spread to 16-bit lanes give eight cells
        // of each row in one store.
        let mut groups = row_masks.chunks_exact(4);
        for (g, four) in (&mut groups).enumerate() {
            let spread = spread_bytes(u32::from_le_bytes(four.try_into().expect("4 masks")));
            const LANES: u64 = 0x0001_0001_0001_0001;
            let rooms = LANES | ((spread >> 2) & LANES) << 8;
            let south = (spread >> 3) & LANES;
            let at = 8 * g + 1;
            room_row[at..at + 8].copy_from_slice(&rooms.to_le_bytes());
            below[at..at + 8].copy_from_slice(&south.to_le_bytes());
        }
        let done = row_masks.len() - groups.remainder().len();
        for (x, &m) in groups.remainder().iter().enumerate() {
            let x = done + x;
            room_row[2 * x + 1] = cell::FLOOR;
            room_row[2 * x + 2] = m >> 2 & 1;
            below[2 * x + 1] = m >> 3 & 1;
        }
    }
}

/// Byte `i` of `x` moved to bits `16 i..16 i + 8` (the other bits zero).
#[inline]
fn spread_bytes(x: u32) -> u64 {
    let t = u64::from(x);
    let t = (t | t << 16) & 0x0000_FFFF_0000_FFFF;
    (t | t << 8) & 0x00FF_00FF_00FF_00FF
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_bytes_moves_each_byte_to_its_lane() {
        assert_eq!(spread_bytes(0x0403_0201), 0x0004_0003_0002_0001);
        assert_eq!(spread_bytes(0xFF00_00FF), 0x00FF_0000_0000_00FF);
    }

    #[test]
    fn gather_packs_byte_flags() {
        assert_eq!(gather(0x0100_0000_0000_0001), 0b1000_0001);
        assert_eq!(gather(0xFEFE_FEFE_FEFE_FEFE), 0);
        assert_eq!(gather(u64::MAX), 0xFF);
    }

    #[test]
    fn shifted_reads_across_words() {
        let set = [0x8000_0000_0000_0001u64, 0x1];
        let shifted = |set: &[u64], i, by| Shift::new(by).read(set, i);
        assert_eq!(shifted(&set, 0, 1), 0xC000_0000_0000_0000);
        assert_eq!(shifted(&set, 1, -1), 0x3);
        assert_eq!(shifted(&set, 0, -1), 0x2);
        assert_eq!(shifted(&set, 1, 64), 0);
        assert_eq!(shifted(&set, 0, 64), 0x1);
        assert_eq!(shifted(&set, 1, -64), 0x8000_0000_0000_0001);
        assert_eq!(shifted(&set, 0, -64), 0);
        assert_eq!(shifted(&set, 0, -65), 0);
    }
}
