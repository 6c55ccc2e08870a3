//! [`Bits`]: random bits drawn 64 at a time for the walks' small choices, and the tables that
//! turn two bits into a uniformly random set bit of a lattice room's 4-slot mask.

use crate::core::rng::WarrenRng;

/// Random bits drawn 64 at a time, for the small choices the walks make at every step (one of
/// at most four neighbours, a coin): exact uniform draws at a fraction of a full draw's cost.
#[derive(Default)]
pub(super) struct Bits {
    bits: u64,
    left: u32,
}

impl Bits {
    /// `k` fresh random bits (`k <= 8`).
    #[inline]
    pub(super) fn take(&mut self, rng: &mut WarrenRng, k: u32) -> u32 {
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
    pub(super) fn coin(&mut self, rng: &mut WarrenRng) -> bool {
        self.take(rng, 1) == 1
    }

    /// Uniform in `0..n` (`n >= 1`): from two bits for `n <= 4` (3 by rejection), else a full
    /// draw.
    #[inline(always)]
    pub(super) fn below(&mut self, rng: &mut WarrenRng, n: u32) -> u32 {
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
    pub(super) fn pick(&mut self, rng: &mut WarrenRng, m: u16) -> u32 {
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
pub(super) const REJECT: u8 = u8::MAX;

/// `PICK[m * 4 + r]`: the slot two random bits `r` pick among the set bits of the 4-bit mask
/// `m`, each set bit equally often ([`REJECT`] for `r = 3` of a three-bit mask).
pub(super) const PICK: [u8; 64] = {
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
