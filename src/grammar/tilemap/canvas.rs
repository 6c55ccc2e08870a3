//! The tile map being drawn ([`super`]): the tile rectangle, the owner markers, and the canvas
//! with its checks of where a corridor's floor and doors may go.

use crate::core::grid::Grid;

/// A tile not claimed by anything.
pub(super) const FREE: u32 = u32::MAX;
/// A tile of some room's wall ring.
pub(super) const RING: u32 = u32::MAX - 1;
/// Tiles of corridor `e` (its floor and doors) hold `CORRIDOR | e`; room floors hold the room.
pub(super) const CORRIDOR: u32 = 1 << 31;
/// Half-open tile rectangle `[x0, x1) x [y0, y1)`: tiles before the map is clipped to a grid
/// (so `i64`).
pub type Rect = crate::core::geom::Rect<i64>;

/// The tile map's axis-generic views of a rectangle.
impl Rect {
    /// Coordinate `k` along `axis` (0: x, 1: y) of the low or high side.
    pub(super) fn lo(&self, axis: usize) -> i64 {
        if axis == 0 { self.x0 } else { self.y0 }
    }

    pub(super) fn hi(&self, axis: usize) -> i64 {
        if axis == 0 { self.x1 } else { self.y1 }
    }

    pub(super) fn centre(&self, axis: usize) -> i64 {
        (self.lo(axis) + self.hi(axis)).div_euclid(2)
    }

    /// The rectangle `[m0, m1)` along `main`, `[c0, c1)` across it.
    pub(super) fn along(main: usize, m0: i64, m1: i64, c0: i64, c1: i64) -> Rect {
        if main == 0 {
            Rect {
                x0: m0,
                x1: m1,
                y0: c0,
                y1: c1,
            }
        } else {
            Rect {
                x0: c0,
                x1: c1,
                y0: m0,
                y1: m1,
            }
        }
    }
}

/// The map being drawn.
pub(super) struct Canvas<'a> {
    pub(super) grid: &'a mut Grid,
    pub(super) owner: &'a mut [u32],
    pub(super) w: i64,
    pub(super) h: i64,
}

impl Canvas<'_> {
    #[inline]
    pub(super) fn at(&self, x: i64, y: i64) -> usize {
        (y * self.w + x) as usize
    }

    #[inline]
    pub(super) fn owner(&self, x: i64, y: i64) -> u32 {
        self.owner[self.at(x, y)]
    }

    /// Whether `(x, y)` may become floor of a corridor: unclaimed, inside the wall border, and
    /// beside no other corridor.
    #[inline]
    pub(super) fn corridor_ok(&self, x: i64, y: i64) -> bool {
        if x < 1 || y < 1 || x >= self.w - 1 || y >= self.h - 1 || self.owner(x, y) != FREE {
            return false;
        }
        [(1, 0), (-1, 0), (0, 1), (0, -1)].iter().all(|&(dx, dy)| {
            self.owner(x + dx, y + dy) & CORRIDOR == 0 || self.is_marker(x + dx, y + dy)
        })
    }

    /// Whether the owner at `(x, y)` is a marker (free or ring), not a corridor.
    #[inline]
    pub(super) fn is_marker(&self, x: i64, y: i64) -> bool {
        let o = self.owner(x, y);
        o == FREE || o == RING
    }

    /// Whether `(x, y)` may become a door of room `own` on a corridor to room `other`: a tile of
    /// `own`'s wall ring beside its floor (not a corner), in no third room's ring, and beside no
    /// other corridor.
    pub(super) fn door_ok(&self, x: i64, y: i64, own: u32, other: u32) -> bool {
        if x < 1 || y < 1 || x >= self.w - 1 || y >= self.h - 1 || self.owner(x, y) != RING {
            return false;
        }
        let mut beside_own = false;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if dx == 0 && dy == 0 {
                    continue;
                }
                let o = self.owner(x + dx, y + dy);
                if o == FREE || o == RING {
                    continue;
                }
                let side = dx == 0 || dy == 0;
                if o & CORRIDOR != 0 {
                    if side {
                        return false;
                    }
                } else if o != own && o != other {
                    return false;
                } else if side && o == own {
                    beside_own = true;
                }
            }
        }
        beside_own
    }

    pub(super) fn rect_ok(&self, r: &Rect, ok: impl Fn(i64, i64) -> bool) -> bool {
        (r.y0..r.y1).all(|y| (r.x0..r.x1).all(|x| ok(x, y)))
    }

    /// Claims `r` for corridor `e` with `code`; returns the tiles newly claimed.
    pub(super) fn claim(&mut self, r: &Rect, e: u32, code: u8) -> u32 {
        let mut fresh = 0;
        for y in r.y0..r.y1 {
            for x in r.x0..r.x1 {
                let i = self.at(x, y);
                if self.owner[i] != CORRIDOR | e {
                    fresh += 1;
                    self.owner[i] = CORRIDOR | e;
                    self.grid.cells[i] = code;
                }
            }
        }
        fresh
    }
}
