//! Grammar levels drawn through the map builder (`grammar.corridors` = `none`, `templates` or
//! `routed`): the grammar's graph, its rooms and its force drawing go to the same builder as the
//! `map` kind's level graphs (`crate::floorplan::build`), so grammar levels get room templates
//! and the three corridor modes, and their maps are checked by the same code
//! (`floorplan::check`).
//!
//! - Rooms: every vertex with a room; cosmetic vertices stay out of the map. With
//!   `grammar.templates = "rules"` a room is a rectangle of the size its rules give it (turned
//!   either way), doors `corridor_width` tiles wide anywhere along a wall; with a library, any of
//!   its templates.
//! - Connections: every non-cosmetic edge. The walkable graph must be planar (a seed whose graph
//!   is not fails at once, reason `non-planar corridor graph`).
//! - The search steers by the level's own force drawing (turned never: the map keeps the
//!   drawing's shape), within the builder's bounded work; a seed it cannot draw fails with the
//!   builder's reason.
//! - Stored as a grammar level: each vertex's room is its template's *floor* box (the wall
//!   ring around it), cosmetic vertices an empty box; vertex positions are room centres
//!   (cosmetic vertices at the mean of their neighbours'); edges realised through a corridor
//!   carry `floorplan::columns::CORRIDOR_FLAG`; plus the `map` kind's `room_template` (`u16::MAX`
//!   for a cosmetic vertex), `room_transform` and `owner` columns, where `1 + v` owns vertex
//!   `v`'s floor and `1 + vertices + e` edge `e`'s corridor.

use std::sync::Arc;

use crate::core::error::{GenError, Violation};
use crate::core::generator::{GraphView, LevelRecord, RoomsView};
use crate::core::graph::edge_flag;
use crate::core::grid::{GridView, cell};
use crate::core::planar::{PlanarityScratch, is_planar_with};
use crate::ensure_level;
use crate::floorplan::build::{BuildScratch, Catalogue, Gaps, NO_LAYOUT, Plan, build};
use crate::floorplan::check::{MapRules, Tally, check_tiles};
use crate::floorplan::columns::CORRIDOR_FLAG;
use crate::floorplan::input::load_library;
use crate::floorplan::raster::{Tiles, rasterise};
use crate::floorplan::shape::{Shape, shapes_of};
use crate::floorplan::spec::{DoorRule, Doors, Library, Repeat, Template, Transforms};
use crate::grammar::config::GrammarConfig;
use crate::grammar::config::MapMode;
use crate::grammar::rule::Grammar;
use crate::grammar::tilemap::TileReport;

/// `room_template` of a vertex without a room.
pub const NO_TEMPLATE: u16 = u16::MAX;

/// Attempts the builder makes for one grammar level before the seed fails: fewer than the
/// `map` kind's 200, since a grammar seed that fails is replaced by the next one.
const MAX_ATTEMPTS: u32 = 50;

/// The map builder's side of a grammar generator: templates, shapes and their configuration
/// spaces, built once.
#[derive(Debug)]
pub(crate) struct Mapped {
    /// The templates (from the rules, or the named library).
    pub(crate) library: Library,
    cat: Arc<Catalogue>,
    /// Per tag, the shapes its rooms may take.
    tag_shapes: Vec<Vec<u32>>,
    /// Per tag, the one template its rooms take (`rules`), or `None` (any).
    tag_template: Vec<Option<u16>>,
    /// The gap ranges of every walkable edge.
    ranges: Vec<(i32, i32)>,
    min_distance: i32,
}

impl Mapped {
    /// The builder's setting for `cfg` and `grammar` (room sizes already scaled).
    ///
    /// # Errors
    /// Why the templates are unreadable or cannot draw the rules' rooms (the generator's
    /// `GrammarSetupError::Map`).
    pub(crate) fn new(cfg: &GrammarConfig, grammar: &Grammar) -> Result<Mapped, String> {
        let tags = grammar.tags.len();
        let (library, tag_template) = if cfg.templates == "rules" {
            rules_library(cfg, grammar)
        } else {
            let library =
                load_library(&cfg.templates).map_err(|e| format!("grammar.templates: {e}"))?;
            if library.templates.len() >= usize::from(NO_TEMPLATE) {
                return Err(format!(
                    "grammar.templates: {} has {} templates, at most {} can be stored",
                    library.name,
                    library.templates.len(),
                    NO_TEMPLATE - 1
                ));
            }
            (library, vec![None; tags])
        };
        let shapes = shapes_of(&library.templates).map_err(|(i, e)| {
            format!(
                "grammar.templates = {}: template `{}`: {e}",
                cfg.templates, library.templates[i].name
            )
        })?;
        let tag_shapes: Vec<Vec<u32>> = tag_template
            .iter()
            .map(|t| {
                (0..shapes.len() as u32)
                    .filter(|&s| t.is_none_or(|t| shapes[s as usize].template == u32::from(t)))
                    .collect()
            })
            .collect();
        // Two rooms can be joined only by doors of one length: every pair of tags must share one.
        let lengths = |shs: &[u32]| -> Vec<u32> {
            let mut v: Vec<u32> = shs
                .iter()
                .flat_map(|&s| shapes[s as usize].doors.iter().map(|d| d.len))
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let per_tag: Vec<Vec<u32>> = tag_shapes.iter().map(|s| lengths(s)).collect();
        for (a, la) in per_tag.iter().enumerate() {
            for (b, lb) in per_tag.iter().enumerate().skip(a) {
                if !la.iter().any(|l| lb.contains(l)) {
                    return Err(format!(
                        "grammar.templates = {}: rooms tagged `{}` and `{}` have no door length \
                         in common, so a corridor between them could never be drawn",
                        cfg.templates,
                        grammar.tags.names()[a],
                        grammar.tags.names()[b]
                    ));
                }
            }
        }
        let ranges = match cfg.corridors {
            MapMode::Drawn | MapMode::None => vec![(0, 0)],
            MapMode::Templates => cfg
                .corridor_lengths
                .iter()
                .map(|&l| (l as i32 + 1, l as i32 + 1))
                .collect(),
            MapMode::Routed => vec![(2, cfg.max_corridor as i32 + 1)],
        };
        let cat = Arc::new(Catalogue::new(shapes, vec![Gaps::new(ranges.clone())]));
        Ok(Mapped {
            library,
            cat,
            tag_shapes,
            tag_template,
            ranges,
            min_distance: cfg.min_room_distance as i32,
        })
    }

    /// The shape of `template` under `transform`, if the library allows it.
    fn shape_of(&self, template: u16, transform: u8) -> Option<Shape> {
        crate::floorplan::shape::shape_in(&self.library, template, transform)
    }
}

/// Floor tiles of a room side `size` layout units long.
fn floor_tiles(size: f32, tile_size: f64) -> i32 {
    ((f64::from(size) / tile_size).round() as i32).max(1)
}

/// One rectangle template per distinct room size of the rules (floor tiles plus a wall ring,
/// turned either way, doors `corridor_width` wide anywhere along a wall), and each tag's
/// template.
fn rules_library(cfg: &GrammarConfig, grammar: &Grammar) -> (Library, Vec<Option<u16>>) {
    let mut templates: Vec<Template> = Vec::new();
    let mut sizes: Vec<(i32, i32)> = Vec::new();
    let tag_template = (0..grammar.tags.len())
        .map(|t| {
            let r = grammar.room(t as u16);
            let (w, h) = (
                floor_tiles(r.w, cfg.tile_size),
                floor_tiles(r.h, cfg.tile_size),
            );
            let k = match sizes.iter().position(|&s| s == (w, h)) {
                Some(k) => k,
                None => {
                    sizes.push((w, h));
                    templates.push(Template {
                        name: format!("{w}x{h}"),
                        outline: vec![(0, 0), (w + 2, 0), (w + 2, h + 2), (0, h + 2)],
                        doors: vec![DoorRule::new(Doors::Simple {
                            length: cfg.corridor_width,
                            corner_distance: 0,
                        })],
                        transforms: Transforms {
                            rotate: w != h,
                            mirror: false,
                        },
                        repeat: Repeat::Allow,
                        holes: Vec::new(),
                    });
                    sizes.len() - 1
                }
            };
            Some(k as u16)
        })
        .collect();
    (
        Library {
            name: "rules".into(),
            templates,
            sockets: Vec::new(),
        },
        tag_template,
    )
}

/// Per-worker memory of the builder path.
#[derive(Default)]
pub(crate) struct MappedScratch {
    build: BuildScratch,
    pub(crate) tiles: Tiles,
    /// Builder room -> vertex, vertex -> builder room (`u32::MAX`: none).
    vertex_of: Vec<u32>,
    room_of: Vec<u32>,
    /// Builder connection -> edge.
    edge_of: Vec<u32>,
    src: Vec<u32>,
    dst: Vec<u32>,
    tx: Vec<f32>,
    ty: Vec<f32>,
    planarity: PlanarityScratch,
    /// Per vertex, its template and transform.
    pub(crate) template: Vec<u16>,
    pub(crate) transform: Vec<u8>,
    /// Per edge, its corridor's length (0: none).
    pub(crate) corridor_len: Vec<u32>,
    sum: Vec<(f32, f32, u32)>,
    /// Holds the extra column values.
    pub(crate) bump: bumpalo::Bump,
}

/// The graph the builder draws, as the generator holds it before the map.
pub(crate) struct LevelIn<'a> {
    /// Vertex positions (the force drawing), tags, edges and flags.
    pub(crate) x: &'a mut [f32],
    pub(crate) y: &'a mut [f32],
    pub(crate) tag: &'a [u16],
    pub(crate) src: &'a [u32],
    pub(crate) dst: &'a [u32],
    pub(crate) flags: &'a mut [u8],
    /// Whether each vertex has a room.
    pub(crate) solid: &'a [bool],
}

/// Draws the level's map with the builder: fills `s.tiles` (owners by vertex and edge), the
/// per-vertex floor boxes `x0 .. y1`, the templates and transforms, and moves vertices to their
/// rooms' centres.
pub(crate) fn draw(
    m: &Mapped,
    cfg: &GrammarConfig,
    seed: u64,
    mut level: LevelIn<'_>,
    [x0, y0, x1, y1]: [&mut Vec<i32>; 4],
    s: &mut MappedScratch,
) -> Result<TileReport, GenError> {
    let n = level.x.len();
    let room_shapes = builder_rooms(m, &level, s);
    let conns = builder_connections(&level, s)?;
    let rooms = s.vertex_of.len();
    if !is_planar_with(&mut s.planarity, rooms, &s.src, &s.dst) {
        return Err(GenError {
            reason: "non-planar corridor graph".into(),
            detail: format!(
                "{rooms} rooms and {} corridors that no map can draw without crossings",
                conns.len()
            ),
        });
    }
    let gap_set = vec![0; conns.len()];
    let mut plan = Plan::with_catalogue(
        m.cat.clone(),
        room_shapes,
        conns,
        gap_set,
        m.min_distance,
        Some((&s.tx, &s.ty)),
    );
    plan.max_attempts = MAX_ATTEMPTS;
    build(&plan, seed, &mut s.build).map_err(|f| GenError {
        reason: NO_LAYOUT.into(),
        detail: f.detail(&plan, |v| format!("{v}")),
    })?;
    let layout = &s.build.out;
    rasterise(&plan, layout, &mut s.tiles).map_err(crate::floorplan::raster::too_large)?;
    let t = &mut s.tiles;
    let [max_w, max_h] = cfg.max_grid;
    if t.width > max_w || t.height > max_h {
        return Err(GenError {
            reason: "map over max_grid".into(),
            detail: format!(
                "the map needs {} x {} tiles, over max_grid {max_w} x {max_h}",
                t.width, t.height
            ),
        });
    }
    // Owners by vertex and edge.
    for o in &mut t.owner {
        let k = *o as usize;
        if k == 0 {
            continue;
        }
        *o = if k <= rooms {
            1 + s.vertex_of[k - 1] as u16
        } else {
            (1 + n + s.edge_of[k - 1 - rooms] as usize) as u16
        };
    }
    store_rooms(
        &plan,
        &mut level,
        [&mut *x0, &mut *y0, &mut *x1, &mut *y1],
        s,
    );
    place_cosmetic(&mut level, [x0, y0, x1, y1], s);
    store_corridors(&mut level, s);
    Ok(tile_report(&s.tiles, n))
}

/// The builder's rooms: every vertex with a room, numbered in `s.vertex_of` and `s.room_of`,
/// its position a target in `s.tx`, `s.ty`. Returns each room's allowed shapes.
fn builder_rooms(m: &Mapped, level: &LevelIn<'_>, s: &mut MappedScratch) -> Vec<Vec<u32>> {
    let n = level.x.len();
    s.vertex_of.clear();
    s.room_of.clear();
    s.room_of.resize(n, u32::MAX);
    s.tx.clear();
    s.ty.clear();
    let mut room_shapes = Vec::new();
    for v in 0..n {
        if level.solid[v] {
            s.room_of[v] = s.vertex_of.len() as u32;
            s.vertex_of.push(v as u32);
            s.tx.push(level.x[v]);
            s.ty.push(level.y[v]);
            room_shapes.push(m.tag_shapes[level.tag[v] as usize].clone());
        }
    }
    room_shapes
}

/// The builder's connections: every non-cosmetic edge, numbered in `s.edge_of`, its builder
/// rooms in `s.src`, `s.dst`.
///
/// # Errors
/// A walkable edge to a vertex without a room.
fn builder_connections(
    level: &LevelIn<'_>,
    s: &mut MappedScratch,
) -> Result<Vec<(u32, u32)>, GenError> {
    let e = level.src.len();
    s.edge_of.clear();
    s.src.clear();
    s.dst.clear();
    let mut conns = Vec::new();
    for j in 0..e {
        if level.flags[j] & edge_flag::COSMETIC != 0 {
            continue;
        }
        let (a, b) = (
            s.room_of[level.src[j] as usize],
            s.room_of[level.dst[j] as usize],
        );
        if a == u32::MAX || b == u32::MAX {
            return Err(GenError {
                reason: "corridor to a cosmetic vertex".into(),
                detail: format!("edge {j} is walkable but joins a vertex without a room"),
            });
        }
        s.edge_of.push(j as u32);
        s.src.push(a);
        s.dst.push(b);
        conns.push((a, b));
    }
    Ok(conns)
}

/// Each vertex's room from the layout in `s.build.out` and the tiles in `s.tiles`: its
/// template and transform, its floor box into `x0 .. y1`, its position at the room's centre.
fn store_rooms(
    plan: &Plan,
    level: &mut LevelIn<'_>,
    [x0, y0, x1, y1]: [&mut Vec<i32>; 4],
    s: &mut MappedScratch,
) {
    let n = level.x.len();
    let (layout, t) = (&s.build.out, &s.tiles);
    // Rooms, templates and positions.
    for v in [&mut *x0, &mut *y0, &mut *x1, &mut *y1] {
        v.clear();
        v.resize(n, 0);
    }
    s.template.clear();
    s.template.resize(n, NO_TEMPLATE);
    s.transform.clear();
    s.transform.resize(n, 0);
    for (r, &v) in s.vertex_of.iter().enumerate() {
        let v = v as usize;
        let sh = &plan.shapes()[layout.shape[r] as usize];
        s.template[v] = sh.template as u16;
        s.transform[v] = sh.transform;
        (x0[v], y0[v], x1[v], y1[v]) = (t.x0[r] + 1, t.y0[r] + 1, t.x1[r] - 1, t.y1[r] - 1);
        level.x[v] = (t.x0[r] + t.x1[r]) as f32 / 2.0;
        level.y[v] = (t.y0[r] + t.y1[r]) as f32 / 2.0;
    }
}

/// A cosmetic vertex goes to the mean of its neighbours with rooms (else the map's centre),
/// with an empty box there.
fn place_cosmetic(
    level: &mut LevelIn<'_>,
    [x0, y0, x1, y1]: [&mut Vec<i32>; 4],
    s: &mut MappedScratch,
) {
    let (n, e) = (level.x.len(), level.src.len());
    let t = &s.tiles;
    s.sum.clear();
    s.sum.resize(n, (0.0, 0.0, 0));
    for j in 0..e {
        let (a, b) = (level.src[j] as usize, level.dst[j] as usize);
        for (p, q) in [(a, b), (b, a)] {
            if !level.solid[p] && level.solid[q] {
                let acc = &mut s.sum[p];
                *acc = (acc.0 + level.x[q], acc.1 + level.y[q], acc.2 + 1);
            }
        }
    }
    for v in (0..n).filter(|&v| !level.solid[v]) {
        let (sx, sy, k) = s.sum[v];
        (level.x[v], level.y[v]) = if k > 0 {
            (sx / k as f32, sy / k as f32)
        } else {
            (t.width as f32 / 2.0, t.height as f32 / 2.0)
        };
        let (cx, cy) = (level.x[v].floor() as i32, level.y[v].floor() as i32);
        (x0[v], y0[v], x1[v], y1[v]) = (cx, cy, cx, cy);
    }
}

/// Edges: corridor lengths into `s.corridor_len`, the corridor flag on edges with one.
fn store_corridors(level: &mut LevelIn<'_>, s: &mut MappedScratch) {
    let t = &s.tiles;
    s.corridor_len.clear();
    s.corridor_len.resize(level.src.len(), 0);
    for (k, &j) in s.edge_of.iter().enumerate() {
        let len = t.corridor_len[k];
        s.corridor_len[j as usize] = len;
        if len > 0 {
            level.flags[j as usize] |= CORRIDOR_FLAG;
        }
    }
}

/// Room, corridor and door tiles of the map in `t`, whose owners `1..=n` are vertices.
fn tile_report(t: &Tiles, n: usize) -> TileReport {
    let mut report = TileReport::default();
    for (&c, &o) in t.cells.iter().zip(&t.owner) {
        match o as usize {
            0 if c == cell::DOOR => report.door_tiles += 1,
            0 => {}
            o if o <= n => report.room_tiles += 1,
            _ => report.corridor_tiles += 1,
        }
    }
    report
}

/// A stored grammar level, as the map checks see it.
struct LevelRules<'a> {
    m: &'a Mapped,
    graph: &'a GraphView<'a>,
    tags: usize,
}

impl MapRules for LevelRules<'_> {
    fn rooms(&self) -> usize {
        self.graph.x.len()
    }

    fn connections(&self) -> usize {
        self.graph.src.len()
    }

    fn ends(&self, j: usize) -> (usize, usize) {
        (self.graph.src[j] as usize, self.graph.dst[j] as usize)
    }

    fn room_name(&self, v: usize) -> String {
        format!("room {v}")
    }

    fn shape(&self, v: usize, template: u16, transform: u8) -> Result<Option<Shape>, String> {
        if template == NO_TEMPLATE {
            return Ok(None);
        }
        let sh = self.m.shape_of(template, transform).ok_or_else(|| {
            format!(
                "room {v} has template {template} under transform {transform}, which {} does \
                 not allow",
                self.m.library.name
            )
        })?;
        let tag = self.graph.tag[v] as usize;
        if tag >= self.tags {
            return Err(format!("room {v} has tag id {tag} of {}", self.tags));
        }
        if let Some(t) = self.m.tag_template[tag]
            && t != template
        {
            return Err(format!(
                "room {v} takes template {template}, its rules give it template {t}"
            ));
        }
        Ok(Some(sh))
    }

    fn gaps(&self, j: usize) -> &[(i32, i32)] {
        if self.graph.flags[j] & edge_flag::COSMETIC != 0 {
            &[]
        } else {
            &self.m.ranges
        }
    }

    fn min_distance(&self) -> i32 {
        self.m.min_distance
    }

    fn min_distance_key(&self) -> &'static str {
        "grammar.min_room_distance"
    }
}

/// Checks a stored grammar level's builder map: the `map` kind's tile checks over its graph,
/// then vertex positions and corridor flags. Returns the tally for the metric checks.
pub(crate) fn verify_map(
    m: &Mapped,
    tags: usize,
    record: &LevelRecord<'_>,
    graph: &GraphView<'_>,
    rooms: &RoomsView<'_>,
) -> Result<Tally, Violation> {
    let grid: GridView<'_> = record
        .level
        .grid
        .ok_or_else(|| Violation::new("no grid columns"))?;
    let rules = LevelRules { m, graph, tags };
    let tally = check_tiles(&rules, &grid, rooms, record.level.extra, 1)?;
    for (j, &len) in tally.corridors.iter().enumerate() {
        ensure_level!(
            (graph.flags[j] & CORRIDOR_FLAG != 0) == (len > 0),
            "edge {j} says {} corridor",
            if len > 0 { "no" } else { "a" }
        );
    }
    for v in 0..graph.x.len() {
        if rooms.x0[v] == rooms.x1[v] || rooms.y0[v] == rooms.y1[v] {
            continue;
        }
        let (cx, cy) = (
            (rooms.x0[v] + rooms.x1[v]) as f32 / 2.0,
            (rooms.y0[v] + rooms.y1[v]) as f32 / 2.0,
        );
        ensure_level!(
            graph.x[v] == cx && graph.y[v] == cy,
            "vertex {v} is not at its room's centre"
        );
    }
    Ok(tally)
}

#[cfg(test)]
#[path = "mapped_tests.rs"]
mod tests;
