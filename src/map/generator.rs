//! The `map` kind: many layouts of one level graph, level `i` from seed `i`.

use serde::{Deserialize, Serialize};

use crate::core::error::{ConfigError, GenError, Violation, check};
use crate::core::generator::{
    Columns, ExtraKind, ExtraSpec, ExtraValue, Generator, GraphView, Level, LevelRecord, RoomsView,
};
use crate::core::graph::Graph;
use crate::core::grid::GridView;
use crate::core::route::{self, Ends, RouteScratch};
use crate::map::build::{BuildScratch, Gaps, NO_LAYOUT, Plan, build};
use crate::map::input::{MapInputError, load_graph, load_library};
use crate::map::raster::{Tiles, rasterise};
use crate::map::shape::{Shape, shapes_of};
use crate::map::spec::{CorridorSpec, LevelGraph, Library};

/// How connections become passages, unless a connection says otherwise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CorridorMode {
    /// Connected rooms touch and share a door.
    #[default]
    None,
    /// A straight corridor room per connection, of a length from `map.corridor_lengths`.
    Templates,
    /// A straight corridor per connection, of any length from 1 to `map.max_corridor` tiles.
    Routed,
}

/// The `[map]` profile section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MapConfig {
    /// The level graph: a built-in name (`edgar-fig1`, `edgar-fig8-17`, `edgar-fig8-41`,
    /// `edgar-basics`) or a path to a `.json` level-graph file.
    pub graph: String,
    /// The template library: a built-in name (`edgar-paper`, `edgar-docs`) or a `.json` file.
    pub templates: String,
    /// `none`, `templates` or `routed`.
    pub corridors: CorridorMode,
    /// Corridor lengths (floor tiles between the two doors) for `corridors = "templates"`.
    pub corridor_lengths: Vec<u32>,
    /// Longest corridor for `corridors = "routed"`.
    pub max_corridor: u32,
    /// Least distance between the outlines of two rooms no connection joins (0: they may share
    /// a wall; 1: walls side by side; 2: a tile of void between them, ...).
    pub min_room_distance: u32,
}

impl Default for MapConfig {
    fn default() -> Self {
        Self {
            graph: "edgar-fig8-17".into(),
            templates: "edgar-paper".into(),
            corridors: CorridorMode::None,
            corridor_lengths: vec![2],
            max_corridor: 8,
            min_room_distance: 0,
        }
    }
}

impl MapConfig {
    /// Checks value ranges; the error names the key.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check_corridor_keys(
            [
                "map.corridor_lengths",
                "map.max_corridor",
                "map.min_room_distance",
            ],
            &self.corridor_lengths,
            self.max_corridor,
            self.min_room_distance,
        )
    }
}

/// The ranges of the map builder's corridor keys, under the key names given (the `map` kind's or
/// the grammar kind's): corridor lengths and the longest routed corridor 1 to 256 tiles, the
/// room distance at most 64.
pub(crate) fn check_corridor_keys(
    [lengths_key, max_key, distance_key]: [&'static str; 3],
    lengths: &[u32],
    max_corridor: u32,
    min_room_distance: u32,
) -> Result<(), ConfigError> {
    check(
        !lengths.is_empty() && lengths.iter().all(|&l| (1..=256).contains(&l)),
        lengths_key,
        || "must be a non-empty list of lengths from 1 to 256".into(),
    )?;
    check((1..=256).contains(&max_corridor), max_key, || {
        format!("= {max_corridor} is out of range 1..=256")
    })?;
    check(min_room_distance <= 64, distance_key, || {
        format!("= {min_room_distance} is out of range 0..=64")
    })
}

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

crate::metrics! {
    /// What one map measures.
    pub struct MapMetrics => MAP_METRICS {
        rooms: u32 = "rooms of the level graph",
        connections: u32 = "connections of the level graph",
        corridors: u32 = "connections realised through a corridor",
        room_tiles: u32 = "floor tiles of the rooms",
        corridor_tiles: u32 = "floor tiles of the corridors",
        compactness: f32 = "room floor tiles / area of the map's bounding box",
        corridor_share: f32 = "corridor floor tiles / room floor tiles",
        longest_corridor: u32 = "floor tiles of the longest corridor, door to door (0: none)",
        attempts: u32 = "search attempts it took (1: the first drawing worked)",
        placements: u32 = "candidate placements the search checked, over all attempts",
        start_x: u32 = "grid column of the start: the floor tile nearest the centre of the start room (the first room tagged `start`, else an end of the level graph's longest shortest path)",
        start_y: u32 = "grid row of the start",
        goal_x: u32 = "grid column of the goal: as the start's, in the goal room (the first room tagged `goal`, else the room farthest from the start)",
        goal_y: u32 = "grid row of the goal",
        path_length: u32 = "steps on the shortest walkable path from start to goal over floor and doors",
    }
}

/// Extra columns: the template and transform of each room, and the owner grid.
pub const MAP_COLUMNS: [ExtraSpec; 3] = [
    ExtraSpec::new(
        "room_template",
        ExtraKind::ListU16,
        "per room, the index of its template in the library (warren.profile names it)",
    ),
    ExtraSpec::new(
        "room_transform",
        ExtraKind::ListU8,
        "per room, its transform: bits 0-1 quarter turns clockwise, bit 2 mirrored first",
    ),
    ExtraSpec::new(
        "owner",
        ExtraKind::ListU16,
        "per tile (row-major, grid_width x grid_height): 0 wall, door or void; 1 + i the floor \
         of room i; 1 + rooms + j the floor of connection j's corridor",
    ),
];

/// Edge flag: the connection is realised through a corridor.
pub const CORRIDOR_FLAG: u8 = 1 << 4;

/// The map generator.
pub struct MapGenerator {
    pub(crate) cfg: MapConfig,
    pub(crate) graph: LevelGraph,
    pub(crate) library: Library,
    pub(crate) plan: Plan,
    /// Tag names: `room`, then every tag the graph uses (a room's vertex tag is its first).
    tags: Vec<String>,
    vertex_tags: Vec<u16>,
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
        let graph = load_graph(&cfg.graph, &library)?;
        let plan = plan_for(&cfg, &graph, &library)?;
        let mut tags = vec!["room".to_string()];
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
        Ok(Self {
            cfg,
            graph,
            library,
            plan,
            tags,
            vertex_tags,
        })
    }

    /// The builder's plan (shapes, connections, search settings) for this graph and library.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Room `v`'s vertex tag.
    pub(crate) fn vertex_tag(&self, v: usize) -> u16 {
        self.vertex_tags[v]
    }

    /// The start and goal of a map (see the `start_x` .. `path_length` metrics) from its grid,
    /// graph, rooms and owner grid.
    pub(crate) fn ends(
        &self,
        grid: &GridView<'_>,
        graph: &GraphView<'_>,
        rooms: &RoomsView<'_>,
        owner: &[u16],
        s: &mut RouteScratch,
    ) -> Ends {
        let first = |name: &str| {
            let tag = self.tags.iter().position(|t| t == name)? as u16;
            (0..self.vertex_tags.len())
                .find(|&v| self.vertex_tags[v] == tag)
                .map(|v| v as u32)
        };
        let named = (first("start"), first("goal"));
        route::room_ends(s, grid, graph, rooms, Some(owner), named).unwrap_or_default()
    }

    /// The shape of template `template` under `transform`, if the template allows it.
    pub(crate) fn shape_of(&self, template: u16, transform: u8) -> Option<Shape> {
        crate::map::shape::shape_in(&self.library, template, transform)
    }
}

/// The builder's plan for a graph and library under a profile.
pub fn plan_for(
    cfg: &MapConfig,
    graph: &LevelGraph,
    library: &Library,
) -> Result<Plan, MapSetupError> {
    let shapes = shapes_of(&library.templates).map_err(|(i, e)| {
        MapSetupError::Unusable(format!(
            "{}: template `{}`: {e}",
            library.name, library.templates[i].name
        ))
    })?;
    let room_shapes: Vec<Vec<u32>> = graph
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
    let lengths = |ls: &[u32]| Gaps {
        ranges: ls.iter().map(|&l| (l as i32 + 1, l as i32 + 1)).collect(),
    };
    let gaps: Vec<Gaps> = graph
        .connections
        .iter()
        .map(|c| match &c.corridor {
            CorridorSpec::None => Gaps {
                ranges: vec![(0, 0)],
            },
            CorridorSpec::Lengths(ls) => lengths(ls),
            CorridorSpec::Default => match cfg.corridors {
                CorridorMode::None => Gaps {
                    ranges: vec![(0, 0)],
                },
                CorridorMode::Templates => lengths(&cfg.corridor_lengths),
                CorridorMode::Routed => Gaps {
                    ranges: vec![(2, cfg.max_corridor as i32 + 1)],
                },
            },
        })
        .collect();
    // Every connection needs two shapes whose doors can meet (door lengths agree).
    for (j, c) in graph.connections.iter().enumerate() {
        let lens = |room: u32| -> Vec<u32> {
            let mut v: Vec<u32> = room_shapes[room as usize]
                .iter()
                .flat_map(|&s| shapes[s as usize].doors.iter().map(|d| d.len))
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        };
        let (a, b) = (lens(c.a), lens(c.b));
        if !a.iter().any(|l| b.contains(l)) {
            let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
            let place = match c.at {
                Some(at) => format!("{}:{at}", cfg.graph),
                None => cfg.graph.clone(),
            };
            return Err(MapSetupError::Unusable(format!(
                "{place}: connection {} (`{}` - `{}`) can never get a door: the templates of \
                 room `{}` have doors {} tile(s) wide, those of room `{}` {} tile(s) wide",
                j + 1,
                graph.rooms[c.a as usize].id,
                graph.rooms[c.b as usize].id,
                graph.rooms[c.a as usize].id,
                list(&a),
                graph.rooms[c.b as usize].id,
                list(&b)
            )));
        }
    }
    Ok(Plan::new(
        shapes,
        room_shapes,
        graph.connections.iter().map(|c| (c.a, c.b)).collect(),
        gaps,
        cfg.min_room_distance as i32,
    ))
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
    /// Holds the list of extra column values (it borrows the buffers above).
    bump: bumpalo::Bump,
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
            extra: &MAP_COLUMNS,
        }
    }

    fn new_scratch(&self) -> MapScratch {
        MapScratch::default()
    }

    fn tag_names(&self) -> Vec<String> {
        self.tags.clone()
    }

    fn generate<'s>(&self, seed: u64, s: &'s mut MapScratch) -> Result<Level<'s>, GenError> {
        let plan = &self.plan;
        build(plan, seed, &mut s.build).map_err(|detail| GenError {
            reason: NO_LAYOUT,
            detail,
        })?;
        let layout = &s.build.out;
        rasterise(plan, layout, &mut s.tiles);
        let t = &s.tiles;
        if t.width > u32::from(u16::MAX) || t.height > u32::from(u16::MAX) {
            return Err(GenError {
                reason: "map too large",
                detail: format!("{} x {} tiles (at most 65535 a side)", t.width, t.height),
            });
        }
        let n = plan.rooms();
        s.graph.clear();
        s.template.clear();
        s.transform.clear();
        for v in 0..n {
            let (cx, cy) = (
                (t.x0[v] + t.x1[v]) as f32 / 2.0,
                (t.y0[v] + t.y1[v]) as f32 / 2.0,
            );
            s.graph.add_vertex(cx, cy, self.vertex_tags[v]);
            let sh = &plan.cat.shapes[layout.shape[v] as usize];
            s.template.push(sh.template as u16);
            s.transform.push(sh.transform);
        }
        for (j, &(a, b)) in plan.conns.iter().enumerate() {
            let flags = if layout.links[j].gap > 0 {
                CORRIDOR_FLAG
            } else {
                0
            };
            s.graph.add_edge(a, b, flags);
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
        let e = self.ends(&view, &s.graph.view(), &rooms, &t.owner, &mut s.route);
        MapMetrics {
            rooms: n as u32,
            connections: plan.conns.len() as u32,
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
        s.bump.reset();
        let extra: &'s [ExtraValue<'s>] = s.bump.alloc_slice_copy(&[
            ExtraValue::ListU16(&s.template),
            ExtraValue::ListU8(&s.transform),
            ExtraValue::ListU16(&t.owner),
        ]);
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
        crate::map::verify::verify(self, record)
    }
}
