//! The bounded depth-first search: per attempt a drawing and an order, then rooms placed one by
//! one at candidates near their targets, backtracking over a room's candidates when a later room
//! has none.

use super::forward::{NO_SPOT, forward_check, note_conflict, repeat_conflict, zones_for};
use super::frame::{clear_of_world, first_candidate, in_frame, one_place};
use super::layout::Link;
use super::order::{draw_targets, room_order, shortest_cycle};
use super::plan::Plan;
use super::scratch::{BuildScratch, Candidate};
use super::spaces::Zone;
use crate::core::rng::WarrenRng;
use crate::floorplan::shape::{Rect, Shape, side};

/// Candidates kept per room, best first: the search backtracks over these only (the rest lie far
/// from the room's target).
const MAX_CANDIDATES: usize = 400;

/// Candidates sorted when a room's list is made; the rest are sorted if the search reaches them.
const SORTED_FIRST: usize = 24;

/// Why a seed produced no layout.
pub const NO_LAYOUT: &str = "no layout within the work bound";

/// Where a seed that found no layout met most of its dead ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// Attempts made.
    pub attempts: u32,
    /// The room the search most often found nowhere to put, over all attempts.
    pub room: u32,
    /// Its dead ends.
    pub dead_ends: u32,
    /// A shortest cycle through it, from its lowest-numbered room in the direction of the lower
    /// neighbour (`[room]` when the room is on no cycle).
    pub cycle: Vec<u32>,
    /// Whether a complete search ([`Plan::make_exhaustive`]) ran out of candidates: no layout
    /// exists.
    pub proved: bool,
    /// Candidate placements checked.
    pub work: u64,
}

/// What a seed's search proved when it found no layout: that none exists.
pub const NO_LAYOUT_EXISTS: &str = "no layout exists";

impl Failure {
    /// The failure reason, with rooms named by `name`: the cycle (or the room) where the search
    /// met most dead ends. Stable across seeds that fail at the same cycle, so that the
    /// failure histogram counts seeds per cycle.
    pub fn reason(&self, name: impl Fn(u32) -> String) -> String {
        if self.proved {
            NO_LAYOUT_EXISTS.to_string()
        } else if self.cycle.len() >= 3 {
            let rooms: Vec<String> = self.cycle.iter().map(|&v| name(v)).collect();
            format!(
                "{NO_LAYOUT}: most dead ends on the cycle {}",
                rooms.join(" - ")
            )
        } else {
            format!("{NO_LAYOUT}: most dead ends at room {}", name(self.room))
        }
    }

    /// The details of this seed.
    pub fn detail(&self, plan: &Plan, name: impl Fn(u32) -> String) -> String {
        if self.proved {
            return format!(
                "a complete search of {} placements found none; most dead ends at room {}",
                self.work,
                name(self.room)
            );
        }
        format!(
            "{} attempts of {}{} placements each found no layout; {} dead ends at room {}",
            self.attempts,
            if plan.work_ramp > 1 { "up to " } else { "" },
            plan.attempt_work,
            self.dead_ends,
            name(self.room)
        )
    }
}

/// Builds a layout for `plan` from `seed` by one search over all its rooms, or says where it
/// failed after bounded work.
pub(super) fn search(plan: &Plan, seed: u64, s: &mut BuildScratch) -> Result<(), Failure> {
    let n = plan.rooms();
    s.out.reset(n, plan.conns.len());
    if s.candidates.len() < n {
        s.candidates.resize_with(n, Vec::new);
    }
    s.cursor.clear();
    s.cursor.resize(n, 0);
    s.retries.clear();
    s.retries.resize(n, 0);
    s.room_dead.clear();
    s.room_dead.resize(n, 0);
    let mut rng = WarrenRng::new(seed);
    let mut proved = false;
    for attempt in 1..=plan.max_attempts {
        s.out.attempts = attempt;
        match attempt_once(plan, &mut rng, s) {
            Outcome::Found => return Ok(()),
            Outcome::Exhausted if plan.exhaustive => {
                proved = true;
                break;
            }
            _ => {}
        }
    }
    let room = (0..n).max_by_key(|&v| (s.room_dead[v], n - v)).unwrap_or(0);
    Err(Failure {
        proved,
        work: u64::from(s.out.work),
        attempts: s.out.attempts,
        room: room as u32,
        dead_ends: s.room_dead.get(room).copied().unwrap_or(0),
        cycle: canonical_cycle(shortest_cycle(plan, room as u32)),
    })
}

/// `cycle` from its lowest room, towards the lower of that room's two neighbours on it.
pub(super) fn canonical_cycle(mut cycle: Vec<u32>) -> Vec<u32> {
    if let Some(low) = (0..cycle.len()).min_by_key(|&i| cycle[i]) {
        cycle.rotate_left(low);
    }
    if cycle.len() >= 3 && cycle[cycle.len() - 1] < cycle[1] {
        cycle[1..].reverse();
    }
    cycle
}

/// Weight of a cycle room's distance from the placed rooms' centroid in its candidates' score
/// (against 1 for the distance from its target): measured on Edgar's 17-room graph, 0.5 needs
/// a third fewer attempts than 0 and packs a little tighter; pulling tree rooms in as well (1.5)
/// made the 41-room graph fail 4% of its seeds, so trees are not pulled.
const CORE_PULL: f32 = 0.5;

/// Rooms up to which cycle rooms are pulled towards the placed rooms' centroid. On larger
/// graphs the centroid of the whole map is far from where a cycle closes: random planar level
/// graphs of 300 rooms (`scripts/level_graphs.py`, seeds 1 to 5, 10 layouts each) laid out 34
/// of 50 with the pull and 47 of 50 without (before rewinds).
const PULL_UP_TO: usize = 64;

/// Rooms taken up before the worst dead end when an attempt's work budget runs out and it
/// rewinds ([`Plan::max_rewinds`]).
const REWIND: usize = 16;

/// One attempt: a drawing, an order and a bounded depth-first search with conflict-directed
/// backjumping (Prosser 1993): every depth keeps the depths of the placed rooms that ruled out
/// one of its candidates (a room it would overlap or lie too far from, a corridor in the way, a
/// neighbour whose configuration space it must meet), and a room with no candidate left sends
/// the search back to the latest of those, not to the room placed just before it. The rooms in
/// between had nothing to do with the dead end; going back through them one by one (as
/// chronological backtracking does) spends the work bound on their combinations, which is
/// where searches of a few hundred rooms used to die.
fn attempt_once(plan: &Plan, rng: &mut WarrenRng, s: &mut BuildScratch) -> Outcome {
    let n = plan.rooms();
    draw_targets(plan, rng, s);
    room_order(plan, rng, s);
    s.corridors.clear();
    s.spot.clear();
    s.spot.resize(n, NO_SPOT);
    s.depth_of.clear();
    s.depth_of.resize(n, 0);
    for (d, &v) in s.order.iter().enumerate() {
        s.depth_of[v as usize] = d as u32;
    }
    if s.conflicts.len() < n {
        s.conflicts.resize_with(n, Vec::new);
    }
    s.conflicts[..n].iter_mut().for_each(Vec::clear);
    // Translation from drawing to lattice: running sums of (placed centre - drawn position).
    let mut at = Steer::default();
    let work = plan.work_of_attempt(s.out.attempts);
    let mut budget = s.out.work + work;
    let mut depth = 0usize;
    candidates_for(plan, depth, rng, s, at);
    s.dead.clear();
    s.dead.resize(n, 0);
    let mut rewinds = 0u32;
    loop {
        if depth == n {
            return Outcome::Found;
        }
        if s.out.work >= budget && rewinds < plan.max_rewinds {
            // A rewind: the rooms from a stretch before the worst dead end on are taken up and
            // the search goes on from there with new candidates and a new work budget.
            let worst = (0..n).max_by_key(|&d| (s.dead[d], d)).unwrap_or(0);
            let back = worst.min(depth).saturating_sub(REWIND);
            while depth > back {
                depth -= 1;
                let u = s.order[depth] as usize;
                unplace(plan, u, s);
                at.remove(plan, u, s);
            }
            for c in &mut s.conflicts[back..n] {
                c.clear();
            }
            s.dead.iter_mut().for_each(|d| *d = 0);
            candidates_for(plan, depth, rng, s, at);
            rewinds += 1;
            budget = s.out.work + work;
            continue;
        }
        if s.out.work >= budget {
            return Outcome::Budget;
        }
        let v = s.order[depth] as usize;
        if s.cursor[depth] == SORTED_FIRST {
            s.candidates[depth][SORTED_FIRST..]
                .sort_unstable_by(|a, b| a.score.total_cmp(&b.score));
        }
        let next = if s.retries[depth] > plan.max_retries {
            None
        } else {
            s.candidates[depth].get(s.cursor[depth])
        };
        let Some(&c) = next else {
            // Nothing left here: back to the latest room that took part in the dead end.
            s.dead[depth] += 1;
            s.room_dead[v] += 1;
            let Some(back) = jump_target(depth, s) else {
                return Outcome::Exhausted;
            };
            while depth > back {
                depth -= 1;
                let u = s.order[depth] as usize;
                unplace(plan, u, s);
                at.remove(plan, u, s);
                if depth > back {
                    s.conflicts[depth].clear();
                }
            }
            continue;
        };
        s.cursor[depth] += 1;
        s.out.work += 1;
        if let Err(culprit) = fits(plan, v, c, rng, s) {
            note_conflict(&mut s.conflicts[depth], culprit);
            continue;
        }
        s.retries[depth] += 1;
        at.add(plan, v, s);
        depth += 1;
        if depth < n {
            candidates_for(plan, depth, rng, s, at);
        }
    }
}

/// How an attempt ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// Every room placed.
    Found,
    /// Its work budget ran out.
    Budget,
    /// The first room ran out of candidates: with complete candidate lists, no layout exists.
    Exhausted,
}

/// Where the search goes back to from a dead end at `depth`: the latest depth in its conflict
/// set, which inherits the rest of the set (`None` at depth 0, or with nothing to blame).
fn jump_target(depth: usize, s: &mut BuildScratch) -> Option<usize> {
    let mut set = std::mem::take(&mut s.conflicts[depth]);
    let back = match set.iter().max() {
        Some(&b) => b as usize,
        None if depth > 0 => depth - 1,
        None => return None,
    };
    for &c in &set {
        if c as usize != back {
            note_conflict(&mut s.conflicts[back], c);
        }
    }
    set.clear();
    s.conflicts[depth] = set;
    Some(back)
}

/// The drawing-to-lattice translation and the centroid of the placed rooms, kept as running
/// sums over the placed rooms.
#[derive(Clone, Copy, Debug, Default)]
struct Steer {
    dx: f32,
    dy: f32,
    cx: f32,
    cy: f32,
    k: u32,
}

impl Steer {
    fn centre(plan: &Plan, v: usize, s: &BuildScratch) -> (f32, f32) {
        let sh = &plan.cat.shapes[s.out.shape[v] as usize];
        (
            s.out.x[v] as f32 + sh.w as f32 / 2.0,
            s.out.y[v] as f32 + sh.h as f32 / 2.0,
        )
    }

    fn add(&mut self, plan: &Plan, v: usize, s: &BuildScratch) {
        let (x, y) = Self::centre(plan, v, s);
        self.dx += x - s.tx[v];
        self.dy += y - s.ty[v];
        self.cx += x;
        self.cy += y;
        self.k += 1;
    }

    fn remove(&mut self, plan: &Plan, v: usize, s: &BuildScratch) {
        let (x, y) = Self::centre(plan, v, s);
        self.dx -= x - s.tx[v];
        self.dy -= y - s.ty[v];
        self.cx -= x;
        self.cy -= y;
        self.k -= 1;
    }
}

/// Removes room `v` and the links and corridors it made.
fn unplace(plan: &Plan, v: usize, s: &mut BuildScratch) {
    s.placed[v] = false;
    let v = v as u32;
    s.corridors.retain(|&(_, j)| {
        let (a, b) = plan.conns[j as usize];
        a != v && b != v
    });
}

/// The candidates of the room at `depth`, sorted, its cursor reset.
fn candidates_for(plan: &Plan, depth: usize, rng: &mut WarrenRng, s: &mut BuildScratch, at: Steer) {
    let v = s.order[depth] as usize;
    let k = at.k;
    let cs = (at.cx, at.cy);
    // The placed neighbours shape this room's configuration space: each takes part in any
    // dead end here.
    for &(u, _) in &plan.adj[v] {
        if s.placed[u as usize] {
            let d = s.depth_of[u as usize];
            note_conflict(&mut s.conflicts[depth], d);
        }
    }
    for (c, u, _) in plan.across(v) {
        if !s.placed[c] && s.placed[u] {
            note_conflict(&mut s.conflicts[depth], s.depth_of[u]);
        }
    }
    let mut list = std::mem::take(&mut s.candidates[depth]);
    list.clear();
    s.cursor[depth] = 0;
    s.retries[depth] = 0;
    if one_place(plan, depth, &mut list, s) {
        s.candidates[depth] = list;
        return;
    }
    let (gx, gy) = target(plan, depth, s, at);
    let noise = plan.length * plan.noise;
    let pull = if plan.core[v] && plan.rooms() <= PULL_UP_TO {
        CORE_PULL
    } else {
        0.0
    };
    let (cx, cy) = if k == 0 {
        (0.0, 0.0)
    } else {
        (cs.0 / k as f32, cs.1 / k as f32)
    };
    for &si in &plan.room_shapes[v] {
        if let Some(d) = repeat_conflict(plan, v, si, s) {
            note_conflict(&mut s.conflicts[depth], d);
            continue;
        }
        let sh = &plan.cat.shapes[si as usize];
        // Offsets that put the shape's centre on the target.
        let (ox, oy) = (gx - sh.w as f32 / 2.0, gy - sh.h as f32 / 2.0);
        if k == 0 {
            if !plan.first_shape_tried(si) {
                continue;
            }
            list.push(first_candidate(plan, (si, sh), (ox, oy), rng));
            continue;
        }
        zones_for(plan, v, si, s);
        if plan.exhaustive {
            every_position(&s.zones, si, (ox, oy), &mut list);
            continue;
        }
        for z in &s.zones {
            let near = (
                (ox.round() as i32).clamp(z.x0, z.x1),
                (oy.round() as i32).clamp(z.y0, z.y1),
            );
            let random = (
                z.x0 + rng.below((z.x1 - z.x0 + 1) as u32) as i32,
                z.y0 + rng.below((z.y1 - z.y0 + 1) as u32) as i32,
            );
            for (x, y) in [near, random] {
                let d = ((x as f32 - ox).powi(2) + (y as f32 - oy).powi(2)).sqrt();
                list.push(Candidate {
                    score: d
                        + pull
                            * ((x as f32 + sh.w as f32 / 2.0 - cx).powi(2)
                                + (y as f32 + sh.h as f32 / 2.0 - cy).powi(2))
                            .sqrt()
                        + noise * rng.unit_f32(),
                    shape: si,
                    x,
                    y,
                });
            }
        }
    }
    if k > 0 && !plan.exhaustive {
        push_spot(plan, s.spot[v], (gx, gy), noise, rng, &mut list);
    }
    // Most rooms fit one of their first few candidates: sort only the best ones now, the rest
    // when the search gets to them (`next_candidate`).
    if list.len() > SORTED_FIRST {
        list.select_nth_unstable_by(SORTED_FIRST, |a, b| a.score.total_cmp(&b.score));
        list[..SORTED_FIRST].sort_unstable_by(|a, b| a.score.total_cmp(&b.score));
    } else {
        list.sort_unstable_by(|a, b| a.score.total_cmp(&b.score));
    }
    if !plan.exhaustive {
        list.truncate(MAX_CANDIDATES);
    }
    s.candidates[depth] = list;
}

/// Where the room at `depth` is aimed: its drawn position moved with the rooms it is steered
/// by, or with all placed rooms on average (the origin for the first room).
fn target(plan: &Plan, depth: usize, s: &BuildScratch, at: Steer) -> (f32, f32) {
    let v = s.order[depth] as usize;
    let k = at.k;
    if k == 0 {
        if plan.frame.is_none() {
            (0.0, 0.0)
        } else {
            // In a frame the drawing is aimed at the grid (`order::aim_at_frame`).
            (s.tx[v], s.ty[v])
        }
    } else if s.steer[depth][0].0 == u32::MAX {
        (s.tx[v] + at.dx / k as f32, s.ty[v] + at.dy / k as f32)
    } else {
        // Moved with the rooms it is steered by.
        let (mut ox, mut oy) = (0.0f32, 0.0f32);
        for (u, w) in s.steer[depth] {
            let (x, y) = Steer::centre(plan, u as usize, s);
            ox += w * (x - s.tx[u as usize]);
            oy += w * (y - s.ty[u as usize]);
        }
        (s.tx[v] + ox, s.ty[v] + oy)
    }
}

/// The free spot forward checking found for a room (`spot`, if any) as one more candidate,
/// scored like the others by its distance to the target `(gx, gy)`: the two candidates drawn
/// from each configuration-space rectangle may both miss it. On random planar level graphs of
/// 300 rooms (`scripts/level_graphs.py`, seeds 1 to 20, 3 layouts each) forward checking
/// alone laid out 59 of 60; with its spots as candidates 60 of 60 in two thirds of the time.
fn push_spot(
    plan: &Plan,
    (si, x, y): (u32, i32, i32),
    (gx, gy): (f32, f32),
    noise: f32,
    rng: &mut WarrenRng,
    list: &mut Vec<Candidate>,
) {
    if si == u32::MAX {
        return;
    }
    let sh = &plan.cat.shapes[si as usize];
    let (ox, oy) = (gx - sh.w as f32 / 2.0, gy - sh.h as f32 / 2.0);
    let d = ((x as f32 - ox).powi(2) + (y as f32 - oy).powi(2)).sqrt();
    list.push(Candidate {
        score: d + noise * rng.unit_f32(),
        shape: si,
        x,
        y,
    });
}

/// Every lattice position of `zones` as a candidate for shape `si`, scored by its distance to
/// the offset `(ox, oy)` that puts the shape on its target (a complete search's list).
fn every_position(zones: &[Zone], si: u32, (ox, oy): (f32, f32), list: &mut Vec<Candidate>) {
    for z in zones {
        for y in z.y0..=z.y1 {
            for x in z.x0..=z.x1 {
                let d = ((x as f32 - ox).powi(2) + (y as f32 - oy).powi(2)).sqrt();
                list.push(Candidate {
                    score: d,
                    shape: si,
                    x,
                    y,
                });
            }
        }
    }
}

/// Whether candidate `c` of room `v` fits; if so, places it with its links and corridors, if
/// not, names the depth of a placed room that rules it out (the earliest placed one found).
fn fits(
    plan: &Plan,
    v: usize,
    c: Candidate,
    rng: &mut WarrenRng,
    s: &mut BuildScratch,
) -> Result<(), u32> {
    let sh = &plan.cat.shapes[c.shape as usize];
    // The repeat modes (the free spot forward checking found may take a template used since).
    if let Some(d) = repeat_conflict(plan, v, c.shape, s) {
        return Err(d);
    }
    // Rooms.
    for &u in s.order.iter() {
        let u = u as usize;
        if !s.placed[u] {
            continue;
        }
        let joined = plan.adjacent(v, u);
        let gap = if joined { 0 } else { plan.min_distance };
        let other = &plan.cat.shapes[s.out.shape[u] as usize];
        if sh.near(c.x, c.y, other, s.out.x[u], s.out.y[u], gap) {
            return Err(s.depth_of[u]);
        }
        if !plan.reach.is_empty() {
            let (ux, uy) = (s.out.x[u], s.out.y[u]);
            let apart = (ux - (c.x + sh.w))
                .max(c.x - (ux + other.w))
                .max(uy - (c.y + sh.h))
                .max(c.y - (uy + other.h));
            if apart > plan.reach[v * plan.rooms() + u] {
                return Err(s.depth_of[u]);
            }
        }
    }
    clear_of_world(plan, v, (sh, c), s)?;
    if let Some(bounds) = plan.bounds {
        out_of_bounds(plan, bounds, sh, c, s)?;
    }
    if let Some(frame) = &plan.frame {
        in_frame(frame, v, (sh, c), s)?;
    }
    // Corridors already there.
    for &(r, j) in &s.corridors {
        let (a, b) = plan.conns[j as usize];
        let end = a as usize == v || b as usize == v;
        let gap = if end { 0 } else { plan.min_distance };
        if sh.rects.iter().any(|q| q.near(c.x, c.y, &r, 0, 0, gap)) {
            return Err(corridor_depth(plan, j, s));
        }
    }
    // Links to the placed neighbours, and their corridors.
    let before = s.corridors.len();
    for &(u, j) in &plan.adj[v] {
        let u = u as usize;
        if !s.placed[u] {
            continue;
        }
        let other = &plan.cat.shapes[s.out.shape[u] as usize];
        let Some(link) = link_between(
            plan,
            j,
            (u, other, s.out.x[u], s.out.y[u]),
            (sh, c.x, c.y),
            rng,
        ) else {
            s.corridors.truncate(before);
            return Err(s.depth_of[u]);
        };
        if let Some(r) = link.corridor() {
            let off_mask = plan.frame.as_ref().is_some_and(|f| !f.holds_rect(&r));
            if let Err(culprit) = corridor_clear(plan, r, j, s).and_then(|()| match off_mask {
                true => Err(s.depth_of[u]),
                false => Ok(()),
            }) {
                s.corridors.truncate(before);
                return Err(culprit);
            }
            s.corridors.push((r, j));
        }
        s.out.links[j as usize] = link;
    }
    s.out.shape[v] = c.shape;
    s.out.x[v] = c.x;
    s.out.y[v] = c.y;
    s.placed[v] = true;
    // Rooms placed while `v` is are not checked against its spot.
    s.spot[v] = NO_SPOT;
    if !plan.exhaustive
        && let Err(culprit) = forward_check(plan, v, s)
    {
        s.placed[v] = false;
        s.corridors.truncate(before);
        return Err(culprit);
    }
    Ok(())
}

/// Whether shape `sh` at candidate `c` keeps the floor plan within `bounds` (width and height
/// in tiles); if not, the depth of the placed room at the far end of the box it would stretch
/// (the two of them alone do not fit; corridors lie between their rooms, inside the rooms' box).
fn out_of_bounds(
    plan: &Plan,
    (width, height): (i32, i32),
    sh: &Shape,
    c: Candidate,
    s: &BuildScratch,
) -> Result<(), u32> {
    // Per axis: the lowest start and the highest end of a placed room, and those rooms.
    let (mut lo, mut hi) = ([i32::MAX; 2], [i32::MIN; 2]);
    let (mut lo_room, mut hi_room) = ([0usize; 2], [0usize; 2]);
    for &u in &s.order {
        let u = u as usize;
        if !s.placed[u] {
            continue;
        }
        let other = &plan.cat.shapes[s.out.shape[u] as usize];
        let start = [s.out.x[u], s.out.y[u]];
        let end = [start[0] + other.w, start[1] + other.h];
        for k in 0..2 {
            if start[k] < lo[k] {
                (lo[k], lo_room[k]) = (start[k], u);
            }
            if end[k] > hi[k] {
                (hi[k], hi_room[k]) = (end[k], u);
            }
        }
    }
    let (start, end) = ([c.x, c.y], [c.x + sh.w, c.y + sh.h]);
    for (k, most) in [width, height].into_iter().enumerate() {
        if lo[k] == i32::MAX {
            break;
        }
        // A box from a to b holds b - a + 1 tiles.
        if end[k] - lo[k] + 1 > most {
            return Err(s.depth_of[lo_room[k]]);
        }
        if hi[k] - start[k] + 1 > most {
            return Err(s.depth_of[hi_room[k]]);
        }
    }
    Ok(())
}

/// The depth at which connection `j`'s corridor was made: its later-placed end's.
fn corridor_depth(plan: &Plan, j: u32, s: &BuildScratch) -> u32 {
    let (a, b) = plan.conns[j as usize];
    s.depth_of[a as usize].max(s.depth_of[b as usize])
}

/// Whether a new corridor `r` of connection `j` keeps clear of every placed room but its ends
/// and of the other corridors (the room being placed, one of its ends, is checked against the
/// corridors by `fits`); if not, the depth of what is in the way.
fn corridor_clear(plan: &Plan, r: Rect, j: u32, s: &BuildScratch) -> Result<(), u32> {
    let (a, b) = plan.conns[j as usize];
    for &u in &s.order {
        let u = u as usize;
        if !s.placed[u] || u == a as usize || u == b as usize {
            continue;
        }
        let other = &plan.cat.shapes[s.out.shape[u] as usize];
        if other
            .rects
            .iter()
            .any(|q| q.near(s.out.x[u], s.out.y[u], &r, 0, 0, plan.min_distance))
        {
            return Err(s.depth_of[u]);
        }
    }
    if s.world
        .as_ref()
        .is_some_and(|w| w.blocks_corridor(plan, &r))
    {
        return Err(0);
    }
    match s.corridors.iter().find(|(q, _)| q.near(0, 0, &r, 0, 0, 0)) {
        Some(&(_, k)) => Err(corridor_depth(plan, k, s)),
        None => Ok(()),
    }
}

/// How connection `j` joins placed room `u` and the room being placed (shape `sv` at its
/// candidate position): a door side of each facing the other at an allowed gap, and a door
/// position on both, or `None`.
fn link_between(
    plan: &Plan,
    j: u32,
    (u, su, ux, uy): (usize, &Shape, i32, i32),
    (sv, vx, vy): (&Shape, i32, i32),
    rng: &mut WarrenRng,
) -> Option<Link> {
    let (a, _) = plan.conns[j as usize];
    // Links are stored from room `a`'s side.
    let (first, fx, fy, second, sx, sy) = if a as usize == u {
        (su, ux, uy, sv, vx, vy)
    } else {
        (sv, vx, vy, su, ux, uy)
    };
    let mut found = 0u32;
    let mut pick = Link::default();
    for d1 in &first.doors {
        let (nx, ny) = side::normal(d1.side);
        let sign = nx + ny;
        let vertical = side::vertical(d1.side);
        let (w1, along1) = if vertical {
            (fx + d1.fixed, fy)
        } else {
            (fy + d1.fixed, fx)
        };
        for d2 in &second.doors {
            if d2.side != side::opposite(d1.side)
                || d2.len != d1.len
                || !d1.meets(d2, plan.gaps(j as usize).flow)
            {
                continue;
            }
            let (w2, along2) = if vertical {
                (sx + d2.fixed, sy)
            } else {
                (sy + d2.fixed, sx)
            };
            let gap = (w2 - w1) * sign;
            if !plan
                .gaps(j as usize)
                .ranges
                .iter()
                .any(|&(g0, g1)| (g0..=g1).contains(&gap))
            {
                continue;
            }
            let lo = (along1 + d1.lo).max(along2 + d2.lo);
            let hi = (along1 + d1.hi).min(along2 + d2.hi);
            if lo > hi {
                continue;
            }
            // Reservoir choice over the facing pairs, then a door position.
            found += 1;
            if rng.below(found) == 0 {
                pick = Link {
                    side: d1.side,
                    wall: w1,
                    start: lo + rng.below((hi - lo + 1) as u32) as i32,
                    len: d1.len,
                    gap,
                };
            }
        }
    }
    (found > 0).then_some(pick)
}

/// Whether connection `j` can join its rooms with shape `sa` at `(ax, ay)` for its first room
/// and `sb` at `(bx, by)` for its second (as two fixed rooms are pinned): a pair of their doors
/// meets at an allowed gap.
pub fn can_join(
    plan: &Plan,
    j: u32,
    (sa, ax, ay): (&Shape, i32, i32),
    b: (&Shape, i32, i32),
) -> bool {
    let (first, _) = plan.conns[j as usize];
    let mut rng = WarrenRng::new(0);
    link_between(plan, j, (first as usize, sa, ax, ay), b, &mut rng).is_some()
}
