//! What a grammar level measures (seed 000's quality tests, demirogue's failure checks and the
//! tile map's figures): the typed metric columns [`GrammarMetrics`] and the measurements
//! behind them, made from a worker's reused buffers without a heap allocation per level, and
//! the corridor spread a level may not exceed ([`MAX_CORRIDOR_SPREAD`]).

use crate::core::generator::{GraphView, RoomsView};
use crate::core::graph::edge_flag;
use crate::core::grid::GridView;
use crate::core::planar::{self, PlanarityScratch};
use crate::core::route::{self, Ends, RouteScratch};
use crate::core::sets::UnionFind;
use crate::grammar::build::BuildReport;
use crate::grammar::host::Host;
use crate::grammar::rule::TagId;
use crate::grammar::tilemap::TileReport;
use crate::layout::quality;
use crate::layout::rooms::Fallback;

/// The most a level's longest corridor may be over its median one, in the drawing (centre to
/// centre): a level beyond it fails its seed (reason `corridor spread`), and `verify` rejects
/// one. Room-sized corridor targets alone differ by at most the ratio of the largest room to
/// the smallest, far below this.
pub const MAX_CORRIDOR_SPREAD: f32 = 8.0;

crate::metrics! {
    /// What one grammar level measures: its graph, its drawing and its tile map.
    pub struct GrammarMetrics => GRAMMAR_METRICS {
        vertices: u32 = "vertices (rooms) in the level",
        edges: u32 = "corridors: non-cosmetic edges",
        cosmetic_edges: u32 = "cosmetic edges (shape the drawing, not walkable)",
        rewrites: u32 = "rules applied, the start rule included",
        stalled: u32 = "1 when the build stopped because no rule matched, 0 when a budget ended it",
        crossings: u32 = "pairs of corridors that cross in the final drawing",
        self_intersecting: u32 = "1 when any two corridors cross (demirogue's failure test), else 0",
        planar: u32 = "1 when the corridor graph is planar (left-right planarity test), else 0",
        rejected_matches: u32 = "rewrites undone because a new corridor would have crossed the drawing or a new room crowded another",
        max_valence: u32 = "the largest number of edges at one vertex",
        room_overlaps: u32 = "pairs of stored room rectangles that overlap (0 by construction for rectangular rooms; the floor boxes of L and T rooms from a template library may overlap)",
        corridors_through_rooms: u32 = "(corridor, room) pairs where a corridor passes through a third room",
        layout_iterations: u32 = "solver iterations during the build (the room placement not counted)",
        room_fallback: u32 = "how the rooms were separated: 0 relaxation and push-apart, 1 scaled, 2 grid",
        length_cv: f32 = "coefficient of variation of the corridor lengths in the final drawing",
        cycle_rank: u32 = "independent loops of the corridor graph: corridors - rooms + connected parts",
        floor_tiles: u32 = "walkable tiles of the map: room floor, corridor floor and doors",
        corridor_tiles: u32 = "corridor floor tiles of the map (outside rooms, doors not counted)",
        door_tiles: u32 = "door tiles of the map",
        corridor_share: f32 = "corridor floor tiles over all walkable tiles (doors not counted as corridor)",
        room_side_median: f32 = "median room side in tiles (both sides of every room)",
        corridor_median: f32 = "median corridor length in tiles, door to door (0: rooms joined by doors alone)",
        corridor_max: u32 = "longest corridor in tiles, door to door",
        corridor_spread: f32 = "longest corridor over the median corridor in the drawing (centre to centre)",
        searched_corridors: u32 = "corridors routed by the search because no straight, L or Z shape fitted",
        map_spreads: u32 = "times the map was drawn again from the drawing spread out because a corridor did not fit",
        start_x: u32 = "grid column of the start: the walkable tile nearest the centre of the start room (the first room tagged grammar.start_tag, else an end of the room graph's longest shortest path)",
        start_y: u32 = "grid row of the start",
        goal_x: u32 = "grid column of the goal: the tile of the goal room as for the start (the first room tagged grammar.goal_tag, else the room farthest from the start)",
        goal_y: u32 = "grid row of the goal",
        path_length: u32 = "steps on the shortest walkable path from start to goal over floor and doors (0: no room)",
    }
}

impl GrammarMetrics {
    /// Stores the level's start, goal and path length.
    pub(crate) fn set_ends(&mut self, e: Ends) {
        [
            self.start_x,
            self.start_y,
            self.goal_x,
            self.goal_y,
            self.path_length,
        ] = e.values();
    }

    /// The stored start, goal and path length.
    pub(crate) fn ends(&self) -> Ends {
        Ends::from_values([
            self.start_x,
            self.start_y,
            self.goal_x,
            self.goal_y,
            self.path_length,
        ])
    }
}

/// The start and goal of a grammar level (see the `start_x` .. `path_length` metrics): the
/// first rooms tagged `tags` (start, goal), else the ends of the longest shortest path; all 0
/// for a level without rooms. `owner` is the builder's owner grid, when it drew the map.
pub(crate) fn ends(
    grid: &GridView<'_>,
    graph: &GraphView<'_>,
    rooms: &RoomsView<'_>,
    owner: Option<&[u16]>,
    tags: (Option<TagId>, Option<TagId>),
    s: &mut RouteScratch,
) -> Ends {
    let first = |tag: Option<TagId>| {
        let tag = tag?;
        (0..graph.tag.len().min(rooms.x0.len()))
            .find(|&v| graph.tag[v] == tag && !empty_room(rooms, v))
            .map(|v| v as u32)
    };
    let named = (first(tags.0), first(tags.1));
    route::room_ends(s, grid, graph, rooms, owner, named).unwrap_or_default()
}

/// Reused buffers of the measurements.
#[derive(Default)]
pub(crate) struct MeasureScratch {
    /// Corridor (non-cosmetic edge) ends.
    pub(crate) src: Vec<u32>,
    pub(crate) dst: Vec<u32>,
    sides: Vec<u32>,
    order: Vec<u32>,
    sets: UnionFind,
    planarity: PlanarityScratch,
}

/// What the generator knows of a level besides its stored columns.
pub(crate) struct Facts<'a> {
    /// The build's report.
    pub(crate) report: &'a BuildReport,
    /// The tile map's report.
    pub(crate) map: &'a TileReport,
    /// Each edge's corridor length in tiles, door to door.
    pub(crate) corridor_len: &'a [u32],
    /// The longest corridor over the median one in the drawing.
    pub(crate) spread: f32,
    /// Times the map was drawn again spread out.
    pub(crate) spreads: u32,
}

impl GrammarMetrics {
    /// The metrics of the level `g`, `rooms` (as stored) made with `facts`.
    pub(crate) fn measure(
        g: &GraphView<'_>,
        rooms: &RoomsView<'_>,
        facts: &Facts<'_>,
        s: &mut MeasureScratch,
    ) -> Self {
        let n = g.x.len();
        walkable_into(g, &mut s.src, &mut s.dst);
        let (report, map) = (facts.report, facts.map);
        let crossings = quality::count_crossings(g.x, g.y, &s.src, &s.dst);
        let floor = map.room_tiles + map.corridor_tiles + map.door_tiles;
        Self {
            vertices: n as u32,
            edges: s.src.len() as u32,
            cosmetic_edges: (g.src.len() - s.src.len()) as u32,
            rewrites: report.rewrites,
            stalled: u32::from(report.stalled),
            crossings: crossings as u32,
            self_intersecting: u32::from(crossings > 0),
            planar: u32::from(planar::is_planar_with(&mut s.planarity, n, &s.src, &s.dst)),
            rejected_matches: report.rejected_matches,
            max_valence: max_valence(g, &mut s.sides),
            room_overlaps: overlapping_rooms_into(rooms, &mut s.order, |_, _| {}) as u32,
            corridors_through_rooms: report.placement.corridors_through_rooms,
            layout_iterations: report.layout_iterations,
            room_fallback: match report.placement.fallback {
                Fallback::None => 0,
                Fallback::Scaled => 1,
                Fallback::Grid => 2,
            },
            length_cv: quality::length_cv(g.x, g.y, &s.src, &s.dst),
            cycle_rank: cycle_rank(rooms, &s.src, &s.dst, &mut s.sets),
            floor_tiles: floor,
            corridor_tiles: map.corridor_tiles,
            door_tiles: map.door_tiles,
            corridor_share: map.corridor_tiles as f32 / floor.max(1) as f32,
            room_side_median: room_side_median(rooms, &mut s.sides),
            corridor_median: corridor_median(g, facts.corridor_len, &mut s.sides),
            corridor_max: facts.corridor_len.iter().copied().max().unwrap_or(0),
            corridor_spread: facts.spread,
            searched_corridors: map.searched,
            map_spreads: facts.spreads,
            ..Self::default()
        }
    }
}

/// The largest number of edges at one vertex (`degree` is scratch).
fn max_valence(g: &GraphView<'_>, degree: &mut Vec<u32>) -> u32 {
    degree.clear();
    degree.resize(g.x.len(), 0);
    for (&a, &b) in g.src.iter().zip(g.dst) {
        degree[a as usize] += 1;
        degree[b as usize] += 1;
    }
    degree.iter().copied().max().unwrap_or(0)
}

/// The median side of the rooms, both sides of every room (`sides` is scratch).
fn room_side_median(rooms: &RoomsView<'_>, sides: &mut Vec<u32>) -> f32 {
    sides.clear();
    for v in (0..rooms.x0.len()).filter(|&v| !empty_room(rooms, v)) {
        sides.push((rooms.x1[v] - rooms.x0[v]) as u32);
        sides.push((rooms.y1[v] - rooms.y0[v]) as u32);
    }
    median_u32(sides)
}

/// The median corridor length over the non-cosmetic edges (`lengths` is scratch).
fn corridor_median(g: &GraphView<'_>, corridor_len: &[u32], lengths: &mut Vec<u32>) -> f32 {
    lengths.clear();
    lengths.extend(
        (0..g.src.len())
            .filter(|&e| g.flags[e] & edge_flag::COSMETIC == 0)
            .map(|e| corridor_len[e]),
    );
    median_u32(lengths)
}

/// Whether room `v` is empty (a cosmetic vertex).
pub(crate) fn empty_room(r: &RoomsView<'_>, v: usize) -> bool {
    r.x0[v] == r.x1[v] || r.y0[v] == r.y1[v]
}

/// The non-cosmetic edges of a graph, as endpoint arrays (replacing `src` and `dst`).
pub(crate) fn walkable_into(g: &GraphView<'_>, src: &mut Vec<u32>, dst: &mut Vec<u32>) {
    src.clear();
    dst.clear();
    for e in (0..g.src.len()).filter(|&e| g.flags[e] & edge_flag::COSMETIC == 0) {
        src.push(g.src[e]);
        dst.push(g.dst[e]);
    }
}

/// Independent loops of the corridors `src`-`dst` over the rooms: corridors - rooms + connected
/// parts, which is the corridors that join two rooms already connected.
pub(crate) fn cycle_rank(
    rooms: &RoomsView<'_>,
    src: &[u32],
    dst: &[u32],
    sets: &mut UnionFind,
) -> u32 {
    let edges = src.iter().zip(dst).map(|(&a, &b)| (a, b));
    crate::core::sets::cycle_rank(rooms.x0.len(), edges, sets)
}

/// The overlapping pairs of half-open integer rectangles (empty ones overlap nothing), each
/// given to `pair` as `(smaller id, larger id)`, by a sweep over `x0`; returns their number.
/// `order` is scratch.
///
/// # Runtime
/// O(n log n + k) for `k` pairs whose x-ranges overlap.
pub(crate) fn overlapping_rooms_into(
    r: &RoomsView<'_>,
    order: &mut Vec<u32>,
    mut pair: impl FnMut(u32, u32),
) -> usize {
    let n = r.x0.len();
    order.clear();
    order.extend((0..n as u32).filter(|&i| !empty_room(r, i as usize)));
    order.sort_unstable_by_key(|&i| (r.x0[i as usize], i));
    let mut count = 0;
    for (k, &a) in order.iter().enumerate() {
        let a = a as usize;
        for &b in &order[k + 1..] {
            let b = b as usize;
            if r.x0[b] >= r.x1[a] {
                break;
            }
            if r.y0[a] < r.y1[b] && r.y0[b] < r.y1[a] {
                pair(a.min(b) as u32, a.max(b) as u32);
                count += 1;
            }
        }
    }
    count
}

/// Pairs of overlapping half-open integer rectangles (empty ones overlap nothing).
pub fn overlapping_rooms(r: &RoomsView<'_>) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    overlapping_rooms_into(r, &mut Vec::new(), |a, b| out.push((a, b)));
    out
}

/// The median of `values` (the mean of the middle two for an even count; 0 for none); reorders
/// `values`.
pub(crate) fn median_u32(values: &mut [u32]) -> f32 {
    let k = values.len();
    if k == 0 {
        return 0.0;
    }
    let (_, &mut hi, _) = values.select_nth_unstable(k / 2);
    if k % 2 == 1 {
        return hi as f32;
    }
    let lo = values[..k / 2].iter().copied().max().unwrap_or(hi);
    (lo as f32 + hi as f32) / 2.0
}

/// The longest corridor over the median one, centre to centre in the drawing, over the corridors
/// between rooms (1 for a level without corridors). `lengths` is scratch.
pub(crate) fn corridor_spread(host: &Host, x0: &[i32], x1: &[i32], lengths: &mut Vec<f32>) -> f32 {
    lengths.clear();
    for e in 0..host.edge_count() {
        let (a, b) = (host.graph.src[e] as usize, host.graph.dst[e] as usize);
        if host.graph.flags[e] & edge_flag::COSMETIC == 0 && x0[a] < x1[a] && x0[b] < x1[b] {
            lengths
                .push((host.graph.x[b] - host.graph.x[a]).hypot(host.graph.y[b] - host.graph.y[a]));
        }
    }
    spread_of(lengths)
}

/// The largest of `lengths` over their median (1 for none; reorders `lengths`).
pub(crate) fn spread_of(lengths: &mut [f32]) -> f32 {
    let k = lengths.len();
    if k == 0 {
        return 1.0;
    }
    let longest = lengths.iter().copied().fold(0.0f32, f32::max);
    let (_, &mut median, _) = lengths.select_nth_unstable_by(k / 2, f32::total_cmp);
    if median > 0.0 {
        longest / median
    } else {
        f32::INFINITY
    }
}
