//! Where an unplaced room may go (its configuration spaces against its placed neighbours) and
//! forward checking: a placement is refused when it leaves some unplaced room with nowhere to
//! go next to its placed neighbours. A child of `floorplan::build`, called by the search after
//! a candidate fits.
//!
//! Measured on random planar level graphs of 300 rooms (`scripts/level_graphs.py`, seeds 7
//! and 8, the two hardest of 20): at the deepest point of most failed attempts the next room
//! had one placed neighbour and no free place beside it, boxed in by rooms placed after that
//! neighbour. Without this check the search found out only when it got to the room, often
//! dozens of rooms later, and went back through all of them.
//!
//! Not in the complete search (`map.exhaustive`), where it is sound but slower: K4 with Edgar's
//! paper blocks took 1.6 million placements instead of 3.6 million, but 4.6 s instead of 2.6 s,
//! and the wheel of 8 rooms found its layout in 7.6 s instead of 1.5 s.

use super::plan::Plan;
use super::scratch::BuildScratch;
use super::spaces::Zone;
use crate::floorplan::shape::Shape;

/// No free spot known.
pub(super) const NO_SPOT: (u32, i32, i32) = (u32::MAX, 0, 0);

/// Offsets of one configuration-space rectangle looked at, at most: a rectangle with more
/// (a long corridor's range of lengths) counts as free, so that the check never refuses a
/// placement it has not proved hopeless.
const MAX_SPOTS: i64 = 256;

/// Whether the room `v`, just placed, leaves every unplaced room next to a placed room near it
/// a free spot (a position where it meets the configuration spaces of all its placed
/// neighbours and overlaps no placed room). If one has none, the depths of the rooms that rule
/// its spots out (its placed neighbours, and per spot one room in the way, `v` aside) join the
/// conflict set of `v`'s depth, and the latest of them is returned.
pub(super) fn forward_check(plan: &Plan, v: usize, s: &mut BuildScratch) -> Result<(), u32> {
    s.checked.clear();
    // `v` can take a spot beside `u` only when it lies within a room's reach of `u`.
    let mut around = std::mem::take(&mut s.around);
    placed_near(plan, v, s, &mut around);
    let mut verdict = Ok(());
    'rooms: for &u in &around {
        for &(w, _) in &plan.adj[u as usize] {
            if s.placed[w as usize] || s.checked.contains(&w) {
                continue;
            }
            s.checked.push(w);
            if still_free(plan, v, w as usize, s) {
                continue;
            }
            let mut near = std::mem::take(&mut s.near);
            placed_near(plan, u as usize, s, &mut near);
            s.near = near;
            if !has_spot(plan, w as usize, s) {
                verdict = Err(blame(v, s));
                break 'rooms;
            }
        }
    }
    s.around = around;
    verdict
}

/// The gap between two placed boxes (negative when they overlap).
fn apart(a: &Shape, ax: i32, ay: i32, b: &Shape, bx: i32, by: i32) -> i32 {
    (bx - (ax + a.w))
        .max(ax - (bx + b.w))
        .max(by - (ay + a.h))
        .max(ay - (by + b.h))
}

/// Collects into `out`, in placing order, the placed rooms (`r` among them) that a room
/// touching placed room `r` may come near.
fn placed_near(plan: &Plan, r: usize, s: &BuildScratch, out: &mut Vec<u32>) {
    let sr = &plan.cat.shapes[s.out.shape[r] as usize];
    let (rx, ry) = (s.out.x[r], s.out.y[r]);
    out.clear();
    for &o in &s.order {
        let o = o as usize;
        if !s.placed[o] {
            continue;
        }
        let so = &plan.cat.shapes[s.out.shape[o] as usize];
        if apart(sr, rx, ry, so, s.out.x[o], s.out.y[o])
            <= plan.spot_reach.saturating_add(plan.min_distance)
        {
            out.push(o as u32);
        }
    }
}

/// Whether the free spot last found for `w` is still free now that `v` is placed: `v` is not
/// a neighbour of `w` (which would narrow its configuration spaces) and does not take the spot.
/// Every placement near one of `w`'s placed neighbours checks `w`, so the spot was free of the
/// other placed rooms; taking rooms up only frees spots.
fn still_free(plan: &Plan, v: usize, w: usize, s: &BuildScratch) -> bool {
    let (si, x, y) = s.spot[w];
    if si == u32::MAX || plan.adjacent(v, w) {
        return false;
    }
    let sh = &plan.cat.shapes[si as usize];
    let sv = &plan.cat.shapes[s.out.shape[v] as usize];
    !sh.near(x, y, sv, s.out.x[v], s.out.y[v], plan.min_distance)
}

/// Whether unplaced room `w` has a free spot (kept in `s.spot[w]`), `s.near` holding the
/// placed rooms near one of its placed neighbours.
fn has_spot(plan: &Plan, w: usize, s: &mut BuildScratch) -> bool {
    // The depths that rule the spots out, for `blame`: `w`'s placed neighbours, then per spot
    // the room in the way.
    let mut culprits = std::mem::take(&mut s.blamed);
    culprits.clear();
    for &(u, _) in &plan.adj[w] {
        if s.placed[u as usize] {
            culprits.push(s.depth_of[u as usize]);
        }
    }
    let mut local = std::mem::take(&mut s.local);
    let found = 'shapes: {
        for &si in &plan.room_shapes[w] {
            zones_for(plan, w, si, s);
            let sh = &plan.cat.shapes[si as usize];
            for z in &s.zones {
                let count = i64::from(z.x1 - z.x0 + 1) * i64::from(z.y1 - z.y0 + 1);
                if count > MAX_SPOTS {
                    s.spot[w] = NO_SPOT;
                    break 'shapes true;
                }
                in_reach_of(plan, sh, z, s, &mut local);
                for y in z.y0..=z.y1 {
                    for x in z.x0..=z.x1 {
                        match blocker(plan, w, sh, (x, y), &local, s) {
                            Some(d) => culprits.push(d),
                            None => {
                                s.spot[w] = (si, x, y);
                                break 'shapes true;
                            }
                        }
                    }
                }
            }
        }
        false
    };
    s.blamed = culprits;
    s.local = local;
    found
}

/// Collects into `out` the rooms of `s.near` that shape `sh` may come near at some position of
/// `z` (the others cannot rule any of them out), in the order of `s.near`.
fn in_reach_of(plan: &Plan, sh: &Shape, z: &Zone, s: &BuildScratch, out: &mut Vec<u32>) {
    let g = plan.min_distance.max(0);
    out.clear();
    for &o in &s.near {
        let so = &plan.cat.shapes[s.out.shape[o as usize] as usize];
        let (ox, oy) = (s.out.x[o as usize], s.out.y[o as usize]);
        let apart = z.x0 >= ox + so.w + g
            || ox >= z.x1 + sh.w + g
            || z.y0 >= oy + so.h + g
            || oy >= z.y1 + sh.h + g;
        if !apart {
            out.push(o);
        }
    }
}

/// The earliest placed room of `rooms` that shape `sh` of room `w` at `(x, y)` overlaps (or
/// comes nearer than the least distance to, when they are not connected).
fn blocker(
    plan: &Plan,
    w: usize,
    sh: &Shape,
    (x, y): (i32, i32),
    rooms: &[u32],
    s: &BuildScratch,
) -> Option<u32> {
    let mut first: Option<u32> = None;
    for &o in rooms {
        let o = o as usize;
        let gap = if plan.adjacent(w, o) {
            0
        } else {
            plan.min_distance
        };
        let so = &plan.cat.shapes[s.out.shape[o] as usize];
        if sh.near(x, y, so, s.out.x[o], s.out.y[o], gap) {
            let d = s.depth_of[o];
            if first.is_none_or(|f| d < f) {
                first = Some(d);
            }
        }
    }
    first
}

/// Notes why the room [`has_spot`] last looked at has no spot once `v` is placed: its placed
/// neighbours shape its configuration spaces, and each spot in them is ruled out by a room in
/// the way (`s.blamed`). Every depth but `v`'s joins the conflict set of `v`'s depth; returns
/// the latest.
fn blame(v: usize, s: &mut BuildScratch) -> u32 {
    let depth = s.depth_of[v];
    let culprits = std::mem::take(&mut s.blamed);
    let mut latest = 0;
    for &d in &culprits {
        if d != depth {
            note_conflict(&mut s.conflicts[depth as usize], d);
            latest = latest.max(d);
        }
    }
    s.blamed = culprits;
    latest
}

/// Where shape `sh` of room `v` may go against all its placed neighbours, into `s.zones`.
pub(super) fn zones_for(plan: &Plan, v: usize, si: u32, s: &mut BuildScratch) {
    let count = plan.cat.shapes.len();
    let mut first = true;
    s.zones.clear();
    for &(u, j) in &plan.adj[v] {
        let u = u as usize;
        if !s.placed[u] {
            continue;
        }
        let k = (plan.gap_set[j as usize] as usize * count + s.out.shape[u] as usize) * count
            + si as usize;
        let here =
            &plan.cat.zones[plan.cat.zone_start[k] as usize..plan.cat.zone_start[k + 1] as usize];
        let (ux, uy) = (s.out.x[u], s.out.y[u]);
        let moved = |z: &Zone| Zone {
            x0: z.x0 + ux,
            y0: z.y0 + uy,
            x1: z.x1 + ux,
            y1: z.y1 + uy,
        };
        if first {
            s.zones.extend(here.iter().map(moved));
            first = false;
        } else {
            s.met.clear();
            for a in &s.zones {
                for b in here {
                    if let Some(z) = a.meet(&moved(b)) {
                        s.met.push(z);
                    }
                }
            }
            std::mem::swap(&mut s.zones, &mut s.met);
        }
        if s.zones.is_empty() {
            return;
        }
    }
}

/// Adds `depth` to a conflict set (kept without repeats; sets stay a few entries long).
pub(super) fn note_conflict(set: &mut Vec<u32>, depth: u32) {
    if !set.contains(&depth) {
        set.push(depth);
    }
}
