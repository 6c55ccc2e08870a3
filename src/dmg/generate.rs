//! [`DmgGenerator`]: the `dmg` generator kind. It sets up the tables and the dungeon settings
//! from a [`DmgConfig`], draws a dungeon ([`dungeon::generate`]), measures it
//! (`metrics::measure`) and stores it as its grid, its object graph and the objects' boxes.

use crate::core::error::ConfigError;
use crate::core::error::{GenError, Violation};
use crate::core::generator::{Columns, Generator, Identity, Level, LevelRecord, RoomsView};
use crate::core::graph::Graph;
use crate::core::grid::GridView;
use crate::core::rng::WarrenRng;
use crate::core::route::RouteScratch;
use crate::dmg::chamber::PlaceParams;
use crate::dmg::config::DmgConfig;
use crate::dmg::dungeon::{self, DungeonParams, DungeonScratch};
use crate::dmg::metrics::{self, DMG_METRICS};
use crate::dmg::tables::{TableError, Tables};
use crate::dmg::verify;

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
impl Generator for DmgGenerator {
    type Scratch = DmgScratch;

    fn kind(&self) -> &'static str {
        "dmg"
    }

    fn columns(&self) -> Columns {
        Columns {
            grid: true,
            // The map is the profile's width x height (dmg::dungeon).
            grid_shape: u16::try_from(self.cfg.width)
                .ok()
                .zip(u16::try_from(self.cfg.height).ok()),
            graph: true,
            tags: true,
            rooms: true,
            rule_uses: false,
            metrics: &DMG_METRICS,
            extra: &[],
            identity: Identity::Grid,
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
        let c = dungeon::generate(&self.tables, &self.params, &mut rng, &mut s.dungeon);
        metrics::measure(&c, &s.dungeon, &mut s.sets, &mut s.route).write_to(&mut s.metrics);
        let grid = &s.dungeon.map.as_ref().expect("generated").grid;
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
    use crate::core::grid::cell;
    use crate::core::rng::mix;
    use crate::dmg::dungeon::CHAMBER;
    use crate::dmg::metrics::DmgMetrics;

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
