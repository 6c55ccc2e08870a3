//! The physical room graph of seed 001 behind one small trait: an implicit lattice (no adjacency
//! stored at all) or an explicit CSR graph (the Delaunay rooms, or a graph read back from an
//! archive). The spanning tree, the merge and the metrics are written once, generic over it.

use crate::core::geom::Vec2;
use crate::core::graph::Csr;

/// One physical edge with its endpoints and the slot each endpoint lists the other under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// Edge id.
    pub edge: u32,
    /// One endpoint.
    pub a: u32,
    /// The other endpoint.
    pub b: u32,
    /// `b`'s slot among `a`'s physical neighbours.
    pub slot_a: u8,
    /// `a`'s slot among `b`'s physical neighbours.
    pub slot_b: u8,
}

/// Most physical neighbours a room may have: passage sets are `u16` slot masks.
pub const MAX_SLOTS: usize = 16;

/// A physical graph: rooms, the possible connections between them, and room positions. Each
/// room numbers its physical neighbours by slot (`0..16`), so a set of passages is a bit mask.
pub trait Topology {
    /// Whether this is a [`Lattice`]: four slots, north 0, west 1, east 2, south 3, the
    /// reverse of slot `k` being `3 - k` whether or not it holds a neighbour.
    const LATTICE: bool = false;
    /// Room slots (ids are `0..slot_count`; some may be holes).
    fn slot_count(&self) -> usize;
    /// Edge id space (`0..edge_slots`; edges touching holes are never reported).
    fn edge_slots(&self) -> usize;
    /// Whether slot `v` is a room (not a hole).
    fn is_room(&self, v: u32) -> bool;
    /// Bit `k` is set when room `v` has a physical neighbour in slot `k`.
    fn physical_mask(&self, v: u32) -> u16;
    /// The room in slot `k` of `v`.
    fn neighbour_room(&self, v: u32, k: u32) -> u32;
    /// The room in slot `k` of `v` and the edge to it.
    fn neighbour(&self, v: u32, k: u32) -> (u32, u32);
    /// The slot under which the room in slot `k` of `v` lists `v`.
    fn reverse_slot(&self, v: u32, k: u32) -> u32;
    /// Calls `f(neighbour, edge)` for every physical connection of room `v`, in slot order.
    #[inline]
    fn for_each_neighbour(&self, v: u32, mut f: impl FnMut(u32, u32)) {
        let mut m = self.physical_mask(v);
        while m != 0 {
            let k = m.trailing_zeros();
            m &= m - 1;
            let (n, e) = self.neighbour(v, k);
            f(n, e);
        }
    }
    /// Calls `f(link)` for every physical edge, in ascending edge-id order.
    fn for_each_edge(&self, f: impl FnMut(Link));
    /// The room's position, in room units.
    fn position(&self, v: u32) -> Vec2;
    /// A lattice's columns and rows (`None` for other graphs).
    fn lattice_size(&self) -> Option<(u32, u32)> {
        None
    }
}

/// A `width x height` lattice. Horizontal edge `(x, y)-(x+1, y)` has id `y * (w - 1) + x`;
/// vertical edge `(x, y)-(x, y+1)` has id `h * (w - 1) + y * w + x`. Slots are north 0, west 1,
/// east 2, south 3, so the reverse of slot `k` is `3 - k`.
#[derive(Clone, Copy)]
pub struct Lattice<'a> {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Per slot: is it a room? `None` means every slot is a room (the fast path).
    pub present: Option<&'a [bool]>,
    /// `2^64 / width`, rounded up: divides by `width` with two multiplies.
    magic: u64,
    /// Id offsets of the four slots.
    offset: [u32; 4],
    /// Precomputed physical masks of a hole-free lattice (see [`Lattice::physical_masks`]).
    masks: Option<&'a [u16]>,
}

impl<'a> Lattice<'a> {
    /// A lattice; `present` marks rooms (None: no holes).
    pub fn new(width: u32, height: u32, present: Option<&'a [bool]>) -> Self {
        debug_assert!(width >= 1 && height >= 1, "empty lattice");
        debug_assert!(present.is_none_or(|p| p.len() == width as usize * height as usize));
        Self {
            width,
            height,
            present,
            magic: (u64::MAX / u64::from(width)).wrapping_add(1),
            offset: [width.wrapping_neg(), u32::MAX, 1, width],
            masks: None,
        }
    }

    /// Uses `masks` (from [`Lattice::physical_masks`] of the same size, no holes) instead of
    /// computing each room's physical mask.
    pub fn with_masks(mut self, masks: &'a [u16]) -> Self {
        debug_assert!(self.present.is_none() && masks.len() == self.slot_count());
        self.masks = Some(masks);
        self
    }

    /// Every room's physical mask, for [`Lattice::with_masks`].
    pub fn physical_masks(&self) -> Vec<u16> {
        (0..self.slot_count() as u32)
            .map(|v| self.physical_mask(v))
            .collect()
    }

    /// `(v % width, v / width)`.
    #[inline]
    pub fn xy(&self, v: u32) -> (u32, u32) {
        // PERF: a hardware division costs 25+ cycles and sat on every neighbour query (half of
        // the maze's time); Lemire's fastdiv is exact for all 32-bit numerators.
        if self.width == 1 {
            return (0, v);
        }
        let y = ((u128::from(self.magic) * u128::from(v)) >> 64) as u32;
        (v - y * self.width, y)
    }

    /// Number of horizontal edges (the first block of ids).
    #[inline]
    fn horizontal_edges(&self) -> u32 {
        self.height * (self.width - 1)
    }

    /// The id of the edge between horizontally adjacent `(x, y)` and `(x + 1, y)`.
    #[inline]
    pub fn east_edge(&self, x: u32, y: u32) -> u32 {
        y * (self.width - 1) + x
    }

    /// The id of the edge between vertically adjacent `(x, y)` and `(x, y + 1)`.
    #[inline]
    pub fn south_edge(&self, x: u32, y: u32) -> u32 {
        self.horizontal_edges() + y * self.width + x
    }

    /// The physical mask of room `v` computed from its position (and the holes).
    fn computed_mask(&self, v: u32) -> u16 {
        let (w, h) = (self.width, self.height);
        let (x, y) = self.xy(v);
        let m = u16::from(y > 0)
            | u16::from(x > 0) << 1
            | u16::from(x + 1 < w) << 2
            | u16::from(y + 1 < h) << 3;
        match self.present {
            // PERF: without holes the mask is pure arithmetic.
            None => m,
            Some(_) => {
                let mut out = 0;
                for k in 0..4 {
                    if m & (1 << k) != 0 && self.present(self.neighbour_room(v, k)) {
                        out |= 1 << k;
                    }
                }
                out
            }
        }
    }

    #[inline]
    fn present(&self, v: u32) -> bool {
        self.present.is_none_or(|p| p[v as usize])
    }
}

impl Topology for Lattice<'_> {
    const LATTICE: bool = true;

    fn slot_count(&self) -> usize {
        self.width as usize * self.height as usize
    }

    fn edge_slots(&self) -> usize {
        (self.height * (self.width - 1) + (self.height - 1) * self.width) as usize
    }

    #[inline]
    fn is_room(&self, v: u32) -> bool {
        self.present(v)
    }

    #[inline(always)]
    fn physical_mask(&self, v: u32) -> u16 {
        if let Some(masks) = self.masks {
            // PERF: one load instead of a division and four comparisons. Always inlined: with
            // the computation below in the same body it stayed a call on every step of the
            // walks (8% of a dfs maze).
            return masks[v as usize];
        }
        self.computed_mask(v)
    }

    #[inline]
    fn neighbour_room(&self, v: u32, k: u32) -> u32 {
        v.wrapping_add(self.offset[k as usize])
    }

    #[inline]
    fn neighbour(&self, v: u32, k: u32) -> (u32, u32) {
        let n = self.neighbour_room(v, k);
        let e = match k {
            0 => self.horizontal_edges() + n,
            1 => n - self.xy(v).1,
            2 => v - self.xy(v).1,
            _ => self.horizontal_edges() + v,
        };
        (n, e)
    }

    #[inline]
    fn reverse_slot(&self, _v: u32, k: u32) -> u32 {
        3 - k
    }

    #[inline]
    fn for_each_neighbour(&self, v: u32, mut f: impl FnMut(u32, u32)) {
        // PERF: neighbours and edge ids are arithmetic; no adjacency is stored or read.
        let (w, h) = (self.width, self.height);
        let (x, y) = self.xy(v);
        let south_base = self.horizontal_edges();
        if y > 0 && self.present(v - w) {
            f(v - w, south_base + v - w);
        }
        if x > 0 && self.present(v - 1) {
            f(v - 1, v - 1 - y);
        }
        if x + 1 < w && self.present(v + 1) {
            f(v + 1, v - y);
        }
        if y + 1 < h && self.present(v + w) {
            f(v + w, south_base + v);
        }
    }

    fn for_each_edge(&self, mut f: impl FnMut(Link)) {
        let w = self.width;
        for y in 0..self.height {
            for x in 0..w.saturating_sub(1) {
                let a = y * w + x;
                if self.present(a) && self.present(a + 1) {
                    let edge = self.east_edge(x, y);
                    f(Link {
                        edge,
                        a,
                        b: a + 1,
                        slot_a: 2,
                        slot_b: 1,
                    });
                }
            }
        }
        for y in 0..self.height.saturating_sub(1) {
            for x in 0..w {
                let a = y * w + x;
                if self.present(a) && self.present(a + w) {
                    let edge = self.south_edge(x, y);
                    f(Link {
                        edge,
                        a,
                        b: a + w,
                        slot_a: 3,
                        slot_b: 0,
                    });
                }
            }
        }
    }

    #[inline]
    fn position(&self, v: u32) -> Vec2 {
        let (x, y) = self.xy(v);
        Vec2::new(x as f32, y as f32)
    }

    fn lattice_size(&self) -> Option<(u32, u32)> {
        Some((self.width, self.height))
    }
}

/// An explicit physical graph: CSR adjacency, edge endpoints and room positions.
#[derive(Clone, Copy)]
pub struct Explicit<'a> {
    /// Adjacency.
    pub csr: Csr<'a>,
    /// Edge sources.
    pub src: &'a [u32],
    /// Edge destinations.
    pub dst: &'a [u32],
    /// Room x positions.
    pub x: &'a [f32],
    /// Room y positions.
    pub y: &'a [f32],
}

impl Explicit<'_> {
    /// Largest physical degree; must be at most `MAX_SLOTS`.
    pub fn max_degree(&self) -> usize {
        self.csr
            .offset
            .windows(2)
            .map(|w| (w[1] - w[0]) as usize)
            .max()
            .unwrap_or(0)
    }

    /// The slot of edge `e` in `v`'s list.
    fn slot_of(&self, v: u32, e: u32) -> u32 {
        let lo = self.csr.offset[v as usize] as usize;
        let hi = self.csr.offset[v as usize + 1] as usize;
        self.csr.edge[lo..hi]
            .iter()
            .position(|&x| x == e)
            .expect("edge listed at both ends") as u32
    }
}

impl Topology for Explicit<'_> {
    fn slot_count(&self) -> usize {
        self.x.len()
    }

    fn edge_slots(&self) -> usize {
        self.src.len()
    }

    fn is_room(&self, _v: u32) -> bool {
        true
    }

    #[inline]
    fn physical_mask(&self, v: u32) -> u16 {
        let d = self.csr.offset[v as usize + 1] - self.csr.offset[v as usize];
        debug_assert!(d as usize <= MAX_SLOTS, "room {v} has {d} neighbours");
        ((1u32 << d) - 1) as u16
    }

    #[inline]
    fn neighbour_room(&self, v: u32, k: u32) -> u32 {
        self.csr.neighbour[(self.csr.offset[v as usize] + k) as usize]
    }

    #[inline]
    fn neighbour(&self, v: u32, k: u32) -> (u32, u32) {
        let at = (self.csr.offset[v as usize] + k) as usize;
        (self.csr.neighbour[at], self.csr.edge[at])
    }

    fn reverse_slot(&self, v: u32, k: u32) -> u32 {
        let (n, e) = self.neighbour(v, k);
        self.slot_of(n, e)
    }

    fn for_each_edge(&self, mut f: impl FnMut(Link)) {
        for (e, (&a, &b)) in self.src.iter().zip(self.dst).enumerate() {
            let edge = e as u32;
            let (slot_a, slot_b) = (self.slot_of(a, edge) as u8, self.slot_of(b, edge) as u8);
            f(Link {
                edge,
                a,
                b,
                slot_a,
                slot_b,
            });
        }
    }

    fn position(&self, v: u32) -> Vec2 {
        Vec2::new(self.x[v as usize], self.y[v as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lattice_edge_ids_are_a_bijection() {
        let lat = Lattice::new(5, 3, None);
        let mut seen = vec![0u32; lat.edge_slots()];
        lat.for_each_edge(|l| {
            seen[l.edge as usize] += 1;
            let mut found = false;
            lat.for_each_neighbour(l.a, |n, e2| found |= n == l.b && e2 == l.edge);
            assert!(
                found,
                "edge {} {}-{} not seen from {}",
                l.edge, l.a, l.b, l.a
            );
            assert_eq!(lat.neighbour(l.a, u32::from(l.slot_a)), (l.b, l.edge));
            assert_eq!(lat.neighbour(l.b, u32::from(l.slot_b)), (l.a, l.edge));
            assert_eq!(
                lat.reverse_slot(l.a, u32::from(l.slot_a)),
                u32::from(l.slot_b)
            );
        });
        assert!(seen.iter().all(|&c| c == 1));
        for v in 0..15 {
            let mut via_mask = vec![];
            let mut m = lat.physical_mask(v);
            while m != 0 {
                via_mask.push(lat.neighbour(v, m.trailing_zeros()));
                m &= m - 1;
            }
            let mut direct = vec![];
            lat.for_each_neighbour(v, |n, e| direct.push((n, e)));
            assert_eq!(via_mask, direct, "room {v}");
        }
    }

    #[test]
    fn fast_division_is_exact() {
        for w in [1u32, 2, 3, 7, 32, 33, 100, 4095, 4096] {
            let lat = Lattice::new(w, 3, None);
            for v in (0..200_000u32).step_by(7).chain([u32::MAX - 1, u32::MAX]) {
                assert_eq!(lat.xy(v), (v % w, v / w), "{v} / {w}");
            }
        }
    }

    #[test]
    fn holes_hide_their_edges() {
        let present = [true, false, true, true];
        let lat = Lattice::new(2, 2, Some(&present));
        let mut n = 0;
        lat.for_each_edge(|l| {
            assert!(l.a != 1 && l.b != 1);
            n += 1;
        });
        assert_eq!(lat.physical_mask(0), 0b1000);
        assert_eq!(n, 2);
        let mut around0 = vec![];
        lat.for_each_neighbour(0, |v, _| around0.push(v));
        assert_eq!(around0, vec![2]);
    }
}
