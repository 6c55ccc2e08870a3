//! The `map` kind: many layouts of one level graph, level `i` from seed `i`.

use crate::core::error::{ConfigError, GenError, Violation};
use crate::core::generator::{
    Columns, ExtraValue, Generator, Identity, Level, LevelRecord, RoomsView,
};
use crate::core::graph::Graph;
use crate::core::grid::GridView;
use crate::core::route::RouteScratch;
use crate::floorplan::bounds::fit_bounds;
use crate::floorplan::build::{BuildScratch, Frame, Gaps, NO_LAYOUT_EXISTS, Plan, build};
use crate::floorplan::columns::{CORRIDOR_FLAG, MAP_COLUMNS};
use crate::floorplan::constraints::floor_steps;
use crate::floorplan::cycles::{blocked_cycle, lattice_cycle};
use crate::floorplan::doors::{DoorScratch, DoorTable, WITH_DOOR_COLUMNS};
use crate::floorplan::frame::{frame_of, on_mask, pinned_shape, pins_problem};
use crate::floorplan::input::{MapInputError, load_graph, load_library, load_mask};
use crate::floorplan::proofs::{no_door_between, too_close, too_many_doors};
use crate::floorplan::raster::{Tiles, rasterise, rasterise_in, too_large};
use crate::floorplan::repeat::repeat_impossible;
use crate::floorplan::shape::{Flow, Shape, shapes_of};
use crate::floorplan::spec::{CorridorSpec, LevelGraph, Library, Mask, Repeat, Template};
use crate::map::columns::{MAP_KIND_COLUMNS, data_columns};
use crate::map::config::{CorridorMode, EXHAUSTIVE_ROOMS, MapConfig};
use crate::map::corridors::{corridor_shapes, settle_corridors, with_corridor_rooms};
use crate::map::graphs::GraphList;
use crate::map::metrics::{MAP_METRICS, MapMetrics, ends};
use crate::map::verify::{self, MapSetting};

/// A map generator could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum MapSetupError {
    /// A profile value is out of range.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The graph or the library is unreadable or invalid.
    #[error(transparent)]
    Input(#[from] MapInputError),
    /// The graph cannot be drawn with this library.
    #[error("{0}")]
    Unusable(String),
}

/// The map generator.
pub struct MapGenerator {
    pub(crate) cfg: MapConfig,
    pub(crate) library: Library,
    /// Each graph of `map.graph`, in the profile's order: a level lays out the one its seed
    /// picks ([`GraphList::pick`]).
    pub(crate) graphs: Vec<MapGraph>,
    /// Tag names: `room`, then every tag the graphs use, in order of first use (a room's
    /// vertex tag is its first).
    tags: Vec<String>,
}

/// One level graph of a run and what the builder makes of it.
pub(crate) struct MapGraph {
    /// How `map.graph` names it (the `map_graph` column).
    pub(crate) name: String,
    pub(crate) graph: LevelGraph,
    pub(crate) plan: Plan,
    /// With `map.exhaustive`: the complete search, for the seeds the plan's own search fails.
    complete: Option<Plan>,
    /// Per room, its vertex tag (an index into the run's tag names).
    vertex_tags: Vec<u16>,
    /// Per connection, 1 + its lock's key room, or 0 (the `door_key` column).
    keys: Vec<u16>,
    /// The `room_data` and `connection_data` columns.
    pub(crate) data: [String; 2],
    /// Per room of the plan (corridor rooms included), its name in messages.
    names: Vec<String>,
    /// Per connection, the shapes its corridor room may take (empty: it takes none).
    corridor_shapes: Vec<Vec<Shape>>,
}

impl MapGenerator {
    /// A generator for `cfg`.
    ///
    /// # Errors
    /// A value out of range, a bad graph or library file, or a graph no shape of the library
    /// can realise.
    pub fn new(cfg: MapConfig) -> Result<Self, MapSetupError> {
        cfg.validate()?;
        let library = load_library(&cfg.templates)?;
        let mut tags = vec!["room".to_string()];
        let graphs = cfg
            .graph
            .entries()
            .iter()
            .map(|g| {
                // Each graph's plan under a profile of that graph alone (its messages name it).
                let one = MapConfig {
                    graph: GraphList(vec![g.clone()]),
                    ..cfg.clone()
                };
                MapGraph::new(&one, &library, &mut tags)
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            cfg,
            library,
            graphs,
            tags,
        })
    }

    /// The builder's plan (shapes, connections, search settings) for the first graph of
    /// `map.graph` and the library.
    pub fn plan(&self) -> &Plan {
        &self.graphs[0].plan
    }

    /// The graph of `map.graph` that the level of `seed` lays out.
    fn graph_of(&self, seed: u64) -> &MapGraph {
        &self.graphs[self.cfg.graph.pick(seed)]
    }

    /// What a stored level of graph `g` is checked against.
    fn setting<'a>(&'a self, g: &'a MapGraph) -> MapSetting<'a> {
        MapSetting {
            cfg: &self.cfg,
            graph: &g.graph,
            graph_name: &g.name,
            library: &self.library,
            plan: &g.plan,
            tags: (&self.tags, &g.vertex_tags),
            corridor_shapes: &g.corridor_shapes,
        }
    }
}

impl MapGraph {
    /// The graph `cfg.graph` (one graph) with `library`: its plan, and what its levels carry.
    /// Its rooms' first tags are added to `tags` when new.
    fn new(
        cfg: &MapConfig,
        library: &Library,
        tags: &mut Vec<String>,
    ) -> Result<Self, MapSetupError> {
        let name = cfg.graph.to_string();
        let mut graph = load_graph(&name, library)?;
        settle_corridors(cfg, &mut graph, library)
            .map_err(|why| MapSetupError::Unusable(format!("{name}: {why}")))?;
        let plan = plan_for(cfg, &graph, library)?;
        let (wide, _) = with_corridor_rooms(&graph);
        let complete = if cfg.exhaustive {
            Some(exhaustive_plan(cfg, &wide, library, plan.clone())?)
        } else {
            None
        };
        let names = wide
            .rooms
            .into_iter()
            .map(|r| format!("`{}`", r.id))
            .collect();
        let vertex_tags = graph
            .rooms
            .iter()
            .map(|r| match r.tags.first() {
                None => 0,
                Some(t) => match tags.iter().position(|k| k == t) {
                    Some(k) => k as u16,
                    None => {
                        tags.push(t.clone());
                        tags.len() as u16 - 1
                    }
                },
            })
            .collect();
        let mut keys = vec![0u16; graph.connections.len()];
        for lock in &graph.locks {
            keys[lock.connection as usize] = 1 + lock.key as u16;
        }
        let corridor_shapes = corridor_shapes(&graph, library)
            .map_err(|why| MapSetupError::Unusable(format!("{}: {why}", cfg.templates)))?;
        Ok(Self {
            name,
            names,
            corridor_shapes,
            data: data_columns(&graph),
            keys,
            graph,
            plan,
            complete,
            vertex_tags,
        })
    }
}

/// The builder's plan for a graph and library under a profile (after
/// [`settle_corridors`]: a connection given corridor templates is drawn through a corridor
/// room, [`Plan::via`]).
pub fn plan_for(
    cfg: &MapConfig,
    designed: &LevelGraph,
    library: &Library,
) -> Result<Plan, MapSetupError> {
    let (wide, via) = with_corridor_rooms(designed);
    let graph = &wide;
    let shapes = shapes_of(&library.templates).map_err(|(i, e)| {
        MapSetupError::Unusable(format!(
            "{}: template `{}`: {e}",
            library.name, library.templates[i].name
        ))
    })?;
    let mut room_shapes: Vec<Vec<u32>> = graph
        .rooms
        .iter()
        .map(|r| {
            (0..shapes.len() as u32)
                .filter(|&s| {
                    r.templates
                        .as_ref()
                        .is_none_or(|ts| ts.contains(&shapes[s as usize].template))
                })
                .collect()
        })
        .collect();
    let lengths =
        |ls: &[u32]| Gaps::new(ls.iter().map(|&l| (l as i32 + 1, l as i32 + 1)).collect());
    let gaps: Vec<Gaps> = graph
        .connections
        .iter()
        .map(|c| {
            let mut g = match &c.corridor {
                // Corridor rooms are rooms of `graph`, which touch their neighbours.
                CorridorSpec::None | CorridorSpec::Templates(_) => Gaps::new(vec![(0, 0)]),
                CorridorSpec::Lengths(ls) => lengths(ls),
                CorridorSpec::Default => match cfg.corridors {
                    CorridorMode::None => Gaps::new(vec![(0, 0)]),
                    CorridorMode::Templates => lengths(&cfg.corridor_lengths),
                    CorridorMode::Routed => Gaps::new(vec![(2, cfg.max_corridor as i32 + 1)]),
                },
            };
            if c.directed {
                g.flow = Flow::Out;
            }
            g
        })
        .collect();
    let mask = match cfg.mask.as_str() {
        "" => None,
        path => Some(load_mask(path)?),
    };
    let frame_name = frame_name(cfg, mask.as_ref());
    let area = cfg.bounds().or(mask.as_ref().map(|m| (m.width, m.height)));
    if let Some(bounds) = area {
        room_shapes = fit_bounds(graph, library, (&shapes, &room_shapes), bounds, &frame_name)
            .map_err(|why| MapSetupError::Unusable(format!("{}: {why}", cfg.graph)))?;
    }
    let pinned = pin_rooms(cfg, graph, library, (&shapes, &mut room_shapes))?;
    refuse_the_impossible(cfg, graph, library, (&shapes, &room_shapes), &gaps)?;
    let repeat: Vec<_> = library.templates.iter().map(|t| cfg.repeat_of(t)).collect();
    if let Some(why) = repeat_impossible(designed, library, &repeat) {
        return Err(MapSetupError::Unusable(format!("{}: {why}", cfg.graph)));
    }
    let conns: Vec<(u32, u32)> = graph.connections.iter().map(|c| (c.a, c.b)).collect();
    let mut plan = Plan::with_corridor_rooms(
        shapes,
        (room_shapes, conns, gaps),
        cfg.min_room_distance as i32,
        via.clone(),
    );
    if repeat.iter().any(|&r| r != Repeat::Allow) {
        plan.repeat = repeat;
    }
    plan.bounds = area.map(|(w, h)| (w as i32, h as i32));
    plan.fixed_rooms = (0..pinned.len() as u32)
        .filter(|&v| pinned[v as usize].is_some())
        .collect();
    plan.pinned = pinned;
    plan.frame = frame_of(!plan.fixed_rooms.is_empty(), cfg.bounds(), mask);
    if let Some(why) = pins_problem(graph, &plan, &frame_name) {
        return Err(MapSetupError::Unusable(format!("{}: {why}", cfg.graph)));
    }
    bound_work(&mut plan, cfg.effort);
    plan.noise *= cfg.variety;
    plan.shake *= cfg.variety;
    // The drawing's direction saturates (up to the grid's symmetries) from a mix weight of
    // about 0.41 (a turn of up to 45 degrees); 0.45 spreads the knob's range over it.
    plan.turn_spread = if cfg.variety < 1.0 {
        0.45 * cfg.variety
    } else {
        1.0
    };
    plan.split_into_pieces();
    Ok(plan)
}

/// Per room, the tile a fixed room is pinned to (empty: no room is fixed); each fixed room's
/// only shape in `room_shapes` is its pinned one.
fn pin_rooms(
    cfg: &MapConfig,
    graph: &LevelGraph,
    library: &Library,
    (shapes, room_shapes): (&[Shape], &mut [Vec<u32>]),
) -> Result<Vec<Option<(i32, i32)>>, MapSetupError> {
    let mut pinned = Vec::new();
    for (v, room) in graph.rooms.iter().enumerate() {
        let Some(pin) = &room.fixed else { continue };
        let template = &library.templates[pin.template as usize];
        let wanted = Shape::new(template, pin.template, pin.transform)
            .map_err(|e| MapSetupError::Unusable(format!("{}: {e}", cfg.graph)))?;
        let si = pinned_shape(shapes, pin, &wanted).expect("every allowed transform has a shape");
        room_shapes[v] = vec![si];
        pinned.resize(graph.rooms.len(), None);
        pinned[v] = Some(pin.at);
    }
    Ok(pinned)
}

/// How messages name the area a level must fit in: `map.bounds = [w, h]`, the mask, or the
/// grid right and below its tile `(0, 0)`.
fn frame_name(cfg: &MapConfig, mask: Option<&Mask>) -> String {
    match (cfg.bounds(), mask) {
        (Some((w, h)), _) => format!("map.bounds = [{w}, {h}]"),
        (None, Some(m)) => format!("map.mask `{}` ({} x {})", cfg.mask, m.width, m.height),
        (None, None) => "the grid (right of and below its tile (0, 0))".into(),
    }
}

/// Refuses, in one line naming the rooms at fault, a graph that the proofs made before any
/// search show cannot be laid out: a room with more connections than doors, a connection that
/// can never get a door, two rooms that cannot keep `map.min_room_distance`, a cycle that can
/// never close.
fn refuse_the_impossible(
    cfg: &MapConfig,
    graph: &LevelGraph,
    library: &Library,
    (shapes, room_shapes): (&[Shape], &[Vec<u32>]),
    gaps: &[Gaps],
) -> Result<(), MapSetupError> {
    let touching: Vec<bool> = gaps.iter().map(|g| g.ranges == [(0, 0)]).collect();
    if let Some(why) = too_many_doors(graph, library, shapes, room_shapes, &touching) {
        return Err(MapSetupError::Unusable(format!("{}: {why}", cfg.graph)));
    }
    // Every connection needs two shapes whose doors can meet (same width, facing).
    if let Some((j, why)) = no_door_between(graph, shapes, room_shapes) {
        let place = match graph.connections[j].at {
            Some(at) => format!("{}:{at}", cfg.graph),
            None => cfg.graph.to_string(),
        };
        return Err(MapSetupError::Unusable(format!("{place}: {why}")));
    }
    let longest: Vec<i32> = gaps
        .iter()
        .map(|g| g.ranges.iter().map(|r| r.1).max().unwrap_or(0))
        .collect();
    if let Some(why) = too_close(
        graph,
        (shapes, room_shapes),
        &longest,
        cfg.min_room_distance as i32,
    ) {
        return Err(MapSetupError::Unusable(format!("{}: {why}", cfg.graph)));
    }
    let conns: Vec<(u32, u32)> = graph.connections.iter().map(|c| (c.a, c.b)).collect();
    let cycle = blocked_cycle(&conns, shapes, room_shapes)
        .or_else(|| lattice_cycle(&conns, shapes, room_shapes, gaps));
    if let Some(c) = cycle {
        let names: Vec<String> = c
            .rooms
            .iter()
            .chain(c.rooms.first())
            .map(|&r| format!("`{}`", graph.rooms[r as usize].id))
            .collect();
        return Err(MapSetupError::Unusable(format!(
            "{}: the cycle {} can never close: {}",
            cfg.graph,
            names.join(" - "),
            c.why
        )));
    }
    Ok(())
}

/// `plan` with a complete search (`map.exhaustive`), after running it once: a graph with no
/// layout is refused here, with the proof's size.
fn exhaustive_plan(
    cfg: &MapConfig,
    graph: &LevelGraph,
    library: &Library,
    mut plan: Plan,
) -> Result<Plan, MapSetupError> {
    if let Some(&v) = plan.fixed_rooms.first() {
        return Err(MapSetupError::Unusable(format!(
            "{}: map.exhaustive does not take fixed rooms (room `{}` is fixed)",
            cfg.graph, graph.rooms[v as usize].id
        )));
    }
    let n = graph.rooms.len();
    if n > EXHAUSTIVE_ROOMS {
        return Err(MapSetupError::Unusable(format!(
            "{}: map.exhaustive takes graphs of at most {EXHAUSTIVE_ROOMS} rooms, this one has {n}",
            cfg.graph
        )));
    }
    if let Some(j) = (0..plan.conns.len()).find(|&j| plan.gaps(j).ranges != [(0, 0)]) {
        let (a, b) = plan.conns[j];
        return Err(MapSetupError::Unusable(format!(
            "{}: map.exhaustive takes connections without corridors only, and connection {} \
             (`{}` - `{}`) may take one (map.corridors = \"none\" or \"corridor\": \"none\")",
            cfg.graph,
            j + 1,
            graph.rooms[a as usize].id,
            graph.rooms[b as usize].id
        )));
    }
    plan.make_exhaustive();
    let all = |f: fn(&Template) -> bool| library.templates.iter().all(f);
    plan.first_room_up_to_symmetry(all(|t| t.transforms.rotate), all(|t| t.transforms.mirror));
    let started = std::time::Instant::now();
    match build(&plan, 0, &mut BuildScratch::default()) {
        Err(f) if f.proved => Err(MapSetupError::Unusable(format!(
            "{}: {NO_LAYOUT_EXISTS}: a complete search found none ({} placements, {:.2} s; most \
             dead ends at room `{}`)",
            cfg.graph,
            f.work,
            started.elapsed().as_secs_f64(),
            graph.rooms[f.room as usize].id
        ))),
        _ => Ok(plan),
    }
}

/// Per-worker memory.
#[derive(Default)]
pub struct MapScratch {
    build: BuildScratch,
    tiles: Tiles,
    graph: Graph,
    template: Vec<u16>,
    transform: Vec<u8>,
    metrics: Vec<f64>,
    route: RouteScratch,
    doors: DoorTable,
    door_scratch: DoorScratch,
    data: [String; 2],
    graph_name: String,
    path_queue: Vec<u32>,
    path_seen: Vec<u32>,
    /// Holds the list of extra column values (it borrows the buffers above).
    bump: bumpalo::Bump,
}

/// Layouts a seed may try before a `min_path` or `max_path` it breaks fails it.
pub const PATH_TRIES: u64 = 64;

/// With fixed rooms, the first attempts' work bound is the whole over this
/// ([`Plan::work_ramp`]): a drawing aimed at the pins that does not fit them rarely recovers,
/// and a new drawing does better. Measured (release, one thread, 2,000 layouts a run, each
/// beside the graph without pins): with the bound divided by 1, 8, 16 and 32 in every attempt
/// (median of 3 runs), `fig8-17-fixed.json` took 3.1x, 2.0x, 1.95x and 2.3x the unpinned time,
/// `fig8-41-fixed.json` 3.1x, 2.2x, 1.7x and 2.9x; with this ramp (median of 5 interleaved
/// runs) 1.96x and 2.02x. Since the order starts at the fixed room on the shortest cycle and
/// the drawing may shrink to meet its pins (`order.rs`), 1.38x and 1.17x; a ramp of 1, 4, 8
/// and 32 then took 2.8x, 2.1x, 1.8x and 1.7x on the 17-room graph (layouts built alone, without
/// their tiles) against 1.6x with 16, and 2.1x, 1.4x, 1.3x and 2.0x on the 41-room one
/// against 1.5x.
pub const FIXED_WORK_RAMP: u32 = 16;

/// An attempt's work bound times `effort` (`map.effort`), ramped with fixed rooms
/// ([`FIXED_WORK_RAMP`]).
fn bound_work(plan: &mut Plan, effort: u32) {
    plan.attempt_work = plan.attempt_work.saturating_mul(effort);
    plan.work_ramp = if plan.fixed_rooms.is_empty() {
        1
    } else {
        FIXED_WORK_RAMP
    };
}

impl MapGenerator {
    /// Builds the layout of `seed` and draws it into `s.tiles`; with path constraints, tries
    /// up to [`PATH_TRIES`] layouts (the seed's, then ones of seeds derived from it) until one
    /// keeps them all.
    fn draw(&self, g: &MapGraph, seed: u64, s: &mut MapScratch) -> Result<(), GenError> {
        let plan = &g.plan;
        let mut broken = None;
        for k in 0..PATH_TRIES {
            let seed_k = if k == 0 {
                seed
            } else {
                crate::core::rng::mix(seed, k)
            };
            let built = match (build(plan, seed_k, &mut s.build), &g.complete) {
                // The builder's own search first; the complete one where that fails.
                (Err(_), Some(complete)) => build(complete, seed_k, &mut s.build),
                (result, _) => result,
            };
            built.map_err(|f| {
                let name = |v: u32| g.names[v as usize].clone();
                let mut reason = f.reason(name);
                if let Some((w, h)) = self.cfg.bounds() {
                    reason += &format!(" (within map.bounds = [{w}, {h}])");
                }
                GenError {
                    reason: reason.into(),
                    detail: f.detail(plan, name),
                }
            })?;
            match &plan.frame {
                None => rasterise(plan, &s.build.out, &mut s.tiles).map_err(too_large)?,
                Some(frame) => {
                    if !self.frame_tiles(&g.plan, frame, s)? {
                        broken = None;
                        continue;
                    }
                }
            }
            let t = &s.tiles;
            let grid = (&t.cells[..], &t.owner[..], t.width as usize);
            let scratch = (&mut s.path_queue, &mut s.path_seen);
            match g.graph.paths.iter().find_map(|rule| {
                let steps = floor_steps(
                    grid,
                    (&rule.from, &rule.to),
                    (&mut *scratch.0, &mut *scratch.1),
                );
                (!rule.kept(steps)).then_some((rule, steps))
            }) {
                None => return Ok(()),
                Some((rule, steps)) => broken = Some((rule, steps)),
            }
        }
        let Some((rule, steps)) = broken else {
            return Err(GenError {
                reason: format!(
                    "the layout does not fit map.mask `{}` in {PATH_TRIES} layouts",
                    self.cfg.mask
                )
                .into(),
                detail: "no offset puts every tile of the last layout on an allowed tile".into(),
            });
        };
        let got = steps.map_or("no path".to_string(), |d| format!("{d} steps"));
        Err(GenError {
            reason: format!("{} not kept in {PATH_TRIES} layouts", rule.describe()).into(),
            detail: format!("the last layout's shortest path: {got}"),
        })
    }
}

impl MapGenerator {
    /// Draws the layout into `s.tiles` in the level's frame (the search's lattice is the
    /// grid); `false` when a tile falls off the mask (a corridor's end wall may).
    fn frame_tiles(
        &self,
        plan: &Plan,
        frame: &Frame,
        s: &mut MapScratch,
    ) -> Result<bool, GenError> {
        let size = frame.size.map(|(w, h)| (w as u32, h as u32));
        rasterise_in(plan, &s.build.out, &mut s.tiles, Some(((0, 0), size))).map_err(too_large)?;
        Ok(frame
            .mask
            .as_ref()
            .is_none_or(|m| on_mask(&s.tiles, m, (0, 0))))
    }
}

impl Generator for MapGenerator {
    type Scratch = MapScratch;

    fn kind(&self) -> &'static str {
        "map"
    }

    fn columns(&self) -> Columns {
        Columns {
            grid: true,
            grid_shape: None,
            graph: true,
            tags: true,
            rooms: true,
            rule_uses: false,
            metrics: &MAP_METRICS,
            extra: &MAP_KIND_COLUMNS,
            // The level graph is the designer's input, the same for every level of a run: a
            // map is its floor plan, up to the 8 rotations and reflections. The tiles carry no
            // room numbers (those are `owner`), so renumbering the rooms changes nothing.
            identity: Identity::Grid,
        }
    }

    fn new_scratch(&self) -> MapScratch {
        MapScratch::default()
    }

    fn tag_names(&self) -> Vec<String> {
        self.tags.clone()
    }

    fn generate<'s>(&self, seed: u64, s: &'s mut MapScratch) -> Result<Level<'s>, GenError> {
        let g = self.graph_of(seed);
        let plan = &g.plan;
        self.draw(g, seed, s)?;
        let layout = &s.build.out;
        let t = &s.tiles;
        let n = plan.graph_rooms();
        s.graph.clear();
        s.template.clear();
        s.transform.clear();
        for v in 0..n {
            let (cx, cy) = (
                (t.x0[v] + t.x1[v]) as f32 / 2.0,
                (t.y0[v] + t.y1[v]) as f32 / 2.0,
            );
            s.graph.add_vertex(cx, cy, g.vertex_tags[v]);
            let sh = &plan.cat.shapes[layout.shape[v] as usize];
            s.template.push(sh.template as u16);
            s.transform.push(sh.transform);
        }
        for (j, c) in g.graph.connections.iter().enumerate() {
            let flags = if t.corridor_len[j] > 0 {
                CORRIDOR_FLAG
            } else {
                0
            };
            s.graph.add_edge(c.a, c.b, flags);
        }
        let room_tiles = t
            .owner
            .iter()
            .filter(|&&o| o != 0 && (o as usize) <= n)
            .count() as u32;
        let corridor_tiles = t.owner.iter().filter(|&&o| o as usize > n).count() as u32;
        let view = GridView {
            width: t.width,
            height: t.height,
            cells: &t.cells,
        };
        let rooms = RoomsView {
            x0: &t.x0,
            y0: &t.y0,
            x1: &t.x1,
            y1: &t.y1,
        };
        let tags = (&self.tags[..], &g.vertex_tags[..]);
        let e = ends(tags, &view, &s.graph.view(), &rooms, &t.owner, &mut s.route);
        MapMetrics {
            rooms: n as u32,
            connections: plan.graph_conns() as u32,
            corridors: t.corridor_len.iter().filter(|&&l| l > 0).count() as u32,
            room_tiles,
            corridor_tiles,
            compactness: (f64::from(room_tiles) / f64::from(t.width * t.height)) as f32,
            corridor_share: (f64::from(corridor_tiles) / f64::from(room_tiles.max(1))) as f32,
            longest_corridor: t.corridor_len.iter().copied().max().unwrap_or(0),
            attempts: layout.attempts,
            placements: layout.work,
            start_x: e.start.0,
            start_y: e.start.1,
            goal_x: e.goal.0,
            goal_y: e.goal.1,
            path_length: e.path_length,
        }
        .write_to(&mut s.metrics);
        s.doors
            .of_layout(plan, (layout, t), &g.keys, &mut s.door_scratch);
        s.bump.reset();
        let extra: &'s mut [ExtraValue<'s>] = s
            .bump
            .alloc_slice_fill_copy(MAP_KIND_COLUMNS.len(), ExtraValue::ListU8(&[]));
        extra[..MAP_COLUMNS.len()].copy_from_slice(&[
            ExtraValue::ListU16(&s.template),
            ExtraValue::ListU8(&s.transform),
            ExtraValue::ListU16(&t.owner),
        ]);
        // NOTE: copied into the scratch, whose lifetime the level borrows (no allocation once
        // warm: `clone_from` keeps the capacity).
        s.data[0].clone_from(&g.data[0]);
        s.data[1].clone_from(&g.data[1]);
        let doors = MAP_COLUMNS.len()..WITH_DOOR_COLUMNS.len();
        extra[doors].copy_from_slice(&s.doors.values());
        extra[WITH_DOOR_COLUMNS.len()] = ExtraValue::Utf8(&s.data[0]);
        extra[WITH_DOOR_COLUMNS.len() + 1] = ExtraValue::Utf8(&s.data[1]);
        s.graph_name.clone_from(&g.name);
        extra[WITH_DOOR_COLUMNS.len() + 2] = ExtraValue::Utf8(&s.graph_name);
        Ok(Level {
            grid: Some(view),
            graph: Some(s.graph.view()),
            rooms: Some(rooms),
            metrics: &s.metrics,
            extra,
            ..Level::default()
        })
    }

    fn verify(&self, record: &LevelRecord<'_>) -> Result<(), Violation> {
        verify::verify(&self.setting(self.graph_of(record.seed)), record)
    }
}
