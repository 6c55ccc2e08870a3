//! [`RegionMetrics`]: what one regions level measures, and how a built level is measured: its
//! tree, the work done, the world raster's shares and its start and goal (`ends`, which
//! `verify` recomputes from the stored columns).

use crate::core::grid::{GridView, cell};
use crate::core::route::{Ends, RouteScratch};
use crate::regions::build::LevelOut;
use crate::regions::config::RegionsConfig;

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

/// The metrics of the level built into `o`, whose world raster is `world`.
pub(crate) fn measure(
    o: &LevelOut,
    world: &GridView<'_>,
    cfg: &RegionsConfig,
    route: &mut RouteScratch,
) -> RegionMetrics {
    let e = ends(world, &o.root, cfg.width, route);
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
        root_open: (f64::from(o.root_carved) / f64::from(cfg.width * cfg.height)) as f32,
        world_floor: share(&o.world, cell::FLOOR) as f32,
        world_filled: share(&o.world, cell::FILLED) as f32,
        start_x: e.start.0,
        start_y: e.start.1,
        goal_x: e.goal.0,
        goal_y: e.goal.1,
        path_length: e.path_length,
    }
}

/// The share of `cells` equal to `code`.
fn share(cells: &[u8], code: u8) -> f64 {
    // PERF: a byte compare and count over the world, which the compiler vectorises.
    cells.iter().filter(|&&c| c == code).count() as f64 / cells.len().max(1) as f64
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
