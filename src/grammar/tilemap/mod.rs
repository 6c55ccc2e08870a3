//! The tile map of a graph-grammar level: seed 000's rooms and corridors drawn on the shared
//! tile grid, the way a dungeon map is drawn (Edgar, Nepožitek and Gemrot: rooms with walls and
//! doors joined by corridors on a grid).
//!
//! # What a map is
//! - Every room (a vertex with a non-empty room rectangle) is its rectangle of floor
//!   ([`cell::FLOOR`]) enclosed by a one-tile ring of wall ([`cell::WALL`]). Rooms whose
//!   rectangles are one tile apart share that wall.
//! - Every corridor (a non-cosmetic edge) is a path of floor `width` tiles wide from a door
//!   ([`cell::DOOR`], `width` tiles of the first room's wall ring) to a door in the other room's
//!   ring. Rooms two or fewer tiles apart face to face are joined by their doors alone (a door
//!   in a shared wall, or two doors back to back).
//! - A corridor touches nothing but its own two rooms: no tile of it or its doors is beside a
//!   tile of another corridor or a third room's floor, and it never opens a third room's wall.
//!   Corridors may run along a wall; two corridors may meet only corner to corner.
//! - Cosmetic vertices (empty rectangles) and cosmetic edges draw nothing.
//! - The grid is the rooms' bounding box plus a border of `width + 3` tiles (room for a
//!   corridor to go round the outside), and its outermost ring is always wall. Room rectangles
//!   are moved into grid coordinates: the level's stored rooms index the grid directly.
//!
//! # How corridors are routed
//! Corridors are drawn one at a time, the shortest gap first. Each tries the shapes a designer
//! draws, cheapest first: straight (rooms facing each other on one axis), an L (out of one room,
//! one turn, into the other), a Z (out, across at half way, in); each shape is checked tile by
//! tile against what is already drawn. When none fits, an A* search over brush positions (the
//! corridor's `width x width` cross-section) with a penalty per turn finds the cheapest
//! corridor that keeps every rule above (`route_by_search`, the slow path). Corridors drawn
//! early can box in a later one: a corridor that no search can draw is moved to the front and
//! the map drawn again (up to four attempts) before the seed fails.
//!
//! [`verify`] checks a stored map against its graph without using anything else here.

use crate::core::graph::edge_flag;
use crate::core::grid::{Grid, cell};
#[cfg(test)]
use canvas::CORRIDOR;
pub use canvas::Rect;
use canvas::{Canvas, FREE, RING};
#[cfg(test)]
use corridors::{DETOUR, STEPS, TURN_COST};
use corridors::{SearchScratch, Shape, designed_shapes, route_by_search};

/// Tile map settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileParams {
    /// Corridor width in tiles (doors are as wide).
    pub corridor_width: u32,
    /// Largest grid width.
    pub max_width: u32,
    /// Largest grid height.
    pub max_height: u32,
}

impl TileParams {
    /// Tiles of border around the rooms' bounding box.
    pub fn border(&self) -> i64 {
        i64::from(self.corridor_width) + 3
    }
}

/// What drawing a map counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TileReport {
    /// Room floor tiles.
    pub room_tiles: u32,
    /// Corridor floor tiles (doors not counted).
    pub corridor_tiles: u32,
    /// Door tiles.
    pub door_tiles: u32,
    /// Corridors that needed the search (no designed shape fitted).
    pub searched: u32,
    /// What was added to layout coordinates to reach grid coordinates.
    pub offset: (i64, i64),
}

/// Why a map could not be drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TileError {
    /// The map needs a larger grid than the bound allows.
    #[error("the map needs {width} x {height} tiles, over max_grid {max_width} x {max_height}")]
    TooLarge {
        /// Width needed.
        width: i64,
        /// Height needed.
        height: i64,
        /// The bound's width.
        max_width: u32,
        /// The bound's height.
        max_height: u32,
    },
    /// Two rooms' floors touch or overlap (no wall between them).
    #[error("rooms {a} and {b} touch: no wall fits between them")]
    RoomsTouch {
        /// One room.
        a: u32,
        /// The other.
        b: u32,
    },
    /// No corridor between two rooms keeps clear of the rest of the map.
    #[error("no corridor from room {a} to room {b} keeps clear of the rest of the map")]
    Unroutable {
        /// One room.
        a: u32,
        /// The other.
        b: u32,
    },
}

impl TileError {
    /// The short, stable failure reason for the batch's histogram.
    pub fn reason(&self) -> &'static str {
        match self {
            TileError::TooLarge { .. } => "map over max_grid",
            TileError::RoomsTouch { .. } => "rooms touch",
            TileError::Unroutable { .. } => "corridor not drawn",
        }
    }
}

/// Times a map is drawn, each time with the corridor that failed moved to the front, before
/// its seed fails.
const ROUTE_ATTEMPTS: u32 = 4;
/// Memory reused across maps.
#[derive(Default)]
pub struct TileScratch {
    owner: Vec<u32>,
    order: Vec<(i64, u32)>,
    shapes: Vec<Shape>,
    search: SearchScratch,
    /// Corridor length in tiles (floor tiles over the width; 0 for doors alone), per edge of the
    /// last map (0 for cosmetic edges).
    pub corridor_len: Vec<u32>,
}

/// Draws the tile map of a level into `grid`: rooms `[x0, x1) x [y0, y1)` (layout units, moved
/// into grid coordinates in place; empty ones are cosmetic vertices), corridors along the edges
/// `src[e]`-`dst[e]` whose `flags` lack [`edge_flag::COSMETIC`]. See the module doc.
///
/// # Errors
/// [`TileError`] when the map would exceed the bound, two rooms touch, or a corridor cannot be
/// drawn.
///
/// # Runtime
/// O(W H) to clear the grid, plus O(length) per corridor drawn by a designed shape; a corridor
/// that needs the search costs O(W H log(W H)). No allocation once the scratch has grown.
#[allow(clippy::too_many_arguments)]
pub fn draw_tile_map(
    x0: &mut [i32],
    y0: &mut [i32],
    x1: &mut [i32],
    y1: &mut [i32],
    src: &[u32],
    dst: &[u32],
    flags: &[u8],
    params: &TileParams,
    grid: &mut Grid,
    s: &mut TileScratch,
) -> Result<TileReport, TileError> {
    let bounds = RoomRects { x0, y0, x1, y1 }.bounds();
    let (width, height) = grid_size(&bounds, params)?;
    let border = params.border();
    let (ox, oy) = (border - bounds.x0, border - bounds.y0);
    shift(x0, x1, ox);
    shift(y0, y1, oy);
    let drawing = Drawing {
        rooms: RoomRects { x0, y0, x1, y1 },
        src,
        dst,
        width,
        height,
        corridor_width: i64::from(params.corridor_width),
    };
    drawing.order_corridors(flags, &mut s.order);
    let mut report = TileReport {
        offset: (ox, oy),
        ..TileReport::default()
    };
    // NOTE: corridors drawn early can box in one drawn later. A corridor that cannot be drawn
    // is moved to the front and the map drawn again, up to ROUTE_ATTEMPTS times (rip-up and
    // reroute at its simplest); most maps are drawn on the first attempt.
    for attempt in 1..=ROUTE_ATTEMPTS {
        let Some(k) = drawing.attempt(grid, s, &mut report)? else {
            return Ok(report);
        };
        if attempt == ROUTE_ATTEMPTS {
            let e = s.order[k].1 as usize;
            return Err(TileError::Unroutable {
                a: src[e].min(dst[e]),
                b: src[e].max(dst[e]),
            });
        }
        s.order[..=k].rotate_right(1);
    }
    unreachable!("the last attempt returns")
}

/// The grid's size for rooms within `bounds`: the box plus the border on every side.
///
/// # Errors
/// [`TileError::TooLarge`] over the bound.
fn grid_size(bounds: &Rect, params: &TileParams) -> Result<(i64, i64), TileError> {
    let border = params.border();
    let width = bounds.x1 - bounds.x0 + 2 * border;
    let height = bounds.y1 - bounds.y0 + 2 * border;
    if width > i64::from(params.max_width) || height > i64::from(params.max_height) {
        return Err(TileError::TooLarge {
            width,
            height,
            max_width: params.max_width,
            max_height: params.max_height,
        });
    }
    Ok((width, height))
}

/// Moves the intervals `[lo, hi)` by `by`.
fn shift(lo: &mut [i32], hi: &mut [i32], by: i64) {
    // NOTE: the shift is exact: the sizes were checked against a bound far below i32::MAX.
    for (l, h) in lo.iter_mut().zip(hi) {
        *l = (i64::from(*l) + by) as i32;
        *h = (i64::from(*h) + by) as i32;
    }
}

/// The rooms of a level, `[x0, x1) x [y0, y1)` per vertex (empty for a cosmetic vertex).
#[derive(Clone, Copy)]
struct RoomRects<'a> {
    x0: &'a [i32],
    y0: &'a [i32],
    x1: &'a [i32],
    y1: &'a [i32],
}

impl RoomRects<'_> {
    /// Number of vertices.
    fn len(&self) -> usize {
        self.x0.len()
    }

    /// Room `v`'s rectangle.
    #[inline]
    fn room(&self, v: usize) -> Rect {
        Rect {
            x0: i64::from(self.x0[v]),
            y0: i64::from(self.y0[v]),
            x1: i64::from(self.x1[v]),
            y1: i64::from(self.y1[v]),
        }
    }

    /// Whether vertex `v` has a room (a non-empty rectangle).
    #[inline]
    fn solid(&self, v: usize) -> bool {
        self.x0[v] < self.x1[v] && self.y0[v] < self.y1[v]
    }

    /// The bounding box of the rooms (all zero when there is none).
    fn bounds(&self) -> Rect {
        let mut b = Rect {
            x0: i64::MAX,
            y0: i64::MAX,
            x1: i64::MIN,
            y1: i64::MIN,
        };
        for v in (0..self.len()).filter(|&v| self.solid(v)) {
            let r = self.room(v);
            b = Rect {
                x0: b.x0.min(r.x0),
                y0: b.y0.min(r.y0),
                x1: b.x1.max(r.x1),
                y1: b.y1.max(r.y1),
            };
        }
        if b.x0 > b.x1 {
            b = Rect {
                x0: 0,
                y0: 0,
                x1: 0,
                y1: 0,
            };
        }
        b
    }
}

/// One map being drawn: its rooms (in grid coordinates), corridor edges and grid size.
struct Drawing<'a> {
    rooms: RoomRects<'a>,
    src: &'a [u32],
    dst: &'a [u32],
    width: i64,
    height: i64,
    corridor_width: i64,
}

impl Drawing<'_> {
    /// Fills `order` with the corridor edges (non-cosmetic, between rooms) as `(gap, edge)`,
    /// the shortest gap first (ties by edge index, for determinism).
    fn order_corridors(&self, flags: &[u8], order: &mut Vec<(i64, u32)>) {
        order.clear();
        for (e, (&a, &b)) in self.src.iter().zip(self.dst).enumerate() {
            let (a, b) = (a as usize, b as usize);
            if flags[e] & edge_flag::COSMETIC != 0 || !self.rooms.solid(a) || !self.rooms.solid(b) {
                continue;
            }
            let (ra, rb) = (self.rooms.room(a), self.rooms.room(b));
            let gap = (rb.x0 - ra.x1).max(ra.x0 - rb.x1).max(0)
                + (rb.y0 - ra.y1).max(ra.y0 - rb.y1).max(0);
            order.push((gap, e as u32));
        }
        order.sort_unstable();
    }

    /// Draws the map once, corridors in `s.order`, counting into `report`. Returns `None` when
    /// every corridor was drawn, else the place in the order of the first that could not be.
    ///
    /// # Errors
    /// [`TileError::RoomsTouch`] from painting the rooms.
    fn attempt(
        &self,
        grid: &mut Grid,
        s: &mut TileScratch,
        report: &mut TileReport,
    ) -> Result<Option<usize>, TileError> {
        grid.reset(self.width as u32, self.height as u32, cell::WALL);
        s.owner.clear();
        s.owner.resize((self.width * self.height) as usize, FREE);
        let mut canvas = Canvas {
            grid,
            owner: &mut s.owner,
            w: self.width,
            h: self.height,
        };
        report.room_tiles = paint_rooms(&mut canvas, &self.rooms)?;
        s.corridor_len.clear();
        s.corridor_len.resize(self.src.len(), 0);
        (report.corridor_tiles, report.door_tiles, report.searched) = (0, 0, 0);
        for k in 0..s.order.len() {
            let e = s.order[k].1;
            let Some((doors, floor)) =
                self.corridor(&mut canvas, e, &mut s.shapes, &mut s.search, report)
            else {
                return Ok(Some(k));
            };
            report.door_tiles += doors;
            report.corridor_tiles += floor;
            s.corridor_len[e as usize] = floor.div_ceil(self.corridor_width as u32);
        }
        Ok(None)
    }

    /// Draws corridor `e`: the first designed shape that fits, else the search (counted in
    /// `report.searched`). Returns the door and floor tiles claimed, or `None` when nothing
    /// fits.
    fn corridor(
        &self,
        canvas: &mut Canvas<'_>,
        e: u32,
        shapes: &mut Vec<Shape>,
        search: &mut SearchScratch,
        report: &mut TileReport,
    ) -> Option<(u32, u32)> {
        let (a, b) = (self.src[e as usize], self.dst[e as usize]);
        let (ra, rb) = (self.rooms.room(a as usize), self.rooms.room(b as usize));
        let w = self.corridor_width;
        shapes.clear();
        designed_shapes(&ra, &rb, w, shapes);
        let Some(sh) = shapes.iter().find(|sh| canvas.shape_ok(sh, a, b)).copied() else {
            report.searched += 1;
            return route_by_search(canvas, &ra, &rb, a, b, e, w, search);
        };
        let doors =
            canvas.claim(&sh.door_a, e, cell::DOOR) + canvas.claim(&sh.door_b, e, cell::DOOR);
        let floor = sh
            .pieces
            .iter()
            .filter(|p| !p.is_empty())
            .map(|p| canvas.claim(p, e, cell::FLOOR))
            .sum::<u32>();
        Some((doors, floor))
    }
}

/// Paints every room's floor and wall ring; returns the floor tiles.
///
/// # Errors
/// [`TileError::RoomsTouch`] when a floor tile lands on another room's floor or ring.
fn paint_rooms(canvas: &mut Canvas<'_>, rooms: &RoomRects<'_>) -> Result<u32, TileError> {
    let mut tiles = 0;
    for v in (0..rooms.len()).filter(|&v| rooms.solid(v)) {
        let r = rooms.room(v);
        for y in r.y0 - 1..r.y1 + 1 {
            for x in r.x0 - 1..r.x1 + 1 {
                let i = canvas.at(x, y);
                let inside = x >= r.x0 && x < r.x1 && y >= r.y0 && y < r.y1;
                let o = canvas.owner[i];
                if inside {
                    if o != FREE {
                        let other = if o == RING {
                            touching(rooms, v, x, y)
                        } else {
                            o
                        };
                        return Err(TileError::RoomsTouch {
                            a: other.min(v as u32),
                            b: other.max(v as u32),
                        });
                    }
                    canvas.owner[i] = v as u32;
                    canvas.grid.cells[i] = cell::FLOOR;
                } else if o == FREE {
                    canvas.owner[i] = RING;
                } else if o != RING {
                    return Err(TileError::RoomsTouch {
                        a: o.min(v as u32),
                        b: o.max(v as u32),
                    });
                }
            }
        }
        tiles += (r.x1 - r.x0) as u32 * (r.y1 - r.y0) as u32;
    }
    Ok(tiles)
}

/// The room other than `v` whose ring holds `(x, y)` (for the error message).
fn touching(rooms: &RoomRects<'_>, v: usize, x: i64, y: i64) -> u32 {
    (0..rooms.len())
        .filter(|&u| u != v)
        .find(|&u| {
            let r = rooms.room(u);
            !r.is_empty() && x >= r.x0 - 1 && x <= r.x1 && y >= r.y0 - 1 && y <= r.y1
        })
        .unwrap_or(v) as u32
}

mod canvas;
mod corridors;
pub mod verify;

#[cfg(test)]
mod tests;
