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
use crate::floorplan::spec::Repeat;

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
    for (c, u, _) in plan.across(w) {
        if !s.placed[c] && s.placed[u] {
            culprits.push(s.depth_of[u]);
        }
    }
    // Earliest first: the first room in the way at a spot is the one to blame.
    let mut local = std::mem::take(&mut s.local);
    local.clear();
    local.extend_from_slice(&s.near);
    local.sort_unstable_by_key(|&o| s.depth_of[o as usize]);
    let mut cover = Cover {
        rooms: std::mem::take(&mut s.cover_rooms),
        rects: std::mem::take(&mut s.cover_rects),
        at: std::mem::take(&mut s.cover_at),
    };
    let found = 'shapes: {
        for &si in &plan.room_shapes[w] {
            if let Some(d) = repeat_conflict(plan, w, si, s) {
                culprits.push(d);
                continue;
            }
            zones_for(plan, w, si, s);
            let sh = &plan.cat.shapes[si as usize];
            for z in &s.zones {
                let count = i64::from(z.x1 - z.x0 + 1) * i64::from(z.y1 - z.y0 + 1);
                if count > MAX_SPOTS {
                    s.spot[w] = NO_SPOT;
                    break 'shapes true;
                }
                cover.fill(plan, w, sh, z, &local, s);
                if let Some((x, y)) = cover.first_free(z, s, &mut culprits) {
                    s.spot[w] = (si, x, y);
                    break 'shapes true;
                }
            }
        }
        false
    };
    s.blamed = culprits;
    s.local = local;
    s.cover_rooms = cover.rooms;
    s.cover_rects = cover.rects;
    s.cover_at = cover.at;
    found
}

/// Per room of a list, the positions of a zone at which a shape would come too near it, as
/// closed rectangles `[x0, y0, x1, y1]`: room `i`'s are `rects[at[i]..at[i + 1]]`.
#[derive(Default)]
pub(super) struct Cover {
    rooms: Vec<u32>,
    rects: Vec<[i32; 4]>,
    at: Vec<u32>,
}

impl Cover {
    /// The rooms of `rooms` that shape `sh` of room `w` overlaps at some position of zone `z`
    /// (or comes nearer than the least distance to, when they are not connected; see
    /// [`Shape::near`]), in the order of `rooms`, and those positions, clipped to `z`.
    pub(super) fn fill(
        &mut self,
        plan: &Plan,
        w: usize,
        sh: &Shape,
        z: &Zone,
        rooms: &[u32],
        s: &BuildScratch,
    ) {
        self.rooms.clear();
        self.rects.clear();
        self.at.clear();
        self.at.push(0);
        for &o in rooms {
            let before = self.rects.len();
            let o = o as usize;
            let gap = if plan.adjacent(w, o) {
                0
            } else {
                plan.min_distance
            };
            let so = &plan.cat.shapes[s.out.shape[o] as usize];
            let (bx, by) = (s.out.x[o], s.out.y[o]);
            if z.x0 >= bx + so.w + gap
                || bx >= z.x1 + sh.w + gap
                || z.y0 >= by + so.h + gap
                || by >= z.y1 + sh.h + gap
            {
                continue;
            }
            for a in &sh.rects {
                for b in &so.rects {
                    // `Rect::near` of `a` at (x, y) and `b` at (bx, by), solved for x and y.
                    let c = [
                        (b.x0 + bx - a.x1 - gap + 1).max(z.x0),
                        (b.y0 + by - a.y1 - gap + 1).max(z.y0),
                        (b.x1 + bx + gap - a.x0 - 1).min(z.x1),
                        (b.y1 + by + gap - a.y0 - 1).min(z.y1),
                    ];
                    if c[0] <= c[2] && c[1] <= c[3] {
                        self.rects.push(c);
                    }
                }
            }
            if self.rects.len() > before {
                self.rooms.push(o as u32);
                self.at.push(self.rects.len() as u32);
            }
        }
    }

    fn of(&self, i: usize) -> &[[i32; 4]] {
        &self.rects[self.at[i] as usize..self.at[i + 1] as usize]
    }

    /// The first position of zone `z` (the zone filled for), row by row, that no room covers
    /// (the rooms sorted by depth). Every position before it is blamed on the earliest room
    /// covering it: that room's depth joins `culprits`. A run of positions the same room is
    /// first to cover is stepped over at once: it ends where that room's rectangle ends or
    /// where an earlier room's begins.
    pub(super) fn first_free(
        &self,
        z: &Zone,
        s: &BuildScratch,
        culprits: &mut Vec<u32>,
    ) -> Option<(i32, i32)> {
        for y in z.y0..=z.y1 {
            let mut x = z.x0;
            while x <= z.x1 {
                let first = (0..self.rooms.len()).find_map(|i| {
                    self.of(i)
                        .iter()
                        .find(|c| c[0] <= x && x <= c[2] && c[1] <= y && y <= c[3])
                        .map(|c| (i, c[2]))
                });
                let Some((i, mut end)) = first else {
                    return Some((x, y));
                };
                for e in 0..i {
                    for c in self.of(e) {
                        if c[1] <= y && y <= c[3] && c[0] > x {
                            end = end.min(c[0] - 1);
                        }
                    }
                }
                let d = s.depth_of[self.rooms[i] as usize];
                // Neighbouring runs are mostly blocked by the same room.
                if culprits.last() != Some(&d) {
                    culprits.push(d);
                }
                x = end + 1;
            }
        }
        None
    }
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
    let mut first = true;
    s.zones.clear();
    for &(u, j) in &plan.adj[v] {
        let u = u as usize;
        if !s.placed[u] {
            continue;
        }
        // Seen from the placed room `u`.
        let g = if plan.conns[j as usize].0 as usize == u {
            plan.gap_set[j as usize]
        } else {
            plan.gap_set_b[j as usize]
        };
        if !meet_zones(plan, (g, u, si), &mut first, s) {
            return;
        }
    }
    // A placed room at the far end of an unplaced corridor room: room enough for the corridor.
    for (c, u, g) in plan.across(v) {
        if !s.placed[c] && s.placed[u] && !meet_zones(plan, (g, u, si), &mut first, s) {
            return;
        }
    }
}

/// Narrows `s.zones` to the configuration space of shape `si` beside placed room `u` under gap
/// setting `g` (the whole space when `first`, which it clears); `false` when none is left.
#[inline]
fn meet_zones(
    plan: &Plan,
    (g, u, si): (u32, usize, u32),
    first: &mut bool,
    s: &mut BuildScratch,
) -> bool {
    let count = plan.cat.shapes.len();
    let k = (g as usize * count + s.out.shape[u] as usize) * count + si as usize;
    let here =
        &plan.cat.zones[plan.cat.zone_start[k] as usize..plan.cat.zone_start[k + 1] as usize];
    let (ux, uy) = (s.out.x[u], s.out.y[u]);
    let moved = |z: &Zone| Zone {
        x0: z.x0 + ux,
        y0: z.y0 + uy,
        x1: z.x1 + ux,
        y1: z.y1 + uy,
    };
    if *first {
        s.zones.extend(here.iter().map(moved));
        *first = false;
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
    !s.zones.is_empty()
}

/// The depth of a placed room that rules shape `si` out for room `v` under the repeat modes
/// (it takes the same template, connected to `v` under `no_immediate`, anywhere under
/// `no_repeat`), if any. Corridor rooms neither count nor are counted.
pub(super) fn repeat_conflict(plan: &Plan, v: usize, si: u32, s: &BuildScratch) -> Option<u32> {
    let t = plan.cat.shapes[si as usize].template;
    let counted = plan.graph_rooms();
    if v >= counted {
        return None;
    }
    let same = |u: usize| {
        u < counted && s.placed[u] && plan.cat.shapes[s.out.shape[u] as usize].template == t
    };
    let culprit = match plan.repeat_of(t) {
        Repeat::Allow => None,
        // A neighbour across a corridor room is a neighbour too.
        Repeat::NoImmediate => plan.adj[v]
            .iter()
            .flat_map(|&(u, _)| {
                let across = (u as usize >= counted).then(|| &plan.adj[u as usize][..]);
                std::iter::once(u).chain(across.unwrap_or(&[]).iter().map(|&(w, _)| w))
            })
            .map(|u| u as usize)
            .find(|&u| u != v && same(u)),
        Repeat::NoRepeat => s.order.iter().map(|&u| u as usize).find(|&u| same(u)),
    };
    culprit.map(|u| s.depth_of[u])
}

/// Adds `depth` to a conflict set (kept without repeats; sets stay a few entries long).
pub(super) fn note_conflict(set: &mut Vec<u32>, depth: u32) {
    if !set.contains(&depth) {
        set.push(depth);
    }
}
