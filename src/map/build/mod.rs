//! The map builder: places one shape per room of a level graph so that no two rooms overlap and
//! every connection is realised, by a door where the two rooms touch or by a straight corridor
//! between parallel walls.
//!
//! # Algorithm
//! 1. **Target drawing.** The graph's classical MDS drawing (computed once per graph, edges
//!    about one room long), turned by a seeded angle, maybe mirrored, shaken, and settled by a
//!    few iterations of the force solver (`crate::layout::relax`). It only steers: rooms are
//!    placed near their drawn positions, so that the arms of a cycle curl towards each other and
//!    close. Without it (random targets) the 41-room graph of Edgar's paper failed 70% of its
//!    seeds; from a random start with 300 force iterations it needs 1.5 times the attempts.
//! 2. **Order.** The graph's cycles first, ear by ear (see `room_order`), then the trees hanging
//!    off them, breadth-first, the room with most placed neighbours first.
//! 3. **Configuration spaces.** Where a shape may go so that it touches (or faces, across a
//!    corridor) a placed neighbour with room for a door is a short list of offset rectangles,
//!    one per pair of facing door sides (Edgar's configuration spaces, exact on the lattice).
//!    A room with several placed neighbours may go only where all of them allow: the
//!    intersection of their lists.
//! 4. **Search.** Candidates (the point of each offset rectangle nearest the room's target, and
//!    a random one) are sorted by their distance to the target plus seeded noise and tried in
//!    order against the placed rooms and corridors; a room with none left sends the search back
//!    to the room before (depth-first). An attempt that spends its work budget starts over from
//!    a new drawing; after `max_attempts` the seed fails with a counted reason. Work is bounded:
//!    never a timeout.

use std::sync::Arc;

use crate::core::rng::WarrenRng;
use crate::layout::LayoutScratch;
use crate::map::shape::{Rect, Shape, side};

pub use order::PRUNE_UP_TO;
use order::{draw_targets, reach_table, room_order, scaled_drawing};

mod order;

use spaces::Zone;
pub use spaces::{Catalogue, Gaps};

mod spaces;

/// Everything the builder needs about one level graph, built once and shared by the workers.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The shapes and their configuration spaces.
    pub cat: Arc<Catalogue>,
    /// Per room, the shapes it may take (indices into `cat.shapes`).
    pub room_shapes: Vec<Vec<u32>>,
    /// Connections `(a, b)`.
    pub conns: Vec<(u32, u32)>,
    /// Per connection, its index in `cat.gap_sets`.
    pub gap_set: Vec<u32>,
    /// Per room, `(neighbour, connection)`.
    pub adj: Vec<Vec<(u32, u32)>>,
    /// Connection ends, for the drawing.
    src: Vec<u32>,
    dst: Vec<u32>,
    /// The drawing the targets start from: the graph's classical MDS of its room distances
    /// (`None` for fewer than 3 or more than `MDS_UP_TO` rooms), or a drawing given with the
    /// graph ([`Plan::with_catalogue`]).
    mds: Option<(Vec<f32>, Vec<f32>)>,
    /// Whether each attempt turns and mirrors the drawing (an MDS drawing has no orientation;
    /// a given drawing keeps its own).
    turn: bool,
    /// Connection bit rows: bit `b` of row `a` is set when `a` and `b` are connected.
    adjacency: Vec<u64>,
    /// Least distance between the outlines of two rooms no connection joins (0: they may share
    /// walls), also kept between a corridor and every room but its two ends.
    pub min_distance: i32,
    /// Whether room `i` is in the graph's 2-core.
    core: Vec<bool>,
    /// Per pair of rooms `(a, b)` (row-major, only below [`PRUNE_UP_TO`] rooms), how far apart
    /// their boxes may be: the rooms of a shortest path between them lie in a row at most.
    reach: Vec<i32>,
    /// Target distance between connected rooms' centres, for the drawing.
    length: f32,
    /// Work budget of one attempt (candidate placements checked).
    pub attempt_work: u32,
    /// Attempts before the seed fails.
    pub max_attempts: u32,
    /// Seeded noise added to a candidate's distance from its target, in target edge lengths.
    pub noise: f32,
    /// Placements of one room the search may undo before it goes back further.
    pub max_retries: u32,
}

impl Plan {
    /// A plan for rooms with the given allowed shapes and connections, each connection with its
    /// own gaps; the targets start from the graph's MDS drawing.
    pub fn new(
        shapes: Vec<Shape>,
        room_shapes: Vec<Vec<u32>>,
        conns: Vec<(u32, u32)>,
        gaps: Vec<Gaps>,
        min_distance: i32,
    ) -> Plan {
        let mut distinct: Vec<Gaps> = Vec::new();
        let gap_set = gaps
            .iter()
            .map(|g| match distinct.iter().position(|d| d == g) {
                Some(k) => k as u32,
                None => {
                    distinct.push(g.clone());
                    distinct.len() as u32 - 1
                }
            })
            .collect();
        let cat = Arc::new(Catalogue::new(shapes, distinct));
        Plan::with_catalogue(cat, room_shapes, conns, gap_set, min_distance, None)
    }

    /// A plan over a shared catalogue: per room its allowed shapes, per connection its gap
    /// setting (an index into `cat.gap_sets`). `drawing` (one position per room, any scale)
    /// steers the search in place of the MDS drawing, keeping its orientation.
    pub fn with_catalogue(
        cat: Arc<Catalogue>,
        room_shapes: Vec<Vec<u32>>,
        conns: Vec<(u32, u32)>,
        gap_set: Vec<u32>,
        min_distance: i32,
        drawing: Option<(&[f32], &[f32])>,
    ) -> Plan {
        let n = room_shapes.len();
        let shapes = &cat.shapes;
        let mut adj = vec![Vec::new(); n];
        for (j, &(a, b)) in conns.iter().enumerate() {
            adj[a as usize].push((b, j as u32));
            adj[b as usize].push((a, j as u32));
        }
        // The 2-core: strip rooms of degree 1 until none is left.
        let mut degree: Vec<usize> = adj.iter().map(Vec::len).collect();
        let mut core = vec![true; n];
        let mut stack: Vec<usize> = (0..n).filter(|&v| degree[v] <= 1).collect();
        while let Some(v) = stack.pop() {
            if !core[v] {
                continue;
            }
            core[v] = false;
            for &(u, _) in &adj[v] {
                let u = u as usize;
                if core[u] {
                    degree[u] -= 1;
                    if degree[u] <= 1 {
                        stack.push(u);
                    }
                }
            }
        }
        let mean_size = {
            let mut sum = 0.0f32;
            let mut count = 0.0f32;
            for rs in &room_shapes {
                for &s in rs {
                    let s = &shapes[s as usize];
                    sum += (s.w + s.h) as f32 / 2.0;
                    count += 1.0;
                }
            }
            if count > 0.0 { sum / count } else { 8.0 }
        };
        let gap_of = |j: usize| &cat.gap_sets[gap_set[j] as usize];
        let mean_gap = if conns.is_empty() {
            0.0
        } else {
            (0..conns.len())
                .map(|j| gap_of(j).ranges.first().map_or(0, |r| r.0) as f32)
                .sum::<f32>()
                / conns.len() as f32
        };
        let length = mean_size + mean_gap;
        // Measured on Edgar's inputs (`tests`): short attempts and many of them beat long
        // ones, since a bad drawing rarely recovers.
        let work = 500 + 60 * n as u32;
        let reach = reach_table(&adj, &room_shapes, shapes, |j| gap_of(j));
        let (src, dst): (Vec<u32>, Vec<u32>) = conns.iter().copied().unzip();
        let (mds, turn) = match drawing {
            Some((x, y)) => (Some(scaled_drawing(x, y, &src, &dst, length)), false),
            None => (
                crate::layout::multilevel::coarsest::mds_positions(
                    &crate::layout::multilevel::Level {
                        src: src.clone(),
                        dst: dst.clone(),
                        length: vec![length; src.len()],
                        mass: vec![1.0; n],
                        radius: vec![0.0; n],
                    },
                    0x6d61_7073,
                ),
                true,
            ),
        };
        let words = n.div_ceil(64);
        let mut adjacency = vec![0u64; n * words];
        for &(a, b) in &conns {
            let (a, b) = (a as usize, b as usize);
            adjacency[a * words + b / 64] |= 1 << (b % 64);
            adjacency[b * words + a / 64] |= 1 << (a % 64);
        }
        Plan {
            cat,
            room_shapes,
            conns,
            gap_set,
            adj,
            src,
            dst,
            mds,
            turn,
            adjacency,
            min_distance,
            core,
            reach,
            length,
            attempt_work: work,
            max_attempts: 200,
            noise: 3.0,
            max_retries: MAX_RETRIES,
        }
    }

    /// Connection `j`'s gaps.
    #[inline]
    pub fn gaps(&self, j: usize) -> &Gaps {
        &self.cat.gap_sets[self.gap_set[j] as usize]
    }

    /// Every shape.
    #[inline]
    pub fn shapes(&self) -> &[Shape] {
        &self.cat.shapes
    }

    /// Whether rooms `a` and `b` are connected.
    #[inline]
    fn adjacent(&self, a: usize, b: usize) -> bool {
        let words = self.rooms().div_ceil(64);
        self.adjacency[a * words + b / 64] & (1 << (b % 64)) != 0
    }

    /// Rooms.
    pub fn rooms(&self) -> usize {
        self.room_shapes.len()
    }
}

/// A realised connection: its door (or the door at each end of its corridor).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Link {
    /// The direction room `a`'s door wall faces ([`side`]).
    pub side: u8,
    /// Room `a`'s wall coordinate across the wall (absolute lattice).
    pub wall: i32,
    /// First door tile along the wall (absolute).
    pub start: i32,
    /// Door length in tiles.
    pub len: u32,
    /// Gap between the walls (0: no corridor; `L + 1`: a corridor of `L` floor tiles).
    pub gap: i32,
}

impl Link {
    /// The corridor's lattice rectangle (its walls included), when it has one.
    pub fn corridor(&self) -> Option<Rect> {
        if self.gap == 0 {
            return None;
        }
        let (a0, a1) = (self.start - 1, self.start + self.len as i32);
        let (nx, ny) = side::normal(self.side);
        let far = self.wall + (nx + ny) * self.gap;
        let (c0, c1) = (self.wall.min(far), self.wall.max(far));
        Some(if side::vertical(self.side) {
            Rect {
                x0: c0,
                y0: a0,
                x1: c1,
                y1: a1,
            }
        } else {
            Rect {
                x0: a0,
                y0: c0,
                x1: a1,
                y1: c1,
            }
        })
    }
}

/// A finished layout: per room its shape and position, per connection its link.
#[derive(Clone, Debug, Default)]
pub struct Layout {
    /// Per room, the index of its shape in the plan.
    pub shape: Vec<u32>,
    /// Per room, the lattice position of its shape's box corner.
    pub x: Vec<i32>,
    /// See `x`.
    pub y: Vec<i32>,
    /// Per connection, how it is realised (its `a` is the plan connection's first room).
    pub links: Vec<Link>,
    /// Attempts it took (1: the first).
    pub attempts: u32,
    /// Candidate placements checked over all attempts.
    pub work: u32,
}

/// Candidates kept per room, best first: the search backtracks over these only (the rest lie far
/// from the room's target).
const MAX_CANDIDATES: usize = 400;

/// Candidates sorted when a room's list is made; the rest are sorted if the search reaches them.
const SORTED_FIRST: usize = 24;

/// Placements of one room the search may undo (coming back to it from a dead end further on)
/// before it goes back further.
const MAX_RETRIES: u32 = 2;

/// One candidate placement.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    score: f32,
    shape: u32,
    x: i32,
    y: i32,
}

/// Per-worker memory of the builder.
#[derive(Default)]
pub struct BuildScratch {
    layout: LayoutScratch,
    tx: Vec<f32>,
    ty: Vec<f32>,
    order: Vec<u32>,
    placed: Vec<bool>,
    /// Per depth, its candidates (sorted) and the next one to try.
    candidates: Vec<Vec<Candidate>>,
    cursor: Vec<usize>,
    retries: Vec<u32>,
    zones: Vec<Zone>,
    met: Vec<Zone>,
    corridors: Vec<(Rect, u32)>,
    /// The result.
    pub out: Layout,
}

/// Why a seed produced no layout.
pub const NO_LAYOUT: &str = "no layout within the work bound";

/// Builds a layout for `plan` from `seed`, or says why not after bounded work.
pub fn build(plan: &Plan, seed: u64, s: &mut BuildScratch) -> Result<(), String> {
    let n = plan.rooms();
    let m = plan.conns.len();
    s.out.shape.clear();
    s.out.shape.resize(n, 0);
    s.out.x.clear();
    s.out.x.resize(n, 0);
    s.out.y.clear();
    s.out.y.resize(n, 0);
    s.out.links.clear();
    s.out.links.resize(m, Link::default());
    s.out.work = 0;
    if s.candidates.len() < n {
        s.candidates.resize_with(n, Vec::new);
    }
    s.cursor.clear();
    s.cursor.resize(n, 0);
    s.retries.clear();
    s.retries.resize(n, 0);
    let mut rng = WarrenRng::new(seed);
    for attempt in 1..=plan.max_attempts {
        s.out.attempts = attempt;
        if attempt_once(plan, &mut rng, s) {
            return Ok(());
        }
    }
    Err(format!(
        "{} attempts of {} placements each found no layout",
        plan.max_attempts, plan.attempt_work
    ))
}

/// Weight of a cycle room's distance from the placed rooms' centroid in its candidates' score
/// (against 1 for the distance from its target): measured on Edgar's 17-room graph, 0.5 needs
/// a third fewer attempts than 0 and packs a little tighter; pulling tree rooms in as well (1.5)
/// made the 41-room graph fail 4% of its seeds, so trees are not pulled.
const CORE_PULL: f32 = 0.5;

/// One attempt: a drawing, an order and a bounded depth-first search.
fn attempt_once(plan: &Plan, rng: &mut WarrenRng, s: &mut BuildScratch) -> bool {
    let n = plan.rooms();
    draw_targets(plan, rng, s);
    room_order(plan, rng, s);
    s.corridors.clear();
    // Translation from drawing to lattice: running sums of (placed centre - drawn position).
    let (mut dx, mut dy, mut k) = (0.0f32, 0.0f32, 0u32);
    let budget = s.out.work + plan.attempt_work;
    let mut depth = 0usize;
    let mut cs = (0.0f32, 0.0f32);
    candidates_for(plan, depth, rng, s, (0.0, 0.0, 0), cs);
    loop {
        if depth == n {
            return true;
        }
        if s.out.work >= budget {
            return false;
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
            // Nothing left here: back to the room before.
            if depth == 0 {
                return false;
            }
            depth -= 1;
            let u = s.order[depth] as usize;
            unplace(plan, u, s);
            let sh = &plan.cat.shapes[s.out.shape[u] as usize];
            let (ux, uy) = (
                s.out.x[u] as f32 + sh.w as f32 / 2.0,
                s.out.y[u] as f32 + sh.h as f32 / 2.0,
            );
            dx -= ux - s.tx[u];
            dy -= uy - s.ty[u];
            cs.0 -= ux;
            cs.1 -= uy;
            k -= 1;
            continue;
        };
        s.cursor[depth] += 1;
        s.out.work += 1;
        if !fits(plan, v, c, rng, s) {
            continue;
        }
        s.retries[depth] += 1;
        let sh = &plan.cat.shapes[c.shape as usize];
        let (vx, vy) = (
            c.x as f32 + sh.w as f32 / 2.0,
            c.y as f32 + sh.h as f32 / 2.0,
        );
        dx += vx - s.tx[v];
        dy += vy - s.ty[v];
        cs.0 += vx;
        cs.1 += vy;
        k += 1;
        depth += 1;
        if depth < n {
            candidates_for(plan, depth, rng, s, (dx, dy, k), cs);
        }
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
fn candidates_for(
    plan: &Plan,
    depth: usize,
    rng: &mut WarrenRng,
    s: &mut BuildScratch,
    (dx, dy, k): (f32, f32, u32),
    cs: (f32, f32),
) {
    let v = s.order[depth] as usize;
    let mut list = std::mem::take(&mut s.candidates[depth]);
    list.clear();
    s.cursor[depth] = 0;
    s.retries[depth] = 0;
    let (gx, gy) = if k == 0 {
        (0.0, 0.0)
    } else {
        (s.tx[v] + dx / k as f32, s.ty[v] + dy / k as f32)
    };
    let noise = plan.length * plan.noise;
    let pull = if plan.core[v] { CORE_PULL } else { 0.0 };
    let (cx, cy) = if k == 0 {
        (0.0, 0.0)
    } else {
        (cs.0 / k as f32, cs.1 / k as f32)
    };
    for &si in &plan.room_shapes[v] {
        let sh = &plan.cat.shapes[si as usize];
        // Offsets that put the shape's centre on the target.
        let (ox, oy) = (gx - sh.w as f32 / 2.0, gy - sh.h as f32 / 2.0);
        if k == 0 {
            list.push(Candidate {
                score: rng.unit_f32(),
                shape: si,
                x: ox.round() as i32,
                y: oy.round() as i32,
            });
            continue;
        }
        zones_for(plan, v, si, s);
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
    // Most rooms fit one of their first few candidates: sort only the best ones now, the rest
    // when the search gets to them (`next_candidate`).
    if list.len() > SORTED_FIRST {
        list.select_nth_unstable_by(SORTED_FIRST, |a, b| a.score.total_cmp(&b.score));
        list[..SORTED_FIRST].sort_unstable_by(|a, b| a.score.total_cmp(&b.score));
    } else {
        list.sort_unstable_by(|a, b| a.score.total_cmp(&b.score));
    }
    list.truncate(MAX_CANDIDATES);
    s.candidates[depth] = list;
}

/// Where shape `sh` of room `v` may go against all its placed neighbours, into `s.zones`.
fn zones_for(plan: &Plan, v: usize, si: u32, s: &mut BuildScratch) {
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

/// Whether candidate `c` of room `v` fits; if so, places it with its links and corridors.
fn fits(plan: &Plan, v: usize, c: Candidate, rng: &mut WarrenRng, s: &mut BuildScratch) -> bool {
    let sh = &plan.cat.shapes[c.shape as usize];
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
            return false;
        }
        if !plan.reach.is_empty() {
            let (ux, uy) = (s.out.x[u], s.out.y[u]);
            let apart = (ux - (c.x + sh.w))
                .max(c.x - (ux + other.w))
                .max(uy - (c.y + sh.h))
                .max(c.y - (uy + other.h));
            if apart > plan.reach[v * plan.rooms() + u] {
                return false;
            }
        }
    }
    // Corridors already there.
    for &(r, j) in &s.corridors {
        let (a, b) = plan.conns[j as usize];
        let end = a as usize == v || b as usize == v;
        let gap = if end { 0 } else { plan.min_distance };
        if sh.rects.iter().any(|q| q.near(c.x, c.y, &r, 0, 0, gap)) {
            return false;
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
            return false;
        };
        if let Some(r) = link.corridor() {
            if !corridor_clear(plan, r, j, s) {
                s.corridors.truncate(before);
                return false;
            }
            s.corridors.push((r, j));
        }
        s.out.links[j as usize] = link;
    }
    s.out.shape[v] = c.shape;
    s.out.x[v] = c.x;
    s.out.y[v] = c.y;
    s.placed[v] = true;
    true
}

/// Whether a new corridor `r` of connection `j` keeps clear of every placed room but its ends
/// and of the other corridors (the room being placed, one of its ends, is checked against the
/// corridors by `fits`).
fn corridor_clear(plan: &Plan, r: Rect, j: u32, s: &BuildScratch) -> bool {
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
            return false;
        }
    }
    s.corridors.iter().all(|(q, _)| !q.near(0, 0, &r, 0, 0, 0))
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
            if d2.side != side::opposite(d1.side) || d2.len != d1.len {
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

#[cfg(test)]
mod tests;
