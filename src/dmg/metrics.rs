//! [`DmgMetrics`]: what one DMG dungeon measures, and how a drawn dungeon is measured: its
//! counts, its floor, its loops (`cycle_rank`) and its start and goal (`ends`), which
//! `verify` recomputes from the stored columns.

use crate::core::grid::{GridView, cell};
use crate::core::route::{Ends, RouteScratch};
use crate::core::sets::UnionFind;
use crate::dmg::dungeon::{CHAMBER, Counts, DungeonScratch};

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
/// The metrics of the dungeon just drawn into `d`, whose counts are `c`.
pub(crate) fn measure(
    c: &Counts,
    d: &DungeonScratch,
    sets: &mut UnionFind,
    route: &mut RouteScratch,
) -> DmgMetrics {
    let grid = &d.map.as_ref().expect("generated").grid;
    let floor = grid.cells.iter().filter(|&&c| passable(c)).count();
    let chambers = d.objects.iter().filter(|&&(kind, _)| kind == CHAMBER);
    let e = ends(
        &grid.view(),
        chambers.map(|(_, b)| [b.x0, b.y0, b.x1, b.y1]),
        route,
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
        cycle_rank: cycle_rank(d.objects.len(), &d.links, sets),
        start_x: e.start.0,
        start_y: e.start.1,
        goal_x: e.goal.0,
        goal_y: e.goal.1,
        path_length: e.path_length,
    }
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
pub(crate) fn cycle_rank<F>(
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

pub(crate) fn passable(code: u8) -> bool {
    code != cell::WALL && code != cell::FILLED && code != cell::VOID
}
