//! The lattice maze as a tile grid, and back. A `W x H` lattice maze is fully described by its
//! `(2W + 1) x (2H + 1)` grid: room `(x, y)` is cell `(2x + 1, 2y + 1)` (floor, or void for a
//! hole), the cell between two rooms is floor exactly when a passage joins them, and every other
//! cell is wall. The archive stores only the grid; `verify` decodes the tree from it.

use crate::core::grid::{Grid, GridView, cell};
use crate::maze::spanning::Tree;
use crate::maze::topology::{Lattice, Link, Topology};

/// A stored lattice grid that is not a lattice maze's drawing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// The grid is not `(2W + 1) x (2H + 1)` with a cell per square.
    #[error(
        "grid is {grid_width}x{grid_height} with {cells} cells, expected {}x{} for a {width}x{height} lattice",
        2 * width + 1,
        2 * height + 1
    )]
    Size {
        /// The grid's columns.
        grid_width: u32,
        /// The grid's rows.
        grid_height: u32,
        /// The grid's cells.
        cells: usize,
        /// The lattice's rooms across.
        width: u32,
        /// The lattice's rooms down.
        height: u32,
    },
    /// A room's cell is neither floor nor void.
    #[error("room ({x}, {y}) holds cell code {code}, not floor or void")]
    Room {
        /// The room's column in the lattice.
        x: u32,
        /// The room's row in the lattice.
        y: u32,
        /// The code found.
        code: u8,
    },
    /// A cell between or around rooms is neither wall nor floor joining two rooms.
    #[error(
        "cell ({x}, {y}) holds code {code} where only wall, or floor between two rooms, may stand"
    )]
    Cell {
        /// The grid column.
        x: u32,
        /// The grid row.
        y: u32,
        /// The code found.
        code: u8,
    },
    /// A passage joins a room to a hole.
    #[error("passage at cell ({x}, {y}) opens into a hole")]
    IntoHole {
        /// The grid column.
        x: u32,
        /// The grid row.
        y: u32,
    },
}

/// Draws the maze into `grid`, reusing its allocation.
///
/// # Runtime
/// O(W * H); no allocation after warm-up.
pub fn rasterize(lattice: &Lattice, tree: &Tree, grid: &mut Grid) {
    let (w, h) = (lattice.width, lattice.height);
    let gw = 2 * w + 1;
    grid.reset(gw, 2 * h + 1, cell::WALL);
    let cells = &mut grid.cells;
    let gw = gw as usize;
    // NOTE: WALL is 0 and FLOOR is 1, exactly the passage flag values, so passages are copied
    // into the grid without a branch.
    const _: () = assert!(cell::WALL == 0 && cell::FLOOR == 1);
    for y in 0..h {
        // PERF: row-by-row, branch-free stores; unpredictable passage tests were 10% of a maze.
        let row = (2 * y as usize + 1) * gw;
        let base = (y * w) as usize;
        for x in 0..w as usize {
            let present = lattice.is_room((base + x) as u32);
            cells[row + 2 * x + 1] = if present { cell::FLOOR } else { cell::VOID };
        }
        let east = lattice.east_edge(0, y) as usize;
        for x in 0..(w - 1) as usize {
            cells[row + 2 * x + 2] = tree.passage[east + x];
        }
        if y + 1 < h {
            let south = lattice.south_edge(0, y) as usize;
            let below = row + gw;
            for x in 0..w as usize {
                cells[below + 2 * x + 1] = tree.passage[south + x];
            }
        }
    }
}

/// Decodes a stored lattice grid into room presence and the passage tree, checking that every
/// cell holds a code the lattice layout allows there.
///
/// # Errors
/// The first cell (in row order, rooms first) that breaks the layout, or a grid of the wrong
/// size.
pub fn decode(
    grid: &GridView,
    width: u32,
    height: u32,
    present: &mut Vec<bool>,
    tree: &mut Tree,
) -> Result<(), DecodeError> {
    let (gw, gh) = (2 * width + 1, 2 * height + 1);
    if grid.width != gw || grid.height != gh || grid.cells.len() != (gw * gh) as usize {
        return Err(DecodeError::Size {
            grid_width: grid.width,
            grid_height: grid.height,
            cells: grid.cells.len(),
            width,
            height,
        });
    }
    present.clear();
    for y in 0..height {
        for x in 0..width {
            match grid.get(2 * x + 1, 2 * y + 1) {
                cell::FLOOR => present.push(true),
                cell::VOID => present.push(false),
                code => return Err(DecodeError::Room { x, y, code }),
            }
        }
    }
    let lattice = Lattice::new(width, height, Some(present));
    tree.reset(lattice.slot_count(), lattice.edge_slots());
    for gy in 0..gh {
        for gx in 0..gw {
            let code = grid.get(gx, gy);
            let (odd_x, odd_y) = (gx % 2 == 1, gy % 2 == 1);
            if odd_x && odd_y {
                continue; // a room, checked above
            }
            if code == cell::WALL {
                continue;
            }
            let between_rooms = (odd_x != odd_y) && gx > 0 && gy > 0 && gx < gw - 1 && gy < gh - 1;
            if code != cell::FLOOR || !between_rooms {
                return Err(DecodeError::Cell { x: gx, y: gy, code });
            }
            let (x, y) = ((gx - 1) / 2, (gy - 1) / 2);
            let a = y * width + x;
            let link = if odd_y {
                let edge = lattice.east_edge(x, y);
                Link {
                    edge,
                    a,
                    b: a + 1,
                    slot_a: 2,
                    slot_b: 1,
                }
            } else {
                let edge = lattice.south_edge(x, y);
                Link {
                    edge,
                    a,
                    b: a + width,
                    slot_a: 3,
                    slot_b: 0,
                }
            };
            if !present[link.a as usize] || !present[link.b as usize] {
                return Err(DecodeError::IntoHole { x: gx, y: gy });
            }
            tree.open(link);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 2 x 1 lattice maze: two rooms and the passage between them.
    fn two_rooms() -> Vec<u8> {
        let mut cells = vec![cell::WALL; 5 * 3];
        for x in 1..4 {
            cells[5 + x] = cell::FLOOR;
        }
        cells
    }

    fn decoded(cells: &[u8], width: u32) -> Result<Tree, DecodeError> {
        let grid = GridView {
            width: 2 * width + 1,
            height: 3,
            cells,
        };
        let (mut present, mut tree) = (Vec::new(), Tree::default());
        decode(&grid, width, 1, &mut present, &mut tree).map(|()| tree)
    }

    #[test]
    fn a_drawn_maze_decodes_to_its_passage() {
        let tree = decoded(&two_rooms(), 2).unwrap();
        assert_eq!(tree.passage.iter().filter(|&&p| p != 0).count(), 1);
    }

    #[test]
    fn each_broken_layout_is_its_own_error() {
        let e = decoded(&two_rooms()[..12], 2).unwrap_err();
        assert_eq!(
            e.to_string(),
            "grid is 5x3 with 12 cells, expected 5x3 for a 2x1 lattice"
        );
        let e = decoded(&two_rooms(), 3).unwrap_err();
        assert!(matches!(e, DecodeError::Size { width: 3, .. }), "{e:?}");
        let mut cells = two_rooms();
        cells[5 + 3] = cell::DOOR;
        let e = decoded(&cells, 2).unwrap_err();
        assert_eq!(
            e,
            DecodeError::Room {
                x: 1,
                y: 0,
                code: cell::DOOR
            }
        );
        assert_eq!(
            e.to_string(),
            format!(
                "room (1, 0) holds cell code {}, not floor or void",
                cell::DOOR
            )
        );
        let mut cells = two_rooms();
        cells[1] = cell::FLOOR;
        let e = decoded(&cells, 2).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cell (1, 0) holds code 1 where only wall, or floor between two rooms, may stand"
        );
        cells = two_rooms();
        cells[5 + 3] = cell::VOID;
        let e = decoded(&cells, 2).unwrap_err();
        assert_eq!(e, DecodeError::IntoHole { x: 2, y: 1 });
        assert_eq!(e.to_string(), "passage at cell (2, 1) opens into a hole");
    }
}
