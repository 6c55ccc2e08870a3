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

    /// Moves `n` squares to the left without turning (right for negative `n`).
    pub fn sidestep_left(&mut self, n: i32) -> &mut Self {
        let (dx, dy) = self.facing.left().step();
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

/// The dungeon grid. Squares outside it count as occupied (nothing may be drawn there).
///
/// With `spacing` on (the generator's setting), a square is only [`free`](Self::free) when no
/// square of its 3 x 3 neighbourhood is dug and it is not on the map's edge: new objects keep a
/// wall of rock between themselves and everything else, and open into it only through the
/// doorways the generator digs on purpose.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// The squares, `cell::WALL` where nothing has been dug.
    pub grid: Grid,
    /// Whether free squares must keep a one-square wall from everything dug.
    pub spacing: bool,
    /// Dug squares in each square's 3 x 3 neighbourhood.
    near: Vec<u8>,
}

impl Map {
    /// An undug map of `width x height` squares, without spacing.
    pub fn new(width: u32, height: u32) -> Self {
        let n = width as usize * height as usize;
        Self {
            grid: Grid {
                width,
                height,
                cells: vec![cell::WALL; n],
            },
            spacing: false,
            near: vec![0; n],
        }
    }

    /// Reuses this map as an undug `width x height` one.
    pub fn reset(&mut self, width: u32, height: u32) {
        let n = width as usize * height as usize;
        self.grid.width = width;
        self.grid.height = height;
        self.grid.cells.clear();
        self.grid.cells.resize(n, cell::WALL);
        self.near.clear();
        self.near.resize(n, 0);
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
        if !self.spacing {
            return self.get(x, y) == Some(cell::WALL);
        }
        let (w, h) = (self.grid.width as i32, self.grid.height as i32);
        x >= 1 && y >= 1 && x < w - 1 && y < h - 1 && self.near[(y * w + x) as usize] == 0
    }

    /// Whether `(x, y)` is dug (inside and not rock).
    #[inline]
    pub fn dug(&self, x: i32, y: i32) -> bool {
        self.get(x, y).is_some_and(|c| c != cell::WALL)
    }

    /// Sets `(x, y)` to `code` (ignored outside), keeping the neighbourhood counts.
    #[inline]
    pub fn set(&mut self, x: i32, y: i32, code: u8) {
        if !self.inside(x, y) {
            return;
        }
        let w = self.grid.width as usize;
        let i = y as usize * w + x as usize;
        let was = self.grid.cells[i] != cell::WALL;
        let now = code != cell::WALL;
        self.grid.cells[i] = code;
        if was != now {
            let h = self.grid.height as i32;
            // PERF: away from the edge the whole 3 x 3 block is inside; no per-square test.
            if x >= 1 && y >= 1 && x < w as i32 - 1 && y < h - 1 {
                for dy in 0..3 {
                    let row = (y as usize + dy - 1) * w + x as usize - 1;
                    for n in &mut self.near[row..row + 3] {
                        if now {
                            *n += 1;
                        } else {
                            *n -= 1;
                        }
                    }
                }
                return;
            }
            for dy in -1..=1 {
                for dx in -1..=1 {
                    if self.inside(x + dx, y + dy) {
                        let j = (y + dy) as usize * w + (x + dx) as usize;
                        if now {
                            self.near[j] += 1;
                        } else {
                            self.near[j] -= 1;
                        }
                    }
                }
            }
        }
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
        m.spacing = true;
        assert!(m.free(3, 3) && !m.free(0, 3) && !m.free(3, 7));
        m.set(4, 4, cell::FLOOR);
        assert!(!m.free(3, 3) && !m.free(5, 5) && m.free(2, 2) && m.free(4, 2));
        m.set(4, 4, cell::WALL);
        assert!(m.free(3, 3));
    }

    #[test]
    fn outside_the_map_is_never_free() {
        let m = Map::from_rows(&["..#", "..."]);
        assert!(m.free(0, 0) && !m.free(2, 0) && !m.free(-1, 0) && !m.free(0, 2));
        assert_eq!(m.get(2, 0), Some(cell::FLOOR));
    }
}
