//! `verify` for mazes: decode the stored level back into a physical graph and a passage tree and
//! re-check seed 001's invariants: a spanning tree (|E| = |V| - 1, connected), passages only along
//! physical edges, the merge fixpoint when merging is on, and every stored metric recomputed.
//! A braided maze is the tree plus exactly `loops` passages (|E| = |V| - 1 + loops, connected),
//! with the configured share of its dead ends removed.

use bumpalo::Bump;

use crate::core::error::Violation;
use crate::core::generator::LevelRecord;
use crate::core::graph::{Csr, edge_flag};
use crate::core::sets::UnionFind;
use crate::ensure_level;
use crate::maze::braid::{self, Braided};
use crate::maze::config::{MazeConfig, Topology as Kind};
use crate::maze::metrics::{self, Bfs, MAZE_METRICS, MazeMetrics};
use crate::maze::spanning::Tree;
use crate::maze::topology::{Explicit, Lattice, MAX_SLOTS, Topology};
use crate::maze::{physical, raster};

/// Re-checks one stored maze against `cfg`.
pub fn verify(cfg: &MazeConfig, record: &LevelRecord<'_>) -> Result<(), Violation> {
    let level = &record.level;
    let stored = MazeMetrics::from_values(level.metrics).ok_or_else(|| {
        Violation::new(format!(
            "{} metric values, expected {}",
            level.metrics.len(),
            MAZE_METRICS.len()
        ))
    })?;
    let mut tree = Tree::default();
    match cfg.topology {
        Kind::Lattice => {
            let grid = level
                .grid
                .ok_or_else(|| Violation::new("lattice maze without a grid"))?;
            let mut present = Vec::new();
            raster::decode(&grid, cfg.width, cfg.height, &mut present, &mut tree)
                .map_err(|e| Violation::new(e.to_string()))?;
            let lattice = Lattice::new(cfg.width, cfg.height, Some(&present));
            check_tree(&lattice, &tree, cfg, &stored)?;
        }
        Kind::Delaunay => {
            let g = level
                .graph
                .ok_or_else(|| Violation::new("Delaunay maze without a graph"))?;
            let n = g.x.len();
            ensure_level!(
                n == cfg.room_slots() && g.y.len() == n,
                "{n} rooms, expected {}",
                cfg.room_slots()
            );
            let m = g.src.len();
            ensure_level!(
                g.dst.len() == m && g.flags.len() == m,
                "edge columns differ in length"
            );
            let bump = Bump::new();
            let (physical_edges, slivers) =
                physical::maze_pairs(g.x, g.y, &bump).map_err(|e| Violation::new(e.to_string()))?;
            ensure_level!(
                slivers == 0,
                "{slivers} edge(s) pass a room by less than {} cell widths",
                physical::SLIVER_GAP
            );
            ensure_level!(
                physical_edges.len() == m
                    && physical_edges
                        .iter()
                        .zip(g.src.iter().zip(g.dst))
                        .all(|(&p, (&a, &b))| p == (a, b)),
                "stored edges are not the Delaunay triangulation of the stored rooms without its slivers"
            );
            ensure_level!(
                g.flags.iter().all(|&f| f & !edge_flag::PASSAGE == 0),
                "edge flags other than the passage bit"
            );
            let csr = Csr::build(n, g.src, g.dst, &bump);
            let topo = Explicit {
                csr,
                src: g.src,
                dst: g.dst,
                x: g.x,
                y: g.y,
            };
            ensure_level!(
                topo.max_degree() <= MAX_SLOTS,
                "a room has more than {MAX_SLOTS} neighbours"
            );
            tree.reset(n, m);
            topo.for_each_edge(|link| {
                if g.flags[link.edge as usize] != 0 {
                    tree.open(link);
                }
            });
            check_tree(&topo, &tree, cfg, &stored)?;
        }
    }
    Ok(())
}

/// Spanning tree (or a braided one), merge fixpoint and metrics.
fn check_tree<T: Topology>(
    topo: &T,
    tree: &Tree,
    cfg: &MazeConfig,
    stored: &MazeMetrics,
) -> Result<(), Violation> {
    let rooms = (0..topo.slot_count() as u32)
        .filter(|&v| topo.is_room(v))
        .count();
    let passages = tree.passage.iter().filter(|&&p| p != 0).count();
    ensure_level!(rooms > 0, "no rooms");
    let (loops, removed) = (stored.loops, stored.braided_dead_ends);
    ensure_level!(
        cfg.braid > 0.0 || loops + removed == 0,
        "loops recorded with braiding off"
    );
    if loops > 0 {
        return check_braided(topo, tree, cfg, stored, rooms, passages);
    }
    ensure_level!(
        passages + 1 == rooms,
        "{passages} passages for {rooms} rooms: not a tree"
    );
    // A cycle plus a cut elsewhere keeps the count right: check acyclicity explicitly (the
    // searches below assume a tree).
    let mut sets = UnionFind::default();
    sets.reset(topo.slot_count());
    let mut cycle = None;
    topo.for_each_edge(|link| {
        if cycle.is_none() && tree.is_passage(link.edge) && !sets.union(link.a, link.b) {
            cycle = Some(link.edge);
        }
    });
    if let Some(e) = cycle {
        return Err(Violation::new(format!(
            "passages form a cycle through edge {e}: not a tree"
        )));
    }
    let merges = stored.merges;
    ensure_level!(
        cfg.merge_dead_ends || merges == 0,
        "merges recorded with merging off"
    );
    let mut bfs = Bfs::default();
    let recomputed = metrics::compute(topo, tree, &mut bfs, merges, None);
    ensure_level!(
        bfs.reached() == rooms,
        "only {} of {rooms} rooms connected",
        bfs.reached()
    );
    ensure_level!(
        !cfg.merge_dead_ends || recomputed.mergeable_dead_ends == 0,
        "merge fixpoint not reached: {} dead ends could still merge",
        recomputed.mergeable_dead_ends
    );
    ensure_level!(removed == 0, "dead ends braided without a loop");
    check_share(topo, tree, cfg, recomputed.dead_ends, 0)?;
    same_metrics(stored, &recomputed)
}

/// A braided maze: the tree plus `loops` passages, connected, its share of dead ends removed,
/// and every metric recomputed from the stored start and goal (the tree's diameter ends, which
/// the braided maze no longer shows).
fn check_braided<T: Topology>(
    topo: &T,
    tree: &Tree,
    cfg: &MazeConfig,
    stored: &MazeMetrics,
    rooms: usize,
    passages: usize,
) -> Result<(), Violation> {
    let (loops, removed) = (stored.loops, stored.braided_dead_ends);
    ensure_level!(
        passages + 1 == rooms + loops as usize,
        "{passages} passages for {rooms} rooms and {loops} loops: not a tree plus its loops"
    );
    ensure_level!(
        loops <= removed && removed <= 2 * loops,
        "{removed} dead ends removed by {loops} openings (each removes one or two)"
    );
    let (start, goal) = (stored.start_room, stored.goal_room);
    ensure_level!(
        topo.is_room(start) && topo.is_room(goal),
        "start {start} or goal {goal} is not a room"
    );
    let mut bfs = Bfs::default();
    let braided = Braided { loops, removed };
    let recomputed =
        metrics::compute_braided(topo, tree, &mut bfs, stored.merges, start, goal, braided);
    ensure_level!(
        bfs.reached() == rooms,
        "only {} of {rooms} rooms connected",
        bfs.reached()
    );
    check_share(topo, tree, cfg, recomputed.dead_ends, removed)?;
    same_metrics(stored, &recomputed)
}

/// The braid removed `round(braid * D)` of the `D = dead_ends + removed` dead ends, or one more
/// (a last opening between two dead ends), or fewer only when no dead end left has a wall to
/// open.
fn check_share<T: Topology>(
    topo: &T,
    tree: &Tree,
    cfg: &MazeConfig,
    dead_ends: u32,
    removed: u32,
) -> Result<(), Violation> {
    let goal = braid::target(cfg.braid, dead_ends + removed);
    ensure_level!(
        removed <= goal + 1,
        "{removed} dead ends braided, the share asks for {goal}"
    );
    if removed < goal {
        let stuck = (0..topo.slot_count() as u32).all(|v| {
            !topo.is_room(v)
                || tree.degree(v) != 1
                || topo.physical_mask(v) & !tree.mask[v as usize] == 0
        });
        ensure_level!(
            stuck,
            "{removed} dead ends braided, the share asks for {goal} and walls are left to open"
        );
    }
    Ok(())
}

/// Every stored metric equals its recomputed value.
fn same_metrics(stored: &MazeMetrics, recomputed: &MazeMetrics) -> Result<(), Violation> {
    for (spec, (got, want)) in MAZE_METRICS
        .iter()
        .zip(stored.to_array().into_iter().zip(recomputed.to_array()))
    {
        ensure_level!(
            got == want,
            "metric {} is {got}, recomputed {want}",
            spec.name
        );
    }
    Ok(())
}
