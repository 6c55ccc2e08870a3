//! The lattice algorithms of `maze.algorithm` (a lattice without holes, rooms `y * width + x`,
//! slots north 0, west 1, east 2, south 3): Eller's sets row by row, sidewinder, binary tree and
//! recursive division. A child of `maze::algorithms`.

use crate::core::rng::WarrenRng;
use crate::maze::algorithms::algorithm::AlgoParams;
use crate::maze::algorithms::bits::Bits;
use crate::maze::algorithms::scratch::AlgoScratch;
use crate::maze::spanning::Tree;
use crate::maze::topology::Topology;

/// Lattice slots: north, west, east, south.
const NORTH: u32 = 0;
const WEST: u32 = 1;
const EAST: u32 = 2;
const SOUTH: u32 = 3;

/// Eller's algorithm with the sets of the current row only: `label[x]` names the set of room
/// `x` of the row (labels below `width * height`), so joining two sets relabels one row, and a
/// room that does not come down from the row above starts a set of its own.
///
/// PERF: a union-find over all rooms spent a quarter of the maze relabelling sets that reach
/// back over every row; the row's labels give the same partition of the row, and with it the
/// same draws and the same mazes.
pub(super) fn eller<T: Topology>(
    topo: &T,
    p: AlgoParams,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    let (w, h) = (p.width, p.height);
    let wu = w as usize;
    s.left.clear();
    s.left.resize(topo.slot_count().max(wu), 0);
    s.down.clear();
    s.down.resize(topo.slot_count().max(wu), false);
    // The row's labels, then the next row's.
    s.stack.clear();
    s.stack.extend(0..2 * w);
    let (label, next) = s.stack.split_at_mut(wu);
    let mut fresh = w;
    let mut opened = 0;
    let mut bits = Bits::default();
    for y in 0..h {
        let row = y * w;
        let last = y + 1 == h;
        // Join neighbours of different sets: at random, and always on the last row.
        for x in 0..wu.saturating_sub(1) {
            let (a, b) = (label[x], label[x + 1]);
            if a != b && (last || bits.coin(rng)) {
                for l in label.iter_mut() {
                    *l = if *l == b { a } else { *l };
                }
                tree.open(Tree::link(topo, row + x as u32, EAST));
                opened += 1;
            }
        }
        if last {
            break;
        }
        // Passages down: at random, and at least one per set (the set's last room in the row
        // goes down when none of the others did).
        for &r in label.iter() {
            s.left[r as usize] += 1;
            s.down[r as usize] = false;
        }
        for x in 0..wu {
            let r = label[x] as usize;
            s.left[r] -= 1;
            let forced = s.left[r] == 0 && !s.down[r];
            if forced || bits.coin(rng) {
                s.down[r] = true;
                tree.open(Tree::link(topo, row + x as u32, SOUTH));
                opened += 1;
                next[x] = r as u32;
            } else {
                next[x] = fresh;
                fresh += 1;
            }
        }
        label.copy_from_slice(next);
    }
    opened
}

pub(super) fn sidewinder<T: Topology>(
    topo: &T,
    p: AlgoParams,
    rng: &mut WarrenRng,
    tree: &mut Tree,
) -> usize {
    let (w, h) = (p.width, p.height);
    let mut opened = 0;
    let mut bits = Bits::default();
    for y in 0..h {
        let mut run_start = 0;
        for x in 0..w {
            let v = y * w + x;
            let east = x + 1 < w && (y == 0 || bits.coin(rng));
            if east {
                tree.open(Tree::link(topo, v, EAST));
                opened += 1;
            } else {
                if y > 0 {
                    let c = run_start + rng.below(x - run_start + 1);
                    tree.open(Tree::link(topo, y * w + c, NORTH));
                    opened += 1;
                }
                run_start = x + 1;
            }
        }
    }
    opened
}

pub(super) fn binary_tree<T: Topology>(
    topo: &T,
    p: AlgoParams,
    rng: &mut WarrenRng,
    tree: &mut Tree,
) -> usize {
    let (w, h) = (p.width, p.height);
    let mut opened = 0;
    let mut bits = 0u64;
    for y in 0..h {
        for x in 0..w {
            if bits <= 1 {
                bits = rng.next_u64() | 1 << 63;
            }
            let coin = bits & 1 == 0;
            bits >>= 1;
            let slot = match (x > 0, y > 0) {
                (false, false) => continue,
                (true, false) => WEST,
                (false, true) => NORTH,
                (true, true) => {
                    if coin {
                        WEST
                    } else {
                        NORTH
                    }
                }
            };
            tree.open(Tree::link(topo, y * w + x, slot));
            opened += 1;
        }
    }
    opened
}

pub(super) fn recursive_division<T: Topology>(
    topo: &T,
    p: AlgoParams,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    let (w, h) = (p.width, p.height);
    // Everything open, then walls.
    for y in 0..h {
        for x in 0..w {
            let v = y * w + x;
            if x + 1 < w {
                tree.open(Tree::link(topo, v, EAST));
            }
            if y + 1 < h {
                tree.open(Tree::link(topo, v, SOUTH));
            }
        }
    }
    s.regions.clear();
    s.regions.push([0, 0, w, h]);
    while let Some([x0, y0, rw, rh]) = s.regions.pop() {
        if rw < 2 || rh < 2 {
            continue;
        }
        let horizontal = match rh.cmp(&rw) {
            std::cmp::Ordering::Greater => true,
            std::cmp::Ordering::Less => false,
            std::cmp::Ordering::Equal => rng.below(2) == 0,
        };
        if horizontal {
            // A wall below row y0 + k, a gap at one column.
            let k = rng.below(rh - 1);
            let gap = rng.below(rw);
            for i in (0..rw).filter(|&i| i != gap) {
                tree.close(Tree::link(topo, (y0 + k) * w + x0 + i, SOUTH));
            }
            s.regions.push([x0, y0, rw, k + 1]);
            s.regions.push([x0, y0 + k + 1, rw, rh - k - 1]);
        } else {
            let k = rng.below(rw - 1);
            let gap = rng.below(rh);
            for i in (0..rh).filter(|&i| i != gap) {
                tree.close(Tree::link(topo, (y0 + i) * w + x0 + k, EAST));
            }
            s.regions.push([x0, y0, k + 1, rh]);
            s.regions.push([x0 + k + 1, y0, rw - k - 1, rh]);
        }
    }
    tree.passage.iter().filter(|&&p| p != 0).count()
}
