//! The dungeon map of seed 003: a grid of 5-ft squares (cell codes of DESIGN.md) that knows
//! what is occupied, and the cursor that draws on it.
//!
//! The cursor is the seed's: a position and a facing that moves forward and turns, working in a
//! map object's own grid while answering for the map's through a fixed offset ("the cursor
//! offset and the map object offset are one and the same"): `map = object + offset`. Left and
//! right are relative to the facing, so an object drawn by a cursor can be placed in any of the
//! four rotations by starting the cursor with another facing.

use crate::core::grid::{Grid, cell};

/// One of the four directions a cursor can face. The map's `y` grows southward.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Facing {
    /// Toward `y - 1`.
    North,
    /// Toward `x + 1`.
    East,
    /// Toward `y + 1`.
    South,
    /// Toward `x - 1`.
    West,
}

impl Facing {
    /// The unit step forward.
    pub fn step(self) -> (i32, i32) {
        match self {
            Facing::North => (0, -1),
            Facing::East => (1, 0),
            Facing::South => (0, 1),
            Facing::West => (-1, 0),
        }
    }

    /// A quarter turn to the left.
    pub fn left(self) -> Facing {
        match self {
            Facing::North => Facing::West,
            Facing::West => Facing::South,
            Facing::South => Facing::East,
            Facing::East => Facing::North,
        }
    }

    /// A quarter turn to the right.
    pub fn right(self) -> Facing {
        self.left().left().left()
    }

    /// The opposite direction.
    pub fn back(self) -> Facing {
        self.left().left()
    }
}

/// A drawing position: object-grid coordinates, a facing, and the offset that turns object
/// coordinates into map coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    /// Object-grid x.
    pub x: i32,
    /// Object-grid y.
    pub y: i32,
    /// Which way forward is.
    pub facing: Facing,
    /// Map position of the object grid's origin.
    pub offset: (i32, i32),
}

impl Cursor {
    /// A cursor at map square `(x, y)` whose object grid coincides with the map's.
    pub fn at(x: i32, y: i32, facing: Facing) -> Self {
        Self {
            x,
            y,
            facing,
            offset: (0, 0),
        }
    }

    /// Map x (`x + offset`).
    pub fn map_x(&self) -> i32 {
        self.x + self.offset.0
    }

    /// Map y (`y + offset`).
    pub fn map_y(&self) -> i32 {
        self.y + self.offset.1
    }

    /// Moves `n` squares forward (backward for negative `n`).
    pub fn forward(&mut self, n: i32) -> &mut Self {
        let (dx, dy) = self.facing.step();
        self.x += dx * n;
        self.y += dy * n;
        self
    }

    /// Turns a quarter to the left.
    pub fn turn_left(&mut self) -> &mut Self {
        self.facing = self.facing.left();
        self
    }

    /// Turns a quarter to the right.
    pub fn turn_right(&mut self) -> &mut Self {
        self.facing = self.facing.right();
        self
    }

    /// The map square `ahead` squares forward and `left` squares to the left of this cursor.
    pub fn map_square(&self, ahead: i32, left: i32) -> (i32, i32) {
        let (fx, fy) = self.facing.step();
        let (lx, ly) = self.facing.left().step();
        (
            self.map_x() + fx * ahead + lx * left,
            self.map_y() + fy * ahead + ly * left,
        )
    }
}

/// Squares of permanent "blocked, undug" padding around the map in [`Map`]'s state array, so
/// walks that stop at the first blocked square, and looks two squares past a free one, never
/// leave the array.
const PAD: i32 = 2;
/// State bit: the square is dug (not rock).
const DUG: u8 = 1;
/// State bit: the square is not free to dig (dug, outside, or with spacing: on the edge or next
/// to something dug).
const BLOCKED: u8 = 2;
/// State bit: the square is outside the map or on its edge ring.
const EDGE: u8 = 4;

/// Index arithmetic for squares relative to a cursor: the square `a` ahead and `l` to the left
/// is `base + a * ahead + l * left` in the map's state array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    base: isize,
    ahead: isize,
    left: isize,
}

impl Frame {
    /// The state index of the square `a` ahead and `l` to the left.
    #[inline]
    pub fn at(&self, a: i32, l: i32) -> usize {
        (self.base + a as isize * self.ahead + l as isize * self.left) as usize
    }

    /// The index step of one square to the left.
    #[inline]
    pub fn left_step(&self) -> isize {
        self.left
    }

    /// The index step of one square ahead.
    #[inline]
    pub fn ahead_step(&self) -> isize {
        self.ahead
    }
}

/// The dungeon grid. Squares outside it count as occupied (nothing may be drawn there).
///
/// With `spacing` on (the generator's setting), a square is only [`free`](Self::free) when no
/// square of its 3 x 3 neighbourhood is dug and it is not on the map's edge: new objects keep a
/// wall of rock between themselves and everything else, and open into it only through the
/// doorways the generator digs on purpose.
///
/// Beside the grid the map keeps one state byte per square (dug, blocked, edge), padded by
/// two blocked squares (`PAD`) on every side, so the hot walks of chamber placement read one byte
/// per square through a [`Frame`] instead of turning coordinates and testing bounds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// The squares, `cell::WALL` where nothing has been dug.
    pub grid: Grid,
    spacing: bool,
    /// Padded state bytes (`DUG | BLOCKED | EDGE`), row-major with `stride` per row.
    state: Vec<u8>,
    stride: usize,
}

impl Map {
    /// An undug map of `width x height` squares, without spacing.
    pub fn new(width: u32, height: u32) -> Self {
        let mut m = Self {
            grid: Grid {
                width,
                height,
                cells: Vec::new(),
            },
            spacing: false,
            state: Vec::new(),
            stride: 0,
        };
        m.reset(width, height, false);
        m
    }

    /// Reuses this map as an undug `width x height` one, with or without spacing.
    pub fn reset(&mut self, width: u32, height: u32, spacing: bool) {
        let n = width as usize * height as usize;
        self.grid.width = width;
        self.grid.height = height;
        self.grid.cells.clear();
        self.grid.cells.resize(n, cell::WALL);
        self.spacing = spacing;
        let pad = PAD as usize;
        self.stride = width as usize + 2 * pad;
        let rows = height as usize + 2 * pad;
        self.state.clear();
        self.state.resize(self.stride * rows, 0);
        // The padding is blocked edge; the map's edge ring is edge, and blocked with spacing.
        // PERF: whole rows and runs at a time; this runs once per level.
        let (w, h, stride) = (width as usize, height as usize, self.stride);
        let out = BLOCKED | EDGE;
        let ring = if spacing { BLOCKED | EDGE } else { EDGE };
        self.state[..pad * stride].fill(out);
        self.state[(pad + h) * stride..].fill(out);
        for y in 0..h {
            let row = &mut self.state[(pad + y) * stride..(pad + y + 1) * stride];
            row[..pad].fill(out);
            row[pad + w..].fill(out);
            if y == 0 || y + 1 == h {
                row[pad..pad + w].fill(ring);
            } else if w > 0 {
                row[pad] = ring;
                row[pad + w - 1] = ring;
            }
        }
    }

    /// Whether free squares keep a one-square wall from everything dug.
    pub fn spacing(&self) -> bool {
        self.spacing
    }

    /// Turns spacing on or off, recomputing which squares are free.
    pub fn set_spacing(&mut self, spacing: bool) {
        if spacing == self.spacing {
            return;
        }
        self.spacing = spacing;
        let (w, h) = (self.grid.width as i32, self.grid.height as i32);
        for y in 0..h {
            for x in 0..w {
                self.refresh_blocked(x, y);
            }
        }
    }

    /// The state index of `(x, y)`; valid for `-PAD <= x < width + PAD` (and likewise `y`).
    #[inline]
    fn index(&self, x: i32, y: i32) -> usize {
        (y + PAD) as usize * self.stride + (x + PAD) as usize
    }

    /// The state byte of `(x, y)`, `BLOCKED | EDGE` anywhere outside the padding.
    #[inline]
    fn state_at(&self, x: i32, y: i32) -> u8 {
        let (w, h) = (self.grid.width as i32, self.grid.height as i32);
        if x < -PAD || y < -PAD || x >= w + PAD || y >= h + PAD {
            return BLOCKED | EDGE;
        }
        self.state[self.index(x, y)]
    }

    /// The index frame of `cursor` (its square must lie inside the padded map; squares reached
    /// through the frame are only read when walks are bounded by blocked squares, see
    /// [`Map::free_at`]).
    #[inline]
    pub fn frame(&self, c: &Cursor) -> Frame {
        let (fx, fy) = c.facing.step();
        let (lx, ly) = c.facing.left().step();
        let stride = self.stride as isize;
        Frame {
            base: (c.map_y() + PAD) as isize * stride + (c.map_x() + PAD) as isize,
            ahead: fy as isize * stride + fx as isize,
            left: ly as isize * stride + lx as isize,
        }
    }

    /// Whether the square at state index `i` (from a [`Frame`]) is free. Panics when `i` is
    /// outside the padded array: callers only step one square past a free square, or up to
    /// two squares (`PAD`) past one, which the padding covers.
    #[inline]
    pub fn free_at(&self, i: usize) -> bool {
        self.state[i] & BLOCKED == 0
    }

    /// Whether the square at state index `i` (from a [`Frame`]) is dug.
    #[inline]
    pub fn dug_at(&self, i: usize) -> bool {
        self.state[i] & DUG != 0
    }

    /// Whether the square at state index `i` is inside, off the edge ring and undug: where a
    /// passage square or its side wall may go.
    #[inline]
    pub fn open_at(&self, i: usize) -> bool {
        self.state[i] & (DUG | EDGE) == 0
    }

    /// Whether `(x, y)` is inside, off the edge ring and undug (see [`Map::open_at`]).
    #[inline]
    pub fn open(&self, x: i32, y: i32) -> bool {
        self.state_at(x, y) & (DUG | EDGE) == 0
    }

    /// Whether `(x, y)` is inside the map.
    #[inline]
    pub fn inside(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && (x as u32) < self.grid.width && (y as u32) < self.grid.height
    }

    /// The code at `(x, y)`, `None` outside.
    #[inline]
    pub fn get(&self, x: i32, y: i32) -> Option<u8> {
        self.inside(x, y)
            .then(|| self.grid.cells[y as usize * self.grid.width as usize + x as usize])
    }

    /// Whether `(x, y)` is free to dig: inside and still undug rock (and, with spacing, off
    /// the map's edge with nothing dug around it).
    #[inline]
    pub fn free(&self, x: i32, y: i32) -> bool {
        self.state_at(x, y) & BLOCKED == 0
    }

    /// Whether `(x, y)` is dug (inside and not rock).
    #[inline]
    pub fn dug(&self, x: i32, y: i32) -> bool {
        self.state_at(x, y) & DUG != 0
    }

    /// Sets `(x, y)` to `code` (ignored outside), keeping the state bytes.
    #[inline]
    pub fn set(&mut self, x: i32, y: i32, code: u8) {
        if !self.inside(x, y) {
            return;
        }
        let w = self.grid.width as usize;
        let c = &mut self.grid.cells[y as usize * w + x as usize];
        let was = *c != cell::WALL;
        let now = code != cell::WALL;
        *c = code;
        if was == now {
            return;
        }
        let i = self.index(x, y);
        if !now {
            self.undig_slow_path(x, y);
            return;
        }
        self.state[i] |= DUG | BLOCKED;
        if self.spacing {
            // PERF: digging only ever blocks; the padding keeps the 3 x 3 block in the array
            // even on the edge, so no per-square test.
            let s = self.stride;
            for row in [i - s - 1, i - 1, i + s - 1] {
                for b in &mut self.state[row..row + 3] {
                    *b |= BLOCKED;
                }
            }
        }
    }

    /// Digs every square of `[x0, x1) x [y0, y1)` with `code`, as [`Map::set`] on each would.
    pub fn dig_rect(&mut self, (x0, y0): (i32, i32), (x1, y1): (i32, i32), code: u8) {
        if x0 >= x1 || y0 >= y1 {
            return;
        }
        if code == cell::WALL || !self.inside(x0, y0) || !self.inside(x1 - 1, y1 - 1) {
            for y in y0..y1 {
                for x in x0..x1 {
                    self.set(x, y, code);
                }
            }
            return;
        }
        // PERF: whole rows of the grid and of the state bytes; with spacing, the rectangle grown
        // by one square on every side (inside the padding) is blocked in one pass.
        let w = self.grid.width as usize;
        let (cx0, cx1) = (x0 as usize, x1 as usize);
        for y in y0 as usize..y1 as usize {
            self.grid.cells[y * w + cx0..y * w + cx1].fill(code);
        }
        for y in y0..y1 {
            let i = self.index(x0, y);
            for b in &mut self.state[i..i + (x1 - x0) as usize] {
                *b |= DUG | BLOCKED;
            }
        }
        if self.spacing {
            for y in y0 - 1..y1 + 1 {
                let i = self.index(x0 - 1, y);
                for b in &mut self.state[i..i + (x1 - x0 + 2) as usize] {
                    *b |= BLOCKED;
                }
            }
        }
    }

    /// Filling a dug square back in (rare: tests and tools): its neighbourhood's blocked bits
    /// are worked out again from what is still dug.
    #[inline(never)]
    fn undig_slow_path(&mut self, x: i32, y: i32) {
        let i = self.index(x, y);
        self.state[i] &= !DUG;
        for dy in -1..=1 {
            for dx in -1..=1 {
                if self.inside(x + dx, y + dy) {
                    self.refresh_blocked(x + dx, y + dy);
                }
            }
        }
    }

    /// Recomputes the blocked bit of an inside square from the dug bits and the spacing.
    fn refresh_blocked(&mut self, x: i32, y: i32) {
        let i = self.index(x, y);
        let s = self.state[i];
        let blocked = if self.spacing {
            s & EDGE != 0 || (-1..=1).any(|dy| (-1..=1).any(|dx| self.dug(x + dx, y + dy)))
        } else {
            s & DUG != 0
        };
        self.state[i] = if blocked { s | BLOCKED } else { s & !BLOCKED };
    }

    /// A map from rows of text: `.` undug, `#` floor (occupied), anything else its code's digit.
    /// For tests and examples.
    pub fn from_rows(rows: &[&str]) -> Self {
        let h = rows.len() as u32;
        let w = rows.first().map_or(0, |r| r.len()) as u32;
        let mut m = Map::new(w, h);
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.bytes().enumerate() {
                let code = match c {
                    b'.' => cell::WALL,
                    b'#' => cell::FLOOR,
                    d @ b'0'..=b'9' => d - b'0',
                    _ => cell::FILLED,
                };
                m.set(x as i32, y as i32, code);
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_compose_and_steps_match_the_facing() {
        for f in [Facing::North, Facing::East, Facing::South, Facing::West] {
            assert_eq!(f.left().right(), f);
            assert_eq!(f.back().back(), f);
            assert_eq!(f.left().left().left().left(), f);
            let (dx, dy) = f.step();
            let (lx, ly) = f.left().step();
            // Left is a counter-clockwise quarter turn on a y-down grid.
            assert_eq!((lx, ly), (dy, -dx));
        }
    }

    /// The seed's worked cursor: object coordinates (-1, 10), offset (16, 5), one step east.
    #[test]
    fn the_seeds_cursor_offset() {
        let mut c = Cursor {
            x: -1,
            y: 10,
            facing: Facing::East,
            offset: (16, 5),
        };
        assert_eq!((c.map_x(), c.map_y()), (15, 15));
        c.forward(1);
        assert_eq!((c.x, c.y), (0, 10));
        assert_eq!((c.map_x(), c.map_y()), (16, 15));
    }

    #[test]
    fn map_squares_relative_to_a_cursor() {
        let c = Cursor::at(5, 5, Facing::North);
        assert_eq!(c.map_square(2, 0), (5, 3));
        assert_eq!(c.map_square(0, 1), (4, 5));
        assert_eq!(c.map_square(1, -1), (6, 4));
        let e = Cursor::at(5, 5, Facing::East);
        assert_eq!(e.map_square(2, 1), (7, 4));
    }

    #[test]
    fn spacing_keeps_a_wall_around_dug_squares() {
        let mut m = Map::new(8, 8);
        m.set_spacing(true);
        assert!(m.free(3, 3) && !m.free(0, 3) && !m.free(3, 7));
        m.set(4, 4, cell::FLOOR);
        assert!(!m.free(3, 3) && !m.free(5, 5) && m.free(2, 2) && m.free(4, 2));
        m.set(4, 4, cell::WALL);
        assert!(m.free(3, 3));
    }

    /// Digging a rectangle at once equals digging its squares one by one, with and without
    /// spacing, on the edge and across it; every square's free/dug/open answer is compared.
    #[test]
    fn dig_rect_matches_square_by_square_digging() {
        let mut rng = crate::core::rng::WarrenRng::new(3);
        for round in 0..300 {
            let spacing = round % 2 == 0;
            let (mut a, mut b) = (Map::new(12, 9), Map::new(12, 9));
            a.set_spacing(spacing);
            b.set_spacing(spacing);
            for _ in 0..3 {
                let x0 = rng.below(14) as i32 - 1;
                let y0 = rng.below(11) as i32 - 1;
                let (x1, y1) = (x0 + rng.below(6) as i32, y0 + rng.below(6) as i32);
                let code = [cell::FLOOR, cell::DOOR][rng.below(2) as usize];
                a.dig_rect((x0, y0), (x1, y1), code);
                for y in y0..y1 {
                    for x in x0..x1 {
                        b.set(x, y, code);
                    }
                }
            }
            assert_eq!(a.grid, b.grid, "round {round}");
            for y in -3..12 {
                for x in -3..15 {
                    assert_eq!(
                        (a.free(x, y), a.dug(x, y), a.open(x, y)),
                        (b.free(x, y), b.dug(x, y), b.open(x, y)),
                        "round {round} at ({x}, {y})"
                    );
                }
            }
        }
    }

    /// Filling squares back in restores what is free, as if they had never been dug.
    #[test]
    fn undigging_restores_the_free_squares() {
        let mut m = Map::new(10, 10);
        m.set_spacing(true);
        let fresh = m.clone();
        m.dig_rect((3, 3), (6, 5), cell::FLOOR);
        m.set(1, 1, cell::FLOOR);
        assert!(!m.free(2, 2) && !m.free(6, 5));
        m.dig_rect((3, 3), (6, 5), cell::WALL);
        m.set(1, 1, cell::WALL);
        assert_eq!(m, fresh);
    }

    #[test]
    fn outside_the_map_is_never_free() {
        let m = Map::from_rows(&["..#", "..."]);
        assert!(m.free(0, 0) && !m.free(2, 0) && !m.free(-1, 0) && !m.free(0, 2));
        assert_eq!(m.get(2, 0), Some(cell::FLOOR));
    }
}
