//! The `[map]` profile section: the level graph, the template library and how connections
//! become passages.

use serde::{Deserialize, Serialize};

use crate::core::error::{ConfigError, check};
use crate::floorplan::spec::{Repeat, Template, check_corridor_keys};
use crate::map::graphs::{GraphList, MAX_GRAPH_WEIGHT};

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

/// How often one layout may use a template (`map.repeat`): as each template says, or one mode
/// for all of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RepeatMode {
    /// Each template's own `repeat` (default `allow`).
    #[default]
    Template,
    /// Any number of rooms may take any template.
    Allow,
    /// No two connected rooms take the same template.
    NoImmediate,
    /// No two rooms take the same template.
    NoRepeat,
}

/// The `[map]` profile section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MapConfig {
    /// The level graph: a built-in name (`edgar-fig1`, `edgar-fig8-17`, `edgar-fig8-41`,
    /// `edgar-basics`) or a path to a `.json` level-graph file; or a list of them with weights
    /// (`[{ graph = "a.json", weight = 3 }, "b.json"]`), each level laying out the one its seed
    /// picks ([`GraphList::pick`]).
    pub graph: GraphList,
    /// The template library: a built-in name (`edgar-paper`, `edgar-docs`) or a `.json` file.
    pub templates: String,
    /// `none`, `templates` (straight corridors of `corridor_lengths`, or corridor rooms of
    /// `corridor_templates`) or `routed`.
    pub corridors: CorridorMode,
    /// Corridor lengths (floor tiles between the two doors) for `corridors = "templates"`.
    pub corridor_lengths: Vec<u32>,
    /// Corridor templates for `corridors = "templates"` (names in the library; empty: straight
    /// corridors of `corridor_lengths`): each corridor is a room taking one of them, touching
    /// both of its connection's rooms and sharing a door with each. Rooms that list no
    /// templates do not take these.
    pub corridor_templates: Vec<String>,
    /// Longest corridor for `corridors = "routed"`.
    pub max_corridor: u32,
    /// Least distance between the outlines of two rooms no connection joins (0: they may share
    /// a wall; 1: walls side by side; 2: a tile of void between them, ...).
    pub min_room_distance: u32,
    /// How different the layouts of one graph are from each other: a factor (0 to 1) on the
    /// builder's seeded noise (candidates' scores) and on how far each attempt shakes the
    /// drawing it steers by. 1 is the builder's own setting; 0 keeps to the drawing, which
    /// still turns and mirrors with the seed. See `docs/map.md` for what it does to the
    /// variety figures `warren inspect` prints.
    pub variety: f32,
    /// A complete search, for graphs of at most [`EXHAUSTIVE_ROOMS`] rooms whose connections
    /// take no corridor: the run first proves that the graph has a layout or refuses it with
    /// "no layout exists", then every seed searches completely too.
    pub exhaustive: bool,
    /// How long a seed searches before it fails: a factor (1 to 1000) on the work bound of
    /// each of its attempts. A seed that fails at 1 may lay out at 10, in up to 10 times the
    /// time (`docs/map.md`).
    pub effort: u32,
    /// Repeat modes: `template` (each template's own), or `allow`, `no_immediate` or
    /// `no_repeat` for every template.
    pub repeat: RepeatMode,
    /// The largest floor plan, `[width, height]` in tiles, walls included (empty: any size).
    /// With fixed rooms, the grid itself: every level is exactly this size.
    pub bounds: Vec<u32>,
    /// A mask file the level must fit inside (empty: none): `#` for a tile the level may use,
    /// `.` for one it may not, a text line per row. Every level's grid is the mask's size.
    pub mask: String,
}

/// The most rooms `map.exhaustive` takes.
pub const EXHAUSTIVE_ROOMS: usize = 12;

impl Default for MapConfig {
    fn default() -> Self {
        Self {
            graph: "edgar-fig8-17".into(),
            templates: "edgar-paper".into(),
            corridors: CorridorMode::None,
            corridor_lengths: vec![2],
            corridor_templates: Vec::new(),
            max_corridor: 8,
            min_room_distance: 0,
            variety: 1.0,
            exhaustive: false,
            effort: 1,
            repeat: RepeatMode::Template,
            bounds: Vec::new(),
            mask: String::new(),
        }
    }
}

impl MapConfig {
    /// The repeat mode template `t` is laid out under: `map.repeat`, or the template's own.
    pub fn repeat_of(&self, t: &Template) -> Repeat {
        match self.repeat {
            RepeatMode::Template => t.repeat,
            RepeatMode::Allow => Repeat::Allow,
            RepeatMode::NoImmediate => Repeat::NoImmediate,
            RepeatMode::NoRepeat => Repeat::NoRepeat,
        }
    }

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
        )?;
        check((0.0..=1.0).contains(&self.variety), "map.variety", || {
            format!("= {} is out of range 0..=1", self.variety)
        })?;
        for (i, g) in self.graph.entries().iter().enumerate() {
            check(
                (1..=MAX_GRAPH_WEIGHT).contains(&g.weight),
                "map.graph",
                || {
                    format!(
                        "weight {} of {:?} (graph {}) is out of range 1..={MAX_GRAPH_WEIGHT}",
                        g.weight,
                        g.graph,
                        i + 1
                    )
                },
            )?;
        }
        check((1..=1000).contains(&self.effort), "map.effort", || {
            format!("= {} is out of range 1..=1000", self.effort)
        })?;
        check(
            self.bounds.is_empty()
                || (self.bounds.len() == 2
                    && self.bounds.iter().all(|&b| (3..=65_535).contains(&b))),
            "map.bounds",
            || {
                format!(
                    "= {:?} must be empty (any size) or [width, height] in tiles, each from 3 \
                     to 65535",
                    self.bounds
                )
            },
        )?;
        check(
            self.corridor_templates.is_empty() || self.corridors == CorridorMode::Templates,
            "map.corridor_templates",
            || {
                format!(
                    "is set, which needs map.corridors = \"templates\" (it is \"{}\")",
                    match self.corridors {
                        CorridorMode::None => "none",
                        CorridorMode::Templates => "templates",
                        CorridorMode::Routed => "routed",
                    }
                )
            },
        )?;
        check(
            self.mask.is_empty() || self.bounds.is_empty(),
            "map.mask",
            || "and map.bounds cannot both be set (the mask's size bounds the level)".into(),
        )
    }

    /// `map.bounds` as `(width, height)`, if set.
    pub fn bounds(&self) -> Option<(u32, u32)> {
        match self.bounds[..] {
            [w, h] => Some((w, h)),
            _ => None,
        }
    }
}
