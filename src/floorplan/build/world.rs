//! The rest of a level while the search lays out one piece of it (`pieces`): its rooms and
//! corridors by grid cell, as obstacles.

use std::collections::HashMap;

use super::plan::Plan;
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
                let u = e as usize;
                let other = &plan.cat.shapes[self.shape[u] as usize];
                sh.near(x, y, other, self.x[u], self.y[u], gap)
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
                let u = e as usize;
                let other = &plan.cat.shapes[self.shape[u] as usize];
                other
                    .rects
                    .iter()
                    .any(|q| q.near(self.x[u], self.y[u], c, 0, 0, gap))
            }
        })
    }

    /// Whether `hit` holds for a room or corridor in a cell `area` covers.
    fn any_near(&self, area: &Rect, hit: impl Fn(u32) -> bool) -> bool {
        cells_of(area).any(|cell| {
            self.cells
                .get(&cell)
                .is_some_and(|there| there.iter().any(|&e| e != self.skip && hit(e)))
        })
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
