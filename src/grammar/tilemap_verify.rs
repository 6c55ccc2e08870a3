//! The check of a graph-grammar level's tile map against its graph (what `warren verify` runs),
//! written from the map's definition alone (see [`super::tilemap`]) and sharing no code with
//! the rasteriser, so that it is the rasteriser's oracle.
//!
//! A map passes when:
//! - only wall, floor and door tiles are used, and the grid's outermost ring is wall;
//! - every room's rectangle (grid coordinates) lies inside the grid with its wall ring, is all
//!   floor, and its ring is wall except at doors, and no door is at a ring corner;
//! - the tiles outside rooms that are floor or door fall into 4-connected *corridors*, each of
//!   which opens (through its doors) into exactly two rooms, and those pairs are, as a multiset,
//!   exactly the level's corridor edges (non-cosmetic edges between rooms);
//! - every room is reached from every other by walking over floor and doors.

use crate::core::error::Violation;
use crate::core::generator::{GraphView, RoomsView};
use crate::core::graph::edge_flag;
use crate::core::grid::{GridView, cell};
use crate::ensure_level;

/// Counts a map passed with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MapFacts {
    /// Room floor tiles.
    pub room_tiles: u64,
    /// Corridor floor tiles (outside rooms, doors not counted).
    pub corridor_tiles: u64,
    /// Door tiles.
    pub door_tiles: u64,
}

const NONE: u32 = u32::MAX;

/// Checks `grid` against the rooms and corridor edges of `graph` (see the module doc).
///
/// # Errors
/// The first broken rule, with the tile or room at fault.
///
/// # Runtime
/// O(W H + V + E log E); allocates two tile-sized arrays.
pub fn verify_tile_map(
    grid: &GridView<'_>,
    graph: &GraphView<'_>,
    rooms: &RoomsView<'_>,
) -> Result<MapFacts, Violation> {
    let (w, h) = (grid.width as i64, grid.height as i64);
    ensure_level!(
        grid.cells.len() as i64 == w * h,
        "grid of {w} x {h} holds {} tiles",
        grid.cells.len()
    );
    let at = |x: i64, y: i64| (y * w + x) as usize;
    if let Some(i) = grid
        .cells
        .iter()
        .position(|&c| c != cell::WALL && c != cell::FLOOR && c != cell::DOOR)
    {
        return Err(Violation::new(format!(
            "tile ({}, {}) has code {}: a grammar map uses wall, floor and door only",
            i as i64 % w,
            i as i64 / w,
            grid.cells[i]
        )));
    }
    for x in 0..w {
        for y in [0, h - 1] {
            ensure_level!(
                grid.cells[at(x, y)] == cell::WALL,
                "tile ({x}, {y}) on the grid's edge is not wall"
            );
        }
    }
    for y in 0..h {
        for x in [0, w - 1] {
            ensure_level!(
                grid.cells[at(x, y)] == cell::WALL,
                "tile ({x}, {y}) on the grid's edge is not wall"
            );
        }
    }

    // Room floors.
    let n = rooms.x0.len();
    let solid = |v: usize| rooms.x0[v] < rooms.x1[v] && rooms.y0[v] < rooms.y1[v];
    let room = |v: usize| {
        (
            i64::from(rooms.x0[v]),
            i64::from(rooms.y0[v]),
            i64::from(rooms.x1[v]),
            i64::from(rooms.y1[v]),
        )
    };
    let mut room_of = vec![NONE; grid.cells.len()];
    let mut facts = MapFacts::default();
    for v in (0..n).filter(|&v| solid(v)) {
        let (x0, y0, x1, y1) = room(v);
        ensure_level!(
            x0 >= 1 && y0 >= 1 && x1 < w && y1 < h,
            "room {v} [{x0}, {x1}) x [{y0}, {y1}) and its wall do not fit the {w} x {h} grid"
        );
        for y in y0..y1 {
            for x in x0..x1 {
                let i = at(x, y);
                ensure_level!(
                    room_of[i] == NONE,
                    "rooms {} and {v} overlap at ({x}, {y})",
                    room_of[i]
                );
                ensure_level!(
                    grid.cells[i] == cell::FLOOR,
                    "room {v} is not floor at ({x}, {y})"
                );
                room_of[i] = v as u32;
            }
        }
        facts.room_tiles += ((x1 - x0) * (y1 - y0)) as u64;
    }
    // Room walls: wall or door, doors beside the floor (never at a corner).
    for v in (0..n).filter(|&v| solid(v)) {
        let (x0, y0, x1, y1) = room(v);
        for y in y0 - 1..=y1 {
            for x in x0 - 1..=x1 {
                if (x0..x1).contains(&x) && (y0..y1).contains(&y) {
                    continue;
                }
                let c = grid.cells[at(x, y)];
                ensure_level!(
                    c == cell::WALL || c == cell::DOOR,
                    "room {v}'s wall is open at ({x}, {y})"
                );
                let corner = !(x0..x1).contains(&x) && !(y0..y1).contains(&y);
                ensure_level!(
                    c != cell::DOOR || !corner,
                    "room {v} has a door at a corner of its wall ({x}, {y})"
                );
            }
        }
    }

    // Corridors: 4-connected components of doors and of floor outside rooms.
    let passage = |i: usize| {
        (grid.cells[i] == cell::FLOOR && room_of[i] == NONE) || grid.cells[i] == cell::DOOR
    };
    let mut seen = vec![false; grid.cells.len()];
    let mut stack = Vec::new();
    let mut opened: Vec<u32> = Vec::new();
    let mut found: Vec<(u32, u32)> = Vec::new();
    for start in 0..grid.cells.len() {
        if seen[start] || !passage(start) {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        opened.clear();
        while let Some(i) = stack.pop() {
            let (x, y) = (i as i64 % w, i as i64 / w);
            let door = grid.cells[i] == cell::DOOR;
            if door {
                facts.door_tiles += 1;
            } else {
                facts.corridor_tiles += 1;
            }
            let mut beside_room = false;
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= w || ny >= h {
                    continue;
                }
                let j = at(nx, ny);
                if room_of[j] != NONE {
                    ensure_level!(
                        door,
                        "corridor tile ({x}, {y}) lies beside room {}'s floor without a door",
                        room_of[j]
                    );
                    beside_room = true;
                    if !opened.contains(&room_of[j]) {
                        opened.push(room_of[j]);
                    }
                } else if passage(j) && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
            ensure_level!(!door || beside_room, "door ({x}, {y}) opens into no room");
        }
        let (sx, sy) = (start as i64 % w, start as i64 / w);
        ensure_level!(
            opened.len() == 2,
            "the corridor at ({sx}, {sy}) opens into {} room(s) {:?}, not two",
            opened.len(),
            opened
        );
        found.push((opened[0].min(opened[1]), opened[0].max(opened[1])));
    }
    let mut want: Vec<(u32, u32)> = (0..graph.src.len())
        .filter(|&e| graph.flags[e] & edge_flag::COSMETIC == 0)
        .map(|e| (graph.src[e], graph.dst[e]))
        .filter(|&(a, b)| solid(a as usize) && solid(b as usize))
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    want.sort_unstable();
    found.sort_unstable();
    if want != found {
        let missing = want.iter().find(|p| !found.contains(p));
        let extra = found.iter().find(|p| !want.contains(p));
        return Err(Violation::new(match (missing, extra) {
            (Some((a, b)), _) => {
                format!("the map has no corridor of its own from room {a} to room {b}")
            }
            (None, Some((a, b))) => {
                format!("the map joins rooms {a} and {b}, which no corridor edge joins")
            }
            (None, None) => format!(
                "the map has {} corridors for {} corridor edges",
                found.len(),
                want.len()
            ),
        }));
    }

    // Every room reached from the first over floor and doors.
    if let Some(first) = (0..n).find(|&v| solid(v)) {
        let walk = |i: usize| grid.cells[i] == cell::FLOOR || grid.cells[i] == cell::DOOR;
        seen.iter_mut().for_each(|s| *s = false);
        let i0 = at(i64::from(rooms.x0[first]), i64::from(rooms.y0[first]));
        seen[i0] = true;
        stack.push(i0);
        while let Some(i) = stack.pop() {
            let (x, y) = (i as i64 % w, i as i64 / w);
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let j = at(x + dx, y + dy);
                if walk(j) && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            }
        }
        if let Some(v) = (0..n)
            .filter(|&v| solid(v))
            .find(|&v| !seen[at(i64::from(rooms.x0[v]), i64::from(rooms.y0[v]))])
        {
            return Err(Violation::new(format!(
                "room {v} cannot be walked to from room {first}"
            )));
        }
    }
    Ok(facts)
}
