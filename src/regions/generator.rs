//! [`RegionsGenerator`]: the `regions` generator kind, levels of recursive zoom regions
//! (seed 004) with their world raster (the `grid`), root grid, region tree, largest-child raster
//! and metrics (see [`crate::regions`]).

use bumpalo::Bump;

use crate::core::error::ConfigError;
use crate::core::error::{GenError, Violation};
use crate::core::generator::{
    Columns, ExtraKind, ExtraSpec, ExtraValue, Generator, Level, LevelRecord,
};
use crate::core::grid::{GridView, cell};
use crate::core::rng::WarrenRng;
use crate::core::route::{Ends, RouteScratch};
use crate::regions::build::{TreeError, TreeParams, TreeScratch, build_tree};
use crate::regions::carve::CarveParams;
use crate::regions::config::RegionsConfig;
use crate::regions::split::SplitParams;

crate::metrics! {
    /// What one regions level measures: its tree, the work done and the world raster.
    pub struct RegionMetrics => REGION_METRICS {
        regions: u32 = "regions made, the root included",
        regions_depth1: u32 = "regions at depth 1",
        regions_depth2: u32 = "regions at depth 2",
        regions_depth3: u32 = "regions at depth 3",
        regions_depth4: u32 = "regions at depth 4",
        cells_processed: u32 = "cells of every region's array (padding included), summed",
        overlap_ratio: f32 = "subcells processed more than once because sibling boxes overlap / subcells of all sub-region boxes",
        overlap_worst: f32 = "the largest overlap ratio of one family of two or more siblings",
        padding_ratio: f32 = "share of processed cells that are padding outside their region",
        divided: u32 = "components divided because they exceeded Wmax/Z x Hmax/Z",
        filled_pieces: u32 = "pieces made Filled (components facing no passage, or one-cell components by chance)",
        cache_hits: u32 = "region buffers a cold worker's RegionCache would reuse for this level",
        cache_misses: u32 = "region buffers a cold worker's RegionCache would allocate for this level (peak in use)",
        raster_depth: u32 = "depth of the region drawn in the raster",
        root_open: f32 = "share of the root's cells carved",
        world_floor: f32 = "share of the world raster (grid) that is floor",
        world_filled: f32 = "share of the world raster (grid) that is Filled",
        start_x: u32 = "world column of the start: the root's entry (its first carved cell on the left edge, top-left world cell of its block), so 0",
        start_y: u32 = "world row of the start",
        goal_x: u32 = "world column of the goal: the floor cell farthest from the start by walking (the lowest index on ties)",
        goal_y: u32 = "world row of the goal",
        path_length: u32 = "steps on the shortest walkable path from start to goal over the world's floor",
    }
}

/// The extra columns: the region tree, one list entry per region in depth-first order, and the
/// raster.
pub const REGION_COLUMNS: [ExtraSpec; 10] = [
    ExtraSpec::new(
        "region_parent",
        ExtraKind::ListU32,
        "tree index of each region's parent (4294967295 for the root); parents come first",
    ),
    ExtraSpec::new(
        "region_depth",
        ExtraKind::ListU8,
        "depth of each region, 0 for the root",
    ),
    ExtraSpec::new(
        "region_x0",
        ExtraKind::ListU16,
        "left of each region's box, in parent cells",
    ),
    ExtraSpec::new(
        "region_y0",
        ExtraKind::ListU16,
        "top of each region's box, in parent cells",
    ),
    ExtraSpec::new(
        "region_x1",
        ExtraKind::ListU16,
        "right of each region's box (exclusive), in parent cells",
    ),
    ExtraSpec::new(
        "region_y1",
        ExtraKind::ListU16,
        "bottom of each region's box (exclusive), in parent cells",
    ),
    ExtraSpec::new(
        "region_zoom",
        ExtraKind::ListU8,
        "subcells per parent cell along each axis (1 for the root)",
    ),
    ExtraSpec::new(
        "region_cells",
        ExtraKind::ListU32,
        "cells of each region (its Occupied cells when made, in its own zoom)",
    ),
    ExtraSpec::new(
        "raster",
        ExtraKind::Binary,
        "max_width x max_height cell codes, row-major: the deepest region on the largest-child path, at the top left, void around it",
    ),
    ExtraSpec::new(
        "root_grid",
        ExtraKind::Binary,
        "width x height cell codes of the root region alone, row-major (Occupied 0, carved 1, Filled 7)",
    ),
];

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

/// The share of `cells` equal to `code`.
fn share(cells: &[u8], code: u8) -> f64 {
    // PERF: a byte compare and count over the world, which the compiler vectorises.
    cells.iter().filter(|&&c| c == code).count() as f64 / cells.len().max(1) as f64
}

/// Per-worker memory: the builder's scratch (with the RegionCache), metric values and an arena
/// for the extra column list (reset between levels).
pub struct RegionScratch {
    build: TreeScratch,
    metrics: Vec<f64>,
    bump: Bump,
    route: RouteScratch,
}

/// The start and goal of a world (see the `start_x` .. `path_length` metrics): the root's
/// entry and the floor cell farthest from it. `root` is the root grid, `root_width` across.
pub(crate) fn ends(
    world: &GridView<'_>,
    root: &[u8],
    root_width: u32,
    s: &mut RouteScratch,
) -> Ends {
    let scale = world.width / root_width.max(1);
    let entry = (0..root.len() / root_width.max(1) as usize)
        .find(|&y| root[y * root_width as usize] == cell::FLOOR)
        .unwrap_or(0) as u32;
    s.farthest(world, (0, entry * scale))
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
                    reason: "too many regions",
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
        let e = ends(&world, &o.root, self.cfg.width, route);
        let mut per_depth = [0u32; 5];
        for &d in &o.depth {
            per_depth[d as usize] += 1;
        }
        RegionMetrics {
            regions: o.parent.len() as u32,
            regions_depth1: per_depth[1],
            regions_depth2: per_depth[2],
            regions_depth3: per_depth[3],
            regions_depth4: per_depth[4],
            cells_processed: o.cells_processed as u32,
            overlap_ratio: o.overlap.ratio() as f32,
            overlap_worst: o.worst_family as f32,
            padding_ratio: (1.0 - o.region_cells as f64 / o.cells_processed as f64) as f32,
            divided: o.split.divided,
            filled_pieces: o.split.filled_pieces,
            cache_hits: o.cache.0,
            cache_misses: o.cache.1,
            raster_depth: o.raster_depth,
            root_open: (f64::from(o.root_carved) / f64::from(self.cfg.width * self.cfg.height))
                as f32,
            world_floor: share(&o.world, cell::FLOOR) as f32,
            world_filled: share(&o.world, cell::FILLED) as f32,
            start_x: e.start.0,
            start_y: e.start.1,
            goal_x: e.goal.0,
            goal_y: e.goal.1,
            path_length: e.path_length,
        }
        .write_to(metrics);
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
        crate::regions::verify::verify(self, record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::mix;

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
