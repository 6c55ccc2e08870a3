//! The graph-grammar generator: a validated rule set, compiled once, grows a level by
//! rewriting ([`mod@crate::grammar::build`]), then its map is drawn, by the tile map or by the
//! map builder ([`crate::floorplan`]), and measured.

use crate::core::error::{GenError, Violation};
use crate::core::generator::{
    Columns, ExtraValue, Generator, Identity, Level, LevelRecord, RoomsView,
};
use crate::core::grid::Grid;
use crate::core::grid::GridView;
use crate::grammar::build::{self, BuildParams, BuildScratch, build};
use crate::grammar::config::GrammarConfig;
use crate::grammar::library;
use crate::grammar::mapped;
use crate::grammar::matcher::Compiled;
use crate::grammar::metrics::{
    Facts, GRAMMAR_METRICS, GrammarMetrics, MAX_CORRIDOR_SPREAD, MeasureScratch, corridor_spread,
    ends,
};
use crate::grammar::rule::{self, Grammar};
use crate::grammar::tilemap::{TileError, TileParams, TileReport, TileScratch, draw_tile_map};
use crate::grammar::verify::{self, LevelChecks};

/// The graph-grammar generator: a validated rule set, compiled once, and the build settings.
pub struct GrammarGenerator {
    cfg: GrammarConfig,
    grammar: Grammar,
    compiled: Vec<Compiled>,
    params: BuildParams,
    tiles: TileParams,
    /// The map builder's setting, unless `grammar.corridors = "drawn"`.
    pub(crate) mapped: Option<mapped::Mapped>,
    /// The tags of the start and goal rooms, when the rules have them.
    ends_tags: (Option<rule::TagId>, Option<rule::TagId>),
}

/// Per-worker memory.
#[derive(Default)]
pub struct GrammarScratch {
    build: BuildScratch,
    grid: Grid,
    tiles: TileScratch,
    lengths: Vec<f32>,
    measure: MeasureScratch,
    /// Nanoseconds of the last build in matching, rewriting, layout and rooms.
    stage_ns: [u64; 5],
    x0: Vec<i32>,
    y0: Vec<i32>,
    x1: Vec<i32>,
    y1: Vec<i32>,
    metrics: Vec<f64>,
    route: crate::core::route::RouteScratch,
    /// The map builder's memory (`grammar.corridors` other than `drawn`).
    mapped: mapped::MappedScratch,
    solid: Vec<bool>,
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
        let mapped = if cfg.uses_builder() {
            Some(mapped::Mapped::new(&cfg, &grammar).map_err(GrammarSetupError::Map)?)
        } else {
            None
        };
        let compiled = grammar.rules.iter().map(Compiled::new).collect();
        let params = cfg.build_params();
        let tiles = cfg.tile_params();
        let ends_tags = (
            grammar.tags.id(cfg.start_tag.trim()),
            grammar.tags.id(cfg.goal_tag.trim()),
        );
        Ok(Self {
            cfg,
            grammar,
            compiled,
            params,
            tiles,
            mapped,
            ends_tags,
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

    /// What a stored level of this generator is checked against.
    fn checks(&self) -> LevelChecks<'_> {
        LevelChecks {
            cfg: &self.cfg,
            grammar: &self.grammar,
            mapped: self.mapped.as_ref(),
            ends_tags: self.ends_tags,
        }
    }

    /// Draws the tile map of the level in `s`, moving the drawing into grid coordinates; with
    /// the times the map was drawn again spread out.
    ///
    /// A map whose corridors cannot all be drawn is drawn again from the drawing spread out
    /// (room centres moved apart, rooms their size): the corridors gain room between the rooms
    /// and keep their order round them, since a uniform scaling keeps the drawing as it is.
    fn draw_map(
        &self,
        s: &mut GrammarScratch,
        per_tile: f32,
    ) -> Result<(TileReport, u32), GenError> {
        let mut spreads = 0;
        let map = loop {
            let host = &s.build.host;
            let drawn = draw_tile_map(
                &mut s.x0,
                &mut s.y0,
                &mut s.x1,
                &mut s.y1,
                &host.graph.src,
                &host.graph.dst,
                &host.graph.flags,
                &self.tiles,
                &mut s.grid,
                &mut s.tiles,
            );
            match drawn {
                Ok(map) => break map,
                Err(TileError::Unroutable { .. }) if spreads < MAP_SPREADS => {
                    spreads += 1;
                    let host = &mut s.build.host;
                    crate::layout::upscale(&mut host.graph.x, &mut host.graph.y, MAP_SPREAD);
                    room_rects(s, per_tile);
                }
                Err(e) => {
                    return Err(GenError {
                        reason: e.reason().into(),
                        detail: e.to_string(),
                    });
                }
            }
        };
        // The drawing moves with the rooms into grid coordinates.
        let host = &mut s.build.host;
        let (ox, oy) = (map.offset.0 as f32, map.offset.1 as f32);
        host.graph.x.iter_mut().for_each(|x| *x += ox);
        host.graph.y.iter_mut().for_each(|y| *y += oy);
        Ok((map, spreads))
    }
}

impl GrammarGenerator {
    /// The rest of [`Generator::generate`] when the map builder draws the map.
    fn generate_mapped<'s>(
        &self,
        m: &mapped::Mapped,
        seed: u64,
        report: &build::BuildReport,
        spread: f32,
        s: &'s mut GrammarScratch,
    ) -> Result<Level<'s>, GenError> {
        let t = std::time::Instant::now();
        let host = &mut s.build.host;
        s.solid.clear();
        s.solid.extend(s.build.room_w.iter().map(|&w| w > 0.0));
        let map = mapped::draw(
            m,
            &self.cfg,
            crate::mix(seed, MAP_SEED),
            mapped::LevelIn {
                x: &mut host.graph.x,
                y: &mut host.graph.y,
                tag: &host.graph.tag,
                src: &host.graph.src,
                dst: &host.graph.dst,
                flags: &mut host.graph.flags,
                solid: &s.solid,
            },
            [&mut s.x0, &mut s.y0, &mut s.x1, &mut s.y1],
            &mut s.mapped,
        )?;
        let stages = stage_times(report, t);
        measure(s, stages, report, &map, true, (spread, 0), self.ends_tags);
        s.mapped.bump.reset();
        let (graph, rooms) = views(s);
        let ms = &s.mapped;
        let extra: &'s [ExtraValue<'s>] = ms.bump.alloc_slice_copy(&[
            ExtraValue::ListU16(&ms.template),
            ExtraValue::ListU8(&ms.transform),
            ExtraValue::ListU16(&ms.tiles.owner),
        ]);
        Ok(Level {
            grid: Some(GridView {
                width: ms.tiles.width,
                height: ms.tiles.height,
                cells: &ms.tiles.cells,
            }),
            graph: Some(graph),
            rooms: Some(rooms),
            rule_uses: &s.build.uses,
            metrics: &s.metrics,
            extra,
        })
    }
}

/// The stage times of a level whose map took from `t` until now.
fn stage_times(report: &build::BuildReport, t: std::time::Instant) -> [u64; 5] {
    [
        report.match_ns,
        report.rewrite_ns,
        report.layout_ns,
        report.rooms_ns,
        t.elapsed().as_nanos() as u64,
    ]
}

/// The graph and rooms of the level in `s`.
fn views(s: &GrammarScratch) -> (crate::core::generator::GraphView<'_>, RoomsView<'_>) {
    let rooms = RoomsView {
        x0: &s.x0,
        y0: &s.y0,
        x1: &s.x1,
        y1: &s.y1,
    };
    (s.build.host.graph.view(), rooms)
}

/// Stores the stage times and the metrics of the level in `s` (its map drawn by the builder
/// when `mapped`, else by the tile map).
fn measure(
    s: &mut GrammarScratch,
    stages: [u64; 5],
    report: &build::BuildReport,
    map: &TileReport,
    mapped: bool,
    (spread, spreads): (f32, u32),
    ends_tags: (Option<rule::TagId>, Option<rule::TagId>),
) {
    s.stage_ns = stages;
    let graph = s.build.host.graph.view();
    let rooms = RoomsView {
        x0: &s.x0,
        y0: &s.y0,
        x1: &s.x1,
        y1: &s.y1,
    };
    let facts = Facts {
        report,
        map,
        corridor_len: if mapped {
            &s.mapped.corridor_len
        } else {
            &s.tiles.corridor_len
        },
        spread,
        spreads,
    };
    let mut metrics = GrammarMetrics::measure(&graph, &rooms, &facts, &mut s.measure);
    let (grid, owner) = if mapped {
        let t = &s.mapped.tiles;
        let grid = GridView {
            width: t.width,
            height: t.height,
            cells: &t.cells,
        };
        (grid, Some(&t.owner[..]))
    } else {
        (s.grid.view(), None)
    };
    let e = ends(&grid, &graph, &rooms, owner, ends_tags, &mut s.route);
    metrics.set_ends(e);
    metrics.write_to(&mut s.metrics);
}

/// Mixed into a level's seed for the map builder's search (the grammar's build uses the seed).
const MAP_SEED: u64 = 0x6d61_7062_7569_6c64;

/// A grammar generator could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum GrammarSetupError {
    /// A profile value is out of range.
    #[error(transparent)]
    Config(#[from] crate::core::error::ConfigError),
    /// The rules could not be read or are invalid.
    #[error(transparent)]
    Rules(#[from] rule::GrammarError),
    /// The map builder's templates are unreadable or cannot draw the rules' rooms.
    #[error("{0}")]
    Map(String),
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
        let (x0, x1) = room_span(b.host.graph.x[v], b.room_w[v] * per_tile);
        let (y0, y1) = room_span(b.host.graph.y[v], b.room_h[v] * per_tile);
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

impl Generator for GrammarGenerator {
    type Scratch = GrammarScratch;

    fn kind(&self) -> &'static str {
        "grammar"
    }

    fn columns(&self) -> Columns {
        Columns {
            grid: true,
            // Tile maps take the size their rooms need.
            grid_shape: None,
            graph: true,
            tags: true,
            rooms: true,
            rule_uses: true,
            metrics: &GRAMMAR_METRICS,
            extra: if self.mapped.is_some() {
                &crate::floorplan::columns::MAP_COLUMNS
            } else {
                &[]
            },
            // The graph is what the grammar makes; the tile map draws it (two drawings of one
            // graph are one level for a split).
            identity: Identity::Graph,
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
        // Layout units to tiles.
        let per_tile = (1.0 / self.cfg.tile_size) as f32;
        if per_tile != 1.0 {
            let host = &mut s.build.host;
            host.graph.x.iter_mut().for_each(|x| *x *= per_tile);
            host.graph.y.iter_mut().for_each(|y| *y *= per_tile);
        }
        room_rects(s, per_tile);
        let spread = corridor_spread(&s.build.host, &s.x0, &s.x1, &mut s.lengths);
        if let Some(m) = &self.mapped {
            return self.generate_mapped(m, seed, &report, spread, s);
        }
        if spread > MAX_CORRIDOR_SPREAD {
            return Err(GenError {
                reason: "corridor spread".into(),
                detail: format!(
                    "the longest corridor is {spread:.1} times the median (at most {MAX_CORRIDOR_SPREAD})"
                ),
            });
        }
        let t = std::time::Instant::now();
        let (map, spreads) = self.draw_map(s, per_tile)?;
        let stages = stage_times(&report, t);
        measure(
            s,
            stages,
            &report,
            &map,
            false,
            (spread, spreads),
            self.ends_tags,
        );
        let (graph, rooms) = views(s);
        Ok(Level {
            grid: Some(s.grid.view()),
            graph: Some(graph),
            rooms: Some(rooms),
            rule_uses: &s.build.uses,
            metrics: &s.metrics,
            ..Level::default()
        })
    }

    fn verify(&self, record: &LevelRecord<'_>) -> Result<(), Violation> {
        verify::verify(&self.checks(), record)
    }

    fn tag_names(&self) -> Vec<String> {
        self.grammar.tags.names().to_vec()
    }

    fn rule_names(&self) -> Vec<String> {
        self.grammar.rules.iter().map(|r| r.name.clone()).collect()
    }
}
