//! The tile grid every grid-based generator writes, with the one cell legend of DESIGN.md
//! ("Grid and cell codes"). Mazes (seed 001) rasterise into it; dungeons and regions will too.

/// Cell codes shared by every generator. Codes are never reused; new ones are appended.
pub mod cell {
    /// Solid rock or wall.
    pub const WALL: u8 = 0;
    /// Passable floor.
    pub const FLOOR: u8 = 1;
    /// A door.
    pub const DOOR: u8 = 2;
    /// A secret door.
    pub const SECRET_DOOR: u8 = 3;
    /// Stairs up.
    pub const STAIRS_UP: u8 = 4;
    /// Stairs down.
    pub const STAIRS_DOWN: u8 = 5;
    /// A pillar.
    pub const PILLAR: u8 = 6;
    /// Filled (impenetrable, never carved).
    pub const FILLED: u8 = 7;
    /// Void: outside the level (for example a removed maze room).
    pub const VOID: u8 = 8;
    /// Number of codes defined so far.
    pub const COUNT: u8 = 9;
    /// Names of the codes, indexed by code.
    pub const NAMES: [&str; COUNT as usize] = [
        "wall",
        "floor",
        "door",
        "secret_door",
        "stairs_up",
        "stairs_down",
        "pillar",
        "filled",
        "void",
    ];
}

/// A row-major grid of cell codes, `cells[y * width + x]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Grid {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// `width * height` cell codes.
    pub cells: Vec<u8>,
}

impl Grid {
    /// Resizes to `width x height` and fills every cell with `code`, keeping the allocation.
    ///
    /// # Runtime
    /// O(width * height); allocates only when the grid grows past its capacity.
    pub fn reset(&mut self, width: u32, height: u32, code: u8) {
        self.width = width;
        self.height = height;
        self.cells.clear();
        self.cells.resize(width as usize * height as usize, code);
    }

    /// The code at `(x, y)`.
    #[inline]
    pub fn get(&self, x: u32, y: u32) -> u8 {
        self.cells[(y * self.width + x) as usize]
    }

    /// Sets the code at `(x, y)`.
    #[inline]
    pub fn set(&mut self, x: u32, y: u32, code: u8) {
        self.cells[(y * self.width + x) as usize] = code;
    }

    /// A borrowed view of this grid.
    pub fn view(&self) -> GridView<'_> {
        GridView {
            width: self.width,
            height: self.height,
            cells: &self.cells,
        }
    }
}

/// A borrowed grid: what generators hand to the archive and what the archive hands back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridView<'a> {
    /// Columns.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// Row-major cell codes.
    pub cells: &'a [u8],
}

impl GridView<'_> {
    /// The code at `(x, y)`.
    #[inline]
    pub fn get(&self, x: u32, y: u32) -> u8 {
        self.cells[(y * self.width + x) as usize]
    }
}

/// Marks in `seen` (resized to the grid) every cell 4-connected to `start` through cells whose
/// code is `code`, `start` included; returns how many. The oracle-style flood checks use it
/// (`verify` of regions); hot paths keep their own.
///
/// # Runtime
/// O(cells); one stack allocation.
pub fn flood4(cells: &[u8], width: u32, start: usize, code: u8, seen: &mut Vec<bool>) -> usize {
    flood4_by(cells, width, start, |c| c == code, seen)
}

/// [`flood4`] through every cell whose code `open` accepts (for example floor, doors and
/// stairs), `start` included whatever its code. The one grid flood of the verify checks (DMG
/// reachability, grammar tile maps, regions).
///
/// # Runtime
/// O(cells); one stack allocation.
pub fn flood4_by(
    cells: &[u8],
    width: u32,
    start: usize,
    open: impl Fn(u8) -> bool,
    seen: &mut Vec<bool>,
) -> usize {
    let w = width as usize;
    seen.clear();
    seen.resize(cells.len(), false);
    let mut stack = vec![start];
    seen[start] = true;
    let mut reached = 1;
    while let Some(i) = stack.pop() {
        let x = i % w;
        let next = [
            (x + 1 < w).then(|| i + 1),
            (x > 0).then(|| i - 1),
            (i + w < cells.len()).then(|| i + w),
            (i >= w).then(|| i - w),
        ];
        for j in next.into_iter().flatten() {
            if open(cells[j]) && !seen[j] {
                seen[j] = true;
                reached += 1;
                stack.push(j);
            }
        }
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flood4_follows_four_neighbours_of_one_code() {
        // 1 = floor; the diagonal cell at (2, 2) is not 4-connected.
        let cells = [1, 1, 0, 0, 1, 0, 0, 0, 1];
        let mut seen = Vec::new();
        assert_eq!(flood4(&cells, 3, 0, 1, &mut seen), 3);
        assert!(seen[4] && !seen[8]);
    }

    #[test]
    fn reset_reuses_and_fills() {
        let mut g = Grid::default();
        g.reset(3, 2, cell::WALL);
        g.set(2, 1, cell::FLOOR);
        assert_eq!(g.get(2, 1), cell::FLOOR);
        assert_eq!(g.cells.len(), 6);
        g.reset(2, 2, cell::VOID);
        assert!(g.cells.iter().all(|&c| c == cell::VOID));
    }
}
