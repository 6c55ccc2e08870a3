//! Graph-grammar levels (seed 000): a tagged graph grown by context-sensitive rewriting rules,
//! drawn by the force solver after every rewrite, and given rooms that never overlap.
//!
//! - [`rule`]: the rule model (patterns, substitutes, tag sets, blocked neighbours, `lock`,
//!   edge kinds, the map) and its validation;
//! - [`matcher`]: subgraph matching without mirrored matches, and rewriting;
//! - [`mod@build`]: the build loop, the layout after each rewrite and the room placement;
//! - [`host`]: the graph being rewritten;
//! - [`tilemap`]: the level's tile map (rooms, walls, doors, corridors) and
//!   [`tilemap_verify`], its independent check;
//! - [`config`]: the profile section.
//!
//! A level is stored as its tile map (`grid`: 0 wall, 1 floor, 2 door), its graph (positions,
//! tags, edges with the cosmetic and subdivide flags), one integer room rectangle per vertex (in
//! grid coordinates: the room's floor, its wall ring around it), the rule-use counts and the
//! metrics below.
//! Times are not stored (they would make two runs of the same seeds differ); `warren bench`
//! reports them.

pub mod build;
pub mod config;
pub mod format;
pub mod host;
pub mod library;
pub mod lua;
pub mod matcher;
pub mod rule;
pub mod tilemap;
pub mod tilemap_verify;

use crate::core::error::{GenError, Violation};
use crate::core::generator::{
    Columns, Generator, GraphView, Level, LevelRecord, MetricSpec, RoomsView,
};
use crate::core::graph::edge_flag;
use crate::core::grid::Grid;
use crate::core::hash::ContentHasher;
use crate::core::planar;
use crate::ensure_level;
use crate::grammar::build::{BuildParams, BuildScratch, build};
use crate::grammar::matcher::Compiled;
use crate::grammar::rule::Grammar;
use crate::grammar::tilemap::{TileError, TileParams, TileScratch, draw_tile_map};
use crate::grammar::tilemap_verify::verify_tile_map;
use crate::layout::quality;

pub use config::GrammarConfig;

/// The grammar metric columns, in [`GrammarGenerator::generate`]'s order.
pub const GRAMMAR_METRICS: [MetricSpec; 26] = [
    MetricSpec::u32("vertices", "vertices (rooms) in the level"),
    MetricSpec::u32("edges", "corridors: non-cosmetic edges"),
    MetricSpec::u32(
        "cosmetic_edges",
        "cosmetic edges (shape the drawing, not walkable)",
    ),
    MetricSpec::u32("rewrites", "rules applied, the start rule included"),
    MetricSpec::u32(
        "stalled",
        "1 when the build stopped because no rule matched, 0 when a budget ended it",
    ),
    MetricSpec::u32(
        "crossings",
        "pairs of corridors that cross in the final drawing",
    ),
    MetricSpec::u32(
        "self_intersecting",
        "1 when any two corridors cross (demirogue's failure test), else 0",
    ),
    MetricSpec::u32(
        "planar",
        "1 when the corridor graph is planar (left-right planarity test), else 0",
    ),
    MetricSpec::u32(
        "rejected_matches",
        "rewrites undone because a new corridor would have crossed the drawing or a new room crowded another",
    ),
    MetricSpec::u32("max_valence", "the largest number of edges at one vertex"),
    MetricSpec::u32(
        "room_overlaps",
        "pairs of stored room rectangles that overlap (0 by construction)",
    ),
    MetricSpec::u32(
        "corridors_through_rooms",
        "(corridor, room) pairs where a corridor passes through a third room",
    ),
    MetricSpec::u32(
        "layout_iterations",
        "solver iterations during the build (the room placement not counted)",
    ),
    MetricSpec::u32(
        "room_fallback",
        "how the rooms were separated: 0 relaxation and push-apart, 1 scaled, 2 grid",
    ),
    MetricSpec::f32(
        "length_cv",
        "coefficient of variation of the corridor lengths in the final drawing",
    ),
    MetricSpec::u32(
        "cycle_rank",
        "independent loops of the corridor graph: corridors - rooms + connected parts",
    ),
    MetricSpec::u32(
        "floor_tiles",
        "walkable tiles of the map: room floor, corridor floor and doors",
    ),
    MetricSpec::u32(
        "corridor_tiles",
        "corridor floor tiles of the map (outside rooms, doors not counted)",
    ),
    MetricSpec::u32("door_tiles", "door tiles of the map"),
    MetricSpec::f32(
        "corridor_share",
        "corridor floor tiles over all walkable tiles (doors not counted as corridor)",
    ),
    MetricSpec::f32(
        "room_side_median",
        "median room side in tiles (both sides of every room)",
    ),
    MetricSpec::f32(
        "corridor_median",
        "median corridor length in tiles, door to door (0: rooms joined by doors alone)",
    ),
    MetricSpec::u32("corridor_max", "longest corridor in tiles, door to door"),
    MetricSpec::f32(
        "corridor_spread",
        "longest corridor over the median corridor in the drawing (centre to centre)",
    ),
    MetricSpec::u32(
        "searched_corridors",
        "corridors routed by the search because no straight, L or Z shape fitted",
    ),
    MetricSpec::u32(
        "map_spreads",
        "times the map was drawn again from the drawing spread out because a corridor did not fit",
    ),
];

/// The most a level's longest corridor may be over its median one, in the drawing (centre to
/// centre): a level beyond it fails its seed (reason `corridor spread`), and `verify` rejects
/// one. Room-sized corridor targets alone differ by at most the ratio of the largest room to
/// the smallest, far below this.
pub const MAX_CORRIDOR_SPREAD: f32 = 8.0;

/// The graph-grammar generator: a validated rule set, compiled once, and the build settings.
pub struct GrammarGenerator {
    cfg: GrammarConfig,
    grammar: Grammar,
    compiled: Vec<Compiled>,
    params: BuildParams,
    tiles: TileParams,
}

/// Per-worker memory.
#[derive(Default)]
pub struct GrammarScratch {
    build: BuildScratch,
    grid: Grid,
    tiles: TileScratch,
    lengths: Vec<f32>,
    sides: Vec<u32>,
    /// Nanoseconds of the last build in matching, rewriting, layout and rooms.
    stage_ns: [u64; 5],
    x0: Vec<i32>,
    y0: Vec<i32>,
    x1: Vec<i32>,
    y1: Vec<i32>,
    metrics: Vec<f64>,
}

impl GrammarGenerator {
    /// A generator for `cfg`, loading `cfg.rules` (a built-in name or a rule file).
    ///
    /// # Errors
    /// When a value is out of range, or the rules cannot be read or are invalid.
    pub fn new(cfg: GrammarConfig) -> Result<Self, GrammarSetupError> {
        cfg.validate()?;
        let grammar = library::load(&cfg.rules)?;
        Self::with_grammar(cfg, grammar)
    }

    /// A generator for `grammar` (which must pass [`Grammar::validate`]) with the settings of
    /// `cfg` (`cfg.rules` is only recorded).
    ///
    /// # Errors
    /// When `cfg` is out of range or the grammar is invalid.
    pub fn with_grammar(
        cfg: GrammarConfig,
        mut grammar: Grammar,
    ) -> Result<Self, GrammarSetupError> {
        cfg.validate()?;
        grammar.validate()?;
        let scale = cfg.room_scale as f32;
        for size in grammar.rooms.iter_mut().flatten() {
            size.w *= scale;
            size.h *= scale;
        }
        grammar.default_room.w *= scale;
        grammar.default_room.h *= scale;
        let largest = grammar
            .rooms
            .iter()
            .flatten()
            .chain(std::iter::once(&grammar.default_room))
            .map(|r| r.w.max(r.h))
            .fold(0.0f32, f32::max);
        cfg.check_grid_fits(f64::from(largest))?;
        let compiled = grammar.rules.iter().map(Compiled::new).collect();
        let params = cfg.build_params();
        let tiles = cfg.tile_params();
        Ok(Self {
            cfg,
            grammar,
            compiled,
            params,
            tiles,
        })
    }

    /// The settings.
    pub fn config(&self) -> &GrammarConfig {
        &self.cfg
    }

    /// The rule set.
    pub fn grammar(&self) -> &Grammar {
        &self.grammar
    }
}

/// A grammar generator could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum GrammarSetupError {
    /// A profile value is out of range.
    #[error(transparent)]
    Config(#[from] crate::maze::ConfigError),
    /// The rules could not be read or are invalid.
    #[error(transparent)]
    Rules(#[from] rule::GrammarError),
}

/// Times a map whose corridors cannot all be drawn is drawn again with the drawing spread out
/// by [`MAP_SPREAD`] (then the seed fails with `corridor not drawn`).
pub const MAP_SPREADS: u32 = 3;

/// The factor room centres move apart by about their centroid before a map is drawn again
/// ([`MAP_SPREADS`]); rooms keep their size.
pub const MAP_SPREAD: f32 = 1.5;

/// The rooms of the level in `s.build` as tile rectangles into `s.x0 .. s.y1`: vertex `v`'s
/// room (`room_w[v] x room_h[v]` layout units, `per_tile` tiles each) centred on its position
/// (in tiles).
fn room_rects(s: &mut GrammarScratch, per_tile: f32) {
    let b = &s.build;
    s.x0.clear();
    s.y0.clear();
    s.x1.clear();
    s.y1.clear();
    for v in 0..b.host.vertex_count() {
        let (x0, x1) = room_span(b.host.x[v], b.room_w[v] * per_tile);
        let (y0, y1) = room_span(b.host.y[v], b.room_h[v] * per_tile);
        s.x0.push(x0);
        s.x1.push(x1);
        s.y0.push(y0);
        s.y1.push(y1);
    }
}

/// `[x0, x1)` of a room `size` wide centred on `c`, on the integer grid: at least one cell for
/// a room, empty for a cosmetic vertex (`size` 0).
fn room_span(c: f32, size: f32) -> (i32, i32) {
    let lo = (c - size / 2.0).round() as i32;
    if size <= 0.0 {
        return (lo, lo);
    }
    let hi = (c + size / 2.0).round() as i32;
    (lo, hi.max(lo + 1))
}

/// Pairs of overlapping half-open integer rectangles (empty ones overlap nothing), by a sweep
/// over `x0`.
///
/// # Runtime
/// O(n log n + k) for `k` pairs whose x-ranges overlap.
pub fn overlapping_rooms(r: &RoomsView<'_>) -> Vec<(u32, u32)> {
    let n = r.x0.len();
    let mut order: Vec<u32> = (0..n as u32)
        .filter(|&i| !empty_room(r, i as usize))
        .collect();
    order.sort_by_key(|&i| (r.x0[i as usize], i));
    let mut out = Vec::new();
    for (k, &a) in order.iter().enumerate() {
        let a = a as usize;
        for &b in &order[k + 1..] {
            let b = b as usize;
            if r.x0[b] >= r.x1[a] {
                break;
            }
            if r.y0[a] < r.y1[b] && r.y0[b] < r.y1[a] {
                out.push((a.min(b) as u32, a.max(b) as u32));
            }
        }
    }
    out
}

/// The canonical content hash of a grammar level.
fn level_hash(g: &GraphView<'_>, rooms: &RoomsView<'_>, uses: &[u32], grid: &Grid) -> u64 {
    let mut h = ContentHasher::new();
    h.u32s(&[grid.width, grid.height]);
    h.bytes(&grid.cells);
    h.f32s(g.x);
    h.f32s(g.y);
    let tags: Vec<u32> = g.tag.iter().map(|&t| u32::from(t)).collect();
    h.u32s(&tags);
    h.u32s(g.src);
    h.u32s(g.dst);
    h.bytes(g.flags);
    for side in [rooms.x0, rooms.y0, rooms.x1, rooms.y1] {
        let v: Vec<u32> = side.iter().map(|&c| c as u32).collect();
        h.u32s(&v);
    }
    h.u32s(uses);
    h.finish()
}

/// The median of `values` (the mean of the middle two for an even count; 0 for none); reorders
/// `values`.
fn median_u32(values: &mut [u32]) -> f32 {
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
fn corridor_spread(host: &host::Host, x0: &[i32], x1: &[i32], lengths: &mut Vec<f32>) -> f32 {
    lengths.clear();
    for e in 0..host.edge_count() {
        let (a, b) = (host.src[e] as usize, host.dst[e] as usize);
        if host.flags[e] & edge_flag::COSMETIC == 0 && x0[a] < x1[a] && x0[b] < x1[b] {
            lengths.push((host.x[b] - host.x[a]).hypot(host.y[b] - host.y[a]));
        }
    }
    spread_of(lengths)
}

/// The largest of `lengths` over their median (1 for none; reorders `lengths`).
fn spread_of(lengths: &mut [f32]) -> f32 {
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

/// Independent loops of the corridors `src`-`dst` over the `solid` rooms: corridors - rooms +
/// connected parts.
fn cycle_rank(solid: usize, rooms: &RoomsView<'_>, src: &[u32], dst: &[u32]) -> u64 {
    let n = rooms.x0.len();
    let mut parent: Vec<u32> = (0..n as u32).collect();
    let mut parts = solid;
    for (&a, &b) in src.iter().zip(dst) {
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        if ra != rb {
            parent[ra as usize] = rb;
            parts -= 1;
        }
    }
    (src.len() + parts) as u64 - solid as u64
}

/// Union-find root of `v`, halving paths.
fn find(p: &mut [u32], mut v: u32) -> u32 {
    while p[v as usize] != v {
        p[v as usize] = p[p[v as usize] as usize];
        v = p[v as usize];
    }
    v
}

/// Whether room `v` is empty (a cosmetic vertex).
fn empty_room(r: &RoomsView<'_>, v: usize) -> bool {
    r.x0[v] == r.x1[v] || r.y0[v] == r.y1[v]
}

/// The non-cosmetic edges of a graph, as endpoint arrays.
fn walkable(g: &GraphView<'_>) -> (Vec<u32>, Vec<u32>) {
    let keep = |e: usize| g.flags[e] & edge_flag::COSMETIC == 0;
    let src = (0..g.src.len())
        .filter(|&e| keep(e))
        .map(|e| g.src[e])
        .collect();
    let dst = (0..g.dst.len())
        .filter(|&e| keep(e))
        .map(|e| g.dst[e])
        .collect();
    (src, dst)
}

impl Generator for GrammarGenerator {
    type Scratch = GrammarScratch;

    fn kind(&self) -> &'static str {
        "grammar"
    }

    fn columns(&self) -> Columns {
        Columns {
            grid: true,
            graph: true,
            tags: true,
            rooms: true,
            rule_uses: true,
            metrics: &GRAMMAR_METRICS,
            extra: &[],
        }
    }

    fn new_scratch(&self) -> GrammarScratch {
        GrammarScratch::default()
    }

    fn stage_names(&self) -> &'static [&'static str] {
        &["matching", "rewriting", "layout", "rooms", "tile map"]
    }

    fn stage_nanos(&self, s: &GrammarScratch, out: &mut [u64]) {
        out.copy_from_slice(&s.stage_ns);
    }

    fn generate<'s>(&self, seed: u64, s: &'s mut GrammarScratch) -> Result<Level<'s>, GenError> {
        let report = build(
            &self.grammar,
            &self.compiled,
            &self.params,
            seed,
            &mut s.build,
        )?;
        let host = &mut s.build.host;
        let n = host.vertex_count();
        // Layout units to tiles.
        let per_tile = (1.0 / self.cfg.tile_size) as f32;
        if per_tile != 1.0 {
            host.x.iter_mut().for_each(|x| *x *= per_tile);
            host.y.iter_mut().for_each(|y| *y *= per_tile);
        }
        room_rects(s, per_tile);
        let host = &mut s.build.host;
        let spread = corridor_spread(host, &s.x0, &s.x1, &mut s.lengths);
        if spread > MAX_CORRIDOR_SPREAD {
            return Err(GenError {
                reason: "corridor spread",
                detail: format!(
                    "the longest corridor is {spread:.1} times the median (at most {MAX_CORRIDOR_SPREAD})"
                ),
            });
        }
        let t = std::time::Instant::now();
        // A map whose corridors cannot all be drawn is drawn again from the drawing spread out
        // (room centres moved apart, rooms their size): the corridors gain room between the
        // rooms and keep their order round them, since a uniform scaling keeps the drawing as
        // it is.
        let mut spreads = 0;
        let map = loop {
            let host = &s.build.host;
            let drawn = draw_tile_map(
                &mut s.x0,
                &mut s.y0,
                &mut s.x1,
                &mut s.y1,
                &host.src,
                &host.dst,
                &host.flags,
                &self.tiles,
                &mut s.grid,
                &mut s.tiles,
            );
            match drawn {
                Ok(map) => break map,
                Err(TileError::Unroutable { .. }) if spreads < MAP_SPREADS => {
                    spreads += 1;
                    let host = &mut s.build.host;
                    crate::layout::upscale(&mut host.x, &mut host.y, MAP_SPREAD);
                    room_rects(s, per_tile);
                }
                Err(e) => {
                    return Err(GenError {
                        reason: e.reason(),
                        detail: e.to_string(),
                    });
                }
            }
        };
        // The drawing moves with the rooms into grid coordinates.
        let host = &mut s.build.host;
        let (ox, oy) = (map.offset.0 as f32, map.offset.1 as f32);
        host.x.iter_mut().for_each(|x| *x += ox);
        host.y.iter_mut().for_each(|y| *y += oy);
        s.stage_ns = [
            report.match_ns,
            report.rewrite_ns,
            report.layout_ns,
            report.rooms_ns,
            t.elapsed().as_nanos() as u64,
        ];
        let host = &s.build.host;
        let graph = GraphView {
            x: &host.x,
            y: &host.y,
            tag: &host.tag,
            src: &host.src,
            dst: &host.dst,
            flags: &host.flags,
        };
        let rooms = RoomsView {
            x0: &s.x0,
            y0: &s.y0,
            x1: &s.x1,
            y1: &s.y1,
        };
        let (wsrc, wdst) = walkable(&graph);
        let crossings = quality::count_crossings(&host.x, &host.y, &wsrc, &wdst);
        let cosmetic = host
            .flags
            .iter()
            .filter(|&&f| f & edge_flag::COSMETIC != 0)
            .count();
        let max_valence = (0..n as u32).map(|v| host.degree(v)).max().unwrap_or(0);
        let overlaps = overlapping_rooms(&rooms).len();
        let solid = (0..n).filter(|&v| !empty_room(&rooms, v)).count();
        s.sides.clear();
        for v in (0..n).filter(|&v| !empty_room(&rooms, v)) {
            s.sides.push((s.x1[v] - s.x0[v]) as u32);
            s.sides.push((s.y1[v] - s.y0[v]) as u32);
        }
        let room_side = median_u32(&mut s.sides);
        let corridor_max = s.tiles.corridor_len.iter().copied().max().unwrap_or(0);
        s.sides.clear();
        s.sides.extend(
            (0..host.edge_count())
                .filter(|&e| host.flags[e] & edge_flag::COSMETIC == 0)
                .map(|e| s.tiles.corridor_len[e]),
        );
        let corridor_median = median_u32(&mut s.sides);
        let floor = map.room_tiles + map.corridor_tiles + map.door_tiles;
        s.metrics.clear();
        s.metrics.extend([
            n as f64,
            wsrc.len() as f64,
            cosmetic as f64,
            f64::from(report.rewrites),
            f64::from(u8::from(report.stalled)),
            crossings as f64,
            f64::from(u8::from(crossings > 0)),
            f64::from(u8::from(planar::is_planar(n, &wsrc, &wdst))),
            f64::from(report.rejected_matches),
            f64::from(max_valence),
            overlaps as f64,
            f64::from(report.placement.corridors_through_rooms),
            f64::from(report.layout_iterations),
            match report.placement.fallback {
                crate::layout::rooms::Fallback::None => 0.0,
                crate::layout::rooms::Fallback::Scaled => 1.0,
                crate::layout::rooms::Fallback::Grid => 2.0,
            },
            f64::from(quality::length_cv(&host.x, &host.y, &wsrc, &wdst)),
            cycle_rank(solid, &rooms, &wsrc, &wdst) as f64,
            f64::from(floor),
            f64::from(map.corridor_tiles),
            f64::from(map.door_tiles),
            f64::from(map.corridor_tiles as f32 / floor.max(1) as f32),
            f64::from(room_side),
            f64::from(corridor_median),
            f64::from(corridor_max),
            f64::from(spread),
            f64::from(map.searched),
            f64::from(spreads),
        ]);
        Ok(Level {
            grid: Some(s.grid.view()),
            graph: Some(graph),
            rooms: Some(rooms),
            rule_uses: &s.build.uses,
            metrics: &s.metrics,
            layout_hash: level_hash(&graph, &rooms, &s.build.uses, &s.grid),
            ..Level::default()
        })
    }

    fn verify(&self, record: &LevelRecord<'_>) -> Result<(), Violation> {
        let level = &record.level;
        let g = level
            .graph
            .ok_or_else(|| Violation::new("no graph columns"))?;
        let rooms = level
            .rooms
            .ok_or_else(|| Violation::new("no room columns"))?;
        let n = g.x.len();
        ensure_level!(
            g.y.len() == n && g.tag.len() == n,
            "vertex columns disagree in length ({} x, {} y, {} tags)",
            n,
            g.y.len(),
            g.tag.len()
        );
        ensure_level!(
            g.src.len() == g.dst.len() && g.flags.len() == g.src.len(),
            "edge columns disagree in length"
        );
        ensure_level!(
            (self.cfg.min_vertices as usize..=self.cfg.max_vertices as usize).contains(&n),
            "{n} vertices, outside min_vertices..=max_vertices ({}..={})",
            self.cfg.min_vertices,
            self.cfg.max_vertices
        );
        let tags = self.grammar.tags.len();
        if let Some(t) = g.tag.iter().find(|&&t| t as usize >= tags) {
            return Err(Violation::new(format!("tag id {t} with {tags} tags")));
        }
        let mut degree = vec![0u32; n];
        for (&a, &b) in g.src.iter().zip(g.dst) {
            ensure_level!(
                (a as usize) < n && (b as usize) < n && a != b,
                "edge {a}-{b} with {n} vertices"
            );
            degree[a as usize] += 1;
            degree[b as usize] += 1;
        }
        if let Some(v) = (0..n).find(|&v| degree[v] > self.cfg.max_valence) {
            return Err(Violation::new(format!(
                "vertex {v} has valence {} above max_valence {}",
                degree[v], self.cfg.max_valence
            )));
        }
        ensure_level!(
            [rooms.x0, rooms.y0, rooms.x1, rooms.y1]
                .iter()
                .all(|s| s.len() == n),
            "room columns do not hold one room per vertex"
        );
        for v in 0..n {
            ensure_level!(
                rooms.x0[v] <= rooms.x1[v] && rooms.y0[v] <= rooms.y1[v],
                "room {v} has negative size"
            );
        }
        // Rooms (vertices with a non-empty room) are connected over corridors; cosmetic
        // vertices (empty rooms) touch only cosmetic edges.
        let (wsrc, wdst) = walkable(&g);
        for (&a, &b) in wsrc.iter().zip(&wdst) {
            ensure_level!(
                !empty_room(&rooms, a as usize) && !empty_room(&rooms, b as usize),
                "corridor {a}-{b} touches a cosmetic vertex (a vertex without a room)"
            );
        }
        let mut parent: Vec<u32> = (0..n as u32).collect();
        let mut parts = (0..n).filter(|&v| !empty_room(&rooms, v)).count();
        for (&a, &b) in wsrc.iter().zip(&wdst) {
            let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
            if ra != rb {
                parent[ra as usize] = rb;
                parts -= 1;
            }
        }
        ensure_level!(
            parts <= 1,
            "the corridors leave the rooms in {parts} disconnected parts"
        );
        let overlaps = overlapping_rooms(&rooms);
        if let Some(&(a, b)) = overlaps.first() {
            return Err(Violation::new(format!(
                "rooms {a} and {b} overlap ({} overlapping pairs)",
                overlaps.len()
            )));
        }
        ensure_level!(
            level.rule_uses.len() == self.grammar.rules.len(),
            "{} rule-use counts for {} rules",
            level.rule_uses.len(),
            self.grammar.rules.len()
        );
        let metric = |name: &str| {
            GRAMMAR_METRICS
                .iter()
                .position(|m| m.name == name)
                .and_then(|i| level.metrics.get(i).copied())
        };
        if let Some(rewrites) = metric("rewrites") {
            let sum: u64 = level.rule_uses.iter().map(|&u| u64::from(u)).sum();
            ensure_level!(
                sum as f64 == rewrites,
                "rule uses add up to {sum}, the rewrites metric says {rewrites}"
            );
        }
        if let Some(v) = metric("vertices") {
            ensure_level!(v == n as f64, "vertices metric {v} for {n} vertices");
        }
        let mut lengths = Vec::new();
        for (&a, &b) in wsrc.iter().zip(&wdst) {
            let (a, b) = (a as usize, b as usize);
            lengths.push((g.x[b] - g.x[a]).hypot(g.y[b] - g.y[a]));
        }
        let spread = spread_of(&mut lengths);
        let within = spread <= MAX_CORRIDOR_SPREAD;
        ensure_level!(
            within,
            "the longest corridor is {spread:.2} times the median, over {MAX_CORRIDOR_SPREAD}"
        );
        let grid = level
            .grid
            .ok_or_else(|| Violation::new("no grid columns"))?;
        let [max_w, max_h] = self.cfg.max_grid;
        ensure_level!(
            grid.width <= max_w && grid.height <= max_h,
            "a {} x {} map, over max_grid [{max_w}, {max_h}]",
            grid.width,
            grid.height
        );
        let facts = verify_tile_map(&grid, &g, &rooms)?;
        for (name, value) in [
            (
                "floor_tiles",
                facts.room_tiles + facts.corridor_tiles + facts.door_tiles,
            ),
            ("corridor_tiles", facts.corridor_tiles),
            ("door_tiles", facts.door_tiles),
        ] {
            if let Some(m) = metric(name) {
                ensure_level!(m == value as f64, "{name} metric {m}, the map has {value}");
            }
        }
        Ok(())
    }

    fn tag_names(&self) -> Vec<String> {
        self.grammar.tags.names().to_vec()
    }

    fn rule_names(&self) -> Vec<String> {
        self.grammar.rules.iter().map(|r| r.name.clone()).collect()
    }
}
