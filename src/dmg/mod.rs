//! DMG dungeons (seed 003): passages and chambers drawn by cursors on a grid of 5-ft squares,
//! chambers placed by the seed's clearance-and-proposal algorithm.
//!
//! - [`map`]: the grid, and the cursor (position, facing, object-to-map offset) that draws;
//! - [`chamber`]: placing a chamber at the end of a passage;
//! - [`tables`]: the random tables, as validated data files;
//! - [`generate`]: the macro loop (start area, exits explored breadth-first);
//! - `verify`: re-checking a stored dungeon from its columns.
//!
//! A level is stored as its grid (cell codes of DESIGN.md), its objects as a graph (a vertex per
//! passage stretch or chamber at the centre of its box, tag 0 passage, 1 chamber; an edge per
//! connection, with [`generate::DOOR_FLAG`] and the door kind in bits 4 to 6 where it is a
//! door), the objects' boxes as room rectangles, and the metrics below.

pub mod chamber;
pub mod generate;
pub mod map;
pub mod tables;
mod verify;

use serde::{Deserialize, Serialize};

use crate::core::error::ConfigError;
use crate::core::error::check;
use crate::core::error::{GenError, Violation};
use crate::core::generator::{Columns, Generator, Level, LevelRecord, RoomsView};
use crate::core::graph::Graph;
use crate::core::grid::{GridView, cell};
use crate::core::rng::WarrenRng;
use crate::core::route::{Ends, RouteScratch};
use crate::dmg::chamber::PlaceParams;
use crate::dmg::generate::{CHAMBER, DungeonParams, DungeonScratch};
use crate::dmg::tables::{TableError, Tables};

/// The `[dmg]` profile section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DmgConfig {
    /// Squares across (5 ft each).
    pub width: u32,
    /// Squares down.
    pub height: u32,
    /// Stop opening new exits once this share of the map is floor.
    pub max_floor: f64,
    /// Stop after exploring this many exits.
    pub max_objects: u32,
    /// Chamber placement: weight of the area in a proposal's score.
    pub area_weight: f64,
    /// Chamber placement: weight of the alignment points.
    pub align_weight: f64,
    /// Chamber placement: 0 takes the best proposal; above 0 less optimal ones are drawn at
    /// random.
    pub temperature: f64,
    /// Chamber placement: shrink a proposal past an obstacle instead of abandoning it.
    pub shrink: bool,
    /// A folder whose `<table>.toml` files replace the built-in tables (empty: built-in).
    pub tables: String,
    /// Chance that a passage, or the passage behind a door, that would stop one or two rock
    /// rows short of floor opens into it instead (a loop in the dungeon), `[0, 1]`; 0 keeps
    /// seed 003's trees.
    pub join_chance: f64,
}

impl Default for DmgConfig {
    fn default() -> Self {
        Self {
            width: 100,
            height: 100,
            max_floor: 0.4,
            max_objects: 400,
            area_weight: 1.0,
            align_weight: 0.25,
            temperature: 0.0,
            shrink: true,
            tables: String::new(),
            join_chance: 1.0,
        }
    }
}

impl DmgConfig {
    /// Checks value ranges; the error names the key.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check((16..=4096).contains(&self.width), "dmg.width", || {
            format!("= {} is out of range 16..=4096", self.width)
        })?;
        check((16..=4096).contains(&self.height), "dmg.height", || {
            format!("= {} is out of range 16..=4096", self.height)
        })?;
        check(
            self.max_floor > 0.0 && self.max_floor <= 1.0,
            "dmg.max_floor",
            || format!("= {} is out of range (0, 1]", self.max_floor),
        )?;
        check(self.max_objects >= 1, "dmg.max_objects", || {
            "must be at least 1".into()
        })?;
        for (v, key) in [
            (self.area_weight, "dmg.area_weight"),
            (self.align_weight, "dmg.align_weight"),
            (self.temperature, "dmg.temperature"),
        ] {
            check(v.is_finite() && v >= 0.0, key, || {
                format!("= {v} must be a finite number >= 0")
            })?;
        }
        check(
            (0.0..=1.0).contains(&self.join_chance),
            "dmg.join_chance",
            || format!("= {} is out of range 0..=1", self.join_chance),
        )?;
        Ok(())
    }
}

crate::metrics! {
    /// What one DMG dungeon measures: its objects, doors, floor, chamber placements and loops.
    pub struct DmgMetrics => DMG_METRICS {
        chambers: u32 = "chambers placed",
        passages: u32 = "passage stretches drawn",
        doors: u32 = "doors of every kind",
        wooden_doors: u32 = "wooden doors",
        stone_doors: u32 = "stone doors",
        locked_doors: u32 = "locked doors",
        secret_doors: u32 = "secret doors",
        portcullises: u32 = "portcullises",
        barred_doors: u32 = "barred doors",
        dead_ends: u32 = "passages that end at an obstacle or a dead-end roll",
        false_doors: u32 = "doors rolled that led nowhere (left as rock)",
        stairs: u32 = "stairs up or down",
        floor_fraction: f32 = "share of the map's squares that are floor, doors or stairs",
        placed_whole: u32 = "chambers placed centred, as rolled",
        placed_shifted: u32 = "chambers shifted sideways to fit",
        placed_shrunk: u32 = "chambers narrowed past an obstacle",
        cancelled: u32 = "chambers cancelled (nothing 15 ft long fitted)",
        joins: u32 = "passages and doors that opened into floor ahead instead of stopping short (dmg.join_chance)",
        cycle_rank: u32 = "independent loops of the object graph: links - objects + connected parts",
        start_x: u32 = "column of the start: the entrance square, where the dungeon begins (width / 2, height - 3)",
        start_y: u32 = "row of the start (height - 3)",
        goal_x: u32 = "column of the goal: the chamber square farthest from the start by walking (the farthest walkable square when no chamber is reached); the lowest index on ties",
        goal_y: u32 = "row of the goal",
        path_length: u32 = "steps on the shortest walkable path from start to goal (floor, doors, secret doors and stairs are walkable)",
    }
}

/// The DMG dungeon generator.
pub struct DmgGenerator {
    cfg: DmgConfig,
    tables: Tables,
    params: DungeonParams,
}

/// A DMG generator could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum DmgSetupError {
    /// A profile value is out of range.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// A table file is unreadable or invalid.
    #[error(transparent)]
    Table(#[from] TableError),
}

impl DmgGenerator {
    /// A generator for `cfg`.
    ///
    /// # Errors
    /// A value out of range, or a bad table file.
    pub fn new(cfg: DmgConfig) -> Result<Self, DmgSetupError> {
        cfg.validate()?;
        let tables = if cfg.tables.is_empty() {
            Tables::builtin()
        } else {
            Tables::with_overrides(std::path::Path::new(&cfg.tables))?
        };
        let params = DungeonParams {
            width: cfg.width,
            height: cfg.height,
            max_floor: cfg.max_floor,
            max_objects: cfg.max_objects,
            place: PlaceParams {
                area_weight: cfg.area_weight as f32,
                align_weight: cfg.align_weight as f32,
                temperature: cfg.temperature as f32,
                shrink: cfg.shrink,
            },
            join_chance: cfg.join_chance,
        };
        Ok(Self {
            cfg,
            tables,
            params,
        })
    }
}

/// Per-worker memory.
#[derive(Default)]
pub struct DmgScratch {
    dungeon: DungeonScratch,
    sets: crate::core::sets::UnionFind,
    metrics: Vec<f64>,
    /// The object graph: a vertex per object at its box's centre, tagged with its kind.
    graph: Graph,
    x0: Vec<i32>,
    y0: Vec<i32>,
    x1: Vec<i32>,
    y1: Vec<i32>,
    route: RouteScratch,
}

/// The start and goal of a dungeon (see the `start_x` .. `path_length` metrics): the entrance,
/// and the square of a chamber (`chambers`: boxes `[x0, y0, x1, y1)`) farthest from it.
pub(crate) fn ends(
    grid: &GridView<'_>,
    chambers: impl Iterator<Item = [i32; 4]>,
    s: &mut RouteScratch,
) -> Ends {
    let start = (grid.width / 2, grid.height.saturating_sub(3));
    let anywhere = s.farthest(grid, start);
    let mut best: Option<(u32, usize)> = None;
    let (w, h) = (grid.width as i32, grid.height as i32);
    for [x0, y0, x1, y1] in chambers {
        for y in y0.max(0)..y1.min(h) {
            for x in x0.max(0)..x1.min(w) {
                let i = (y * w + x) as usize;
                if let Some(d) = s.distance(i)
                    && best.is_none_or(|(b, at)| d > b || (d == b && i < at))
                {
                    best = Some((d, i));
                }
            }
        }
    }
    match best {
        Some((d, i)) => Ends {
            start,
            goal: (i as u32 % grid.width, i as u32 / grid.width),
            path_length: d,
        },
        None => anywhere,
    }
}

/// Independent loops of a graph of `n` vertices and `links`: links - vertices + components
/// (links naming no vertex are left out).
fn cycle_rank<F>(
    n: usize,
    links: &[(u32, u32, F)],
    sets: &mut crate::core::sets::UnionFind,
) -> u32 {
    let valid = links
        .iter()
        .filter(|&&(a, b, _)| (a as usize) < n && (b as usize) < n)
        .map(|&(a, b, _)| (a, b));
    links.len() as u32 - crate::core::sets::joins(n, valid, sets)
}

fn passable(code: u8) -> bool {
    code != cell::WALL && code != cell::FILLED && code != cell::VOID
}

impl Generator for DmgGenerator {
    type Scratch = DmgScratch;

    fn kind(&self) -> &'static str {
        "dmg"
    }

    fn columns(&self) -> Columns {
        Columns {
            grid: true,
            // The map is the profile's width x height (dmg::generate).
            grid_shape: u16::try_from(self.cfg.width)
                .ok()
                .zip(u16::try_from(self.cfg.height).ok()),
            graph: true,
            tags: true,
            rooms: true,
            rule_uses: false,
            metrics: &DMG_METRICS,
            extra: &[],
        }
    }

    fn new_scratch(&self) -> DmgScratch {
        DmgScratch::default()
    }

    fn stage_names(&self) -> &'static [&'static str] {
        &["passages and exits", "chamber placement"]
    }

    fn time_stages(&self, s: &mut DmgScratch, on: bool) {
        s.dungeon.time_chambers = on;
    }

    fn stage_nanos(&self, s: &DmgScratch, out: &mut [u64]) {
        let chambers = s.dungeon.chamber_ns.min(s.dungeon.total_ns);
        out.copy_from_slice(&[s.dungeon.total_ns - chambers, chambers]);
    }

    fn generate<'s>(&self, seed: u64, s: &'s mut DmgScratch) -> Result<Level<'s>, GenError> {
        let mut rng = WarrenRng::new(seed);
        let c = generate::generate(&self.tables, &self.params, &mut rng, &mut s.dungeon);
        let grid = &s.dungeon.map.as_ref().expect("generated").grid;
        let floor = grid.cells.iter().filter(|&&c| passable(c)).count();
        let chambers = s
            .dungeon
            .objects
            .iter()
            .filter(|&&(kind, _)| kind == CHAMBER);
        let e = ends(
            &grid.view(),
            chambers.map(|(_, b)| [b.x0, b.y0, b.x1, b.y1]),
            &mut s.route,
        );
        DmgMetrics {
            chambers: c.chambers,
            passages: c.passages,
            doors: c.doors.iter().sum::<u32>(),
            wooden_doors: c.doors[0],
            stone_doors: c.doors[1],
            locked_doors: c.doors[2],
            secret_doors: c.doors[3],
            portcullises: c.doors[4],
            barred_doors: c.doors[5],
            dead_ends: c.dead_ends,
            false_doors: c.false_doors,
            stairs: c.stairs,
            floor_fraction: (floor as f64 / grid.cells.len() as f64) as f32,
            placed_whole: c.placements[0],
            placed_shifted: c.placements[1],
            placed_shrunk: c.placements[2],
            cancelled: c.placements[3],
            joins: c.joins,
            cycle_rank: cycle_rank(s.dungeon.objects.len(), &s.dungeon.links, &mut s.sets),
            start_x: e.start.0,
            start_y: e.start.1,
            goal_x: e.goal.0,
            goal_y: e.goal.1,
            path_length: e.path_length,
        }
        .write_to(&mut s.metrics);
        let d = &s.dungeon;
        s.graph.clear();
        for v in [&mut s.x0, &mut s.y0, &mut s.x1, &mut s.y1] {
            v.clear();
        }
        for &(kind, b) in &d.objects {
            let (cx, cy) = ((b.x0 + b.x1) as f32 / 2.0, (b.y0 + b.y1) as f32 / 2.0);
            s.graph.add_vertex(cx, cy, u16::from(kind));
            s.x0.push(b.x0);
            s.y0.push(b.y0);
            s.x1.push(b.x1);
            s.y1.push(b.y1);
        }
        for &(a, b, f) in &d.links {
            s.graph.add_edge(a, b, f);
        }
        Ok(Level {
            grid: Some(GridView {
                width: grid.width,
                height: grid.height,
                cells: &grid.cells,
            }),
            graph: Some(s.graph.view()),
            rooms: Some(RoomsView {
                x0: &s.x0,
                y0: &s.y0,
                x1: &s.x1,
                y1: &s.y1,
            }),
            metrics: &s.metrics,
            ..Level::default()
        })
    }

    fn verify(&self, record: &LevelRecord<'_>) -> Result<(), Violation> {
        verify::verify(&self.cfg, record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::generator::LevelRecord;
    use crate::core::rng::mix;

    #[test]
    fn generated_dungeons_verify_and_repeat_for_their_seed() {
        let g = DmgGenerator::new(DmgConfig::default()).unwrap();
        let (mut s, mut t) = (g.new_scratch(), g.new_scratch());
        for i in 0..120 {
            let seed = mix(3, i);
            let level = g.generate(seed, &mut s).unwrap();
            let record = LevelRecord {
                index: i,
                seed,
                level,
            };
            g.verify(&record)
                .unwrap_or_else(|v| panic!("seed {i}: {v}"));
            // A second scratch that has seen other levels gives the same level.
            let _ = g.generate(mix(9, i), &mut t);
            let again = g.generate(seed, &mut t).unwrap();
            assert_eq!(again.content_hash(), level.content_hash());
        }
    }

    #[test]
    fn verify_rejects_a_door_into_rock_and_an_island() {
        let g = DmgGenerator::new(DmgConfig::default()).unwrap();
        let mut s = g.new_scratch();
        let level = g.generate(mix(1, 1), &mut s).unwrap();
        let grid = level.grid.unwrap();
        let (w, h) = (grid.width as usize, grid.height as usize);
        let check = |cells: &[u8]| {
            let mut lv = level;
            lv.grid = Some(GridView {
                width: grid.width,
                height: grid.height,
                cells,
            });
            g.verify(&LevelRecord {
                index: 0,
                seed: 0,
                level: lv,
            })
        };
        assert!(check(grid.cells).is_ok());
        // An island of floor far from everything.
        let mut island = grid.cells.to_vec();
        let spot = (0..w * h)
            .find(|&i| {
                let (x, y) = (i % w, i / w);
                x > 2
                    && y > 2
                    && x < w - 3
                    && y < h - 3
                    && (0..9).all(|k| {
                        let (dx, dy) = (k % 3, k / 3);
                        island[(y + dy - 1) * w + x + dx - 1] == cell::WALL
                    })
            })
            .expect("some rock");
        island[spot] = cell::FLOOR;
        assert!(
            check(&island)
                .unwrap_err()
                .to_string()
                .contains("cannot be reached")
        );
        // A door with rock on both sides.
        let mut door = grid.cells.to_vec();
        door[spot] = cell::DOOR;
        assert!(
            check(&door)
                .unwrap_err()
                .to_string()
                .contains("does not join two floor squares")
        );
    }

    /// Joins make loops: at `join_chance = 0` every dungeon's object graph is a tree, as seed
    /// 003 draws it; at the default, passages and doors open into the floor just ahead, with
    /// fewer dead ends and false doors, and every dungeon still verifies.
    #[test]
    fn joins_make_loops_and_cut_dead_ends() {
        let run = |join_chance: f64| {
            let g = DmgGenerator::new(DmgConfig {
                join_chance,
                ..DmgConfig::default()
            })
            .unwrap();
            let mut s = g.new_scratch();
            let (mut rank, mut dead, mut false_doors) = (0.0, 0.0, 0.0);
            for i in 0..20 {
                let level = g.generate(mix(3, i), &mut s).unwrap();
                g.verify(&LevelRecord {
                    index: i,
                    seed: 0,
                    level,
                })
                .unwrap();
                let m = DmgMetrics::from_values(level.metrics).unwrap();
                assert_eq!(m.cycle_rank, m.joins, "every join is a loop");
                rank += f64::from(m.cycle_rank);
                dead += f64::from(m.dead_ends);
                false_doors += f64::from(m.false_doors);
            }
            (rank / 20.0, dead / 20.0, false_doors / 20.0)
        };
        let (tree_rank, tree_dead, tree_false) = run(0.0);
        assert_eq!(tree_rank, 0.0);
        let (rank, dead, false_doors) = run(1.0);
        assert!(rank >= 3.0, "mean cycle rank {rank}");
        assert!(dead < tree_dead && false_doors < tree_false);
    }

    #[test]
    fn verify_recounts_the_loops() {
        let g = DmgGenerator::new(DmgConfig::default()).unwrap();
        let mut s = g.new_scratch();
        let level = g.generate(mix(1, 2), &mut s).unwrap();
        let mut m = DmgMetrics::from_values(level.metrics).unwrap();
        m.cycle_rank += 1;
        let metrics = m.to_array();
        let bad = Level {
            metrics: &metrics,
            ..level
        };
        let err = g
            .verify(&LevelRecord {
                index: 0,
                seed: 0,
                level: bad,
            })
            .unwrap_err();
        assert!(err.to_string().contains("cycle_rank"), "{err}");
    }

    #[test]
    fn the_start_is_the_entrance_and_the_goal_in_a_chamber() {
        let g = DmgGenerator::new(DmgConfig::default()).unwrap();
        let mut s = g.new_scratch();
        let level = g.generate(mix(1, 3), &mut s).unwrap();
        let m = DmgMetrics::from_values(level.metrics).unwrap();
        let cfg = DmgConfig::default();
        assert_eq!((m.start_x, m.start_y), (cfg.width / 2, cfg.height - 3));
        let (graph, rooms) = (level.graph.unwrap(), level.rooms.unwrap());
        let in_chamber = (0..graph.x.len()).any(|v| {
            graph.tag[v] == u16::from(CHAMBER)
                && (rooms.x0[v]..rooms.x1[v]).contains(&(m.goal_x as i32))
                && (rooms.y0[v]..rooms.y1[v]).contains(&(m.goal_y as i32))
        });
        assert!(in_chamber && m.path_length > 10, "{m:?}");
    }

    #[test]
    fn bad_values_name_their_key() {
        let e = DmgConfig {
            width: 8,
            ..DmgConfig::default()
        }
        .validate()
        .unwrap_err();
        assert_eq!(e.key, "dmg.width");
    }
}
