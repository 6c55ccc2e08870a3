//! The lattice maze as a tile grid, and back. A `W x H` lattice maze is fully described by its
//! `(2W + 1) x (2H + 1)` grid: room `(x, y)` is cell `(2x + 1, 2y + 1)` (floor, or void for a
//! hole), the cell between two rooms is floor exactly when a passage joins them, and every other
//! cell is wall. The archive stores only the grid; `verify` decodes the tree from it.

use crate::core::grid::{Grid, GridView, cell};
use crate::maze::spanning::Tree;
use crate::maze::topology::{Lattice, Link, Topology};

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
pub fn decode(
    grid: &GridView,
    width: u32,
    height: u32,
    present: &mut Vec<bool>,
    tree: &mut Tree,
) -> Result<(), String> {
    let (gw, gh) = (2 * width + 1, 2 * height + 1);
    if grid.width != gw || grid.height != gh || grid.cells.len() != (gw * gh) as usize {
        return Err(format!(
            "grid is {}x{} with {} cells, expected {gw}x{gh} for a {width}x{height} lattice",
            grid.width,
            grid.height,
            grid.cells.len()
        ));
    }
    present.clear();
    for y in 0..height {
        for x in 0..width {
            match grid.get(2 * x + 1, 2 * y + 1) {
                cell::FLOOR => present.push(true),
                cell::VOID => present.push(false),
                c => {
                    return Err(format!(
                        "room ({x}, {y}) holds cell code {c}, not floor or void"
                    ));
                }
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
                return Err(format!(
                    "cell ({gx}, {gy}) holds code {code} where only wall, or floor between two rooms, may stand"
                ));
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
                return Err(format!("passage at cell ({gx}, {gy}) opens into a hole"));
            }
            tree.open(link);
        }
    }
    Ok(())
}
