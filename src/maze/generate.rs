//! [`MazeGenerator`]: a maze level per seed, the lattice fast path or the general path (holes,
//! weights or another algorithm's tree, the merge and the braid), a lattice drawn as its tile
//! grid and a Delaunay maze stored as its physical graph with passage flags.

use bumpalo::Bump;
use bumpalo::collections::Vec as BumpVec;

use crate::core::error::{ConfigError, GenError, Violation};
use crate::core::generator::{Columns, Generator, GraphView, Level, LevelRecord};
use crate::core::graph::{Csr, Graph, edge_flag};
use crate::core::grid::Grid;
use crate::core::rng::WarrenRng;
use crate::maze::config::{self, MazeConfig};
use crate::maze::merge::merge_dead_ends;
use crate::maze::metrics::{self, Bfs, MAZE_METRICS, MazeMetrics};
use crate::maze::physical::{self, HoleScratch};
use crate::maze::spanning::{self, Tree, UnionFind};
use crate::maze::topology::{self, Explicit, Lattice, Link, Topology};
use crate::maze::weights::{self, OrderScratch};
use crate::maze::{algorithms, braid, fast, raster, verify};

/// The maze generator for one configuration.
#[derive(Clone, Debug)]
pub struct MazeGenerator {
    cfg: MazeConfig,
    /// Hole-free lattice: every room's physical mask, shared by all levels.
    lattice_masks: Vec<u16>,
    /// Hole-free lattice: the full edge list in id order, shared by all levels.
    lattice_links: Vec<Link>,
    /// Hole-free lattice: the fast path's constants (`None`: the general path runs).
    pub(super) plan: Option<fast::LatticePlan>,
}

/// One worker's reusable maze memory.
#[derive(Default)]
pub struct MazeScratch {
    bump: Bump,
    present: Vec<bool>,
    holes: HoleScratch,
    grow: GrowScratch,
    grid: Grid,
    /// A Delaunay maze's physical graph.
    graph: Graph,
    fast: fast::FastScratch,
    metrics: [f64; MAZE_METRICS.len()],
}

impl MazeGenerator {
    /// A generator for `cfg`; fails with the offending key when a value is out of range.
    pub fn new(cfg: MazeConfig) -> Result<Self, ConfigError> {
        cfg.validate()?;
        let (mut lattice_masks, mut lattice_links) = (Vec::new(), Vec::new());
        let mut plan = None;
        if cfg.topology == config::Topology::Lattice && cfg.holes == 0.0 {
            // PERF: a hole-free lattice is the same physical graph for every level (and, left
            // unbraided, takes the fast path).
            let lattice = Lattice::new(cfg.width, cfg.height, None);
            lattice_masks = lattice.physical_masks();
            lattice.for_each_edge(|link| lattice_links.push(link));
            if cfg.braid == 0.0 {
                plan = fast::LatticePlan::new(cfg.width, cfg.height);
            }
        }
        Ok(Self {
            cfg,
            lattice_masks,
            lattice_links,
            plan,
        })
    }

    /// The same generator without the lattice fast path: the general code, the fast path's
    /// oracle in tests.
    #[cfg(test)]
    pub(crate) fn general_path_only(mut self) -> Self {
        self.plan = None;
        self
    }

    /// The configuration.
    pub fn config(&self) -> &MazeConfig {
        &self.cfg
    }
}

/// Builds the tree over `topo` (weights, Kruskal, merge) and computes the metrics.
fn grow<T: Topology>(
    topo: &T,
    all_links: Option<&[Link]>,
    rooms: usize,
    cfg: &MazeConfig,
    rng: &mut WarrenRng,
    s: &mut GrowScratch,
) -> MazeMetrics {
    let opened = if cfg.algorithm == algorithms::Algorithm::Seed001 {
        weights::edge_order(
            topo,
            cfg,
            rng,
            &mut s.order_scratch,
            &mut s.order,
            all_links,
        );
        spanning::kruskal(topo, &s.order, rooms, &mut s.uf, &mut s.tree)
    } else {
        algorithms::grow_tree(
            cfg.algorithm,
            topo,
            all_links,
            rooms,
            algo_params(cfg),
            rng,
            &mut s.algo,
            &mut s.tree,
        )
    };
    debug_assert_eq!(opened + 1, rooms, "the physical graph must be connected");
    let tree = if cfg.merge_dead_ends {
        let merges = merge_dead_ends(topo, &mut s.tree, &mut s.bfs.scratch);
        // The merge leaves nothing mergeable (see merge_dead_ends); verify recounts it.
        metrics::compute(topo, &s.tree, &mut s.bfs, merges, Some(0))
    } else {
        metrics::compute(topo, &s.tree, &mut s.bfs, 0, None)
    };
    if cfg.braid == 0.0 {
        return tree;
    }
    // The start and goal stay the tree's diameter ends; the braid only adds ways between them.
    let done = braid::braid(topo, &mut s.tree, cfg.braid, rng, &mut s.bfs.scratch);
    metrics::compute_braided(
        topo,
        &s.tree,
        &mut s.bfs,
        tree.merges,
        tree.start_room,
        tree.goal_room,
        done,
    )
}

/// The algorithms' settings from the profile.
fn algo_params(cfg: &MazeConfig) -> algorithms::AlgoParams {
    algorithms::AlgoParams {
        width: cfg.width,
        height: cfg.height,
        newest: cfg.growing_tree_newest,
    }
}

/// The scratch parts `grow` needs: the edge order, Kruskal's forest, the tree and the searches.
#[derive(Default)]
struct GrowScratch {
    order: Vec<Link>,
    order_scratch: OrderScratch,
    uf: UnionFind,
    tree: Tree,
    bfs: Bfs,
    algo: algorithms::AlgoScratch,
}

impl Generator for MazeGenerator {
    type Scratch = MazeScratch;

    fn kind(&self) -> &'static str {
        "maze"
    }

    fn columns(&self) -> Columns {
        let lattice = self.cfg.topology == config::Topology::Lattice;
        // A lattice of W x H rooms is drawn on a (2W + 1) x (2H + 1) grid (maze::raster); the
        // sides are at most 4,096 rooms, so the grid's fit in u16.
        let side = |rooms: u32| u16::try_from(2 * rooms + 1).ok();
        Columns {
            grid: lattice,
            grid_shape: lattice
                .then(|| side(self.cfg.width).zip(side(self.cfg.height)))
                .flatten(),
            graph: !lattice,
            tags: false,
            metrics: &MAZE_METRICS,
            ..Columns::default()
        }
    }

    fn new_scratch(&self) -> MazeScratch {
        MazeScratch::default()
    }

    fn generate<'s>(&self, seed: u64, s: &'s mut MazeScratch) -> Result<Level<'s>, GenError> {
        let mut rng = WarrenRng::new(seed);
        match self.cfg.topology {
            config::Topology::Lattice => Ok(self.lattice_level(&mut rng, s, fast::Depth::Full)),
            config::Topology::Delaunay => self.delaunay_level(&mut rng, s),
        }
    }

    fn verify(&self, record: &LevelRecord<'_>) -> Result<(), Violation> {
        verify::verify(&self.cfg, record)
    }
}

impl MazeGenerator {
    /// The grid of the lattice maze [`Generator::generate`] makes for `seed` (the same cells)
    /// and its `loops`, for callers that read nothing else of it: the unbraided fast path then
    /// skips the census, the diameter and the solution (the task kind's mazes).
    ///
    /// # Errors
    /// As `generate`; a Delaunay maze, which has no grid, is refused.
    pub fn grid_only<'s>(
        &self,
        seed: u64,
        s: &'s mut MazeScratch,
    ) -> Result<(crate::core::grid::GridView<'s>, u32), GenError> {
        if self.cfg.topology != config::Topology::Lattice {
            return Err(GenError {
                reason: "no grid".into(),
                detail: "a Delaunay maze is a graph, not a grid".into(),
            });
        }
        let mut rng = WarrenRng::new(seed);
        let level = self.lattice_level(&mut rng, s, fast::Depth::Grid);
        let loops = MazeMetrics::from_values(level.metrics).map_or(0, |m| m.loops);
        Ok((level.grid.expect("a lattice maze has a grid"), loops))
    }

    /// A lattice maze: the fast path when the profile allows it; else holes punched, the tree
    /// grown over the lattice left and drawn into the scratch's grid. `depth` says how much of
    /// the fast path's metrics are computed (the general path computes them all).
    fn lattice_level<'s>(
        &self,
        rng: &mut WarrenRng,
        s: &'s mut MazeScratch,
        depth: fast::Depth,
    ) -> Level<'s> {
        let cfg = &self.cfg;
        if let Some(plan) = &self.plan {
            // `kruskal` is seed 001's tree under its random weighting (a uniformly shuffled edge
            // order): the same draws, the same mazes.
            let m = if matches!(
                cfg.algorithm,
                algorithms::Algorithm::Seed001 | algorithms::Algorithm::Kruskal
            ) {
                fast::generate(plan, cfg, rng, &mut s.fast, &mut s.grid, depth)
            } else {
                // Another algorithm draws the tree; the fast path does the rest.
                let lattice =
                    Lattice::new(cfg.width, cfg.height, None).with_masks(&self.lattice_masks);
                algorithms::grow_tree(
                    cfg.algorithm,
                    &lattice,
                    Some(&self.lattice_links),
                    cfg.room_slots(),
                    algo_params(cfg),
                    rng,
                    &mut s.grow.algo,
                    &mut s.grow.tree,
                );
                fast::generate_from_tree(plan, cfg, &s.grow.tree, &mut s.fast, &mut s.grid, depth)
            };
            return grid_level(m, &s.grid, &mut s.metrics);
        }
        let (w, h) = (cfg.width, cfg.height);
        let mut rooms = cfg.room_slots();
        let (lattice, links) = if cfg.holes > 0.0 {
            let made = physical::punch_holes(w, h, cfg.holes, rng, &mut s.present, &mut s.holes);
            rooms -= made as usize;
            (Lattice::new(w, h, Some(&s.present[..])), None)
        } else {
            // PERF: the hole-free lattice needs no presence lookups at all, and its masks and
            // edge list are the generator's.
            let lattice = Lattice::new(w, h, None).with_masks(&self.lattice_masks);
            (lattice, Some(&self.lattice_links[..]))
        };
        let m = grow(&lattice, links, rooms, cfg, rng, &mut s.grow);
        raster::rasterize(&lattice, &s.grow.tree, &mut s.grid);
        grid_level(m, &s.grid, &mut s.metrics)
    }

    /// A Delaunay maze: the tree grown over the triangulation of jittered points, stored as the
    /// physical graph with passage flags, all in the scratch's arena.
    fn delaunay_level<'s>(
        &self,
        rng: &mut WarrenRng,
        s: &'s mut MazeScratch,
    ) -> Result<Level<'s>, GenError> {
        s.bump.reset();
        let bump: &'s Bump = &s.bump;
        let topo = delaunay_topology(&self.cfg, rng, &mut s.graph, bump)?;
        let m = grow(&topo, None, topo.x.len(), &self.cfg, rng, &mut s.grow);
        let mut flags = BumpVec::with_capacity_in(topo.src.len(), bump);
        flags.extend(
            s.grow
                .tree
                .passage
                .iter()
                .map(|&p| if p != 0 { edge_flag::PASSAGE } else { 0 }),
        );
        s.metrics = m.to_array();
        let graph = GraphView {
            x: topo.x,
            y: topo.y,
            tag: &[],
            src: topo.src,
            dst: topo.dst,
            flags: flags.into_bump_slice(),
        };
        Ok(Level {
            grid: None,
            graph: Some(graph),
            metrics: &s.metrics,
            ..Level::default()
        })
    }
}

/// A Delaunay maze's physical graph, built in `g` (cleared first) with its adjacency in
/// `bump`: `width x height` jittered points and their triangulation without slivers.
///
/// # Errors
/// When the triangulation fails, when a sliver alone joins parts of the maze, or when a room
/// has more neighbours than a room has slots.
fn delaunay_topology<'b>(
    cfg: &MazeConfig,
    rng: &mut WarrenRng,
    g: &'b mut Graph,
    bump: &'b Bump,
) -> Result<Explicit<'b>, GenError> {
    g.clear();
    physical::jittered_points(cfg.width, cfg.height, cfg.jitter, rng, g);
    let slivers = physical::delaunay_edges(g, 0, bump).map_err(|e| GenError {
        reason: "triangulation failed".into(),
        detail: e.to_string(),
    })?;
    if slivers > 0 {
        return Err(GenError {
            reason: "sliver edge needed".into(),
            detail: format!(
                "{slivers} edge(s) passing a room by less than {} cell widths join parts of the maze no other edge joins",
                physical::SLIVER_GAP
            ),
        });
    }
    let g: &'b Graph = g;
    let (x, y, src, dst) = (&g.x[..], &g.y[..], &g.src[..], &g.dst[..]);
    let csr = Csr::build(x.len(), src, dst, bump);
    let topo = Explicit {
        csr,
        src,
        dst,
        x,
        y,
    };
    if topo.max_degree() > topology::MAX_SLOTS {
        return Err(GenError {
            reason: "room with too many neighbours".into(),
            detail: format!(
                "a room has {} neighbours (at most {})",
                topo.max_degree(),
                topology::MAX_SLOTS
            ),
        });
    }
    Ok(topo)
}

/// A lattice maze's level: its grid and its metrics.
fn grid_level<'s>(
    m: MazeMetrics,
    grid: &'s Grid,
    metrics: &'s mut [f64; MAZE_METRICS.len()],
) -> Level<'s> {
    *metrics = m.to_array();
    Level {
        grid: Some(grid.view()),
        graph: None,
        metrics,
        ..Level::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::mix;
    use crate::maze::config::{Gradient, Weighting};
    use proptest::prelude::*;

    const SEED_1: u64 = 0x5EED_0001;

    /// `grid_only` draws the cells `generate` draws and counts the same loops, for every
    /// algorithm, merged or not, braided or not (the general path), on odd and even sizes.
    #[test]
    fn grid_only_is_generate_s_grid() {
        for algorithm in algorithms::Algorithm::ALL {
            for (width, height, braid, merge) in [
                (2, 2, 0.0, false),
                (7, 4, 0.0, true),
                (13, 9, 0.0, false),
                (13, 9, 0.4, false),
                (31, 17, 0.0, true),
            ] {
                let g = MazeGenerator::new(MazeConfig {
                    width,
                    height,
                    algorithm,
                    braid,
                    merge_dead_ends: merge,
                    ..MazeConfig::default()
                })
                .unwrap();
                let (mut a, mut b) = (g.new_scratch(), g.new_scratch());
                for i in 0..20 {
                    let seed = mix(SEED_1, i);
                    let full = g.generate(seed, &mut a).unwrap();
                    let want = MazeMetrics::from_values(full.metrics).unwrap().loops;
                    let (grid, loops) = g.grid_only(seed, &mut b).unwrap();
                    let case = format!(
                        "{algorithm:?} {width}x{height} braid {braid} merge {merge} seed {i}"
                    );
                    assert_eq!(grid.cells, full.grid.unwrap().cells, "{case}");
                    assert_eq!(
                        (grid.width, grid.height),
                        (full.grid.unwrap().width, full.grid.unwrap().height),
                        "{case}"
                    );
                    assert_eq!(loops, want, "{case}");
                }
            }
        }
    }

    fn record<'a>(index: u64, seed: u64, level: Level<'a>) -> LevelRecord<'a> {
        LevelRecord { index, seed, level }
    }

    /// `level` with its grid cells replaced by `cells`.
    fn with_cells<'a>(level: Level<'a>, cells: &'a [u8]) -> Level<'a> {
        let grid = crate::core::grid::GridView {
            cells,
            ..level.grid.unwrap()
        };
        Level {
            grid: Some(grid),
            ..level
        }
    }

    /// Golden hash of the default profile's first 64 levels. Re-mint only with a written reason
    /// (the PRNG, the mixer, the tree, the merge or the raster changed on purpose).
    #[test]
    fn golden_default_profile() {
        let g = MazeGenerator::new(MazeConfig::default()).unwrap();
        let mut s = g.new_scratch();
        let mut h = crate::core::hash::ContentHasher::new();
        for i in 0..64 {
            let level = g.generate(mix(SEED_1, i), &mut s).unwrap();
            h.word(level.content_hash());
            h.u32s(&level.metrics.iter().map(|&m| m as u32).collect::<Vec<_>>());
        }
        assert_eq!(
            h.finish(),
            GOLDEN_DEFAULT,
            "maze output changed: {:#x}",
            h.finish()
        );
    }

    // Re-minted for 0.2.0: `WarrenRng::shuffle` uses both halves of each 64-bit output, and
    // `ContentHasher::bytes` hashes in four lanes. Re-minted again when the metrics `loops` and
    // `braided_dead_ends` were added (zero for these unbraided mazes): hashing the first twelve
    // metrics alone still gave 0xa559_e976_2dcc_a588, so the levels did not change. Re-minted
    // when `layout_hash` became the one content hash of every kind (`core::hash::level_hash`,
    // which marks the grid section): every other column of the conformance suite was unchanged.
    // Re-minted when `start_x`, `start_y`, `goal_x`, `goal_y` and `path_length` were added
    // (issue 32): hashing the first fourteen metrics alone still gave 0xed4b_1270_a319_4089.
    const GOLDEN_DEFAULT: u64 = 0x8311_686a_a043_bced;

    /// The start and goal squares are the start and goal rooms' cells, and the path between
    /// them two grid steps per passage, on both the fast and the general path.
    #[test]
    fn start_and_goal_are_the_rooms_cells() {
        for fast in [true, false] {
            let cfg = MazeConfig {
                width: 7,
                height: 5,
                ..MazeConfig::default()
            };
            let mut g = MazeGenerator::new(cfg).unwrap();
            if !fast {
                g = g.general_path_only();
            }
            let mut s = g.new_scratch();
            let level = g.generate(mix(3, 1), &mut s).unwrap();
            let m = MazeMetrics::from_values(level.metrics).unwrap();
            let cell = |room: u32| (2 * (room % 7) + 1, 2 * (room / 7) + 1);
            assert_eq!((m.start_x, m.start_y), cell(m.start_room));
            assert_eq!((m.goal_x, m.goal_y), cell(m.goal_room));
            assert_eq!(m.path_length, 2 * m.diameter);
        }
    }

    #[test]
    fn same_seed_same_level_whatever_ran_before() {
        let g = MazeGenerator::new(MazeConfig {
            width: 12,
            height: 9,
            ..Default::default()
        })
        .unwrap();
        let mut warm = g.new_scratch();
        for i in 0..10 {
            g.generate(mix(1, i), &mut warm).unwrap();
        }
        let a = g.generate(42, &mut warm).unwrap().content_hash();
        let b = g.generate(42, &mut g.new_scratch()).unwrap().content_hash();
        assert_eq!(a, b);
    }

    #[test]
    fn merging_reduces_dead_ends_on_average() {
        let on = MazeGenerator::new(MazeConfig::default()).unwrap();
        let off = MazeGenerator::new(MazeConfig {
            merge_dead_ends: false,
            ..Default::default()
        })
        .unwrap();
        let (mut so, mut sf) = (on.new_scratch(), off.new_scratch());
        let (mut dead_on, mut dead_off) = (0, 0);
        for i in 0..50 {
            let seed = mix(SEED_1, i);
            let a = MazeMetrics::from_values(on.generate(seed, &mut so).unwrap().metrics).unwrap();
            dead_on += a.dead_ends;
            assert_eq!(a.mergeable_dead_ends, 0, "mergeable dead ends left");
            let b = MazeMetrics::from_values(off.generate(seed, &mut sf).unwrap().metrics).unwrap();
            dead_off += b.dead_ends;
            // Same seed, same tree before merging: dead ends drop by exactly the merge count.
            assert_eq!(b.dead_ends - a.dead_ends, a.merges);
        }
        assert!(dead_on < dead_off, "{dead_on} vs {dead_off}");
    }

    #[test]
    fn verify_rejects_a_cycle_and_a_cut() {
        let g = MazeGenerator::new(MazeConfig {
            width: 6,
            height: 5,
            ..Default::default()
        })
        .unwrap();
        let mut s = g.new_scratch();
        let level = g.generate(7, &mut s).unwrap();
        let grid = level.grid.unwrap();
        let mut cells = grid.cells.to_vec();
        // Open every wall between two rooms: cycles appear.
        let w = grid.width as usize;
        for y in (1..grid.height as usize - 1).step_by(2) {
            for x in (2..w - 1).step_by(2) {
                cells[y * w + x] = crate::core::grid::cell::FLOOR;
            }
        }
        assert!(g.verify(&record(0, 7, with_cells(level, &cells))).is_err());
        // Close one passage: the tree falls apart.
        let mut cut = grid.cells.to_vec();
        let at = (1..cut.len()).find(|&i| {
            let (x, y) = (i % w, i / w);
            x % 2 == 0 && y % 2 == 1 && x > 0 && x < w - 1 && cut[i] == 1
        });
        cut[at.unwrap()] = 0;
        assert!(g.verify(&record(0, 7, with_cells(level, &cut))).is_err());
    }

    /// Regression: a cycle plus a cut elsewhere keeps |E| = |V| - 1; verify must say so rather
    /// than search a graph that is not a tree (it used to index out of bounds).
    #[test]
    fn verify_rejects_a_cycle_with_a_cut_elsewhere() {
        let g = MazeGenerator::new(MazeConfig {
            width: 4,
            height: 4,
            ..Default::default()
        })
        .unwrap();
        let mut s = g.new_scratch();
        let level = g.generate(11, &mut s).unwrap();
        let grid = level.grid.unwrap();
        let w = grid.width as usize;
        let between = |i: usize| {
            let (x, y) = (i % w, i / w);
            (x % 2 == 0) != (y % 2 == 0) && x > 0 && y > 0 && x < w - 1 && y < w - 1
        };
        let walls: Vec<usize> = (0..grid.cells.len())
            .filter(|&i| between(i) && grid.cells[i] == 0)
            .collect();
        let passages: Vec<usize> = (0..grid.cells.len())
            .filter(|&i| between(i) && grid.cells[i] == 1)
            .collect();
        let mut rejected = 0;
        for &open in &walls {
            for &close in &passages {
                let mut cells = grid.cells.to_vec();
                cells[open] = 1;
                cells[close] = 0;
                // Some swaps give another valid tree; none may panic, and most must fail.
                let bad = record(0, 11, with_cells(level, &cells));
                rejected += usize::from(g.verify(&bad).is_err());
            }
        }
        assert!(rejected > walls.len() * passages.len() / 2, "{rejected}");
    }

    /// A braided maze verifies; closing one of its passages, or opening one more wall, does not.
    #[test]
    fn verify_checks_the_braid() {
        let g = MazeGenerator::new(MazeConfig {
            width: 10,
            height: 8,
            braid: 0.5,
            ..Default::default()
        })
        .unwrap();
        let mut s = g.new_scratch();
        let level = g.generate(5, &mut s).unwrap();
        assert!(
            MazeMetrics::from_values(level.metrics).unwrap().loops > 0,
            "no loop"
        );
        assert!(g.verify(&record(0, 5, level)).is_ok());
        let grid = level.grid.unwrap();
        let w = grid.width as usize;
        let between = |i: usize| {
            let (x, y) = (i % w, i / w);
            (x % 2 == 0) != (y % 2 == 0)
                && x > 0
                && y > 0
                && x < w - 1
                && y < grid.height as usize - 1
        };
        for (from, to) in [(1u8, 0u8), (0, 1)] {
            let at = (0..grid.cells.len()).find(|&i| between(i) && grid.cells[i] == from);
            let mut cells = grid.cells.to_vec();
            cells[at.unwrap()] = to;
            let bad = record(0, 5, with_cells(level, &cells));
            assert!(g.verify(&bad).is_err(), "{from} -> {to} passed");
        }
        // A maze braided by another share than the profile's: rejected either way.
        let full = MazeGenerator::new(MazeConfig {
            braid: 1.0,
            ..g.config().clone()
        })
        .unwrap();
        let mut s_full = full.new_scratch();
        let all = full.generate(5, &mut s_full).unwrap();
        assert!(full.verify(&record(0, 5, all)).is_ok());
        let err = g.verify(&record(0, 5, all)).unwrap_err();
        assert!(err.0.contains("the share asks for"), "{err:?}");
        let err = full.verify(&record(0, 5, level)).unwrap_err();
        assert!(err.0.contains("the share asks for"), "{err:?}");
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

        /// Every configuration yields levels that pass `verify`.
        #[test]
        fn generated_levels_verify(
            width in 1u32..14,
            height in 1u32..14,
            delaunay in any::<bool>(),
            holes in 0.0f64..0.5,
            weighting in 0usize..3,
            gradient in 0usize..5,
            merge in any::<bool>(),
            braid in prop_oneof![Just(0.0f64), Just(1.0f64), 0.0f64..1.0],
            seed in any::<u64>(),
        ) {
            let cfg = MazeConfig {
                topology: if delaunay { config::Topology::Delaunay } else { config::Topology::Lattice },
                width: if delaunay { width.max(2) } else { width },
                height: if delaunay { height.max(2) } else { height },
                holes: if delaunay { 0.0 } else { holes },
                weighting: [Weighting::Random, Weighting::Biased, Weighting::Gradient][weighting],
                gradient: [Gradient::X, Gradient::Y, Gradient::XPlusY, Gradient::XMinusY, Gradient::Radial][gradient],
                merge_dead_ends: merge,
                braid,
                ..Default::default()
            };
            let g = MazeGenerator::new(cfg).unwrap();
            let mut s = g.new_scratch();
            let level = g.generate(seed, &mut s).unwrap();
            let r = record(3, seed, level);
            prop_assert!(g.verify(&r).is_ok(), "{:?}", g.verify(&r));
        }
    }
}
