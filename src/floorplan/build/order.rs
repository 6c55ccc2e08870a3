//! What steers the map builder's search in each attempt: the target drawing and the room order
//! (cycles ear by ear, then trees). It reads the plan and fills the scratch.

use super::plan::{Frame, Plan};
use super::scratch::BuildScratch;
use crate::core::rng::WarrenRng;
use crate::layout::{LayoutGraph, LayoutParams, random_positions, relax};

/// Force iterations after the shaken MDS start (measured on Edgar's inputs, `build::tests`: 10
/// to 30 iterations need a third fewer attempts than 0 and cost less than 100; from a random
/// start 300 were needed).
const MDS_ITERATIONS: u32 = 20;

/// Attempts over which the drawing's shake grows by its first size ([`shake_growth`]).
const SHAKE_GROWS_EVERY: u32 = 4;

/// The most the drawing's shake grows ([`shake_growth`]).
const SHAKE_GROWS_UP_TO: f32 = 8.0;

/// Rooms up to which the drawing's shake grows over the attempts ([`shake_growth`]). Random
/// planar level graphs of 300 rooms (`scripts/map_scale.py --sizes 300`, the same run) laid out
/// about as often with it (199 and 198 of 200 without and with corridors, against 199 and 197)
/// but the median graph took 1.3 and 1.8 times as long: their stress drawing is a good guide,
/// and a shaken one a worse one.
const SHAKE_GROWS_UP_TO_ROOMS: usize = 64;

/// How much more than [`Plan::shake`] attempt `attempt` (from 1) shakes the drawing: 1 for the
/// first, growing by 1 every [`SHAKE_GROWS_EVERY`] attempts up to [`SHAKE_GROWS_UP_TO`].
///
/// A graph whose cycles share long paths of nearly equal lengths (a theta: three paths between
/// two rooms) has a stress drawing that lays the paths over each other, and a little shake
/// does not pull them apart: the search closes one ring tightly and finds no room for the
/// third path inside it or around it, in every attempt. Edgar's random graph 15 of cycle rank 2
/// and 20 to 29 rooms laid out 0 of 10 seeds with the shake fixed at 0.5 edge lengths, 8 of 10
/// at 4, 10 of 10 with it growing from 0.5 by 0.5 every 4 attempts up to 4. The first attempt,
/// which lays out most seeds, is unchanged.
///
/// Larger graphs ([`SHAKE_GROWS_UP_TO_ROOMS`]) keep the first shake.
fn shake_growth(rooms: usize, attempt: u32) -> f32 {
    if rooms > SHAKE_GROWS_UP_TO_ROOMS {
        return 1.0;
    }
    (1.0 + attempt.saturating_sub(1) as f32 / SHAKE_GROWS_EVERY as f32).min(SHAKE_GROWS_UP_TO)
}

/// A seeded turn of a drawing, `(cos, sin, mirror)`: a uniform direction without
/// trigonometry (libm's sin and cos may round differently across platforms; a square root does
/// not), a point drawn in the unit disc, normalised; below full variety
/// ([`Plan::turn_spread`]) leaning towards the drawing's own (the uniform one mixed with
/// (1, 0), normalised again); mirrored half the time.
pub(super) fn turn(plan: &Plan, r: &mut WarrenRng) -> (f32, f32, f32) {
    let (cos, sin) = loop {
        let (a, b) = (r.unit_f32() * 2.0 - 1.0, r.unit_f32() * 2.0 - 1.0);
        let d2 = a * a + b * b;
        if (0.01..=1.0).contains(&d2) {
            let d = d2.sqrt();
            break (a / d, b / d);
        }
    };
    let (cos, sin) = if plan.turn_spread < 1.0 {
        let t = plan.turn_spread.max(0.0);
        let (a, b) = (1.0 - t + t * cos, t * sin);
        let d = (a * a + b * b).sqrt();
        if d > 1e-3 { (a / d, b / d) } else { (1.0, 0.0) }
    } else {
        (cos, sin)
    };
    let flip = if r.below(2) == 0 { 1.0 } else { -1.0 };
    (cos, sin, flip)
}

/// The seeded force drawing the search steers by.
pub(super) fn draw_targets(plan: &Plan, rng: &mut WarrenRng, s: &mut BuildScratch) {
    let n = plan.rooms();
    let seed = rng.next_u64();
    let iterations = match &plan.drawing {
        // The graph's stress drawing, turned, maybe mirrored and shaken: a good shape every time,
        // a different one each attempt.
        Some((mx, my)) => {
            let mut r = WarrenRng::new(seed);
            let (cos, sin, flip) = turn(plan, &mut r);
            // A given drawing keeps its orientation.
            let (cos, sin, flip) = if plan.turn {
                (cos, sin, flip)
            } else {
                // A piece of a larger level turns as the whole level does (`pieces`).
                s.turn.unwrap_or((1.0, 0.0, 1.0))
            };
            let shake = plan.length * plan.shake * shake_growth(n, s.out.attempts);
            s.tx.clear();
            s.ty.clear();
            for (&x, &y) in mx.iter().zip(my) {
                let y = y * flip;
                s.tx.push(x * cos - y * sin + (r.unit_f32() - 0.5) * shake);
                s.ty.push(x * sin + y * cos + (r.unit_f32() - 0.5) * shake);
            }
            MDS_ITERATIONS
        }
        _ => {
            random_positions(n, plan.length, seed, &mut s.tx, &mut s.ty);
            300
        }
    };
    if n < 3 {
        return;
    }
    let graph = LayoutGraph {
        src: &plan.src,
        dst: &plan.dst,
        length_factor: None,
    };
    let params = LayoutParams {
        length: plan.length,
        max_iterations: iterations,
        tolerance: 1e-2,
        parallel: false,
        ..LayoutParams::default()
    };
    relax(&graph, &mut s.tx, &mut s.ty, &params, &mut s.layout);
    if let Some(frame) = &plan.frame {
        aim_at_frame(plan, frame, s);
    }
}

/// The least and the most a drawing is scaled to put two or more fixed rooms' drawn centres
/// on their pins ([`aim_at_frame`]). The search packs rooms closer than the drawing draws
/// them: pins as far apart as the same rooms lie in unpinned layouts ask for about 0.7 (the
/// least-squares scale averaged 0.76 over the attempts of `fig8-17-fixed.json` and 0.67 over
/// those of `fig8-41-fixed.json`, whose pins are 140 tiles apart against 160 at the median of
/// unpinned layouts). A least bound of 0.75 left the 41-room drawing too large for its pins:
/// 3.7 times the unpinned graph's placements a layout, 1.8 times at 0.5 (release build, 2,000
/// layouts).
const PIN_SCALE: (f32, f32) = (0.5, 1.5);

/// In a frame (fixed rooms or a mask), puts the drawing on the grid (the search's lattice):
/// without fixed rooms, its centre on the mask's; with one, its drawn centre on its pinned
/// centre; either way turned by the quarter turn that keeps most rooms on the grid (and the
/// mask). With two or more fixed rooms, the turn, scale (within [`PIN_SCALE`]) and shift that
/// put their drawn centres nearest their pinned ones (least squares, the drawing's mirror
/// image as drawn). Rooms drawn outside the grid are moved to its edge.
fn aim_at_frame(plan: &Plan, frame: &Frame, s: &mut BuildScratch) {
    let centre = |v: u32| {
        let sh = &plan.cat.shapes[plan.room_shapes[v as usize][0] as usize];
        let (x, y) = plan.pinned[v as usize].expect("a fixed room");
        (x as f32 + sh.w as f32 / 2.0, y as f32 + sh.h as f32 / 2.0)
    };
    let pins = &plan.fixed_rooms;
    let (mut p, mut q) = ((0.0f32, 0.0f32), frame.centre);
    if pins.is_empty() {
        let k = s.tx.len().max(1) as f32;
        p = (s.tx.iter().sum::<f32>() / k, s.ty.iter().sum::<f32>() / k);
    } else {
        let k = pins.len() as f32;
        q = (0.0, 0.0);
        for &v in pins {
            let c = centre(v);
            p = (p.0 + s.tx[v as usize] / k, p.1 + s.ty[v as usize] / k);
            q = (q.0 + c.0 / k, q.1 + c.1 / k);
        }
    }
    let (w, h) = frame.size.map_or((f32::INFINITY, f32::INFINITY), |(w, h)| {
        (w as f32, h as f32)
    });
    let (cos, sin, scale) = if pins.len() >= 2 {
        let (mut a, mut b, mut norm) = (0.0f32, 0.0f32, 0.0f32);
        for &v in pins {
            let (px, py) = (s.tx[v as usize] - p.0, s.ty[v as usize] - p.1);
            let (qx, qy) = (centre(v).0 - q.0, centre(v).1 - q.1);
            a += px * qx + py * qy;
            b += px * qy - py * qx;
            norm += px * px + py * py;
        }
        let r = (a * a + b * b).sqrt();
        if r > 1e-6 && norm > 1e-6 {
            (a / r, b / r, (r / norm).clamp(PIN_SCALE.0, PIN_SCALE.1))
        } else {
            (1.0, 0.0, 1.0)
        }
    } else {
        let inside = |(cos, sin): (f32, f32), q: (f32, f32)| {
            s.tx.iter()
                .zip(&s.ty)
                .filter(|&(&x, &y)| {
                    let (dx, dy) = (x - p.0, y - p.1);
                    let (x, y) = (q.0 + dx * cos - dy * sin, q.1 + dx * sin + dy * cos);
                    match &frame.mask {
                        Some(m) => m.allows(x.floor() as i32, y.floor() as i32),
                        None => x >= 0.0 && y >= 0.0 && x < w && y < h,
                    }
                })
                .count()
        };
        // Without fixed rooms, the drawing may also move: to the mask's centre or to one of
        // an 8 x 8 grid of points over it (a ring-shaped mask's centre is off it).
        let mut places = vec![q];
        if pins.is_empty() && w.is_finite() && h.is_finite() {
            for i in 0..8 {
                for j in 0..8 {
                    places.push(((i as f32 + 0.5) * w / 8.0, (j as f32 + 0.5) * h / 8.0));
                }
            }
        }
        let turns = [(1.0, 0.0), (0.0, 1.0), (-1.0, 0.0), (0.0, -1.0)];
        let mut best = (0usize, (1.0, 0.0), q);
        for &at in &places {
            for t in turns {
                let k = inside(t, at);
                // The first best: the centre before the grid's points.
                if k > best.0 {
                    best = (k, t, at);
                }
            }
        }
        q = best.2;
        (best.1.0, best.1.1, 1.0)
    };
    let m = plan.length / 2.0;
    for (x, y) in s.tx.iter_mut().zip(s.ty.iter_mut()) {
        let (dx, dy) = ((*x - p.0) * scale, (*y - p.1) * scale);
        *x = (q.0 + dx * cos - dy * sin).max(m).min((w - m).max(m));
        *y = (q.1 + dx * sin + dy * cos).max(m).min((h - m).max(m));
    }
}

/// Rooms up to which the order is built ear by ear (above it: breadth-first, cheaper).
const EARS_UP_TO: usize = 4096;

/// The room order of one attempt: the graph's cycles first, ear by ear (Edgar's chains: a
/// shortest cycle, then again and again the shortest path of unplaced rooms between two placed
/// ones, each path placed from both ends inwards so that its last room closes the cycle next
/// to the rooms placed just before it; a path that leads only onwards, to another block of
/// the graph, one room at a time until ears appear again), then the trees, breadth-first.
pub(super) fn room_order(plan: &Plan, rng: &mut WarrenRng, s: &mut BuildScratch) {
    let n = plan.rooms();
    s.order.clear();
    s.steer.clear();
    s.placed.clear();
    s.placed.resize(n, false);
    let cores: Vec<u32> = (0..n as u32).filter(|&v| plan.core[v as usize]).collect();
    let from_pin = start_at_pins(plan, rng, s);
    if !cores.is_empty() && n <= EARS_UP_TO {
        let start = match from_pin {
            Some(c) => c,
            None => cores[rng.below(cores.len() as u32) as usize],
        };
        let mut path = shortest_cycle(plan, start);
        // The cycle's rooms from both ends of the path inwards.
        if from_pin.is_none() {
            let rotate = rng.below(path.len() as u32) as usize;
            path.rotate_left(rotate);
        }
        // The cycle closes on its first room.
        path.push(path[0]);
        push_inwards(&path, (0, plan.graph_rooms()), s);
        loop {
            let Some(ear) = shortest_ear(plan, rng, s) else {
                // No ear: the core rooms left are reached only through paths of unplaced rooms
                // (bridges between the graph's blocks). One more room of such a path, then the
                // ears again, so that each block's cycles are placed as cycles when the path
                // gets there.
                if bridge_step(plan, s) {
                    continue;
                }
                break;
            };
            // The ear between the placed rooms it leaves from and comes back to.
            let anchor = |v: u32| {
                plan.adj[v as usize]
                    .iter()
                    .map(|&(u, _)| u)
                    .find(|&u| s.placed[u as usize])
                    .expect("an ear's ends touch placed rooms")
            };
            let (a, b) = (anchor(ear[0]), anchor(ear[ear.len() - 1]));
            let mut seq = Vec::with_capacity(ear.len() + 2);
            seq.push(a);
            seq.extend_from_slice(&ear);
            seq.push(b);
            push_inwards(&seq, (1, plan.graph_rooms()), s);
        }
    }
    if s.order.is_empty() {
        let first = if cores.is_empty() {
            rng.below(n as u32)
        } else {
            cores[rng.below(cores.len() as u32) as usize]
        };
        s.order.push(first);
        s.steer.push(NO_STEER);
        s.placed[first as usize] = true;
    }
    // Placed-neighbour counts and first-seen times of the rooms next to the placed ones.
    let mut count = vec![0u32; n];
    let mut seen = vec![u32::MAX; n];
    let mut clock = 0u32;
    let touch = |v: u32, count: &mut Vec<u32>, seen: &mut Vec<u32>, clock: &mut u32| {
        for &(u, _) in &plan.adj[v as usize] {
            count[u as usize] += 1;
            if seen[u as usize] == u32::MAX {
                seen[u as usize] = *clock;
                *clock += 1;
            }
        }
    };
    for k in 0..s.order.len() {
        touch(s.order[k], &mut count, &mut seen, &mut clock);
    }
    while s.order.len() < n {
        let next = (0..n as u32)
            .filter(|&v| !s.placed[v as usize] && count[v as usize] > 0)
            .max_by_key(|&v| {
                let v = v as usize;
                (plan.core[v], count[v], u32::MAX - seen[v])
            })
            .expect("the graph is connected");
        s.order.push(next);
        let mut by = plan.adj[next as usize]
            .iter()
            .map(|&(u, _)| u)
            .filter(|&u| s.placed[u as usize]);
        let first = by.next().expect("a placed neighbour");
        s.steer.push(match by.next() {
            Some(second) => [(first, 0.5), (second, 0.5)],
            None => [(first, 1.0), (first, 0.0)],
        });
        s.placed[next as usize] = true;
        touch(next, &mut count, &mut seen, &mut clock);
    }
    s.placed.iter_mut().for_each(|p| *p = false);
}

/// Appends to the order the unplaced core room next to the latest placed room that has one,
/// steered by that room; `false` when no unplaced core room touches a placed one.
fn bridge_step(plan: &Plan, s: &mut BuildScratch) -> bool {
    for k in (0..s.order.len()).rev() {
        let u = s.order[k];
        let next = plan.adj[u as usize]
            .iter()
            .map(|&(x, _)| x)
            .find(|&x| !s.placed[x as usize] && plan.core[x as usize]);
        if let Some(v) = next {
            s.order.push(v);
            s.steer.push([(u, 1.0), (u, 0.0)]);
            s.placed[v as usize] = true;
            return true;
        }
    }
    false
}

/// Appends the rooms `seq[skip..len - skip]` (the first and last `skip` are placed already,
/// or `seq` is a cycle whose last room is its first) to the order from both ends inwards
/// (`p0, pL, p1, pL-1, ...`), each steered by the nearest placed rooms of `seq` on either side
/// of it: its target moves with them, in proportion to how close along `seq` it is to each, so
/// that the two arms of a cycle grow towards each other from where they really are. Rooms from
/// `corridors` on are corridor rooms, placed after the ear's other rooms (steered meanwhile by
/// the corridor configuration spaces, [`Plan::across`]), each then between its two rooms.
fn push_inwards(seq: &[u32], (skip, corridors): (usize, usize), s: &mut BuildScratch) {
    let (mut lo, mut hi) = (skip, seq.len() - skip.max(1));
    let mut front = true;
    let mut picks = std::mem::take(&mut s.picks);
    picks.clear();
    while lo < hi {
        let i = if front {
            lo += 1;
            lo - 1
        } else {
            hi -= 1;
            hi
        };
        front = !front;
        if !s.placed[seq[i] as usize] {
            // (Else a fixed room, placed first.)
            picks.push(i);
        }
    }
    // The ear's rooms first, then its corridor rooms, each between two placed rooms.
    let (mut rooms, mut k) = (0, 0);
    while k < picks.len() {
        if (seq[picks[k]] as usize) < corridors {
            picks[rooms..=k].rotate_right(1);
            rooms += 1;
        }
        k += 1;
    }
    for &i in &picks {
        let v = seq[i];
        let left = (0..i).rev().find(|&j| s.placed[seq[j] as usize]);
        let right = (i + 1..seq.len()).find(|&j| s.placed[seq[j] as usize]);
        s.steer.push(match (left, right) {
            (Some(l), Some(r)) => {
                let t = (i - l) as f32 / (r - l) as f32;
                [(seq[l], 1.0 - t), (seq[r], t)]
            }
            (Some(l), None) => [(seq[l], 1.0), (seq[l], 0.0)],
            (None, Some(r)) => [(seq[r], 1.0), (seq[r], 0.0)],
            (None, None) => NO_STEER,
        });
        s.order.push(v);
        s.placed[v as usize] = true;
    }
    s.picks = picks;
}

/// With fixed rooms, the start of the order: every fixed room (their places fix the frame; the
/// cycles then close onto them as onto any placed room), then the path from one of them to the
/// nearest core room; that core room, where the cycles start (`None` without fixed rooms, or
/// when the graph has no core).
///
/// The fixed room the cycles start from is one whose core room lies on the shortest cycle
/// (any of those, by the seed): the first cycle is placed around one fixed point and the
/// other fixed rooms are reached by ears, each closing short. Started on a long cycle that
/// passes next to a second fixed room, the first cycle must close through two fixed points:
/// with the start and the boss of Edgar's 17-room graph pinned (`fig8-17-fixed.json`: the
/// start a leaf next to a 7-room cycle, the boss on 10-room ones) a layout took 1.6 times
/// the placements of the unpinned graph when started from the boss's cycle and 1.0 times
/// from the start's, 1.3 times with the fixed room drawn at random (release build, 2,000
/// layouts).
fn start_at_pins(plan: &Plan, rng: &mut WarrenRng, s: &mut BuildScratch) -> Option<u32> {
    if plan.fixed_rooms.is_empty() {
        return None;
    }
    // Every fixed room first: the cycles then close onto them as onto any placed room.
    let pins = &plan.fixed_rooms;
    for &v in pins {
        s.order.push(v);
        s.steer.push(NO_STEER);
        s.placed[v as usize] = true;
    }
    let cycle_at = |v: u32| match path_to_core(plan, v).last() {
        Some(&c) if plan.core[c as usize] => shortest_cycle(plan, c).len(),
        _ => usize::MAX,
    };
    // One fixed room (every piece of a large graph has one): nothing to choose.
    let lengths: Vec<usize> = match pins.len() {
        1 => vec![0],
        _ => pins.iter().map(|&v| cycle_at(v)).collect(),
    };
    let shortest = lengths.iter().copied().min().unwrap_or(usize::MAX);
    let tied: Vec<u32> = (0..pins.len())
        .filter(|&i| lengths[i] == shortest)
        .map(|i| pins[i])
        .collect();
    let path = path_to_core(plan, tied[rng.below(tied.len() as u32) as usize]);
    for (i, &v) in path.iter().enumerate() {
        if plan.core[v as usize] {
            break;
        }
        if s.placed[v as usize] {
            continue;
        }
        s.order.push(v);
        s.steer.push(match i {
            0 => NO_STEER,
            _ => [(path[i - 1], 1.0), (path[i - 1], 0.0)],
        });
        s.placed[v as usize] = true;
    }
    path.last().copied().filter(|&c| plan.core[c as usize])
}

/// A shortest path from room `from` to a core room (`[from]` when it is one, or when the graph
/// has none).
fn path_to_core(plan: &Plan, from: u32) -> Vec<u32> {
    let n = plan.rooms();
    let mut parent = vec![u32::MAX; n];
    parent[from as usize] = from;
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(u) = queue.pop_front() {
        if plan.core[u as usize] {
            let mut path = vec![u];
            let mut v = u;
            while v != from {
                v = parent[v as usize];
                path.push(v);
            }
            path.reverse();
            return path;
        }
        for &(w, _) in &plan.adj[u as usize] {
            if parent[w as usize] == u32::MAX {
                parent[w as usize] = u;
                queue.push_back(w);
            }
        }
    }
    vec![from]
}

/// The steering of a room placed with no placed room to steer by (the first).
pub(super) const NO_STEER: [(u32, f32); 2] = [(u32::MAX, 0.0); 2];

/// A shortest cycle through core room `start` (its rooms in cycle order, `start` first).
pub(super) fn shortest_cycle(plan: &Plan, start: u32) -> Vec<u32> {
    let n = plan.rooms();
    let mut parent = vec![u32::MAX; n];
    let mut branch = vec![u32::MAX; n];
    let mut dist = vec![u32::MAX; n];
    let mut queue = std::collections::VecDeque::new();
    dist[start as usize] = 0;
    queue.push_back(start);
    let mut best: Option<(u32, u32, u32)> = None;
    while let Some(u) = queue.pop_front() {
        for &(w, _) in &plan.adj[u as usize] {
            if !plan.core[w as usize] {
                continue;
            }
            if dist[w as usize] == u32::MAX {
                dist[w as usize] = dist[u as usize] + 1;
                parent[w as usize] = u;
                branch[w as usize] = if u == start { w } else { branch[u as usize] };
                queue.push_back(w);
            } else if w != parent[u as usize]
                && u != parent[w as usize]
                && branch[w as usize] != branch[u as usize]
                && w != start
                && u != start
            {
                let len = dist[u as usize] + dist[w as usize] + 1;
                if best.is_none_or(|b| len < b.0) {
                    best = Some((len, u, w));
                }
            }
        }
    }
    let Some((_, u, w)) = best else {
        return vec![start];
    };
    let up = |mut v: u32| {
        let mut p = Vec::new();
        while v != start {
            p.push(v);
            v = parent[v as usize];
        }
        p
    };
    let mut cycle = vec![start];
    let mut a = up(u);
    a.reverse();
    cycle.extend(a);
    cycle.extend(up(w));
    cycle
}

/// The shortest path of unplaced core rooms whose two ends each touch a placed room (the same
/// one at both ends only through at least two rooms), or `None` when no core room is left or
/// none lies on such a path (a core room only reached through a single unplaced path: the
/// breadth-first part takes it).
fn shortest_ear(plan: &Plan, rng: &mut WarrenRng, s: &BuildScratch) -> Option<Vec<u32>> {
    let n = plan.rooms();
    let mut best: Option<Vec<u32>> = None;
    let mut parent = vec![u32::MAX; n];
    let mut queue = std::collections::VecDeque::new();
    let shift = rng.below(s.order.len() as u32) as usize;
    for k in 0..s.order.len() {
        let a = s.order[(k + shift) % s.order.len()];
        for &(x, _) in &plan.adj[a as usize] {
            if s.placed[x as usize] || !plan.core[x as usize] {
                continue;
            }
            parent.iter_mut().for_each(|p| *p = u32::MAX);
            parent[x as usize] = x;
            queue.clear();
            queue.push_back((x, 1u32));
            while let Some((y, len)) = queue.pop_front() {
                if best.as_ref().is_some_and(|b| len as usize >= b.len()) {
                    break;
                }
                let closes = plan.adj[y as usize]
                    .iter()
                    .any(|&(b, _)| s.placed[b as usize] && (b != a || y != x));
                if closes {
                    let mut p = vec![y];
                    let mut v = y;
                    while v != x {
                        v = parent[v as usize];
                        p.push(v);
                    }
                    p.reverse();
                    best = Some(p);
                    break;
                }
                for &(z, _) in &plan.adj[y as usize] {
                    if !s.placed[z as usize]
                        && plan.core[z as usize]
                        && parent[z as usize] == u32::MAX
                    {
                        parent[z as usize] = y;
                        queue.push_back((z, len + 1));
                    }
                }
            }
        }
    }
    best
}
