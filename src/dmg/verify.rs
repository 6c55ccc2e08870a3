//! `verify` for DMG dungeons (seed 003): re-checks a stored level from its columns alone.
//!
//! The grid is the profile's size and holds known cell codes only; the map's edge stays rock;
//! every door joins two passable squares opposite each other; every passable square is reached
//! from every other. The objects lie inside the map, their links name existing objects, the
//! stored `cycle_rank` is the object graph's, and no two chambers overlap.

use crate::core::error::Violation;
use crate::core::generator::{GraphView, LevelRecord, RoomsView};
use crate::core::grid::{GridView, cell, flood4_by};
use crate::core::route::{Ends, RouteScratch};
use crate::dmg::config::DmgConfig;
use crate::dmg::dungeon::CHAMBER;
use crate::dmg::metrics::{DmgMetrics, cycle_rank, ends, passable};
use crate::ensure_level;

/// A stored grid read with rock around it.
struct Cells<'a> {
    w: i32,
    h: i32,
    cells: &'a [u8],
}

impl Cells<'_> {
    /// The code at `(x, y)`; rock off the map.
    fn at(&self, x: i32, y: i32) -> u8 {
        if x < 0 || y < 0 || x >= self.w || y >= self.h {
            cell::WALL
        } else {
            self.cells[(y * self.w + x) as usize]
        }
    }
}

/// Re-checks one stored dungeon against the profile `cfg` (see the module docs).
///
/// # Runtime
/// O(W * H) for the grid, O(V + E) for the objects plus O(C^2) for C chambers; allocates a
/// visited mark per square and the flood's stack.
pub(crate) fn verify(cfg: &DmgConfig, record: &LevelRecord<'_>) -> Result<(), Violation> {
    let g = record
        .level
        .grid
        .ok_or_else(|| Violation::new("no grid columns"))?;
    let cells = check_grid(cfg, &g)?;
    check_map_edge(&cells)?;
    check_doors(&cells)?;
    check_reachable(&cells)?;
    let (Some(graph), Some(rooms)) = (record.level.graph, record.level.rooms) else {
        return Err(Violation::new("no object graph or room columns"));
    };
    check_objects(&graph, &rooms, &cells)?;
    check_cycle_rank(&graph, record.level.metrics)?;
    check_chambers_apart(&graph, &rooms)?;
    check_ends(&g, &graph, &rooms, record.level.metrics)
}

/// The stored start, goal and path length are the entrance, the farthest chamber square and
/// the steps between them, recomputed from the grid.
fn check_ends(
    g: &GridView<'_>,
    graph: &GraphView<'_>,
    rooms: &RoomsView<'_>,
    metrics: &[f64],
) -> Result<(), Violation> {
    let m = DmgMetrics::from_values(metrics)
        .ok_or_else(|| Violation::new(format!("{} metric values", metrics.len())))?;
    let chambers = (0..graph.x.len())
        .filter(|&v| graph.tag[v] == u16::from(CHAMBER))
        .map(|v| [rooms.x0[v], rooms.y0[v], rooms.x1[v], rooms.y1[v]]);
    let want = ends(g, chambers, &mut RouteScratch::default());
    let stored = Ends::from_values([m.start_x, m.start_y, m.goal_x, m.goal_y, m.path_length]);
    Ends::check(stored, want)
}

/// The grid is the profile's size, holds one code per square and only known codes.
fn check_grid<'a>(cfg: &DmgConfig, g: &GridView<'a>) -> Result<Cells<'a>, Violation> {
    ensure_level!(
        g.width == cfg.width && g.height == cfg.height,
        "grid is {} x {}, the profile says {} x {}",
        g.width,
        g.height,
        cfg.width,
        cfg.height
    );
    let (w, h) = (g.width as i32, g.height as i32);
    ensure_level!(
        g.cells.len() == (w * h) as usize,
        "grid holds {} cells",
        g.cells.len()
    );
    if let Some(&bad) = g.cells.iter().find(|&&c| c >= cell::COUNT) {
        return Err(Violation::new(format!("unknown cell code {bad}")));
    }
    Ok(Cells {
        w,
        h,
        cells: g.cells,
    })
}

/// The edge of the map stays rock.
fn check_map_edge(c: &Cells<'_>) -> Result<(), Violation> {
    for x in 0..c.w {
        ensure_level!(
            !passable(c.at(x, 0)) && !passable(c.at(x, c.h - 1)),
            "floor on the map's edge at column {x}"
        );
    }
    for y in 0..c.h {
        ensure_level!(
            !passable(c.at(0, y)) && !passable(c.at(c.w - 1, y)),
            "floor on the map's edge at row {y}"
        );
    }
    Ok(())
}

/// Every door lies between two passable squares, opposite each other.
fn check_doors(c: &Cells<'_>) -> Result<(), Violation> {
    for y in 0..c.h {
        for x in 0..c.w {
            let code = c.at(x, y);
            if code == cell::DOOR || code == cell::SECRET_DOOR {
                let ns = passable(c.at(x, y - 1)) && passable(c.at(x, y + 1));
                let ew = passable(c.at(x - 1, y)) && passable(c.at(x + 1, y));
                ensure_level!(
                    ns || ew,
                    "door at ({x}, {y}) does not join two floor squares"
                );
            }
        }
    }
    Ok(())
}

/// Everything passable is reached from the first passable square (a flood over the four
/// neighbours).
fn check_reachable(c: &Cells<'_>) -> Result<(), Violation> {
    let Some(first) = c.cells.iter().position(|&code| passable(code)) else {
        return Err(Violation::new("no floor at all"));
    };
    let reached = flood4_by(c.cells, c.w as u32, first, passable, &mut Vec::new());
    let total = c.cells.iter().filter(|&&code| passable(code)).count();
    ensure_level!(
        reached == total,
        "{} of {total} floor squares cannot be reached from the others",
        total - reached
    );
    Ok(())
}

/// The object columns agree in length, every box lies inside the map and is not empty, and
/// every link joins two existing objects.
fn check_objects(
    graph: &GraphView<'_>,
    rooms: &RoomsView<'_>,
    c: &Cells<'_>,
) -> Result<(), Violation> {
    let n = graph.x.len();
    ensure_level!(
        graph.tag.len() == n
            && [rooms.x0, rooms.y0, rooms.x1, rooms.y1]
                .iter()
                .all(|col| col.len() == n),
        "object columns disagree in length"
    );
    for v in 0..n {
        ensure_level!(
            rooms.x0[v] >= 0
                && rooms.y0[v] >= 0
                && rooms.x1[v] <= c.w
                && rooms.y1[v] <= c.h
                && rooms.x0[v] < rooms.x1[v]
                && rooms.y0[v] < rooms.y1[v],
            "object {v}'s box lies outside the map or is empty"
        );
    }
    for (&a, &b) in graph.src.iter().zip(graph.dst) {
        ensure_level!(
            (a as usize) < n && (b as usize) < n,
            "link {a}-{b} with {n} objects"
        );
    }
    Ok(())
}

/// The stored `cycle_rank` metric is the object graph's.
fn check_cycle_rank(graph: &GraphView<'_>, metrics: &[f64]) -> Result<(), Violation> {
    let links: Vec<(u32, u32, ())> = graph
        .src
        .iter()
        .zip(graph.dst)
        .map(|(&a, &b)| (a, b, ()))
        .collect();
    let n = graph.x.len();
    let rank = cycle_rank(n, &links, &mut crate::core::sets::UnionFind::default());
    let stored = DmgMetrics::from_values(metrics).map(|m| m.cycle_rank);
    ensure_level!(
        stored == Some(rank),
        "metric cycle_rank is {stored:?}, the object graph has {rank} loops"
    );
    Ok(())
}

/// No two chambers' boxes overlap.
fn check_chambers_apart(graph: &GraphView<'_>, rooms: &RoomsView<'_>) -> Result<(), Violation> {
    let chambers: Vec<usize> = (0..graph.x.len())
        .filter(|&v| graph.tag[v] == u16::from(CHAMBER))
        .collect();
    for (i, &a) in chambers.iter().enumerate() {
        for &b in &chambers[i + 1..] {
            let apart = rooms.x1[a] <= rooms.x0[b]
                || rooms.x1[b] <= rooms.x0[a]
                || rooms.y1[a] <= rooms.y0[b]
                || rooms.y1[b] <= rooms.y0[a];
            ensure_level!(apart, "chambers {a} and {b} overlap");
        }
    }
    Ok(())
}
