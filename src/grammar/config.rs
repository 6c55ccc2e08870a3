//! The grammar profile section (`[grammar]` in `profiles/grammar.toml`): the rule set and every
//! build, layout and room parameter, with the checks that turn a bad value into an error naming
//! the key.

use serde::{Deserialize, Serialize};

use crate::core::error::ConfigError;
use crate::core::error::check;
use crate::grammar::build::BuildParams;
use crate::grammar::tilemap::TileParams;
use crate::layout::rooms::RoomParams;
use crate::layout::{LayoutParams, Repulsion, Spring};

/// Added to `room_margin` for the room placement, in tiles.
const ROOM_MARGIN_SLACK: f64 = 1.0 / 16.0;

/// Every grammar parameter. Unknown keys are errors; missing keys take their defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GrammarConfig {
    /// The rules: a built-in grammar's name (`warren grammar list`), or a path to a `.grammar`
    /// file or a demirogue `.lua` ruleset.
    pub rules: String,
    /// Rewrites attempted at most (the start rule counts as one).
    pub max_iterations: u32,
    /// Levels that end with fewer vertices fail (reason `below min_vertices`).
    pub min_vertices: u32,
    /// Rules that would go past this many vertices are not applied.
    pub max_vertices: u32,
    /// No rewrite may push a vertex's valence above this.
    pub max_valence: u32,
    /// Target edge length, in layout units (room sizes and positions share the unit).
    pub edge_length: f64,
    /// Spring law.
    pub spring: Spring,
    /// Spring strength (edge lengths per step).
    pub spring_k: f64,
    /// Repulsion strength (edge lengths per step at one edge length).
    pub repulse_k: f64,
    /// Largest move per solver step, in edge lengths.
    pub max_delta: f64,
    /// A relaxation stops once no vertex moves more than this many edge lengths in a step.
    pub tolerance: f64,
    /// Solver iterations after a rewrite, at most.
    pub relax_iterations: u32,
    /// Relax after every this many rewrites (1: after each, as demirogue; 0: only at the end).
    pub relax_every: u32,
    /// Seed 000's upscaling insertion: before each rewrite the drawing around the match is
    /// inflated by this factor and the rest pushed aside (1: off).
    pub upscale: f64,
    /// Solver iterations of the final relaxation with room-sized edges.
    pub final_iterations: u32,
    /// Repulsion strength of that final relaxation: lower packs the rooms closer, with shorter
    /// corridors (the rooms never overlap whatever it is).
    pub room_repulse_k: f64,
    /// Gap between rooms, in layout units (at least 1: rooms are stored as integer
    /// rectangles).
    pub room_margin: f64,
    /// Every room size of the rule set is multiplied by this.
    pub room_scale: f64,
    /// Layout units per tile of the tile map: room sizes and positions are divided by this to
    /// give tiles (stored rooms and vertex positions are in tiles, the grid's coordinates).
    pub tile_size: f64,
    /// Corridor width in tiles on the tile map (doors are as wide).
    pub corridor_width: u32,
    /// The largest tile map, `[width, height]`: a level whose map would be larger fails its
    /// seed (reason `map over max_grid`) rather than being scaled, which would merge rooms.
    pub max_grid: [u32; 2],
    /// How the map is drawn: `drawn` (rooms where the force solver put them, corridors routed
    /// over any distance: seed 000's map), or through the map builder of the `map` kind, with
    /// `none` (connected rooms touch and share a door), `templates` (a corridor room of a
    /// length from `corridor_lengths` per connection) or `routed` (straight corridors of 1 to
    /// `max_corridor` tiles).
    pub corridors: MapMode,
    /// For the map builder: `rules` (every room a rectangle of the size its rules give it,
    /// doors `corridor_width` tiles wide, a tile from the corners) or a template library, by
    /// built-in name (`edgar-paper`, `edgar-docs`) or `.json` file, whose every template any
    /// room may take.
    pub templates: String,
    /// Corridor lengths for `corridors = "templates"`.
    pub corridor_lengths: Vec<u32>,
    /// Longest corridor for `corridors = "routed"`.
    pub max_corridor: u32,
    /// Least distance between rooms no corridor joins, for the map builder (0: they may share
    /// a wall).
    pub min_room_distance: u32,
    /// The tag of the start room (the `start_x` .. `path_length` metrics): the lowest vertex
    /// with a room carrying it. When the rules have no such tag or no room carries it (or it
    /// is empty), the start is an end of the room graph's longest shortest path.
    pub start_tag: String,
    /// The tag of the goal room, as `start_tag`; without one, the room farthest from the start.
    pub goal_tag: String,
}

/// How a grammar level's map is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MapMode {
    /// Seed 000's map: rooms where the force solver placed them, corridors routed on the grid
    /// over any distance.
    #[default]
    Drawn,
    /// The map builder; connected rooms touch and share a door.
    None,
    /// The map builder; a corridor room per connection.
    Templates,
    /// The map builder; a straight corridor per connection, up to `max_corridor` tiles.
    Routed,
}

/// Largest corridor width, in tiles.
pub const MAX_CORRIDOR_WIDTH: u32 = 8;

/// Largest tile map side (grid sides are stored as `u16`).
pub const MAX_GRID_SIDE: u32 = 4096;

impl Default for GrammarConfig {
    fn default() -> Self {
        Self {
            rules: "cyclic".to_string(),
            max_iterations: 40,
            min_vertices: 12,
            max_vertices: 28,
            max_valence: 5,
            edge_length: 10.0,
            spring: Spring::Log,
            spring_k: 0.3,
            repulse_k: 0.1,
            max_delta: 0.5,
            tolerance: 0.01,
            relax_iterations: 50,
            relax_every: 1,
            upscale: 1.0,
            final_iterations: 200,
            room_repulse_k: 0.05,
            room_margin: 1.0,
            room_scale: 1.0,
            tile_size: 1.0,
            corridor_width: 1,
            max_grid: [320, 320],
            corridors: MapMode::Drawn,
            templates: "rules".to_string(),
            corridor_lengths: vec![2],
            max_corridor: 8,
            min_room_distance: 0,
            start_tag: "e".to_string(),
            goal_tag: "g".to_string(),
        }
    }
}

fn positive(v: f64, key: &'static str) -> Result<(), ConfigError> {
    check(v.is_finite() && v > 0.0, key, || {
        format!("= {v} must be a finite number > 0")
    })
}

impl GrammarConfig {
    /// Checks value ranges; the error names the key and the allowed range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.check_growth()?;
        self.check_drawing()?;
        self.check_map()
    }

    /// The keys of the rewriting: the rules, the iteration and vertex bounds, the valence.
    fn check_growth(&self) -> Result<(), ConfigError> {
        check(!self.rules.trim().is_empty(), "grammar.rules", || {
            "must name a built-in grammar or a rule file".into()
        })?;
        check(
            (1..=100_000).contains(&self.max_iterations),
            "grammar.max_iterations",
            || format!("= {} is out of range 1..=100000", self.max_iterations),
        )?;
        check(
            (2..=1_000_000).contains(&self.max_vertices),
            "grammar.max_vertices",
            || format!("= {} is out of range 2..=1000000", self.max_vertices),
        )?;
        check(
            (1..=self.max_vertices).contains(&self.min_vertices),
            "grammar.min_vertices",
            || {
                format!(
                    "= {} is out of range 1..=max_vertices ({})",
                    self.min_vertices, self.max_vertices
                )
            },
        )?;
        check(
            (2..=1000).contains(&self.max_valence),
            "grammar.max_valence",
            || format!("= {} is out of range 2..=1000", self.max_valence),
        )?;
        Ok(())
    }

    /// The keys of the force drawing and the room placement.
    fn check_drawing(&self) -> Result<(), ConfigError> {
        positive(self.edge_length, "grammar.edge_length")?;
        positive(self.spring_k, "grammar.spring_k")?;
        check(
            self.repulse_k.is_finite() && self.repulse_k >= 0.0,
            "grammar.repulse_k",
            || format!("= {} must be a finite number >= 0", self.repulse_k),
        )?;
        positive(self.max_delta, "grammar.max_delta")?;
        check(
            self.tolerance.is_finite() && self.tolerance >= 0.0,
            "grammar.tolerance",
            || format!("= {} must be a finite number >= 0", self.tolerance),
        )?;
        check(
            self.relax_iterations <= 100_000,
            "grammar.relax_iterations",
            || format!("= {} is out of range 0..=100000", self.relax_iterations),
        )?;
        check(
            self.final_iterations <= 100_000,
            "grammar.final_iterations",
            || format!("= {} is out of range 0..=100000", self.final_iterations),
        )?;
        check(
            self.upscale.is_finite() && (1.0..=4.0).contains(&self.upscale),
            "grammar.upscale",
            || format!("= {} is out of range 1..=4", self.upscale),
        )?;
        check(
            self.room_repulse_k.is_finite() && self.room_repulse_k >= 0.0,
            "grammar.room_repulse_k",
            || format!("= {} must be a finite number >= 0", self.room_repulse_k),
        )?;
        Ok(())
    }

    /// The keys of the map: tiles, rooms, corridors, the template library and the grid bound.
    fn check_map(&self) -> Result<(), ConfigError> {
        positive(self.tile_size, "grammar.tile_size")?;
        check(
            self.room_margin.is_finite() && self.room_margin >= self.tile_size,
            "grammar.room_margin",
            || {
                format!(
                    "= {} must be at least grammar.tile_size ({}): rooms are tile rectangles \
                     with a wall tile between them",
                    self.room_margin, self.tile_size
                )
            },
        )?;
        positive(self.room_scale, "grammar.room_scale")?;
        check(
            (1..=MAX_CORRIDOR_WIDTH).contains(&self.corridor_width),
            "grammar.corridor_width",
            || {
                format!(
                    "= {} is out of range 1..={MAX_CORRIDOR_WIDTH} (tiles)",
                    self.corridor_width
                )
            },
        )?;
        check(
            !self.templates.trim().is_empty(),
            "grammar.templates",
            || "must be `rules`, a built-in library name or a template-library file".into(),
        )?;
        crate::floorplan::spec::check_corridor_keys(
            [
                "grammar.corridor_lengths",
                "grammar.max_corridor",
                "grammar.min_room_distance",
            ],
            &self.corridor_lengths,
            self.max_corridor,
            self.min_room_distance,
        )?;
        let [w, h] = self.max_grid;
        check(
            (1..=MAX_GRID_SIDE).contains(&w) && (1..=MAX_GRID_SIDE).contains(&h),
            "grammar.max_grid",
            || format!("= [{w}, {h}]: each side must be in 1..={MAX_GRID_SIDE}"),
        )
    }

    /// Whether the map builder draws the map (every mode but `drawn`).
    pub fn uses_builder(&self) -> bool {
        self.corridors != MapMode::Drawn
    }

    /// Checks that `max_grid` holds a map of the largest room (`side` layout units, after
    /// `room_scale`), with its wall and the map's border.
    pub fn check_grid_fits(&self, side: f64) -> Result<(), ConfigError> {
        let tiles = (side / self.tile_size).ceil().min(1e9) as u64;
        let need = tiles + 1 + 2 * self.tile_params().border() as u64;
        let [w, h] = self.max_grid;
        check(u64::from(w.min(h)) >= need, "grammar.max_grid", || {
            format!(
                "= [{w}, {h}] is too small: the largest room of the rules needs a map of at least {need} x {need}"
            )
        })
    }

    /// The tile map settings these values make.
    pub fn tile_params(&self) -> TileParams {
        TileParams {
            corridor_width: self.corridor_width,
            max_width: self.max_grid[0],
            max_height: self.max_grid[1],
        }
    }

    /// The build parameters these values make.
    pub fn build_params(&self) -> BuildParams {
        BuildParams {
            max_iterations: self.max_iterations,
            min_vertices: self.min_vertices,
            max_vertices: self.max_vertices,
            max_valence: self.max_valence,
            layout: LayoutParams {
                spring: self.spring,
                length: self.edge_length as f32,
                spring_k: self.spring_k as f32,
                repulse_k: self.repulse_k as f32,
                cutoff: None,
                max_delta: self.max_delta as f32,
                tolerance: self.tolerance as f32,
                max_iterations: self.relax_iterations,
                repulsion: Repulsion::Auto,
                // Levels are laid out one per thread; the batch spreads them over the cores.
                parallel: false,
                ..LayoutParams::default()
            },
            relax_every: self.relax_every,
            upscale: self.upscale as f32,
            final_iterations: self.final_iterations,
            room_repulse_k: self.room_repulse_k as f32,
            rooms: RoomParams {
                // NOTE: the slack keeps the gap at least `room_margin` after the f32 rounding of
                // the push-apart, so integer rooms a margin of 1 apart always have a wall tile
                // between them.
                margin: (self.room_margin + ROOM_MARGIN_SLACK * self.tile_size) as f32,
                ..RoomParams::default()
            },
        }
    }
}
