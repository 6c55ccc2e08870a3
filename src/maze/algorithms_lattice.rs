//! The lattice algorithms of `maze.algorithm` (a lattice without holes, rooms `y * width + x`,
//! slots north 0, west 1, east 2, south 3): Eller's sets row by row, sidewinder, binary tree and
//! recursive division. A child of `maze::algorithms`.

use super::{AlgoParams, AlgoScratch, Bits, EAST, NORTH, SOUTH, WEST};
use crate::core::rng::WarrenRng;
use crate::maze::spanning::Tree;
use crate::maze::topology::Topology;

pub(super) fn eller<T: Topology>(
    topo: &T,
    p: AlgoParams,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    let (w, h) = (p.width, p.height);
    s.uf.reset(topo.slot_count());
    s.left.clear();
    s.left.resize(topo.slot_count(), 0);
    s.down.clear();
    s.down.resize(topo.slot_count(), false);
    let mut opened = 0;
    let mut bits = Bits::default();
    for y in 0..h {
        let row = y * w;
        let last = y + 1 == h;
        // Join neighbours of different sets: at random, and always on the last row.
        for x in 0..w.saturating_sub(1) {
            let v = row + x;
            if s.uf.find(v) != s.uf.find(v + 1) && (last || bits.coin(rng)) {
                s.uf.union(v, v + 1);
                tree.open(Tree::link(topo, v, EAST));
                opened += 1;
            }
        }
        if last {
            break;
        }
        // Passages down: at random, and at least one per set (the set's last room in the row
        // goes down when none of the others did).
        for x in 0..w {
            let r = s.uf.find(row + x) as usize;
            s.left[r] += 1;
            s.down[r] = false;
        }
        for x in 0..w {
            let v = row + x;
            let r = s.uf.find(v) as usize;
            s.left[r] -= 1;
            let forced = s.left[r] == 0 && !s.down[r];
            if forced || bits.coin(rng) {
                s.down[r] = true;
                s.uf.union(v, v + w);
                tree.open(Tree::link(topo, v, SOUTH));
                opened += 1;
            }
        }
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
