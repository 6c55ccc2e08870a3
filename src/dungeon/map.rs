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
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// The squares, `cell::WALL` where nothing has been dug.
    pub grid: Grid,
}

impl Map {
    /// An undug map of `width x height` squares.
    pub fn new(width: u32, height: u32) -> Self {
        Self {
            grid: Grid {
                width,
                height,
                cells: vec![cell::WALL; width as usize * height as usize],
            },
        }
    }

    /// Reuses this map as an undug `width x height` one.
    pub fn reset(&mut self, width: u32, height: u32) {
        self.grid.width = width;
        self.grid.height = height;
        self.grid.cells.clear();
        self.grid
            .cells
            .resize(width as usize * height as usize, cell::WALL);
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

    /// Whether `(x, y)` is free to dig: inside and still undug rock.
    #[inline]
    pub fn free(&self, x: i32, y: i32) -> bool {
        self.get(x, y) == Some(cell::WALL)
    }

    /// Sets `(x, y)` to `code` (ignored outside).
    #[inline]
    pub fn set(&mut self, x: i32, y: i32, code: u8) {
        if self.inside(x, y) {
            let w = self.grid.width as usize;
            self.grid.cells[y as usize * w + x as usize] = code;
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
    fn outside_the_map_is_never_free() {
        let m = Map::from_rows(&["..#", "..."]);
        assert!(m.free(0, 0) && !m.free(2, 0) && !m.free(-1, 0) && !m.free(0, 2));
        assert_eq!(m.get(2, 0), Some(cell::FLOOR));
    }
}
