//! A finished layout: per room its shape and position, per connection its link (a door, or a
//! corridor with a door at each end).

use crate::floorplan::shape::{Rect, side};

/// A realised connection: its door (or the door at each end of its corridor).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Link {
    /// The direction room `a`'s door wall faces ([`side`]).
    pub side: u8,
    /// Room `a`'s wall coordinate across the wall (absolute lattice).
    pub wall: i32,
    /// First door tile along the wall (absolute).
    pub start: i32,
    /// Door length in tiles.
    pub len: u32,
    /// Gap between the walls (0: no corridor; `L + 1`: a corridor of `L` floor tiles).
    pub gap: i32,
}

impl Link {
    /// The corridor's lattice rectangle (its walls included), when it has one.
    pub fn corridor(&self) -> Option<Rect> {
        if self.gap == 0 {
            return None;
        }
        let (a0, a1) = (self.start - 1, self.start + self.len as i32);
        let (nx, ny) = side::normal(self.side);
        let far = self.wall + (nx + ny) * self.gap;
        let (c0, c1) = (self.wall.min(far), self.wall.max(far));
        Some(if side::vertical(self.side) {
            Rect {
                x0: c0,
                y0: a0,
                x1: c1,
                y1: a1,
            }
        } else {
            Rect {
                x0: a0,
                y0: c0,
                x1: a1,
                y1: c1,
            }
        })
    }
}

/// A finished layout: per room its shape and position, per connection its link.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Per room, the index of its shape in the plan.
    pub shape: Vec<u32>,
    /// Per room, the lattice position of its shape's box corner.
    pub x: Vec<i32>,
    /// See `x`.
    pub y: Vec<i32>,
    /// Per connection, how it is realised (its `a` is the plan connection's first room).
    pub links: Vec<Link>,
    /// Attempts it took (1: the first).
    pub attempts: u32,
    /// Candidate placements checked over all attempts.
    pub work: u32,
}

impl Layout {
    /// Empties the layout for `rooms` rooms and `conns` connections (every room at the origin
    /// in shape 0, every link unset, no work), keeping its memory.
    pub(super) fn reset(&mut self, rooms: usize, conns: usize) {
        self.shape.clear();
        self.shape.resize(rooms, 0);
        self.x.clear();
        self.x.resize(rooms, 0);
        self.y.clear();
        self.y.resize(rooms, 0);
        self.links.clear();
        self.links.resize(conns, Link::default());
        self.work = 0;
    }
}
