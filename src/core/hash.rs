//! The canonical content hash stored as `layout_hash` (DESIGN.md, archive contract): a fixed
//! 64-bit hash over a level's content, so that datasets can drop duplicate levels and split
//! train/test sets without leakage. The algorithm is part of the archive contract: changing it
//! makes a new warren version (golden values in the tests pin it).

use crate::core::generator::{ExtraValue, Level};

const K0: u64 = 0x9E37_79B9_7F4A_7C15;
const K1: u64 = 0xBF58_476D_1CE4_E5B9;

/// An incremental 64-bit content hasher (multiply-fold over 64-bit words).
///
/// Not cryptographic; collisions between distinct levels are as unlikely as for any good 64-bit
/// hash (about n^2 / 2^65 for n levels).
#[derive(Clone, Debug)]
pub struct ContentHasher {
    state: u64,
    len: u64,
}

impl Default for ContentHasher {
    fn default() -> Self {
        Self::new()
    }
}

#[inline]
fn fold(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

impl ContentHasher {
    /// A fresh hasher.
    pub fn new() -> Self {
        Self { state: K0, len: 0 }
    }

    /// Mixes one 64-bit word.
    #[inline]
    pub fn word(&mut self, w: u64) {
        self.state = fold(self.state ^ w, K1).wrapping_add(K0);
        self.len = self.len.wrapping_add(8);
    }

    /// Mixes a byte string (length included, so prefixes hash differently).
    ///
    /// # Runtime
    /// O(n); about 0.03 ns per byte.
    pub fn bytes(&mut self, data: &[u8]) {
        // PERF: four independent lanes over 32-byte stripes: the multiply chains overlap, four
        // times the speed of one chain (the 65x65 maze grid hashes in about 0.3 us). The lane
        // digests then enter the running state one after the other.
        let mut lanes = [K0, K0 ^ K1, K0.rotate_left(17), K1.rotate_left(31)];
        let mut stripes = data.chunks_exact(32);
        for stripe in &mut stripes {
            for (lane, word) in lanes.iter_mut().zip(stripe.chunks_exact(8)) {
                let w = u64::from_le_bytes(word.try_into().expect("chunk of 8"));
                *lane = fold(*lane ^ w, K1).wrapping_add(K0);
            }
        }
        let rest = stripes.remainder();
        let mut tail = [0u8; 32];
        tail[..rest.len()].copy_from_slice(rest);
        for (lane, word) in lanes.iter_mut().zip(tail.chunks_exact(8)) {
            let w = u64::from_le_bytes(word.try_into().expect("chunk of 8"));
            *lane = fold(*lane ^ w, K1).wrapping_add(K0);
        }
        for lane in lanes {
            self.state = fold(self.state ^ lane, K1).wrapping_add(K0);
        }
        self.len = self.len.wrapping_add(data.len() as u64);
    }

    /// Mixes a slice of `u32`.
    pub fn u32s(&mut self, data: &[u32]) {
        for pair in data.chunks(2) {
            let hi = pair.get(1).copied().unwrap_or(0);
            self.word(u64::from(pair[0]) | (u64::from(hi) << 32));
        }
        self.word(data.len() as u64);
    }

    /// Mixes a slice of `f32` by bit pattern.
    pub fn f32s(&mut self, data: &[f32]) {
        for pair in data.chunks(2) {
            let hi = pair.get(1).map_or(0, |f| f.to_bits());
            self.word(u64::from(pair[0].to_bits()) | (u64::from(hi) << 32));
        }
        self.word(data.len() as u64);
    }

    /// Mixes a slice of `u16`, four to a word.
    pub fn u16s(&mut self, data: &[u16]) {
        for quad in data.chunks(4) {
            let w = quad
                .iter()
                .rev()
                .fold(0u64, |w, &v| (w << 16) | u64::from(v));
            self.word(w);
        }
        self.word(data.len() as u64);
    }

    /// Mixes a slice of `i32` by bit pattern, two to a word.
    pub fn i32s(&mut self, data: &[i32]) {
        for pair in data.chunks(2) {
            let hi = pair.get(1).map_or(0, |&v| v as u32);
            self.word(u64::from(pair[0] as u32) | (u64::from(hi) << 32));
        }
        self.word(data.len() as u64);
    }

    /// The hash of everything mixed so far.
    pub fn finish(&self) -> u64 {
        crate::core::rng::splitmix64(self.state ^ self.len.wrapping_mul(K1))
    }
}

/// Section markers of [`level_hash`]: which columns follow.
mod section {
    pub const GRID: u64 = 0x6772_6964;
    pub const GRAPH: u64 = 0x6772_6170;
    pub const ROOMS: u64 = 0x726f_6f6d;
    pub const EXTRA: u64 = 0x6578_7472 << 8;
}

/// The canonical content hash of a level, stored as its `layout_hash`: every content column it
/// has, in a fixed order with a marker per section (the grid with its size; the graph's
/// positions, tags, edges and flags; the rooms; each extra column with its type). Metrics and
/// rule-use counts are not content (they describe how the level was made or measured), so two
/// levels with the same layout share a hash whatever their history.
///
/// The one hash of the archive contract: the chunk builder stores it for every level, and
/// `verify` recomputes it from the stored columns and from a fresh generation of the seed.
///
/// # Runtime
/// O(size of the level's columns), about 0.03 ns per byte of grid.
pub fn level_hash(level: &Level<'_>) -> u64 {
    let mut h = ContentHasher::new();
    if let Some(g) = level.grid {
        h.word(section::GRID);
        h.word(u64::from(g.width) << 32 | u64::from(g.height));
        h.bytes(g.cells);
    }
    if let Some(g) = level.graph {
        h.word(section::GRAPH);
        h.f32s(g.x);
        h.f32s(g.y);
        h.u16s(g.tag);
        h.u32s(g.src);
        h.u32s(g.dst);
        h.bytes(g.flags);
    }
    if let Some(r) = level.rooms {
        h.word(section::ROOMS);
        for side in [r.x0, r.y0, r.x1, r.y1] {
            h.i32s(side);
        }
    }
    for value in level.extra {
        h.word(section::EXTRA | value.kind() as u64);
        match *value {
            ExtraValue::ListU32(v) => h.u32s(v),
            ExtraValue::ListI32(v) => h.i32s(v),
            ExtraValue::ListF32(v) => h.f32s(v),
            ExtraValue::ListU16(v) => h.u16s(v),
            ExtraValue::ListU8(v) | ExtraValue::Binary(v) => h.bytes(v),
            ExtraValue::Utf8(v) => h.bytes(v.as_bytes()),
        }
    }
    h.finish()
}

impl Level<'_> {
    /// The level's canonical content hash, which archives store as `layout_hash`
    /// ([`level_hash`]: every content column, no metrics).
    pub fn content_hash(&self) -> u64 {
        level_hash(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOLDEN_EMPTY: u64 = 0xc214_3325_adb7_1dc2;
    const GOLDEN_LONG: u64 = 0x4efe_8340_6290_4c54;

    fn hash(data: &[u8]) -> u64 {
        let mut h = ContentHasher::new();
        h.bytes(data);
        h.finish()
    }

    #[test]
    fn differs_on_any_byte_and_on_length() {
        let base = vec![1u8; 100];
        let h0 = hash(&base);
        for i in 0..100 {
            let mut v = base.clone();
            v[i] ^= 1;
            assert_ne!(hash(&v), h0, "byte {i}");
        }
        assert_ne!(hash(&base[..99]), h0);
        assert_ne!(hash(&[]), hash(&[0]));
    }

    #[test]
    fn is_stable() {
        assert_eq!(hash(b"warren"), hash(b"warren"));
        // Golden values: the algorithm is part of the archive contract (`layout_hash`).
        assert_eq!(hash(b""), GOLDEN_EMPTY, "{:#x}", hash(b""));
        let long: Vec<u8> = (0..4225u32).map(|i| (i * 7 % 251) as u8).collect();
        assert_eq!(hash(&long), GOLDEN_LONG, "{:#x}", hash(&long));
    }

    #[test]
    fn every_lane_and_the_tail_count() {
        let base: Vec<u8> = (0..77u8).collect();
        let h0 = hash(&base);
        for i in [0, 8, 16, 24, 32, 63, 64, 70, 76] {
            let mut v = base.clone();
            v[i] ^= 0x80;
            assert_ne!(hash(&v), h0, "byte {i}");
        }
        // Swapping two stripes changes the hash too (lanes see different words).
        let mut swapped = base.clone();
        swapped[..32].rotate_left(8);
        assert_ne!(hash(&swapped), h0);
    }

    #[test]
    fn level_hash_sees_every_section_and_nothing_else() {
        use crate::core::generator::{GraphView, RoomsView};
        use crate::core::grid::GridView;
        let cells = [0u8, 1, 1, 0];
        let (x, y, tag) = ([0.0f32, 1.0], [0.0f32, 0.0], [3u16, 4]);
        let (src, dst, flags) = ([0u32], [1u32], [0u8]);
        let (x0, y0, x1, y1) = ([0i32, 2], [0i32, 0], [1i32, 3], [1i32, 1]);
        let extra = [ExtraValue::Utf8("<level/>")];
        let level = Level {
            grid: Some(GridView {
                width: 2,
                height: 2,
                cells: &cells,
            }),
            graph: Some(GraphView {
                x: &x,
                y: &y,
                tag: &tag,
                src: &src,
                dst: &dst,
                flags: &flags,
            }),
            rooms: Some(RoomsView {
                x0: &x0,
                y0: &y0,
                x1: &x1,
                y1: &y1,
            }),
            extra: &extra,
            ..Level::default()
        };
        let h = level_hash(&level);
        assert_eq!(h, level_hash(&level));
        let metrics = [1.0];
        let uses = [2];
        let measured = Level {
            metrics: &metrics,
            rule_uses: &uses,
            ..level
        };
        assert_eq!(
            level_hash(&measured),
            h,
            "metrics and rule uses are not content"
        );
        let tag2 = [3u16, 5];
        let mut other = level;
        other.graph = Some(GraphView {
            tag: &tag2,
            ..level.graph.unwrap()
        });
        assert_ne!(level_hash(&other), h, "tags");
        let x1b = [1i32, 4];
        let mut other = level;
        other.rooms = Some(RoomsView {
            x1: &x1b,
            ..level.rooms.unwrap()
        });
        assert_ne!(level_hash(&other), h, "rooms");
        let extra2 = [ExtraValue::Binary(b"<level/>")];
        let other = Level {
            extra: &extra2,
            ..level
        };
        assert_ne!(level_hash(&other), h, "an extra column's type");
        let other = Level {
            grid: None,
            ..level
        };
        assert_ne!(level_hash(&other), h, "the grid");
    }
}
