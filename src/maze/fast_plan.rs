//! The fast lattice path's per-shape constants ([`LatticePlan`]) and its two edge packings,
//! shared by the `u16` path (`fast.rs`), the `u32` one (`fast_wide.rs`) and their bitsets
//! (`fast_bits.rs`), which import this file and not each other.

use crate::maze::topology::{Lattice, Link, Topology};

/// Rooms the `u16` fast path handles: room ids are `u16`, and the last `u16` is `fast`'s
/// `DUMMY`. Larger lattices take the `u32` one (`fast_wide.rs`).
pub const MAX_ROOMS: usize = (1 << 16) - 1;

/// Rooms the `u32` path handles: a room id shifted left by one fits in a `u32` edge. The
/// configuration allows far fewer (2^22).
pub const WIDE_MAX_ROOMS: usize = 1 << 31;

/// The per-generator constants of one lattice shape.
#[derive(Clone, Debug)]
pub struct LatticePlan {
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) rooms: usize,
    /// Every edge packed by [`LatticePlan::pack`], in edge-id order (the order the general path
    /// shuffles, so both shuffles give the same permutation).
    pub(super) edges: Vec<u32>,
    /// Per room: the physical slots (bit `k` set when slot `k` has a neighbour).
    pub(super) physical: Vec<u8>,
    /// Bitset of rooms with an east / west neighbour.
    pub(super) has_east: Vec<u64>,
    pub(super) has_west: Vec<u64>,
}

impl LatticePlan {
    /// The plan for a hole-free `width x height` lattice; `None` without rooms or above
    /// [`WIDE_MAX_ROOMS`] rooms.
    pub fn new(width: u32, height: u32) -> Option<Self> {
        let rooms = width as usize * height as usize;
        if rooms == 0 || rooms > WIDE_MAX_ROOMS {
            return None;
        }
        let lattice = Lattice::new(width, height, None);
        let mut edges = Vec::with_capacity(lattice.edge_slots());
        let narrow = rooms <= MAX_ROOMS;
        lattice.for_each_edge(|link: Link| {
            edges.push(if narrow {
                pack_narrow(&link)
            } else {
                pack_wide(width, &link)
            });
        });
        let words = rooms.div_ceil(64);
        let (mut has_east, mut has_west) = (vec![0u64; words], vec![0u64; words]);
        let mut physical = vec![0u8; rooms];
        for v in 0..rooms {
            let m = lattice.physical_mask(v as u32) as u8;
            physical[v] = m;
            has_west[v / 64] |= u64::from(m >> 1 & 1) << (v % 64);
            has_east[v / 64] |= u64::from(m >> 2 & 1) << (v % 64);
        }
        Some(Self {
            width,
            height,
            rooms,
            edges,
            physical,
            has_east,
            has_west,
        })
    }

    /// Whether room ids fit the `u16` path (at most [`MAX_ROOMS`] rooms); the other lattices
    /// take the `u32` one.
    #[inline]
    pub fn is_narrow(&self) -> bool {
        self.rooms <= MAX_ROOMS
    }

    /// `link` packed as [`LatticePlan::edges`] packs it.
    pub(super) fn pack(&self, link: &Link) -> u32 {
        if self.is_narrow() {
            pack_narrow(link)
        } else {
            pack_wide(self.width, link)
        }
    }

    /// Rooms rounded up to whole 64-room bitset words: the length of a padded mask.
    pub(super) fn padded(&self) -> usize {
        self.rooms.div_ceil(64) * 64
    }
}

/// A lattice edge as one `u32`: its west or north room in the low half, the other room in the
/// high half (room ids are below [`MAX_ROOMS`]).
#[inline]
pub fn pack_narrow(link: &Link) -> u32 {
    let (a, b) = (link.a.min(link.b), link.a.max(link.b));
    debug_assert!(b < MAX_ROOMS as u32);
    a | b << 16
}

/// A lattice edge as one `u32`: its west or north room `a` shifted left by one, above a bit set
/// when the other room is south of `a` (on a lattice `width` rooms wide).
#[inline]
pub fn pack_wide(width: u32, link: &Link) -> u32 {
    let (a, b) = (link.a.min(link.b), link.a.max(link.b));
    debug_assert!((b as usize) < WIDE_MAX_ROOMS);
    a << 1 | u32::from(b - a == width)
}
