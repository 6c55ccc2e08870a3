//! [`RegionsGenerator`]: the `regions` generator kind, levels of recursive zoom regions
//! (seed 004) with their world raster (the `grid`), root grid, region tree, largest-child raster
//! and metrics (see [`crate::regions`]).

use bumpalo::Bump;

use crate::core::error::ConfigError;
use crate::core::error::{GenError, Violation};
use crate::core::generator::{Columns, ExtraValue, Generator, Level, LevelRecord};
use crate::core::grid::GridView;
use crate::core::rng::WarrenRng;
use crate::core::route::RouteScratch;
use crate::regions::build::{TreeError, TreeParams, TreeScratch, build_tree};
use crate::regions::carve::CarveParams;
use crate::regions::columns::REGION_COLUMNS;
use crate::regions::config::RegionsConfig;
use crate::regions::metrics::{self, REGION_METRICS};
use crate::regions::split::SplitParams;
use crate::regions::verify;

/// The recursive zoom regions generator.
pub struct RegionsGenerator {
    pub(crate) cfg: RegionsConfig,
    pub(crate) params: TreeParams,
}

impl RegionsGenerator {
    /// A generator for `cfg`.
    ///
    /// # Errors
    /// A value out of range, naming its key.
    pub fn new(cfg: RegionsConfig) -> Result<Self, ConfigError> {
        cfg.validate()?;
        let params = TreeParams {
            width: cfg.width,
            height: cfg.height,
            depth: cfg.depth,
            world_depth: cfg.effective_world_depth(),
            world_scale: cfg.world_scale(),
            max_regions: cfg.max_regions,
            carve: CarveParams {
                wander: cfg.wander,
                branches: cfg.branches,
                branch_length: cfg.branch_length,
            },
            split: SplitParams {
                max_width: cfg.max_width,
                max_height: cfg.max_height,
                min_zoom: cfg.min_zoom,
                max_zoom: cfg.max_zoom,
                fill_chance: cfg.fill_chance,
            },
        };
        Ok(Self { cfg, params })
    }

    /// The configuration.
    pub fn config(&self) -> &RegionsConfig {
        &self.cfg
    }

    /// Makes the level of `seed` into `scratch` (checking every region when `check`).
    pub(crate) fn build_level(
        &self,
        seed: u64,
        scratch: &mut TreeScratch,
        check: bool,
    ) -> Result<(), TreeError> {
        let mut rng = WarrenRng::new(seed);
        build_tree(&self.params, &mut rng, scratch, check)
    }
}

/// Per-worker memory: the builder's scratch (with the RegionCache), metric values and an arena
/// for the extra column list (reset between levels).
pub struct RegionScratch {
    build: TreeScratch,
    metrics: Vec<f64>,
    bump: Bump,
    route: RouteScratch,
}

impl Generator for RegionsGenerator {
    type Scratch = RegionScratch;

    fn kind(&self) -> &'static str {
        "regions"
    }

    fn columns(&self) -> Columns {
        // The world grid is the root's cells times the world scale (regions::build).
        let scale = self.cfg.world_scale();
        Columns {
            grid: true,
            grid_shape: u16::try_from(self.cfg.width * scale)
                .ok()
                .zip(u16::try_from(self.cfg.height * scale).ok()),
            metrics: &REGION_METRICS,
            extra: &REGION_COLUMNS,
            ..Columns::default()
        }
    }

    fn new_scratch(&self) -> RegionScratch {
        let max_cells = (self.cfg.max_width * self.cfg.max_height) as usize;
        RegionScratch {
            build: TreeScratch::new(max_cells.max((self.cfg.width * self.cfg.height) as usize)),
            metrics: Vec::with_capacity(REGION_METRICS.len()),
            bump: Bump::with_capacity(1024),
            route: RouteScratch::default(),
        }
    }

    fn generate<'s>(&self, seed: u64, s: &'s mut RegionScratch) -> Result<Level<'s>, GenError> {
        match self.build_level(seed, &mut s.build, false) {
            Ok(()) => {}
            Err(TreeError::TooManyRegions(cap)) => {
                return Err(GenError {
                    reason: "too many regions".into(),
                    detail: format!("more than max_regions = {cap}"),
                });
            }
            Err(TreeError::Broken(v)) => unreachable!("checks are off: {v}"),
        }
        let RegionScratch {
            build,
            metrics,
            bump,
            route,
        } = s;
        let o = &build.out;
        let world = GridView {
            width: o.world_width,
            height: o.world_height,
            cells: &o.world,
        };
        metrics::measure(o, &world, &self.cfg, route).write_to(metrics);
        bump.reset();
        // NOTE: the list of borrowed column values lives in the arena, not in the scratch,
        // because it borrows the scratch's own buffers; after the first level the arena's chunk
        // is reused and this allocates nothing.
        let extra: &'s [ExtraValue<'s>] = bump.alloc_slice_copy(&[
            ExtraValue::ListU32(&o.parent),
            ExtraValue::ListU8(&o.depth),
            ExtraValue::ListU16(&o.x0),
            ExtraValue::ListU16(&o.y0),
            ExtraValue::ListU16(&o.x1),
            ExtraValue::ListU16(&o.y1),
            ExtraValue::ListU8(&o.zoom),
            ExtraValue::ListU32(&o.cells),
            ExtraValue::Binary(&o.raster),
            ExtraValue::Binary(&o.root),
        ]);
        Ok(Level {
            grid: Some(world),
            metrics,
            extra,
            ..Level::default()
        })
    }

    fn verify(&self, record: &LevelRecord<'_>) -> Result<(), Violation> {
        verify::verify(&self.cfg, &self.params, record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::grid::cell;
    use crate::core::rng::mix;
    use crate::regions::metrics::RegionMetrics;

    fn small() -> RegionsConfig {
        RegionsConfig {
            width: 10,
            height: 10,
            max_width: 12,
            max_height: 12,
            depth: 2,
            ..RegionsConfig::default()
        }
    }

    fn record<'a>(level: Level<'a>, seed: u64) -> LevelRecord<'a> {
        LevelRecord {
            index: 0,
            seed,
            level,
        }
    }

    #[test]
    fn levels_verify_and_repeat_in_a_used_scratch() {
        for cfg in [small(), RegionsConfig::default()] {
            let g = RegionsGenerator::new(cfg).unwrap();
            let (mut s, mut t) = (g.new_scratch(), g.new_scratch());
            for i in 0..12 {
                let seed = mix(4, i);
                let level = g.generate(seed, &mut s).unwrap();
                g.verify(&record(level, seed))
                    .unwrap_or_else(|v| panic!("level {i}: {v}"));
                let _ = g.generate(mix(5, i), &mut t).unwrap();
                assert_eq!(
                    g.generate(seed, &mut t).unwrap().content_hash(),
                    level.content_hash()
                );
            }
        }
    }

    /// Levels that fail (too many regions) leave the scratch as clean as a fresh one: every
    /// level, failed or not, comes out as a fresh scratch makes it.
    #[test]
    fn failed_levels_leave_a_clean_scratch() {
        let g = RegionsGenerator::new(RegionsConfig {
            max_regions: 140,
            ..RegionsConfig::default()
        })
        .unwrap();
        let mut used = g.new_scratch();
        let (mut failed, mut made) = (0, 0);
        for i in 0..60 {
            let seed = mix(1, i);
            let fresh = g
                .generate(seed, &mut g.new_scratch())
                .map(|l| l.content_hash());
            let reused = g.generate(seed, &mut used).map(|l| l.content_hash());
            assert_eq!(reused.is_ok(), fresh.is_ok(), "level {i}");
            if let (Ok(a), Ok(b)) = (reused, fresh) {
                assert_eq!(a, b, "level {i}");
                made += 1;
            } else {
                failed += 1;
            }
        }
        // Both outcomes occur, in one scratch.
        assert!(failed > 0 && made > 0, "{failed} failed, {made} made");
    }

    /// A wall cell whose four neighbours are wall, away from the edges.
    fn lonely_wall(cells: &[u8], w: usize, h: usize) -> usize {
        (0..cells.len())
            .find(|&i| {
                let (x, y) = (i % w, i / w);
                x > 0
                    && y > 0
                    && x < w - 1
                    && y < h - 1
                    && [i - 1, i + 1, i - w, i + w, i]
                        .iter()
                        .all(|&j| cells[j] == 0)
            })
            .expect("solid cells")
    }

    #[test]
    fn verify_rejects_a_tampered_tree_grid_or_raster() {
        let g = RegionsGenerator::new(small()).unwrap();
        let mut s = g.new_scratch();
        let seed = mix(4, 99);
        let level = g.generate(seed, &mut s).unwrap();
        let extra = level.extra.to_vec();
        let fails = |extra: &[ExtraValue<'_>], cells: Option<&[u8]>, want: &str| {
            let mut lv = level;
            lv.extra = extra;
            if let Some(c) = cells {
                lv.grid = Some(GridView {
                    cells: c,
                    ..lv.grid.unwrap()
                });
            }
            let e = g.verify(&record(lv, seed)).unwrap_err().to_string();
            assert!(e.contains(want), "{e}");
        };
        // A zoom outside the range.
        let mut zoom = extra[6].as_u8s().unwrap().to_vec();
        zoom[1] = 9;
        let mut bad = extra.clone();
        bad[6] = ExtraValue::ListU8(&zoom);
        fails(&bad, None, "zoom 9");
        // A depth that does not follow its parent's.
        let mut depth = extra[1].as_u8s().unwrap().to_vec();
        let deep = depth
            .iter()
            .position(|&d| d == 2)
            .expect("a depth-2 region");
        depth[deep] = 1;
        let mut bad = extra.clone();
        bad[1] = ExtraValue::ListU8(&depth);
        fails(&bad, None, "at depth 1 under a region at depth 1");
        // A passage cut off in the root grid.
        let root = extra[9].as_binary().unwrap();
        let mut cut = root.to_vec();
        let lonely = lonely_wall(&cut, 10, 10);
        cut[lonely] = 1;
        let mut bad = extra.clone();
        bad[9] = ExtraValue::Binary(&cut);
        fails(&bad, None, "carved root cells are cut off");
        // A world floor cell cut off from the root's entry.
        let world = level.grid.unwrap();
        let mut cut = world.cells.to_vec();
        let lonely = lonely_wall(&cut, world.width as usize, world.height as usize);
        cut[lonely] = 1;
        fails(
            &extra,
            Some(&cut),
            "world floor cells are cut off from the root's entry",
        );
        // Void in the world.
        let mut void = world.cells.to_vec();
        void[lonely] = 8;
        fails(&extra, Some(&void), "holds cell code 8");
        // A world that is consistent on its own but not what the seed makes: one wall cell at
        // the edge of the floor turned floor (its floor share no longer matches the metric).
        let mut grown = world.cells.to_vec();
        let w = world.width as usize;
        let edge = (w..grown.len() - w)
            .find(|&i| grown[i] == 0 && (grown[i - w] == 1 || grown[i + w] == 1))
            .expect("a wall cell beside floor");
        grown[edge] = 1;
        fails(&extra, Some(&grown), "world_floor = ");
        // A raster cell changed: only the replay can see it.
        let mut raster = extra[8].as_binary().unwrap().to_vec();
        raster[0] = if raster[0] == 8 { 0 } else { 8 };
        let mut bad = extra.clone();
        bad[8] = ExtraValue::Binary(&raster);
        fails(&bad, None, "raster differs");
    }

    #[test]
    fn the_start_is_the_entry_and_the_goal_floor() {
        let g = RegionsGenerator::new(small()).unwrap();
        let mut s = g.new_scratch();
        let seed = mix(4, 7);
        let level = g.generate(seed, &mut s).unwrap();
        let m = RegionMetrics::from_values(level.metrics).unwrap();
        let grid = level.grid.unwrap();
        // The start is floor on the world's left edge; the goal is floor, the path long.
        let at = |x: u32, y: u32| grid.cells[(y * grid.width + x) as usize];
        assert_eq!((m.start_x, at(m.start_x, m.start_y)), (0, cell::FLOOR));
        assert_eq!(at(m.goal_x, m.goal_y), cell::FLOOR);
        assert!(m.path_length >= grid.width - 1, "{}", m.path_length);
    }

    #[test]
    fn bad_values_name_their_key() {
        let e = RegionsConfig {
            width: 40,
            ..RegionsConfig::default()
        }
        .validate()
        .unwrap_err();
        assert_eq!(e.key, "regions.width");
    }
}
