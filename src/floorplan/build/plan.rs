//! The plan: everything the builder needs about one level graph, built once and shared by the
//! workers (the shapes and their configuration spaces, the connections, the graph's 2-core, the
//! drawing the targets start from, and the table of how far apart two rooms can be).

use std::sync::Arc;

use super::spaces::{Catalogue, Gaps};
use crate::core::csr::Adjacency;
use crate::floorplan::shape::Shape;
use crate::floorplan::spec::{Mask, Repeat};

/// The placements a complete search ([`Plan::make_exhaustive`]) may check before it gives up
/// undecided: 0.6 to 7 s on this project's machine, depending on the graph (a placement that
/// overlaps at once is cheaper than one checked against every placed room).
pub const EXHAUSTIVE_WORK: u32 = 8_000_000;

/// Attempts between doublings of a ramped work budget ([`Plan::work_ramp`]).
pub const RAMP_EVERY: u32 = 16;

/// Everything the builder needs about one level graph, built once and shared by the workers.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The shapes and their configuration spaces.
    pub cat: Arc<Catalogue>,
    /// Per room, the shapes it may take (indices into `cat.shapes`).
    pub room_shapes: Vec<Vec<u32>>,
    /// Connections `(a, b)`.
    pub conns: Vec<(u32, u32)>,
    /// Per connection, its index in `cat.gap_sets` (seen from room `a`).
    pub gap_set: Vec<u32>,
    /// Per connection, the index in `cat.gap_sets` of its gaps seen from room `b` (the same as
    /// `gap_set` for a connection that runs either way).
    pub gap_set_b: Vec<u32>,
    /// Per room, `(neighbour, connection)`.
    pub adj: Adjacency<(u32, u32)>,
    /// Connection ends, for the drawing.
    pub(super) src: Vec<u32>,
    pub(super) dst: Vec<u32>,
    /// The drawing the targets start from: the graph's stress drawing (`None` for fewer than
    /// 3 rooms), or a drawing given with the graph ([`Plan::with_catalogue`]).
    pub(super) drawing: Option<(Vec<f32>, Vec<f32>)>,
    /// Whether each attempt turns and mirrors the drawing (a stress drawing has no orientation;
    /// a given drawing keeps its own).
    pub(super) turn: bool,
    /// Connection bit rows: bit `b` of row `a` is set when `a` and `b` are connected.
    pub(super) adjacency: Vec<u64>,
    /// Least distance between the outlines of two rooms no connection joins (0: they may share
    /// walls), also kept between a corridor and every room but its two ends.
    pub min_distance: i32,
    /// Whether room `i` is in the graph's 2-core.
    pub(super) core: Vec<bool>,
    /// Per pair of rooms `(a, b)` (row-major, only below [`PRUNE_UP_TO`] rooms), how far apart
    /// their boxes may be: the rooms of a shortest path between them lie in a row at most.
    pub(super) reach: Vec<i32>,
    /// How far apart the boxes of a room and a neighbour touching it (or facing it across a
    /// corridor) can be: the largest shape's extent plus the largest gap (forward checking).
    pub(super) spot_reach: i32,
    /// Target distance between connected rooms' centres, for the drawing.
    pub(super) length: f32,
    /// Work budget of one attempt (candidate placements checked).
    pub attempt_work: u32,
    /// Attempts before the seed fails.
    pub max_attempts: u32,
    /// The first attempts' work budget is [`Plan::attempt_work`] divided by this, doubling
    /// every [`RAMP_EVERY`] attempts up to the whole (1: every attempt has the whole; see
    /// [`Plan::work_of_attempt`]).
    pub work_ramp: u32,
    /// Times an attempt whose work budget runs out rewinds (takes up the rooms placed since a
    /// stretch before its worst dead end and goes on with a new budget) before it gives up.
    /// Random planar level graphs of 300 rooms (`scripts/level_graphs.py`, seeds 1 to 5, 10
    /// layouts each) laid out 47 of 50 without rewinds and 50 of 50 with 4.
    pub max_rewinds: u32,
    /// Seeded noise added to a candidate's distance from its target, in target edge lengths.
    pub noise: f32,
    /// How far each attempt shakes the drawing's rooms at random before the force solver
    /// settles it, in target edge lengths.
    pub shake: f32,
    /// How widely each attempt turns the drawing: 1 (or more) in any direction, 0 not at all,
    /// between: the uniform direction mixed with the drawing's own.
    pub turn_spread: f32,
    /// Placements of one room the search may undo before it goes back further.
    pub max_retries: u32,
    /// Whether the search is complete ([`Plan::make_exhaustive`]).
    pub exhaustive: bool,
    /// Per shape, whether the complete search tries it for the first room it places (empty,
    /// as in every search that is not complete: every shape;
    /// [`Plan::first_room_up_to_symmetry`]).
    pub(super) first_shapes: Vec<bool>,
    /// Per template, how often one layout may use it (empty: any number of times).
    pub repeat: Vec<Repeat>,
    /// The largest floor plan, `(width, height)` in tiles, walls included (`None`: any size).
    pub bounds: Option<(i32, i32)>,
    /// Per room, the grid tile a fixed room's box is pinned to (empty: no room is fixed). A
    /// fixed room's only shape is its pinned one (`room_shapes`).
    pub pinned: Vec<Option<(i32, i32)>>,
    /// The fixed rooms, in room order.
    pub fixed_rooms: Vec<u32>,
    /// The level's frame, when fixed rooms or a mask place it in a grid of its own. The
    /// search's lattice is then the grid: a room placed at `(x, y)` has its box at grid tile
    /// `(x, y)`.
    pub frame: Option<Frame>,
    /// The connections drawn through corridor rooms (corridor templates), in order: room
    /// `graph_rooms() + k` is connection `via[k]`'s corridor, connection `via[k]` of `conns`
    /// joins its first room to that corridor, and connection `graph_conns() + k` joins the
    /// corridor to its second room. Corridor rooms take no part in the repeat modes.
    pub via: Vec<u32>,
    /// Per corridor room, the index in `cat.gap_sets` of the gaps of its connection's two
    /// rooms joined through it: `[seen from the first room, seen from the second]`
    /// ([`Plan::across`]).
    pub(super) via_gaps: Vec<[u32; 2]>,
    /// The pieces a large graph is laid out in ([`Plan::split_into_pieces`]; `None`: one
    /// search over the whole graph).
    pub(super) pieces: Option<Arc<Vec<Piece>>>,
    /// The parts of the graph the pieces were made of (the same order), to make them anew
    /// with one piece taken into its parent (`cut::merged`).
    pub(super) parts: Option<Arc<Vec<Part>>>,
}

/// One piece of a large graph (`pieces`): its plan (its rooms, then its stubs, then its halo:
/// the first rooms of the pieces hanging off it, laid out with it but not kept) and where its
/// rooms and connections are in the whole plan.
#[derive(Clone, Debug)]
pub struct Piece {
    pub(super) plan: Plan,
    /// Per local room (members, then stubs; not the halo), its room in the whole plan.
    pub(super) rooms: Vec<u32>,
    /// Per local connection (not the halo's), its connection in the whole plan (the same
    /// orientation).
    pub(super) conns: Vec<u32>,
    /// Where the piece hangs off its parent (every piece but the first).
    pub(super) root: Option<Root>,
    /// The parent piece (an earlier one).
    pub(super) parent: Option<usize>,
    /// Per room of the halo (after `rooms` in the piece's plan), the piece it belongs to.
    pub(super) halo_of: Vec<u32>,
}

/// A part of the graph (made by the `cut` module): its rooms, the first rooms of the parts
/// hanging off it, and its own first room (`None` for the first part).
#[derive(Clone, Debug, Default)]
pub struct Part {
    pub(super) members: Vec<u32>,
    pub(super) stubs: Vec<u32>,
    /// The bridge to the parent: (the parent's room, the first room, the connection).
    pub(super) root: Option<(u32, u32, u32)>,
    /// The parent part.
    pub(super) parent: Option<usize>,
}

/// The bridge a piece hangs off its parent by.
#[derive(Clone, Copy, Debug)]
pub struct Root {
    /// The piece's first room, in the piece.
    pub(super) local: u32,
    /// That room in the whole plan (a stub in the parent's layout).
    pub(super) b: u32,
}

/// Per room its allowed shapes, the connections, and per connection its gaps.
pub type RoomsAndConnections = (Vec<Vec<u32>>, Vec<(u32, u32)>, Vec<Gaps>);

/// Where a level lies in its grid, when fixed rooms or a mask say (`map` kind): tile `(0, 0)`
/// is the grid's top-left corner, and no room reaches left of it or above it.
#[derive(Clone, Debug, Default)]
pub struct Frame {
    /// The grid's size, when fixed (`map.bounds`, or the mask's): no room reaches past it.
    pub size: Option<(i32, i32)>,
    /// The mask every tile of the level lies on.
    pub mask: Option<Arc<Mask>>,
    /// The centre of the mask's allowed tiles (the grid's centre without a mask).
    pub centre: (f32, f32),
}

impl Frame {
    /// A frame of `size` tiles (if fixed) and `mask`.
    pub fn new(size: Option<(i32, i32)>, mask: Option<Mask>) -> Frame {
        let centre = match (&mask, size) {
            (Some(m), _) => {
                let (mut sx, mut sy, mut k) = (0.0f64, 0.0f64, 0.0f64);
                for (i, _) in m.allowed.iter().enumerate().filter(|(_, a)| **a) {
                    sx += (i % m.width as usize) as f64 + 0.5;
                    sy += (i / m.width as usize) as f64 + 0.5;
                    k += 1.0;
                }
                ((sx / k.max(1.0)) as f32, (sy / k.max(1.0)) as f32)
            }
            (None, Some((w, h))) => (w as f32 / 2.0, h as f32 / 2.0),
            (None, None) => (0.0, 0.0),
        };
        Frame {
            size,
            mask: mask.map(Arc::new),
            centre,
        }
    }

    /// Whether every tile of the lattice rectangle `r` (a corridor, walls included) lies on the
    /// mask's allowed tiles.
    pub fn holds_rect(&self, r: &crate::floorplan::shape::Rect) -> bool {
        let Some(mask) = &self.mask else {
            return true;
        };
        (r.y0..=r.y1).all(|y| (r.x0..=r.x1).all(|x| mask.allows(x, y)))
    }

    /// Whether shape `sh` with its box at grid tile `(x, y)` lies inside the frame and on the
    /// mask's allowed tiles.
    pub fn holds(&self, sh: &Shape, x: i32, y: i32) -> bool {
        if x < 0 || y < 0 {
            return false;
        }
        if let Some((w, h)) = self.size
            && (x + sh.w >= w || y + sh.h >= h)
        {
            return false;
        }
        let Some(mask) = &self.mask else {
            return true;
        };
        let row = (sh.w + 1) as usize;
        sh.mask.iter().enumerate().all(|(i, &t)| {
            t == crate::floorplan::shape::tile::OUTSIDE
                || mask.allows(x + (i % row) as i32, y + (i / row) as i32)
        })
    }
}

impl Plan {
    /// A plan for rooms with the given allowed shapes and connections, each connection with its
    /// own gaps; the targets start from the graph's stress drawing.
    pub fn new(
        shapes: Vec<Shape>,
        room_shapes: Vec<Vec<u32>>,
        conns: Vec<(u32, u32)>,
        gaps: Vec<Gaps>,
        min_distance: i32,
    ) -> Plan {
        Plan::with_corridor_rooms(shapes, (room_shapes, conns, gaps), min_distance, Vec::new())
    }

    /// [`Plan::new`] for a graph with corridor rooms: `via` lists the connections drawn
    /// through them ([`Plan::via`]); the last `via.len()` rooms are the corridor rooms and
    /// the last `via.len()` connections join them to their second rooms.
    pub fn with_corridor_rooms(
        shapes: Vec<Shape>,
        (room_shapes, conns, gaps): RoomsAndConnections,
        min_distance: i32,
        via: Vec<u32>,
    ) -> Plan {
        let mut distinct: Vec<Gaps> = Vec::new();
        let mut index = |g: Gaps| match distinct.iter().position(|d| *d == g) {
            Some(k) => k as u32,
            None => {
                distinct.push(g);
                distinct.len() as u32 - 1
            }
        };
        let gap_set: Vec<u32> = gaps.iter().map(|g| index(g.clone())).collect();
        let gap_set_b: Vec<u32> = gaps.iter().map(|g| index(g.flipped())).collect();
        // Each corridor room's shortcut: its connection's gaps (seen from its first room),
        // through the corridor room's shapes.
        let rooms = room_shapes.len() - via.len();
        let via_gaps: Vec<[u32; 2]> = (0..via.len())
            .map(|k| {
                let g = Gaps {
                    via: room_shapes[rooms + k].clone(),
                    ..gaps[via[k] as usize].clone()
                };
                let from_b = index(g.flipped());
                [index(g), from_b]
            })
            .collect();
        let cat = Arc::new(Catalogue::new(shapes, distinct));
        let mut plan = Plan::with_catalogue(cat, room_shapes, conns, gap_set, min_distance, None);
        plan.gap_set_b = gap_set_b;
        plan.via = via;
        plan.via_gaps = via_gaps;
        plan
    }

    /// A plan over a shared catalogue: per room its allowed shapes, per connection its gap
    /// setting (an index into `cat.gap_sets`). `drawing` (one position per room, any scale)
    /// steers the search in place of the stress drawing, keeping its orientation.
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
        let adj = adjacency_lists(n, &conns);
        let core = two_core(&adj);
        let gap_of = |j: usize| &cat.gap_sets[gap_set[j] as usize];
        let length = target_length(&room_shapes, shapes, conns.len(), gap_of);
        // Measured on Edgar's inputs (`tests`): short attempts and many of them beat long
        // ones, since a bad drawing rarely recovers.
        let work = 500 + 60 * n as u32;
        let reach = reach_table(&adj, &room_shapes, shapes, |j| gap_of(j));
        let (src, dst): (Vec<u32>, Vec<u32>) = conns.iter().copied().unzip();
        let (start, turn) = start_drawing(drawing, &src, &dst, length, n);
        let adjacency = adjacency_bits(n, &conns);
        let spot_reach = shapes
            .iter()
            .map(|s| s.w.max(s.h))
            .max()
            .unwrap_or(0)
            .saturating_add(
                cat.gap_sets
                    .iter()
                    .flat_map(|g| g.ranges.iter().map(|r| r.1))
                    .max()
                    .unwrap_or(0),
            );
        Plan {
            cat,
            room_shapes,
            conns,
            gap_set_b: gap_set.clone(),
            gap_set,
            adj,
            src,
            dst,
            drawing: start,
            turn,
            adjacency,
            min_distance,
            core,
            reach,
            spot_reach,
            length,
            attempt_work: work,
            max_attempts: 200,
            work_ramp: 1,
            max_rewinds: 4,
            noise: 3.0,
            shake: 0.5,
            turn_spread: 1.0,
            max_retries: MAX_RETRIES,
            exhaustive: false,
            first_shapes: Vec::new(),
            repeat: Vec::new(),
            bounds: None,
            pinned: Vec::new(),
            fixed_rooms: Vec::new(),
            frame: None,
            via: Vec::new(),
            via_gaps: Vec::new(),
            pieces: None,
            parts: None,
        }
    }

    /// Makes the search complete: every lattice position of every configuration space is a
    /// candidate, no room's candidates are cut or capped, one attempt without rewinds, up to
    /// [`EXHAUSTIVE_WORK`] placements. A search that runs out of candidates then proves that no
    /// layout exists. Only for connections without corridors (a corridor's place along its
    /// rooms' walls is drawn at random, not searched).
    pub fn make_exhaustive(&mut self) {
        self.exhaustive = true;
        self.pieces = None;
        self.parts = None;
        self.max_attempts = 1;
        self.max_rewinds = 0;
        self.max_retries = u32::MAX;
        self.attempt_work = EXHAUSTIVE_WORK;
        self.work_ramp = 1;
    }

    /// The work budget of attempt `attempt` (1: the first): [`Plan::attempt_work`] over
    /// [`Plan::work_ramp`], doubled every [`RAMP_EVERY`] attempts, at most the whole.
    pub(super) fn work_of_attempt(&self, attempt: u32) -> u32 {
        if self.work_ramp <= 1 {
            return self.attempt_work;
        }
        let doublings = (attempt.saturating_sub(1) / RAMP_EVERY).min(31);
        (self.attempt_work / self.work_ramp)
            .max(1)
            .saturating_mul(1 << doublings)
            .min(self.attempt_work)
    }

    /// Lets the complete search place its first room in one orientation per class of the
    /// grid's symmetries every template allows (`rotate`: every template turns; `mirror`: every
    /// template mirrors too), instead of in all of them: any layout turned or mirrored as a
    /// whole is a layout (overlap, doors meeting and distances do not depend on the direction),
    /// and when every room may take every turn (and mirror image) of its templates, one of
    /// those copies puts the first room in the orientation kept. With both, one shape per
    /// template is kept (K4 with Edgar's paper blocks: `docs/map.md`); with turns only, one per
    /// template and mirror image; without turns, all.
    pub fn first_room_up_to_symmetry(&mut self, rotate: bool, mirror: bool) {
        if !rotate {
            self.first_shapes.clear();
            return;
        }
        let shapes = &self.cat.shapes;
        self.first_shapes = (0..shapes.len())
            .map(|i| {
                let same_class = |j: usize| {
                    shapes[j].template == shapes[i].template
                        && (mirror || shapes[j].transform & 4 == shapes[i].transform & 4)
                };
                // The first shape of its class.
                !(0..i).any(same_class)
            })
            .collect();
    }

    /// Whether the search tries shape `si` for its first room (only a complete one leaves any
    /// out).
    #[inline]
    pub(super) fn first_shape_tried(&self, si: u32) -> bool {
        self.first_shapes.get(si as usize).is_none_or(|&b| b)
    }

    /// How often one layout may use template `t`.
    #[inline]
    pub fn repeat_of(&self, t: u32) -> Repeat {
        self.repeat.get(t as usize).copied().unwrap_or_default()
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
    pub(super) fn adjacent(&self, a: usize, b: usize) -> bool {
        let words = self.rooms().div_ceil(64);
        self.adjacency[a * words + b / 64] & (1 << (b % 64)) != 0
    }

    /// Rooms (corridor rooms included).
    pub fn rooms(&self) -> usize {
        self.room_shapes.len()
    }

    /// The level graph's own rooms (the rooms before the corridor rooms).
    pub fn graph_rooms(&self) -> usize {
        self.rooms() - self.via.len()
    }

    /// Per corridor room next to room `v` (a room of the graph): the corridor room, the room
    /// at its other end, and the gap setting (an index into `cat.gap_sets`) of `v` joined to
    /// that room through it, seen from that room. Empty in a complete search, whose proofs
    /// these shortcuts would not change but whose blame they would.
    #[inline]
    pub(super) fn across(&self, v: usize) -> impl Iterator<Item = (usize, usize, u32)> + '_ {
        let rooms = self.graph_rooms();
        let near = if v < rooms && !self.via.is_empty() && !self.exhaustive {
            &self.adj[v][..]
        } else {
            &[]
        };
        near.iter().filter_map(move |&(c, _)| {
            let k = (c as usize).checked_sub(rooms)?;
            let onwards = self.graph_conns() + k;
            let (a, b) = (self.conns[self.via[k] as usize].0, self.conns[onwards].1);
            Some(if a as usize == v {
                (c as usize, b as usize, self.via_gaps[k][1])
            } else {
                (c as usize, a as usize, self.via_gaps[k][0])
            })
        })
    }

    /// The level graph's own connections (each corridor room adds one after them).
    pub fn graph_conns(&self) -> usize {
        self.conns.len() - self.via.len()
    }
}

/// Per room, `(neighbour, connection)`, in connection order.
fn adjacency_lists(n: usize, conns: &[(u32, u32)]) -> Adjacency<(u32, u32)> {
    Adjacency::from_edges(n, conns.iter().copied(), |j, w| (w, j))
}

/// Whether each room is in the graph's 2-core.
fn two_core(adj: &Adjacency<(u32, u32)>) -> Vec<bool> {
    let n = adj.vertex_count();
    // The 2-core: strip rooms of degree 1 until none is left.
    let mut degree: Vec<usize> = (0..n).map(|v| adj[v].len()).collect();
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
    core
}

/// Target distance between connected rooms' centres: the mean size of the rooms' allowed shapes
/// plus the mean least gap of the `conns` connections.
fn target_length<'g>(
    room_shapes: &[Vec<u32>],
    shapes: &[Shape],
    conns: usize,
    gap_of: impl Fn(usize) -> &'g Gaps,
) -> f32 {
    let mean_size = {
        let mut sum = 0.0f32;
        let mut count = 0.0f32;
        for rs in room_shapes {
            for &s in rs {
                let s = &shapes[s as usize];
                sum += (s.w + s.h) as f32 / 2.0;
                count += 1.0;
            }
        }
        if count > 0.0 { sum / count } else { 8.0 }
    };
    let mean_gap = if conns == 0 {
        0.0
    } else {
        (0..conns)
            .map(|j| gap_of(j).ranges.first().map_or(0, |r| r.0) as f32)
            .sum::<f32>()
            / conns as f32
    };
    mean_size + mean_gap
}

/// The drawing the targets start from and whether attempts turn it: `drawing` scaled (kept as
/// it is turned), else the graph's stress drawing (turned).
#[allow(clippy::type_complexity)]
fn start_drawing(
    drawing: Option<(&[f32], &[f32])>,
    src: &[u32],
    dst: &[u32],
    length: f32,
    n: usize,
) -> (Option<(Vec<f32>, Vec<f32>)>, bool) {
    match drawing {
        Some((x, y)) => (Some(scaled_drawing(x, y, src, dst, length)), false),
        None if n < 3 => (None, true),
        None => (Some(stress_drawing(src, dst, length, n)), true),
    }
}

/// The graph's stress drawing (warren's default layout, one thread), connections `length`
/// long. Measured on random planar level graphs of 150 rooms (`scripts/level_graphs.py`,
/// seeds 1 to 3, 10 layouts each): 30 of 30 layouts against 12 of 30 from the classical MDS
/// drawing, which folds the long branches of large graphs onto each other.
fn stress_drawing(src: &[u32], dst: &[u32], length: f32, n: usize) -> (Vec<f32>, Vec<f32>) {
    let graph = crate::layout::LayoutGraph {
        src,
        dst,
        length_factor: None,
    };
    let force = crate::layout::multilevel::MultilevelParams {
        length,
        parallel: false,
        ..Default::default()
    };
    let params = crate::layout::sgd::StressParams {
        parallel: false,
        ..Default::default()
    };
    let (mut x, mut y) = (Vec::new(), Vec::new());
    crate::layout::sgd::layout_stress(
        n,
        &graph,
        &params,
        &force,
        0x6d61_7073,
        Default::default(),
        &mut x,
        &mut y,
    );
    (x, y)
}

/// Connection bit rows: bit `b` of row `a` is set when `a` and `b` are connected.
fn adjacency_bits(n: usize, conns: &[(u32, u32)]) -> Vec<u64> {
    let words = n.div_ceil(64);
    let mut adjacency = vec![0u64; n * words];
    for &(a, b) in conns {
        let (a, b) = (a as usize, b as usize);
        adjacency[a * words + b / 64] |= 1 << (b % 64);
        adjacency[b * words + a / 64] |= 1 << (a % 64);
    }
    adjacency
}

/// Placements of one room the search may undo (coming back to it from a dead end further on)
/// before it goes back further.
const MAX_RETRIES: u32 = 2;

/// Rooms up to which the builder keeps a table of how far apart two rooms may be.
pub const PRUNE_UP_TO: usize = 1024;

/// For every pair of rooms, the largest lattice gap their boxes can have in any layout: along a
/// shortest path between them every room touches (or faces across a corridor) the next, so the
/// boxes are at most the widest shapes of the rooms between plus the widest gaps apart.
pub(super) fn reach_table<'g>(
    adj: &Adjacency<(u32, u32)>,
    room_shapes: &[Vec<u32>],
    shapes: &[Shape],
    gaps: impl Fn(usize) -> &'g Gaps,
) -> Vec<i32> {
    let n = adj.vertex_count();
    if n > PRUNE_UP_TO {
        return Vec::new();
    }
    let extent: Vec<i32> = room_shapes
        .iter()
        .map(|rs| {
            rs.iter()
                .map(|&s| shapes[s as usize].w.max(shapes[s as usize].h))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let conns: usize = adj.slots().len() / 2;
    let gap: Vec<i32> = (0..conns)
        .map(|j| gaps(j).ranges.iter().map(|r| r.1).max().unwrap_or(0))
        .collect();
    // Dijkstra from each room: a path costs the extents of its inner rooms plus its gaps, and
    // the cheapest path bounds the gap (every path is realised, the cheapest included).
    let mut out = vec![i32::MAX; n * n];
    let mut heap = std::collections::BinaryHeap::new();
    for a in 0..n {
        let row = &mut out[a * n..(a + 1) * n];
        row[a] = 0;
        heap.push(std::cmp::Reverse((0, a as u32)));
        while let Some(std::cmp::Reverse((d, v))) = heap.pop() {
            if d > row[v as usize] {
                continue;
            }
            let inner = if v as usize == a {
                0
            } else {
                extent[v as usize]
            };
            for &(u, j) in &adj[v as usize] {
                let nd = d + inner + gap[j as usize];
                if nd < row[u as usize] {
                    row[u as usize] = nd;
                    heap.push(std::cmp::Reverse((nd, u)));
                }
            }
        }
    }
    out
}

/// `x`, `y` moved to their centroid and scaled so that connections `src`-`dst` are `length`
/// long on average (a drawing without connections, or with all its rooms at one point, keeps
/// its scale).
pub(super) fn scaled_drawing(
    x: &[f32],
    y: &[f32],
    src: &[u32],
    dst: &[u32],
    length: f32,
) -> (Vec<f32>, Vec<f32>) {
    let n = x.len().max(1) as f32;
    let (cx, cy) = (x.iter().sum::<f32>() / n, y.iter().sum::<f32>() / n);
    let mean = src
        .iter()
        .zip(dst)
        .map(|(&a, &b)| {
            let (a, b) = (a as usize, b as usize);
            let (dx, dy) = (x[b] - x[a], y[b] - y[a]);
            (dx * dx + dy * dy).sqrt()
        })
        .sum::<f32>()
        / src.len().max(1) as f32;
    let k = if mean > 0.0 && mean.is_finite() {
        length / mean
    } else {
        1.0
    };
    (
        x.iter().map(|&v| (v - cx) * k).collect(),
        y.iter().map(|&v| (v - cy) * k).collect(),
    )
}
