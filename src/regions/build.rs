//! One level, depth first (seed 004, "PCG of regions"): the root region is carved and split;
//! each sub-region is zoomed, carved and split in turn until the target depth. Regions live on
//! the [`RegionStack`] while their children are made and come from, and go back to, the
//! worker's [`RegionCache`], so after warm-up a level allocates nothing.
//!
//! Output (into [`LevelOut`], reused): the region tree in depth-first order (parent index,
//! depth, box in parent coordinates, zoom, cells), the root's grid, the world raster (see
//! [`crate::regions::world`]), the largest-child raster (see [`crate::regions`]) and the counts
//! behind the metrics. In checking mode (`verify`), every region is also tested against
//! brute-force oracles: within Wmax x Hmax, connected, no Uninitialized cell, carving gave no
//! cell occupancy, and every port carved; the world is painted again cell by cell and must
//! match, with no world cell left unpainted.

use crate::core::error::Violation;
use crate::core::grid::cell;
use crate::core::rng::WarrenRng;
use crate::regions::cache::RegionCache;
use crate::regions::carve::{CarveParams, CarveWork, carve};
use crate::regions::cell::Cell;
use crate::regions::overlap::{Overlap, sibling_overlap};
use crate::regions::region::{NONE, Point, Region, RegionBox};
use crate::regions::split::{Children, SplitParams, SplitStats, SplitWork, split, zoom_piece};
use crate::regions::stack::{Frame, RegionStack};
use crate::regions::world;

/// The deepest target depth (metric columns exist for depths 1 to this).
pub const MAX_DEPTH: u32 = 4;

/// Everything that shapes a level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TreeParams {
    /// Root region columns.
    pub width: u32,
    /// Root region rows.
    pub height: u32,
    /// Zoom levels below the root.
    pub depth: u32,
    /// Regions down to this depth (at most `depth`) are painted into the world raster.
    pub world_depth: u32,
    /// World cells per root cell along each axis (`max_zoom ^ world_depth`).
    pub world_scale: u32,
    /// A level with more regions than this fails.
    pub max_regions: u32,
    /// Carving.
    pub carve: CarveParams,
    /// Splitting (holds Wmax, Hmax and the zoom range).
    pub split: SplitParams,
}

/// The region tree, grids and counts of one level (reused between levels).
#[derive(Debug, Default)]
pub struct LevelOut {
    /// Parent's tree index ([`NONE`] for the root).
    pub parent: Vec<u32>,
    /// Depth (0 for the root).
    pub depth: Vec<u8>,
    /// Box left, in parent cells.
    pub x0: Vec<u16>,
    /// Box top.
    pub y0: Vec<u16>,
    /// Box right (exclusive).
    pub x1: Vec<u16>,
    /// Box bottom (exclusive).
    pub y1: Vec<u16>,
    /// Zoom (1 for the root).
    pub zoom: Vec<u8>,
    /// Cells of the region (its Occupied cells when made).
    pub cells: Vec<u32>,
    /// The root region's cell codes.
    pub root: Vec<u8>,
    /// The world raster: `world_width x world_height` cell codes, row-major.
    pub world: Vec<u8>,
    /// World columns (root width x scale).
    pub world_width: u32,
    /// World rows.
    pub world_height: u32,
    /// The raster: Wmax x Hmax codes.
    pub raster: Vec<u8>,
    /// Depth of the region drawn in the raster.
    pub raster_depth: u32,
    /// Sum of every region's array size.
    pub cells_processed: u64,
    /// Sum of every region's own cells.
    pub region_cells: u64,
    /// Sibling box overlap over the level.
    pub overlap: Overlap,
    /// The worst single family's overlap ratio.
    pub worst_family: f64,
    /// Split counts over the level.
    pub split: SplitStats,
    /// Carved cells of the root.
    pub root_carved: u32,
    /// Cache use as a cold worker would see it: (hits, misses).
    pub cache: (u32, u32),
}

/// Per-worker memory of the builder.
#[derive(Debug, Default)]
pub struct TreeScratch {
    /// The worker's region pool.
    pub cache: RegionCache,
    stack: RegionStack,
    pending: Children,
    carve: CarveWork,
    split: SplitWork,
    cover: Vec<u8>,
    check: Vec<u32>,
    world_check: Vec<u8>,
    /// The level made last.
    pub out: LevelOut,
}

impl TreeScratch {
    /// Scratch for regions of at most `max_cells` cells.
    pub fn new(max_cells: usize) -> Self {
        Self {
            cache: RegionCache::new(max_cells),
            // PERF: room for the children of a deep stack of large families, so that a rare
            // level does not grow the lists after warm-up.
            pending: Children::with_capacity(4 * max_cells, 8 * max_cells),
            ..Self::default()
        }
    }
}

/// Why a level could not be made.
#[derive(Debug)]
pub enum TreeError {
    /// More regions than `max_regions`.
    TooManyRegions(u32),
    /// Checking mode found a broken invariant.
    Broken(Violation),
}

/// Makes one level into `s.out`; with `check`, tests every region's invariants as it goes.
///
/// # Runtime
/// O(cells processed); no allocation once the scratch has grown to the level's size.
pub fn build_tree(
    p: &TreeParams,
    rng: &mut WarrenRng,
    s: &mut TreeScratch,
    check: bool,
) -> Result<(), TreeError> {
    let out = &mut s.out;
    for v in [&mut out.parent, &mut out.cells] {
        v.clear();
    }
    for v in [&mut out.x0, &mut out.y0, &mut out.x1, &mut out.y1] {
        v.clear();
    }
    out.depth.clear();
    out.zoom.clear();
    out.cells_processed = 0;
    out.region_cells = 0;
    out.overlap = Overlap::default();
    out.worst_family = 0.0;
    out.split = SplitStats::default();
    out.raster_depth = 0;
    out.world_width = p.width * p.world_scale;
    out.world_height = p.height * p.world_scale;
    let world_cells = (out.world_width * out.world_height) as usize;
    out.world.clear();
    out.world.resize(world_cells, cell::WALL);
    if check {
        s.world_check.clear();
        s.world_check.resize(world_cells, world::UNPAINTED);
    }
    s.pending.clear();
    s.cache.begin_level();

    let result = walk_tree(p, rng, s, check);
    if result.is_err() {
        // A level stopped half-way (too many regions, or a broken invariant in checking mode):
        // its frames' buffers go back to the pool, so the next level starts from a clean scratch
        // and the cache counts stay those of the level alone.
        while let Some(frame) = s.stack.zoom_out() {
            s.cache.give(frame.region);
        }
        s.pending.clear();
    }
    result
}

/// The depth-first walk of [`build_tree`]: the root, then every region's sub-regions.
fn walk_tree(
    p: &TreeParams,
    rng: &mut WarrenRng,
    s: &mut TreeScratch,
    check: bool,
) -> Result<(), TreeError> {
    let mut root = s.cache.take();
    root.reset(p.width, p.height);
    for i in 0..(p.width * p.height) as usize {
        root.set(i, Cell::Occupied);
    }
    root.seal();
    root.bbox = RegionBox {
        x0: 0,
        y0: 0,
        x1: p.width,
        y1: p.height,
    };
    root.zoom = 1;
    root.depth = 0;
    root.parent = NONE;
    world::root_edges(p.width, p.world_scale, &mut root.xs);
    world::root_edges(p.height, p.world_scale, &mut root.ys);
    root.entry = Point {
        x: 0,
        y: rng.below(p.height),
    };
    root.exit = Point {
        x: p.width - 1,
        y: rng.below(p.height),
    };
    let frame = process(p, rng, s, root, true, check)?;
    s.stack.zoom_in(frame);

    while let Some(top) = s.stack.top_mut() {
        if top.next_child == top.end_child {
            let done = s.stack.zoom_out().expect("a top frame");
            s.pending.truncate(done.first_child as usize);
            s.cache.give(done.region);
            continue;
        }
        let k = top.next_child;
        top.next_child += 1;
        let on_path = top.path_child == k;
        let spec = s.pending.specs[k as usize];
        let mut child = s.cache.take();
        zoom_piece(&top.region, &spec, s.pending.ports_of(&spec), &mut child);
        child.parent = top.region.node;
        let frame = process(p, rng, s, child, on_path, check)?;
        s.stack.zoom_in(frame);
    }
    s.out.cache = s.cache.level_counts();
    if check {
        check_world(&s.out, &s.world_check).map_err(TreeError::Broken)?;
    }
    Ok(())
}

/// Records, carves and splits one region (zoomed and sealed, ports set) into a stack frame.
fn process(
    p: &TreeParams,
    rng: &mut WarrenRng,
    s: &mut TreeScratch,
    mut region: Region,
    on_path: bool,
    check: bool,
) -> Result<Frame, TreeError> {
    if s.out.parent.len() as u32 >= p.max_regions {
        s.cache.give(region);
        return Err(TreeError::TooManyRegions(p.max_regions));
    }
    if check && let Err(v) = check_made(&region, &p.split, &mut s.check) {
        s.cache.give(region);
        return Err(TreeError::Broken(v));
    }
    let out = &mut s.out;
    region.node = out.parent.len() as u32;
    let size = region.size();
    out.parent.push(region.parent);
    out.depth.push(region.depth as u8);
    out.x0.push(region.bbox.x0 as u16);
    out.y0.push(region.bbox.y0 as u16);
    out.x1.push(region.bbox.x1 as u16);
    out.y1.push(region.bbox.y1 as u16);
    out.zoom.push(region.zoom as u8);
    out.cells.push(size);
    out.cells_processed += u64::from(region.width() * region.height());
    out.region_cells += u64::from(size);

    let carved = carve(&mut region, rng, &p.carve, &mut s.carve);
    let first = s.pending.specs.len();
    let leaf = region.depth >= p.depth;
    split(
        &mut region,
        rng,
        &p.split,
        leaf,
        &mut s.split,
        &mut s.pending,
        &mut out.split,
    );
    if check && let Err(v) = check_carved(&region) {
        s.pending.truncate(first);
        s.cache.give(region);
        return Err(TreeError::Broken(v));
    }
    debug_assert!(
        !leaf || s.pending.specs.len() == first,
        "a leaf has no children"
    );
    if region.depth <= p.world_depth {
        world::paint(&region, &mut out.world, out.world_width);
        if check {
            let deepest = region.depth == p.world_depth;
            world::paint_all(&region, &mut s.world_check, out.world_width, deepest);
        }
    }
    let children = &s.pending.specs[first..];
    let family = sibling_overlap(
        region.width(),
        region.height(),
        children.iter().map(|c| (c.bbox, c.zoom)),
        &mut s.cover,
    );
    out.overlap.add(family);
    if children.len() > 1 {
        out.worst_family = out.worst_family.max(family.ratio());
    }
    if region.depth == 0 {
        out.root_carved = carved;
        encode(&region, &mut out.root, region.width(), region.height());
    }
    let mut path_child = u32::MAX;
    if on_path {
        // The raster follows the largest child (first of equals) down to a region without any.
        let largest = (0..children.len()).max_by_key(|&k| (children[k].cells, usize::MAX - k));
        match largest {
            Some(k) => path_child = (first + k) as u32,
            None => {
                out.raster_depth = region.depth;
                encode(
                    &region,
                    &mut out.raster,
                    p.split.max_width,
                    p.split.max_height,
                );
            }
        }
    }
    Ok(Frame {
        region,
        first_child: first as u32,
        end_child: s.pending.specs.len() as u32,
        next_child: first as u32,
        path_child,
    })
}

/// Writes `region`'s codes at the top left of a `width x height` picture of void.
fn encode(region: &Region, into: &mut Vec<u8>, width: u32, height: u32) {
    into.clear();
    into.resize((width * height) as usize, cell::VOID);
    for y in 0..region.height() {
        for x in 0..region.width() {
            let i = region.index(x, y);
            into[(y * width + x) as usize] = region.cells()[i].code(region.inside(i));
        }
    }
}

/// A freshly made region: fits Wmax x Hmax, no Uninitialized cell, its cells 4-connected (a
/// flood fill from one of them reaches all), ports on its cells.
fn check_made(r: &Region, p: &SplitParams, seen: &mut Vec<u32>) -> Result<(), Violation> {
    let at = |what: &str| format!("region at depth {} box {:?}: {what}", r.depth, r.bbox);
    if r.depth > 0 && (r.width() > p.max_width || r.height() > p.max_height) {
        return Err(Violation::new(at(&format!(
            "{} x {} exceeds Wmax x Hmax = {} x {}",
            r.width(),
            r.height(),
            p.max_width,
            p.max_height
        ))));
    }
    if r.initial().contains(&Cell::Uninitialized) || r.cells().contains(&Cell::Uninitialized) {
        return Err(Violation::new(at("holds Uninitialized cells")));
    }
    let inside: Vec<usize> = (0..r.cells().len()).filter(|&i| r.inside(i)).collect();
    let Some(&first) = inside.first() else {
        return Err(Violation::new(at("has no cells")));
    };
    seen.clear();
    seen.resize(r.cells().len(), 0);
    let mut stack = vec![first];
    seen[first] = 1;
    let mut reached = 1;
    while let Some(i) = stack.pop() {
        for d in 0..4 {
            if let Some(j) = r.neighbour(i, d)
                && r.inside(j)
                && seen[j] == 0
            {
                seen[j] = 1;
                reached += 1;
                stack.push(j);
            }
        }
    }
    if reached != inside.len() {
        return Err(Violation::new(at(&format!(
            "is not connected: {reached} of {} cells reachable",
            inside.len()
        ))));
    }
    for (name, pt) in [("entry", r.entry), ("exit", r.exit)] {
        let ok = pt.x < r.width() && pt.y < r.height() && r.inside(r.index(pt.x, pt.y));
        if !ok {
            return Err(Violation::new(at(&format!(
                "{name} {pt:?} is not a region cell"
            ))));
        }
    }
    Ok(())
}

/// The world the fast painter made equals the oracle's, which left no cell unpainted.
fn check_world(out: &LevelOut, oracle: &[u8]) -> Result<(), Violation> {
    if let Some(i) = oracle.iter().position(|&c| c == world::UNPAINTED) {
        return Err(Violation::new(format!(
            "world cell ({}, {}) is covered by no region",
            i as u32 % out.world_width,
            i as u32 / out.world_width
        )));
    }
    if let Some(i) = (0..oracle.len()).find(|&i| oracle[i] != out.world[i]) {
        return Err(Violation::new(format!(
            "world cell ({}, {}) is painted {}, the cell-by-cell oracle paints {}",
            i as u32 % out.world_width,
            i as u32 / out.world_width,
            out.world[i],
            oracle[i]
        )));
    }
    Ok(())
}

/// A carved and split region: no cell gained occupancy (Empty stays Empty; Filled only from
/// Occupied), nothing Uninitialized, entry, exit and every port carved.
fn check_carved(r: &Region) -> Result<(), Violation> {
    let ports = [r.entry, r.exit].into_iter().chain(r.ports.iter().copied());
    for (k, pt) in ports.enumerate() {
        if !r.carved(r.index(pt.x, pt.y)) {
            return Err(Violation::new(format!(
                "region at depth {} box {:?}: port {k} {pt:?} is not carved",
                r.depth, r.bbox
            )));
        }
    }
    for (i, (&now, &was)) in r.cells().iter().zip(r.initial()).enumerate() {
        let ok = match was {
            Cell::Empty => now == Cell::Empty,
            Cell::Occupied => now != Cell::Uninitialized,
            _ => false,
        };
        if !ok {
            return Err(Violation::new(format!(
                "region at depth {} box {:?}: cell {i} went from {was:?} to {now:?}",
                r.depth, r.bbox
            )));
        }
    }
    Ok(())
}
