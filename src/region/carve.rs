//! Carving one region (seed 004, "PCG of regions"): a path of Empty cells from the entry to the
//! exit through the region's own cells, then optional short branches off it. Carving only turns
//! Occupied cells Empty ([`Region::carve`] asserts it), so the region's structure is removed,
//! never added to.
//!
//! The seed is silent on the path's shape. Decision: a random shortest path (a breadth-first
//! distance field from the exit, then steps that get one closer, ties broken at random) that at
//! each step may wander aside with probability `wander`, at most `width + height` times. It is
//! O(cells), always reaches the exit (every step aside is followed by a descent of a finite
//! distance field), and wandering gives the winding passages of the seed's pictures.

use crate::core::rng::WarrenRng;
use crate::region::region::Region;

/// How to carve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CarveParams {
    /// Chance that a step of the path goes aside instead of closer to the exit.
    pub wander: f64,
    /// At most this many branches per region (the count is drawn from `0..=branches`).
    pub branches: u32,
    /// A branch is 1 to this many cells long.
    pub branch_length: u32,
}

/// Reused buffers for carving.
#[derive(Debug, Default)]
pub struct CarveWork {
    dist: Vec<u16>,
    queue: Vec<u32>,
    path: Vec<u32>,
}

const FAR: u16 = u16::MAX;

/// Carves the path and branches of `region`; returns the cells carved.
///
/// # Runtime
/// O(cells); no allocation once the buffers have grown to Wmax x Hmax.
pub fn carve(
    region: &mut Region,
    rng: &mut WarrenRng,
    params: &CarveParams,
    work: &mut CarveWork,
) -> u32 {
    let n = (region.width() * region.height()) as usize;
    let (entry, exit) = (
        region.index(region.entry.x, region.entry.y),
        region.index(region.exit.x, region.exit.y),
    );
    distance_field(region, exit, work);
    debug_assert!(
        work.dist[entry] != FAR,
        "entry cannot reach exit: the region is not connected"
    );
    debug_assert_eq!(work.dist.len(), n);
    work.path.clear();
    // `path` lists each carved cell once (a wandering path may step back onto itself).
    let mut cur = entry;
    region.carve(cur);
    work.path.push(cur as u32);
    let mut budget = region.width() + region.height();
    while cur != exit {
        let d = work.dist[cur];
        let (mut closer, mut nc) = ([0usize; 4], 0);
        let (mut aside, mut na) = ([0usize; 4], 0);
        for dir in 0..4 {
            if let Some(j) = region.neighbour(cur, dir) {
                let dj = work.dist[j];
                if dj == FAR {
                    continue;
                }
                if dj + 1 == d {
                    closer[nc] = j;
                    nc += 1;
                } else if dj >= d && !region.carved(j) {
                    aside[na] = j;
                    na += 1;
                }
            }
        }
        let next = if na > 0 && budget > 0 && rng.chance(params.wander) {
            budget -= 1;
            aside[rng.below(na as u32) as usize]
        } else {
            closer[rng.below(nc as u32) as usize]
        };
        cur = next;
        if !region.carved(cur) {
            region.carve(cur);
            work.path.push(cur as u32);
        }
    }
    let mut carved = work.path.len() as u32;
    for _ in 0..rng.below(params.branches + 1) {
        let start = work.path[rng.below(work.path.len() as u32) as usize] as usize;
        let dir = rng.below(4);
        let mut at = start;
        for _ in 0..1 + rng.below(params.branch_length) {
            match region.neighbour(at, dir) {
                Some(j) if region.inside(j) && !region.carved(j) => {
                    region.carve(j);
                    carved += 1;
                    at = j;
                }
                _ => break,
            }
        }
    }
    carved
}

/// Breadth-first steps from `from` to every region cell (padding and Filled cells are walls).
fn distance_field(region: &Region, from: usize, work: &mut CarveWork) {
    let n = (region.width() * region.height()) as usize;
    work.dist.clear();
    work.dist.resize(n, FAR);
    work.queue.clear();
    work.dist[from] = 0;
    work.queue.push(from as u32);
    let mut head = 0;
    while head < work.queue.len() {
        let i = work.queue[head] as usize;
        head += 1;
        for dir in 0..4 {
            if let Some(j) = region.neighbour(i, dir)
                && work.dist[j] == FAR
                && region.inside(j)
                && region.cells()[j] != crate::region::cell::Cell::Filled
            {
                work.dist[j] = work.dist[i] + 1;
                work.queue.push(j as u32);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::mix;
    use crate::region::cell::Cell;
    use crate::region::region::{Point, region_from_picture};

    #[test]
    fn the_path_joins_entry_and_exit_and_never_leaves_the_region() {
        let params = CarveParams {
            wander: 0.4,
            branches: 2,
            branch_length: 3,
        };
        let mut work = CarveWork::default();
        for seed in 0..200 {
            let mut r = region_from_picture(&[
                "··####··",
                "·######·",
                "########",
                "###··###",
                "###··###",
                "########",
            ]);
            r.entry = Point { x: 0, y: 2 };
            r.exit = Point { x: 7, y: 5 };
            let mut rng = WarrenRng::new(mix(4, seed));
            let carved = carve(&mut r, &mut rng, &params, &mut work);
            let cells = r.cells();
            assert_eq!(
                carved as usize,
                (0..cells.len()).filter(|&i| r.carved(i)).count()
            );
            for (i, (&now, &was)) in cells.iter().zip(r.initial()).enumerate() {
                assert!(
                    was == Cell::Occupied || now == Cell::Empty,
                    "cell {i} gained"
                );
            }
            // The carved cells are connected and hold both ends.
            let (e, x) = (r.index(0, 2), r.index(7, 5));
            assert!(r.carved(e) && r.carved(x));
            let mut seen = vec![false; cells.len()];
            let mut stack = vec![e];
            seen[e] = true;
            while let Some(i) = stack.pop() {
                for d in 0..4 {
                    if let Some(j) = r.neighbour(i, d)
                        && r.carved(j)
                        && !seen[j]
                    {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
            assert!(
                (0..cells.len()).all(|i| seen[i] == r.carved(i)),
                "seed {seed}"
            );
        }
    }
}
