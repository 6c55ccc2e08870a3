//! The rest of a level while the search lays out one piece of it (`pieces`): its rooms,
//! corridors and kept places by grid cell, as obstacles, and the turns of a piece's drawing
//! that point where it leaves room.

use std::collections::HashMap;

use super::plan::{Plan, Root};
use crate::floorplan::shape::{Rect, Shape};

/// The side of a cell of the grid of placed rooms and corridors, in lattice units.
const CELL: i32 = 16;

/// The rest of the level while one piece is laid out: the whole layout's rooms and corridors
/// and their cells, moved out of the level's scratch for the piece's search and back after.
#[derive(Debug, Default)]
pub struct World {
    pub(super) cells: HashMap<(i32, i32), Vec<u32>>,
    pub(super) shape: Vec<u32>,
    pub(super) x: Vec<i32>,
    pub(super) y: Vec<i32>,
    pub(super) corridors: Vec<(Rect, u32)>,
    /// The piece's first room, placed already as its parent's stub of it: no obstacle.
    pub(super) skip: u32,
    /// The places laid pieces keep for the pieces hanging off them ([`RESERVED`] marked in
    /// the cells), and per piece whether it is laid: a place is an obstacle while its owner
    /// is not laid, except to its owner.
    pub(super) reserved: Vec<Reserve>,
    pub(super) laid: Vec<bool>,
    /// The piece being laid out.
    pub(super) piece: u32,
}

/// A room of a piece's halo, kept for the piece it belongs to after its parent is laid
/// (`pieces`): its shape and place, and that piece.
#[derive(Clone, Copy, Debug)]
pub struct Reserve {
    pub(super) shape: u32,
    pub(super) x: i32,
    pub(super) y: i32,
    pub(super) owner: u32,
}

impl World {
    /// Whether shape `sh` at `(x, y)` comes closer than the plan's least distance to a room or
    /// corridor of the rest of the level.
    pub(super) fn blocks_room(&self, plan: &Plan, sh: &Shape, (x, y): (i32, i32)) -> bool {
        let gap = plan.min_distance;
        let area = Rect {
            x0: x - gap - 1,
            y0: y - gap - 1,
            x1: x + sh.w + gap + 1,
            y1: y + sh.h + gap + 1,
        };
        self.any_near(&area, |e| {
            if e & CORRIDOR != 0 {
                let (c, _) = self.corridors[(e & !CORRIDOR) as usize];
                sh.rects.iter().any(|q| q.near(x, y, &c, 0, 0, gap))
            } else {
                let (other, ox, oy) = self.room(plan, e);
                sh.near(x, y, other, ox, oy, gap)
            }
        })
    }

    /// Whether corridor `c` comes closer than the least distance to a room of the rest of the
    /// level, or meets one of its corridors.
    pub(super) fn blocks_corridor(&self, plan: &Plan, c: &Rect) -> bool {
        let gap = plan.min_distance;
        let area = Rect {
            x0: c.x0 - gap - 1,
            y0: c.y0 - gap - 1,
            x1: c.x1 + gap + 1,
            y1: c.y1 + gap + 1,
        };
        self.any_near(&area, |e| {
            if e & CORRIDOR != 0 {
                let (other, _) = self.corridors[(e & !CORRIDOR) as usize];
                other.near(0, 0, c, 0, 0, 0)
            } else {
                let (other, ox, oy) = self.room(plan, e);
                other.rects.iter().any(|q| q.near(ox, oy, c, 0, 0, gap))
            }
        })
    }

    /// Whether point `(px, py)` lies in a room, kept place or corridor of the rest of the
    /// level, or within `margin` of one.
    pub(super) fn covers(&self, plan: &Plan, (px, py): (f32, f32), margin: f32) -> bool {
        let m = margin.ceil() as i32;
        let (x, y) = (px.floor() as i32, py.floor() as i32);
        let area = Rect {
            x0: x - m,
            y0: y - m,
            x1: x + m + 1,
            y1: y + m + 1,
        };
        let inside = |r: &Rect| {
            px > r.x0 as f32 - margin
                && px < r.x1 as f32 + margin
                && py > r.y0 as f32 - margin
                && py < r.y1 as f32 + margin
        };
        self.any_near(&area, |e| {
            if e & CORRIDOR != 0 {
                inside(&self.corridors[(e & !CORRIDOR) as usize].0)
            } else {
                let (sh, ox, oy) = self.room(plan, e);
                inside(&Rect {
                    x0: ox,
                    y0: oy,
                    x1: ox + sh.w,
                    y1: oy + sh.h,
                })
            }
        })
    }

    /// The shape and place of a room or kept place in the cells.
    fn room<'a>(&self, plan: &'a Plan, e: u32) -> (&'a Shape, i32, i32) {
        if e & RESERVED != 0 {
            let r = self.reserved[(e & !RESERVED) as usize];
            (&plan.cat.shapes[r.shape as usize], r.x, r.y)
        } else {
            let u = e as usize;
            (
                &plan.cat.shapes[self.shape[u] as usize],
                self.x[u],
                self.y[u],
            )
        }
    }

    /// Whether a cell's entry is in the way at all: not the piece's first room, and not a
    /// place kept for this piece or for a piece laid since.
    fn counts(&self, e: u32) -> bool {
        if e & CORRIDOR == 0 && e & RESERVED != 0 {
            let owner = self.reserved[(e & !RESERVED) as usize].owner;
            return owner != self.piece && !self.laid[owner as usize];
        }
        e != self.skip
    }

    /// Whether `hit` holds for a room or corridor in a cell `area` covers.
    fn any_near(&self, area: &Rect, hit: impl Fn(u32) -> bool) -> bool {
        cells_of(area).any(|cell| {
            self.cells
                .get(&cell)
                .is_some_and(|there| there.iter().any(|&e| self.counts(e) && hit(e)))
        })
    }
}

/// Turns a piece's drawing is tried in around its first room ([`free_turns`]): each seed of a
/// piece's search takes the next best, so that a piece that keeps failing tries them all.
/// Rolling on over a piece's failures instead of starting again from the best turn: 2.0, 3.5,
/// 2.7 and 3.9 s against 3.6, 4.2, 4.0 and 3.9 s on the four slowest layouts of the run in the
/// notes of `pieces`. Other counts were not tried.
pub(super) const TURNS: usize = 12;

/// The level's turn `(cos, sin, mirror)` and its turns by even steps of a [`TURNS`]th of a
/// circle (the mirror kept), those first whose drawing of `piece`, hung on its first room
/// where its parent placed it, puts the fewest rooms on (or next to) the rest of the level
/// ([`rooms_on_world`]); among equals the nearer to the level's own turn first. A piece's
/// drawing often points into its parent, which wrapped around the stub, or into a piece laid
/// before it: turned, it points where there is room. Empty when the piece has no drawing.
pub(super) fn free_turns(
    piece: &Plan,
    root: Root,
    world: &World,
    (cos0, sin0, flip): (f32, f32, f32),
) -> Vec<(f32, f32, f32)> {
    if piece.drawing.is_none() {
        return Vec::new();
    }
    let mut scored: Vec<(u32, usize, (f32, f32, f32))> = (0..TURNS)
        .map(|k| {
            let a = std::f32::consts::TAU * k as f32 / TURNS as f32;
            let (c, s) = (
                cos0 * a.cos() - sin0 * a.sin(),
                sin0 * a.cos() + cos0 * a.sin(),
            );
            let turn = (c, s, flip);
            (
                rooms_on_world(piece, root, world, turn),
                k.min(TURNS - k),
                turn,
            )
        })
        .collect();
    scored.sort_by_key(|&(hits, off, _)| (hits, off));
    scored.into_iter().map(|(_, _, t)| t).collect()
}

/// How many of `piece`'s rooms (its first room aside) its drawing, turned by `(cos, sin,
/// mirror)` as the search turns it and moved so that its first room's drawn centre lies on
/// that room's placed centre, puts inside a room, kept place or corridor of the rest of the
/// level or within a quarter of a connection of one.
pub(super) fn rooms_on_world(
    piece: &Plan,
    root: Root,
    world: &World,
    (c, s, flip): (f32, f32, f32),
) -> u32 {
    let Some((dx, dy)) = piece.drawing.as_ref() else {
        return 0;
    };
    let b = root.b as usize;
    let sh = &piece.cat.shapes[world.shape[b] as usize];
    let centre = (
        world.x[b] as f32 + sh.w as f32 / 2.0,
        world.y[b] as f32 + sh.h as f32 / 2.0,
    );
    let r = root.local as usize;
    let margin = piece.length / 4.0;
    (0..dx.len())
        .filter(|&i| i != r)
        .filter(|&i| {
            let (x, y) = (dx[i] - dx[r], (dy[i] - dy[r]) * flip);
            let p = (centre.0 + x * c - y * s, centre.1 + x * s + y * c);
            world.covers(piece, p, margin)
        })
        .count() as u32
}

/// The lattice box of shape `si` at `(x, y)`.
pub(super) fn room_box(plan: &Plan, si: u32, (x, y): (i32, i32)) -> Rect {
    let sh = &plan.cat.shapes[si as usize];
    Rect {
        x0: x,
        y0: y,
        x1: x + sh.w,
        y1: y + sh.h,
    }
}

/// The cells a lattice box covers.
pub(super) fn cells_of(r: &Rect) -> impl Iterator<Item = (i32, i32)> {
    let (cx0, cx1) = (r.x0.div_euclid(CELL), r.x1.div_euclid(CELL));
    let (cy0, cy1) = (r.y0.div_euclid(CELL), r.y1.div_euclid(CELL));
    (cy0..=cy1).flat_map(move |cy| (cx0..=cx1).map(move |cx| (cx, cy)))
}

/// Marks a corridor in the cells (rooms are their own index).
pub(super) const CORRIDOR: u32 = 1 << 31;
/// Marks a kept place ([`Reserve`]) in the cells.
pub(super) const RESERVED: u32 = 1 << 30;
