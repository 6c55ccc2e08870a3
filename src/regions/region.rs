//! [`Region`] (seed 004, "class Region"): one connected group of cells stored in a rectangular
//! array no larger than Wmax x Hmax, padded with Empty, with its box in parent coordinates,
//! depth, zoom, parent link and its entry and exit points (the seed's footnote: sub-regions have
//! entry and exit points).
//!
//! A region keeps the cells it was made with (`initial`) beside the current ones, so carving can
//! be checked: Occupied may become Empty (carved) or Filled; Empty never becomes anything else.
//! The only mutators, [`Region::carve`] and [`Region::fill`], assert it.

use crate::regions::cell::Cell;

/// The one sentinel of region ids: no parent, no label.
pub const NONE: u32 = u32::MAX;

/// No neighbour: the array ends there (see [`Region::neighbours`]).
pub const OUTSIDE: usize = usize::MAX;

/// Ports a pooled region holds without growing (a piece meets at most a few siblings).
const PORTS_CAPACITY: usize = 32;

/// A rectangle of region cells `[x0, x1) x [y0, y1)`.
pub type RegionBox = crate::core::geom::Rect<u32>;

/// A cell position inside a region.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Point {
    /// Column.
    pub x: u32,
    /// Row.
    pub y: u32,
}

/// One region: cells, where it sits in its parent, and how it is entered and left.
#[derive(Clone, Debug, Default)]
pub struct Region {
    width: u32,
    height: u32,
    cells: Vec<Cell>,
    initial: Vec<Cell>,
    /// Per cell: the index of the sub-region (among this region's children) it belongs to after
    /// the split, or [`NONE`].
    pub(crate) label: Vec<u32>,
    /// The parent cells this region expands, in parent coordinates (the root: its own size).
    pub bbox: RegionBox,
    /// 0 for the root.
    pub depth: u32,
    /// Subcells per parent cell along each axis (1 for the root).
    pub zoom: u32,
    /// Tree index of the parent region, [`NONE`] for the root.
    pub parent: u32,
    /// This region's index in the level's region tree.
    pub node: u32,
    /// Where the carved path starts (a border cell facing the parent's passage).
    pub entry: Point,
    /// Where the carved path ends.
    pub exit: Point,
    /// Further ports beyond entry and exit (subcells on sides shared with sibling pieces of one
    /// divided component): each is joined to the carved passage.
    pub ports: Vec<Point>,
    /// World-raster column edges: column `x` covers world columns `xs[x]..xs[x + 1]`
    /// (`width + 1` entries; see `build`'s world raster).
    pub(crate) xs: Vec<u32>,
    /// World-raster row edges (`height + 1` entries).
    pub(crate) ys: Vec<u32>,
}

impl Region {
    /// An empty region whose buffers hold `cells` cells without reallocating.
    ///
    /// # Runtime
    /// Six allocations (three of `cells` entries, the ports and the world edges); none
    /// afterwards for regions that fit.
    pub fn with_capacity(cells: usize) -> Self {
        // PERF: a side is at most `cells` long; the edges hold a side plus one.
        let side = cells + 1;
        Self {
            cells: Vec::with_capacity(cells),
            initial: Vec::with_capacity(cells),
            label: Vec::with_capacity(cells),
            ports: Vec::with_capacity(PORTS_CAPACITY),
            xs: Vec::with_capacity(side),
            ys: Vec::with_capacity(side),
            ..Self::default()
        }
    }

    /// Columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// Current cells, row-major.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// Cells as the region was made, before carving, row-major.
    pub fn initial(&self) -> &[Cell] {
        &self.initial
    }

    /// Index of `(x, y)`.
    #[inline]
    pub fn index(&self, x: u32, y: u32) -> usize {
        (y * self.width + x) as usize
    }

    /// `(x, y)` of index `i`.
    #[inline]
    pub fn point(&self, i: usize) -> Point {
        Point {
            x: i as u32 % self.width,
            y: i as u32 / self.width,
        }
    }

    /// Whether cell `i` belongs to the region (it was Occupied when the region was made).
    #[inline]
    pub fn inside(&self, i: usize) -> bool {
        self.initial[i] == Cell::Occupied
    }

    /// Whether cell `i` is a carved passage: inside the region and now Empty.
    #[inline]
    pub fn carved(&self, i: usize) -> bool {
        self.cells[i] == Cell::Empty && self.initial[i] == Cell::Occupied
    }

    /// The 4-neighbour of `i` in direction `dir` (0 right, 1 down, 2 left, 3 up), if inside
    /// the array.
    #[inline]
    pub fn neighbour(&self, i: usize, dir: u32) -> Option<usize> {
        let p = self.point(i);
        match dir {
            0 if p.x + 1 < self.width => Some(i + 1),
            1 if p.y + 1 < self.height => Some(i + self.width as usize),
            2 if p.x > 0 => Some(i - 1),
            3 if p.y > 0 => Some(i - self.width as usize),
            _ => None,
        }
    }

    /// The four 4-neighbours of `i` in direction order (0 right, 1 down, 2 left, 3 up),
    /// [`OUTSIDE`] where the array ends.
    // PERF: one division for the four, against one per direction in [`Region::neighbour`], and
    // no `Option` for the loops to unpack; the breadth-first walks of carving and splitting
    // spent half their time dividing.
    #[inline]
    pub fn neighbours(&self, i: usize) -> [usize; 4] {
        let p = self.point(i);
        let w = self.width as usize;
        [
            if p.x + 1 < self.width { i + 1 } else { OUTSIDE },
            if p.y + 1 < self.height {
                i + w
            } else {
                OUTSIDE
            },
            if p.x > 0 { i - 1 } else { OUTSIDE },
            if p.y > 0 { i - w } else { OUTSIDE },
        ]
    }

    /// Starts a `width x height` region with every cell Uninitialized (no allocation when it
    /// fits the buffers' capacity).
    pub fn reset(&mut self, width: u32, height: u32) {
        let n = (width * height) as usize;
        self.width = width;
        self.height = height;
        for v in [&mut self.cells, &mut self.initial] {
            v.clear();
            v.resize(n, Cell::Uninitialized);
        }
        self.label.clear();
        self.label.resize(n, NONE);
        self.ports.clear();
    }

    /// Assigns cell `i` while the region is being made (before [`Region::seal`]).
    #[inline]
    pub fn set(&mut self, i: usize, cell: Cell) {
        self.cells[i] = cell;
    }

    /// Ends construction: the current cells become the initial ones.
    ///
    /// # Panics
    /// If a cell is still Uninitialized.
    pub fn seal(&mut self) {
        assert!(
            !self.cells.contains(&Cell::Uninitialized),
            "a region was sealed with Uninitialized cells"
        );
        self.initial.copy_from_slice(&self.cells);
    }

    /// Carves cell `i` (Occupied -> Empty; carving a carved cell does nothing).
    ///
    /// # Panics
    /// If the cell is Filled, padding outside the region, or Uninitialized: Empty never becomes
    /// Occupied and carving never reaches outside its region.
    #[inline]
    pub fn carve(&mut self, i: usize) {
        assert!(
            self.initial[i] == Cell::Occupied && self.cells[i] != Cell::Filled,
            "carving cell {i}, which is {:?} (was {:?})",
            self.cells[i],
            self.initial[i]
        );
        self.cells[i] = Cell::Empty;
    }

    /// Marks cell `i` permanently Filled (Occupied -> Filled).
    ///
    /// # Panics
    /// If the cell is not Occupied.
    #[inline]
    pub fn fill(&mut self, i: usize) {
        assert!(
            self.cells[i] == Cell::Occupied,
            "filling cell {i}, which is {:?}",
            self.cells[i]
        );
        self.cells[i] = Cell::Filled;
    }

    /// Cells that were Occupied when the region was made.
    pub fn size(&self) -> u32 {
        self.initial
            .iter()
            .filter(|&&c| c == Cell::Occupied)
            .count() as u32
    }
}

/// Parses a picture of cells (`#` Occupied, `·` or `.` Empty, `*` Filled), one row per line;
/// for tests and examples.
pub fn region_from_picture(rows: &[&str]) -> Region {
    let h = rows.len() as u32;
    let w = rows[0].chars().count() as u32;
    let mut r = Region::with_capacity((w * h) as usize);
    r.reset(w, h);
    for (y, row) in rows.iter().enumerate() {
        assert_eq!(row.chars().count() as u32, w, "ragged picture");
        for (x, c) in row.chars().enumerate() {
            let cell = match c {
                '#' => Cell::Occupied,
                '*' => Cell::Filled,
                _ => Cell::Empty,
            };
            let i = r.index(x as u32, y as u32);
            r.set(i, cell);
        }
    }
    r.seal();
    r
}

/// Draws the current cells as a picture (the inverse of [`region_from_picture`]).
pub fn picture(region: &Region) -> Vec<String> {
    (0..region.height())
        .map(|y| {
            (0..region.width())
                .map(|x| match region.cells()[region.index(x, y)] {
                    Cell::Occupied => '#',
                    Cell::Filled => '*',
                    Cell::Empty => '·',
                    Cell::Uninitialized => '?',
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn carving_and_filling_only_take_occupied_cells() {
        let mut r = region_from_picture(&["##", "#·"]);
        r.carve(0);
        r.carve(0);
        r.fill(1);
        assert_eq!(picture(&r), ["·*", "#·"]);
        assert!(r.carved(0) && !r.carved(3) && !r.inside(3));
    }

    #[test]
    #[should_panic(expected = "carving cell 3")]
    fn padding_is_never_carved() {
        let mut r = region_from_picture(&["##", "#·"]);
        r.carve(3);
    }

    #[test]
    #[should_panic(expected = "filling cell 3")]
    fn empty_never_fills() {
        let mut r = region_from_picture(&["##", "#·"]);
        r.fill(3);
    }
}
