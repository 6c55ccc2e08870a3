//! Carving one region (seed 004, "PCG of regions"): a passage of Empty cells from the entry
//! through the region to the exit, every further port joined to it, then optional short branches
//! off it. Carving only turns Occupied cells Empty ([`Region::carve`] asserts it), so the
//! region's structure is removed, never added to.
//!
//! The seed is silent on the passage's shape. Decisions:
//! - Each leg is a random shortest path (a breadth-first distance field from the leg's end, then
//!   steps that get one closer, ties broken at random) that at each step may wander aside with
//!   probability `wander`, at most `width + height` times per leg. It is O(cells), always
//!   arrives (every step aside is followed by a descent of a finite distance field), and
//!   wandering gives the winding passages of the seed's pictures.
//! - The root's passage, and a sub-region's whose entry and exit are close (as when both lie on
//!   the side it shares with its parent's passage), runs entry -> waypoint -> exit, the waypoint
//!   being the better of two random region cells (farthest from the exit in steps plus from the
//!   entry in Manhattan distance): the passage crosses the region instead of hugging one side.
//! - A further port (a side shared with a sibling piece) is joined by the same walk down the
//!   distance field of every carved cell.
//! - Branches: up to `branches` of 1 to `branch_length` cells, straight off the passage, in
//!   regions of at least [`ROOMY`] cells; smaller ones only join their ports (carved through,
//!   they would be all floor).

use crate::core::rng::WarrenRng;
use crate::regions::cell::Cell;
use crate::regions::region::{OUTSIDE, Region};

/// How to carve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CarveParams {
    /// Chance that a step of the path goes aside instead of closer to its end.
    pub wander: f64,
    /// At most this many branches per region (the count is drawn from `0..=branches`).
    pub branches: u32,
    /// A branch is 1 to this many cells long.
    pub branch_length: u32,
}

/// Reused buffers for carving.
#[derive(Debug, Default)]
pub struct CarveWork {
    to_exit: Vec<u16>,
    dist: Vec<u16>,
    queue: Vec<u32>,
    path: Vec<u32>,
}

const FAR: u16 = u16::MAX;

/// A region of fewer cells only joins its ports: no waypoint, no branches (a small region
/// carved through would be all floor).
pub const ROOMY: usize = 24;

/// Carves the passage, ports and branches of `region`; returns the cells carved.
///
/// # Runtime
/// O(cells x (3 + further ports)); no allocation once the buffers have grown to Wmax x Hmax.
pub fn carve(
    region: &mut Region,
    rng: &mut WarrenRng,
    params: &CarveParams,
    work: &mut CarveWork,
) -> u32 {
    let (entry, exit) = (
        region.index(region.entry.x, region.entry.y),
        region.index(region.exit.x, region.exit.y),
    );
    let CarveWork {
        to_exit,
        dist,
        queue,
        path,
    } = work;
    distance_field(region, &[exit as u32], to_exit, queue);
    debug_assert!(
        to_exit[entry] != FAR,
        "entry cannot reach exit: the region is not connected"
    );
    // The breadth-first queue lists every cell the passage may use.
    let roomy = queue.len() >= ROOMY;
    // The root always takes a waypoint; a sub-region when its ends are close (within a quarter
    // of its half-perimeter, as when they share a side): the passage then goes through the
    // region rather than along its edge. Far ends already cross it, and a waypoint there too
    // carves sub-regions into a scribble.
    let (pe, px) = (region.point(entry), region.point(exit));
    let span = pe.x.abs_diff(px.x) + pe.y.abs_diff(px.y);
    let detour = roomy && (region.depth == 0 || 4 * span < region.width() + region.height());
    let mut mid = exit;
    let mut best = 0;
    for _ in 0..if detour { 2 } else { 0 } {
        let c = queue[rng.below(queue.len() as u32) as usize] as usize;
        let p = region.point(c);
        let score = u32::from(to_exit[c]) + p.x.abs_diff(pe.x) + p.y.abs_diff(pe.y);
        if score > best {
            (mid, best) = (c, score);
        }
    }
    path.clear();
    if mid != exit {
        distance_field(region, &[mid as u32], dist, queue);
        walk(region, rng, entry, dist, params.wander, false, path);
    }
    walk(
        region,
        rng,
        if mid != exit { mid } else { entry },
        to_exit,
        params.wander,
        false,
        path,
    );
    // PERF: one distance field to the passage serves every port: a port's walk ends on the
    // first carved cell it meets, which an earlier port's walk may have carved.
    let mut field = false;
    for k in 0..region.ports.len() {
        let p = region.ports[k];
        let at = region.index(p.x, p.y);
        if region.carved(at) {
            continue;
        }
        if !field {
            distance_field(region, path, dist, queue);
            field = true;
        }
        walk(region, rng, at, dist, params.wander, true, path);
    }
    let trunk = path.len() as u32;
    let branches = if roomy {
        rng.below(params.branches + 1)
    } else {
        0
    };
    for _ in 0..branches {
        let start = path[rng.below(trunk) as usize] as usize;
        let dir = rng.below(4);
        let mut at = start;
        for _ in 0..1 + rng.below(params.branch_length) {
            match region.neighbour(at, dir) {
                Some(j) if region.inside(j) && !region.carved(j) => {
                    region.carve(j);
                    path.push(j as u32);
                    at = j;
                }
                _ => break,
            }
        }
    }
    path.len() as u32
}

/// Carves a walk from `from` down the distance field `dist` to a cell at distance 0 (or, to
/// `join` the passage, to the first carved cell it steps on), stepping aside (onto an uncarved cell no closer) with probability
/// `wander`, at most `width + height` times; lists each newly carved cell in `path`.
fn walk(
    region: &mut Region,
    rng: &mut WarrenRng,
    from: usize,
    dist: &[u16],
    wander: f64,
    join: bool,
    path: &mut Vec<u32>,
) {
    let mut cur = from;
    let mine = path.len();
    if !region.carved(cur) {
        region.carve(cur);
        path.push(cur as u32);
    }
    let mut budget = region.width() + region.height();
    while dist[cur] != 0 {
        let d = dist[cur];
        let (mut closer, mut nc) = ([0usize; 4], 0);
        let (mut aside, mut na) = ([0usize; 4], 0);
        for j in region.neighbours(cur) {
            if j != OUTSIDE {
                let dj = dist[j];
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
        cur = if na > 0 && budget > 0 && rng.chance(wander) {
            budget -= 1;
            aside[rng.below(na as u32) as usize]
        } else {
            closer[rng.below(nc as u32) as usize]
        };
        if region.carved(cur) {
            // A cell carved before this walk joins it to the passage (a wandering walk may
            // step back onto its own cells, which do not).
            if join && !path[mine..].contains(&(cur as u32)) {
                break;
            }
        } else {
            region.carve(cur);
            path.push(cur as u32);
        }
    }
}

/// Breadth-first steps from the cells `from` to every region cell (padding and Filled cells are
/// walls); `queue` ends up listing every cell reached.
fn distance_field(region: &Region, from: &[u32], dist: &mut Vec<u16>, queue: &mut Vec<u32>) {
    let n = (region.width() * region.height()) as usize;
    dist.clear();
    dist.resize(n, FAR);
    queue.clear();
    for &f in from {
        dist[f as usize] = 0;
        queue.push(f);
    }
    let mut head = 0;
    while head < queue.len() {
        let i = queue[head] as usize;
        head += 1;
        for j in region.neighbours(i) {
            if j != OUTSIDE
                && dist[j] == FAR
                && region.inside(j)
                && region.cells()[j] != Cell::Filled
            {
                dist[j] = dist[i] + 1;
                queue.push(j as u32);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::mix;
    use crate::regions::cell::Cell;
    use crate::regions::region::{Point, region_from_picture};

    /// The carved cells of `r`, 4-connected from `start`: (reached, all).
    fn reach(r: &Region, start: usize) -> (usize, usize) {
        let mut seen = vec![false; r.cells().len()];
        let mut stack = vec![start];
        seen[start] = true;
        let mut reached = 1;
        while let Some(i) = stack.pop() {
            for d in 0..4 {
                if let Some(j) = r.neighbour(i, d)
                    && r.carved(j)
                    && !seen[j]
                {
                    seen[j] = true;
                    reached += 1;
                    stack.push(j);
                }
            }
        }
        let all = (0..r.cells().len()).filter(|&i| r.carved(i)).count();
        (reached, all)
    }

    #[test]
    fn every_port_is_joined_to_the_passage() {
        let params = CarveParams {
            wander: 0.5,
            branches: 3,
            branch_length: 4,
        };
        let mut work = CarveWork::default();
        for seed in 0..300 {
            let mut r = region_from_picture(&["##########"; 8]);
            let mut rng = WarrenRng::new(mix(6, seed));
            r.entry = Point {
                x: 0,
                y: rng.below(8),
            };
            r.exit = Point {
                x: 9,
                y: rng.below(8),
            };
            for _ in 0..1 + rng.below(5) {
                let p = Point {
                    x: rng.below(10),
                    y: if rng.chance(0.5) { 0 } else { 7 },
                };
                r.ports.push(p);
            }
            carve(&mut r, &mut rng, &params, &mut work);
            let e = r.index(r.entry.x, r.entry.y);
            let (reached, all) = reach(&r, e);
            assert_eq!(reached, all, "seed {seed}");
            for p in r.ports.clone() {
                assert!(r.carved(r.index(p.x, p.y)), "seed {seed}: port {p:?}");
            }
        }
    }

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
            let (reached, all) = reach(&r, e);
            assert_eq!(reached, all, "seed {seed}");
        }
    }
}
