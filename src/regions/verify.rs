//! Re-checking a stored regions level: the grid and the region tree as stored, then a replay of
//! the level's seed with every region tested as it is made (see `build`'s checking mode), whose
//! output must equal the stored one.
//!
//! From the record alone: the world raster (`grid`) is `width x height` root cells of
//! `max_zoom ^ world_depth` world cells each, holds only wall, floor and Filled (no Uninitialized
//! or unpainted cell, no void), every floor cell 4-connected to the root's entry, and agrees with
//! the root grid (a carved root cell is all floor in the world, a Filled one all Filled); the
//! root grid's codes, its passages connected from the left edge to the right; every region's
//! parent earlier in the
//! tree, depth its parent's plus one and at most the target depth, zoom within
//! `[min_zoom, max_zoom]`, box inside its parent and, zoomed, within Wmax x Hmax, cells a whole
//! number of Z x Z blocks filling at most the box; the children of a region use fewer of its
//! cells than it has (its path carved at least one); the depth-1 regions use exactly the root's
//! Occupied cells; and the metrics agree with the tree (counts, cells processed, overlap ratio
//! recomputed by the brute-force oracle).

use crate::core::error::Violation;
use crate::core::generator::LevelRecord;
use crate::core::grid::{cell, flood4};
use crate::core::rng::WarrenRng;
use crate::core::route::{Ends, RouteScratch};
use crate::ensure_level;
use crate::regions::build::{TreeError, TreeParams, TreeScratch, build_tree};
use crate::regions::columns::REGION_COLUMNS;
use crate::regions::config::RegionsConfig;
use crate::regions::metrics::{REGION_METRICS, RegionMetrics, ends};
use crate::regions::overlap::{Overlap, sibling_overlap_brute};
use crate::regions::region::{NONE, RegionBox};

/// The stored region tree, typed.
struct Tree<'a> {
    parent: &'a [u32],
    depth: &'a [u8],
    boxes: [&'a [u16]; 4],
    zoom: &'a [u8],
    cells: &'a [u32],
    raster: &'a [u8],
    root: &'a [u8],
}

impl Tree<'_> {
    fn bbox(&self, i: usize) -> RegionBox {
        let [x0, y0, x1, y1] = self.boxes;
        RegionBox {
            x0: u32::from(x0[i]),
            y0: u32::from(y0[i]),
            x1: u32::from(x1[i]),
            y1: u32::from(y1[i]),
        }
    }

    /// The region's own array size.
    fn dims(&self, i: usize) -> (u32, u32) {
        let (b, z) = (self.bbox(i), u32::from(self.zoom[i]));
        (b.width() * z, b.height() * z)
    }
}

fn tree<'a>(record: &LevelRecord<'a>) -> Result<Tree<'a>, Violation> {
    let e = record.level.extra;
    ensure_level!(
        e.len() == REGION_COLUMNS.len(),
        "{} extra columns, expected {}",
        e.len(),
        REGION_COLUMNS.len()
    );
    let bad = |k: usize| {
        Violation::new(format!(
            "column `{}` has the wrong type",
            REGION_COLUMNS[k].name
        ))
    };
    let u16s = |k: usize| e[k].as_u16s().ok_or_else(|| bad(k));
    let t = Tree {
        parent: e[0].as_u32s().ok_or_else(|| bad(0))?,
        depth: e[1].as_u8s().ok_or_else(|| bad(1))?,
        boxes: [u16s(2)?, u16s(3)?, u16s(4)?, u16s(5)?],
        zoom: e[6].as_u8s().ok_or_else(|| bad(6))?,
        cells: e[7].as_u32s().ok_or_else(|| bad(7))?,
        raster: e[8].as_binary().ok_or_else(|| bad(8))?,
        root: e[9].as_binary().ok_or_else(|| bad(9))?,
    };
    let n = t.parent.len();
    ensure_level!(
        n >= 1
            && [t.depth.len(), t.zoom.len(), t.cells.len()]
                .into_iter()
                .chain(t.boxes.iter().map(|b| b.len()))
                .all(|l| l == n),
        "region tree columns disagree in length"
    );
    Ok(t)
}

/// See the module docs.
pub fn verify(
    cfg: &RegionsConfig,
    params: &TreeParams,
    record: &LevelRecord<'_>,
) -> Result<(), Violation> {
    let t = tree(record)?;
    let (w, h) = (cfg.width, cfg.height);
    ensure_level!(
        t.root.len() == (w * h) as usize,
        "root_grid holds {} cells, the profile says {w} x {h}",
        t.root.len()
    );
    if let Some(&c) = t.root.iter().find(|&&c| !solid_or_floor(c)) {
        return Err(Violation::new(format!("root grid holds cell code {c}")));
    }
    check_passages(t.root, w, h)?;
    check_world(cfg, record, t.root)?;
    check_tree(cfg, &t)?;
    let occupied = t.root.iter().filter(|&&c| c == cell::WALL).count() as u32;
    let used: u32 = (1..t.parent.len())
        .filter(|&i| t.depth[i] == 1)
        .map(|i| t.cells[i] / u32::from(t.zoom[i]).pow(2))
        .sum();
    ensure_level!(
        cfg.depth == 0 || used == occupied,
        "depth-1 regions use {used} root cells, the grid has {occupied} Occupied"
    );
    ensure_level!(
        t.raster.len() == (cfg.max_width * cfg.max_height) as usize
            && t.raster
                .iter()
                .all(|&c| matches!(c, cell::WALL | cell::FLOOR | cell::FILLED | cell::VOID)),
        "the raster is not max_width x max_height cell codes"
    );
    let world = record.level.grid.map_or(&[][..], |g| g.cells);
    check_metrics(&t, world, record.level.metrics)?;
    if let (Some(grid), Some(m)) = (
        record.level.grid,
        RegionMetrics::from_values(record.level.metrics),
    ) {
        let want = ends(&grid, t.root, w, &mut RouteScratch::default());
        let stored = Ends::from_values([m.start_x, m.start_y, m.goal_x, m.goal_y, m.path_length]);
        Ends::check(stored, want)?;
    }
    replay(cfg, params, record, &t)
}

/// Wall, floor or Filled: the codes of a root grid and of the world.
fn solid_or_floor(c: u8) -> bool {
    c == cell::WALL || c == cell::FLOOR || c == cell::FILLED
}

/// The world raster: its size, its codes, its agreement with the root grid, and every floor
/// cell 4-connected to the root's entry (the root's first carved cell on its left edge).
fn check_world(
    cfg: &RegionsConfig,
    record: &LevelRecord<'_>,
    root: &[u8],
) -> Result<(), Violation> {
    let grid = record
        .level
        .grid
        .ok_or_else(|| Violation::new("no grid columns"))?;
    let s = cfg.world_scale();
    let (w, h) = (cfg.width * s, cfg.height * s);
    ensure_level!(
        grid.width == w && grid.height == h && grid.cells.len() == (w * h) as usize,
        "the world grid is {} x {}, the profile says {w} x {h}",
        grid.width,
        grid.height
    );
    let world = grid.cells;
    if let Some(i) = world.iter().position(|&c| !solid_or_floor(c)) {
        return Err(Violation::new(format!(
            "world cell ({}, {}) holds cell code {}",
            i as u32 % w,
            i as u32 / w,
            world[i]
        )));
    }
    for (i, &c) in root.iter().enumerate() {
        if c == cell::WALL {
            continue;
        }
        let (x, y) = (i as u32 % cfg.width, i as u32 / cfg.width);
        for row in y * s..(y + 1) * s {
            let at = (row * w + x * s) as usize;
            ensure_level!(
                world[at..at + s as usize].iter().all(|&v| v == c),
                "root cell ({x}, {y}) is {} but its world cells are not all that",
                cell::NAMES[c as usize]
            );
        }
    }
    // check_passages found a carved cell on the root's left edge.
    let ey = (0..cfg.height)
        .find(|&y| root[(y * cfg.width) as usize] == cell::FLOOR)
        .unwrap_or(0);
    let start = (ey * s * w) as usize;
    let mut seen = Vec::new();
    let reached = flood4(world, w, start, cell::FLOOR, &mut seen);
    let floor = world.iter().filter(|&&c| c == cell::FLOOR).count();
    if reached != floor {
        let i = (0..world.len())
            .find(|&i| world[i] == cell::FLOOR && !seen[i])
            .unwrap_or(0);
        return Err(Violation::new(format!(
            "{} of {floor} world floor cells are cut off from the root's entry, the first at ({}, {})",
            floor - reached,
            i as u32 % w,
            i as u32 / w
        )));
    }
    Ok(())
}

/// The root's passages are connected and run from the left edge to the right edge.
fn check_passages(cells: &[u8], w: u32, h: u32) -> Result<(), Violation> {
    let floor = |i: usize| cells[i] == cell::FLOOR;
    let Some(start) = (0..h).map(|y| (y * w) as usize).find(|&i| floor(i)) else {
        return Err(Violation::new("no passage on the root's left edge"));
    };
    let mut seen = Vec::new();
    let reached = flood4(cells, w, start, cell::FLOOR, &mut seen);
    let total = cells.iter().filter(|&&c| c == cell::FLOOR).count();
    ensure_level!(
        reached == total,
        "{} of {total} carved root cells are cut off from the entry",
        total - reached
    );
    ensure_level!(
        (0..h).any(|y| seen[(y * w + w - 1) as usize]),
        "the root's passage does not reach its right edge"
    );
    Ok(())
}

fn check_tree(cfg: &RegionsConfig, t: &Tree<'_>) -> Result<(), Violation> {
    let n = t.parent.len();
    let root = RegionBox {
        x0: 0,
        y0: 0,
        x1: cfg.width,
        y1: cfg.height,
    };
    ensure_level!(
        t.parent[0] == NONE && t.depth[0] == 0 && t.zoom[0] == 1 && t.bbox(0) == root,
        "region 0 is not the root"
    );
    ensure_level!(
        t.cells[0] == cfg.width * cfg.height,
        "the root has {} cells",
        t.cells[0]
    );
    let mut used = vec![0u32; n];
    for i in 1..n {
        let p = t.parent[i] as usize;
        ensure_level!(p < i, "region {i}'s parent {p} does not come before it");
        let (d, z) = (u32::from(t.depth[i]), u32::from(t.zoom[i]));
        ensure_level!(
            d == u32::from(t.depth[p]) + 1 && d <= cfg.depth,
            "region {i} at depth {d} under a region at depth {} (target depth {})",
            t.depth[p],
            cfg.depth
        );
        ensure_level!(
            (cfg.min_zoom..=cfg.max_zoom).contains(&z),
            "region {i} has zoom {z}, outside {}..={}",
            cfg.min_zoom,
            cfg.max_zoom
        );
        let (b, (pw, ph)) = (t.bbox(i), t.dims(p));
        ensure_level!(
            b.x0 < b.x1 && b.y0 < b.y1 && b.x1 <= pw && b.y1 <= ph,
            "region {i}'s box {b:?} is empty or outside its {pw} x {ph} parent"
        );
        let (rw, rh) = t.dims(i);
        ensure_level!(
            rw <= cfg.max_width && rh <= cfg.max_height,
            "region {i} is {rw} x {rh}, beyond Wmax x Hmax = {} x {}",
            cfg.max_width,
            cfg.max_height
        );
        let c = t.cells[i];
        ensure_level!(
            c > 0 && c.is_multiple_of(z * z) && c / (z * z) <= b.area(),
            "region {i}'s {c} cells are not whole {z} x {z} blocks of its box"
        );
        used[p] += c / (z * z);
    }
    for (p, (&u, &c)) in used.iter().zip(t.cells).enumerate() {
        ensure_level!(
            u < c,
            "the children of region {p} use {u} of its {c} cells, leaving none carved"
        );
    }
    Ok(())
}

fn check_metrics(t: &Tree<'_>, world: &[u8], m: &[f64]) -> Result<(), Violation> {
    let m = RegionMetrics::from_values(m).ok_or_else(|| {
        Violation::new(format!(
            "{} metric values for {} metric columns",
            m.len(),
            REGION_METRICS.len()
        ))
    })?;
    for (stored, code, name) in [
        (m.world_floor, cell::FLOOR, "world_floor"),
        (m.world_filled, cell::FILLED, "world_filled"),
    ] {
        let count = world.iter().filter(|&&c| c == code).count();
        let share = count as f64 / world.len().max(1) as f64;
        ensure_level!(
            share as f32 == stored,
            "{name} = {stored}, the world grid gives {share}"
        );
    }
    let n = t.parent.len();
    let mut per_depth = [0u32; 5];
    for &d in t.depth {
        per_depth[usize::from(d).min(4)] += 1;
    }
    ensure_level!(
        m.regions as usize == n,
        "regions = {}, the tree has {n}",
        m.regions
    );
    let stored = [
        m.regions_depth1,
        m.regions_depth2,
        m.regions_depth3,
        m.regions_depth4,
    ];
    for d in 1..=4 {
        ensure_level!(
            stored[d - 1] == per_depth[d],
            "regions_depth{d} = {}, the tree has {}",
            stored[d - 1],
            per_depth[d]
        );
    }
    let processed: u64 = (0..n)
        .map(|i| {
            let (w, h) = t.dims(i);
            u64::from(w * h)
        })
        .sum();
    ensure_level!(
        u64::from(m.cells_processed) == processed,
        "cells_processed = {}, the tree gives {processed}",
        m.cells_processed
    );
    let mut overlap = Overlap::default();
    let mut family = Vec::new();
    for p in 0..n {
        family.clear();
        family.extend(
            (p + 1..n)
                .filter(|&i| t.parent[i] as usize == p)
                .map(|i| (t.bbox(i), u32::from(t.zoom[i]))),
        );
        overlap.add(sibling_overlap_brute(&family));
    }
    ensure_level!(
        overlap.ratio() as f32 == m.overlap_ratio,
        "overlap_ratio = {}, the tree's boxes give {}",
        m.overlap_ratio,
        overlap.ratio()
    );
    Ok(())
}

/// Generates the seed again with every region checked, and compares.
fn replay(
    cfg: &RegionsConfig,
    params: &TreeParams,
    record: &LevelRecord<'_>,
    t: &Tree<'_>,
) -> Result<(), Violation> {
    let mut s =
        TreeScratch::new((cfg.max_width * cfg.max_height).max(cfg.width * cfg.height) as usize);
    let mut rng = WarrenRng::new(record.seed);
    match build_tree(params, &mut rng, &mut s, true) {
        Ok(()) => {}
        Err(TreeError::Broken(v)) => return Err(v),
        Err(TreeError::TooManyRegions(cap)) => {
            return Err(Violation::new(format!(
                "its seed makes more than {cap} regions yet a level is stored"
            )));
        }
    }
    let o = &s.out;
    let grid = record.level.grid.map_or(&[][..], |g| g.cells);
    ensure_level!(
        o.world == grid,
        "the world grid differs from its seed's regions"
    );
    ensure_level!(
        o.root == t.root,
        "the root grid differs from its seed's regions"
    );
    let [x0, y0, x1, y1] = t.boxes;
    ensure_level!(
        o.parent == t.parent
            && o.depth == t.depth
            && o.zoom == t.zoom
            && o.cells == t.cells
            && o.x0 == x0
            && o.y0 == y0
            && o.x1 == x1
            && o.y1 == y1,
        "the region tree differs from its seed's regions"
    );
    ensure_level!(
        o.raster == t.raster,
        "the raster differs from its seed's regions"
    );
    Ok(())
}
