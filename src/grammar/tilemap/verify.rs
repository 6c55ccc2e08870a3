//! The check of a graph-grammar level's tile map against its graph (what `warren verify` runs),
//! written from the map's definition alone (see [`super`]) and sharing no code with
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
use crate::core::grid::{GridView, cell, flood4_by};
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
    only_wall_floor_and_door(grid)?;
    let mut check = MapCheck {
        cells: grid.cells,
        rooms,
        w,
        h,
        room_of: vec![NONE; grid.cells.len()],
        seen: vec![false; grid.cells.len()],
        stack: Vec::new(),
        facts: MapFacts::default(),
    };
    check.walled_edge()?;
    check.room_floors()?;
    check.room_walls()?;
    let found = check.corridors()?;
    same_corridors(corridor_edges(graph, rooms), found)?;
    check.rooms_walkable()?;
    Ok(check.facts)
}

/// Every tile is wall, floor or door.
fn only_wall_floor_and_door(grid: &GridView<'_>) -> Result<(), Violation> {
    let w = grid.width as i64;
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
    Ok(())
}

/// Whether room `v` has a rectangle (a vertex without one has no room).
fn solid(rooms: &RoomsView<'_>, v: usize) -> bool {
    rooms.x0[v] < rooms.x1[v] && rooms.y0[v] < rooms.y1[v]
}

/// Room `v`'s rectangle `(x0, y0, x1, y1)`, half-open.
fn room(rooms: &RoomsView<'_>, v: usize) -> (i64, i64, i64, i64) {
    (
        i64::from(rooms.x0[v]),
        i64::from(rooms.y0[v]),
        i64::from(rooms.x1[v]),
        i64::from(rooms.y1[v]),
    )
}

/// The level's corridor edges (non-cosmetic, between rooms) as sorted room pairs, each pair
/// smaller id first.
fn corridor_edges(graph: &GraphView<'_>, rooms: &RoomsView<'_>) -> Vec<(u32, u32)> {
    let mut want: Vec<(u32, u32)> = (0..graph.src.len())
        .filter(|&e| graph.flags[e] & edge_flag::COSMETIC == 0)
        .map(|e| (graph.src[e], graph.dst[e]))
        .filter(|&(a, b)| solid(rooms, a as usize) && solid(rooms, b as usize))
        .map(|(a, b)| (a.min(b), a.max(b)))
        .collect();
    want.sort_unstable();
    want
}

/// The corridors `found` on the map join, as a multiset, exactly the room pairs `want`.
fn same_corridors(want: Vec<(u32, u32)>, mut found: Vec<(u32, u32)>) -> Result<(), Violation> {
    found.sort_unstable();
    if want == found {
        return Ok(());
    }
    let missing = want.iter().find(|p| !found.contains(p));
    let extra = found.iter().find(|p| !want.contains(p));
    Err(Violation::new(match (missing, extra) {
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
    }))
}

/// The map under check, the room owning each tile, and the scratch of its flood fills.
struct MapCheck<'a> {
    cells: &'a [u8],
    rooms: &'a RoomsView<'a>,
    w: i64,
    h: i64,
    /// The room whose floor each tile is, or [`NONE`].
    room_of: Vec<u32>,
    /// Tiles reached by the current flood fill.
    seen: Vec<bool>,
    stack: Vec<usize>,
    facts: MapFacts,
}

impl MapCheck<'_> {
    /// The index of tile `(x, y)`.
    fn at(&self, x: i64, y: i64) -> usize {
        (y * self.w + x) as usize
    }

    /// The rooms that have a rectangle.
    fn solid_rooms(&self) -> impl Iterator<Item = usize> + use<'_> {
        (0..self.rooms.x0.len()).filter(|&v| solid(self.rooms, v))
    }

    /// The grid's outermost ring is wall.
    fn walled_edge(&self) -> Result<(), Violation> {
        let (w, h) = (self.w, self.h);
        for x in 0..w {
            for y in [0, h - 1] {
                ensure_level!(
                    self.cells[self.at(x, y)] == cell::WALL,
                    "tile ({x}, {y}) on the grid's edge is not wall"
                );
            }
        }
        for y in 0..h {
            for x in [0, w - 1] {
                ensure_level!(
                    self.cells[self.at(x, y)] == cell::WALL,
                    "tile ({x}, {y}) on the grid's edge is not wall"
                );
            }
        }
        Ok(())
    }

    /// Every room fits the grid with its wall, is all floor and overlaps no other; records
    /// which room owns each tile.
    fn room_floors(&mut self) -> Result<(), Violation> {
        let (w, h, rooms) = (self.w, self.h, self.rooms);
        for v in (0..rooms.x0.len()).filter(|&v| solid(rooms, v)) {
            let (x0, y0, x1, y1) = room(rooms, v);
            ensure_level!(
                x0 >= 1 && y0 >= 1 && x1 < w && y1 < h,
                "room {v} [{x0}, {x1}) x [{y0}, {y1}) and its wall do not fit the {w} x {h} grid"
            );
            for y in y0..y1 {
                for x in x0..x1 {
                    let i = self.at(x, y);
                    ensure_level!(
                        self.room_of[i] == NONE,
                        "rooms {} and {v} overlap at ({x}, {y})",
                        self.room_of[i]
                    );
                    ensure_level!(
                        self.cells[i] == cell::FLOOR,
                        "room {v} is not floor at ({x}, {y})"
                    );
                    self.room_of[i] = v as u32;
                }
            }
            self.facts.room_tiles += ((x1 - x0) * (y1 - y0)) as u64;
        }
        Ok(())
    }

    /// Every room's wall ring is wall or door, doors beside the floor (never at a corner).
    fn room_walls(&self) -> Result<(), Violation> {
        for v in self.solid_rooms() {
            let (x0, y0, x1, y1) = room(self.rooms, v);
            for y in y0 - 1..=y1 {
                for x in x0 - 1..=x1 {
                    let (inside_x, inside_y) = ((x0..x1).contains(&x), (y0..y1).contains(&y));
                    if inside_x && inside_y {
                        continue;
                    }
                    let c = self.cells[self.at(x, y)];
                    ensure_level!(
                        c == cell::WALL || c == cell::DOOR,
                        "room {v}'s wall is open at ({x}, {y})"
                    );
                    ensure_level!(
                        c != cell::DOOR || inside_x || inside_y,
                        "room {v} has a door at a corner of its wall ({x}, {y})"
                    );
                }
            }
        }
        Ok(())
    }

    /// Whether tile `i` belongs to a corridor: a door, or floor outside every room.
    fn passage(&self, i: usize) -> bool {
        (self.cells[i] == cell::FLOOR && self.room_of[i] == NONE) || self.cells[i] == cell::DOOR
    }

    /// The corridors: 4-connected components of doors and of floor outside rooms, each
    /// opening into exactly two rooms. Returns those room pairs, smaller id first.
    fn corridors(&mut self) -> Result<Vec<(u32, u32)>, Violation> {
        let mut opened: Vec<u32> = Vec::new();
        let mut found: Vec<(u32, u32)> = Vec::new();
        for start in 0..self.cells.len() {
            if self.seen[start] || !self.passage(start) {
                continue;
            }
            self.seen[start] = true;
            self.stack.push(start);
            opened.clear();
            while let Some(i) = self.stack.pop() {
                self.corridor_tile(i, &mut opened)?;
            }
            let (sx, sy) = (start as i64 % self.w, start as i64 / self.w);
            ensure_level!(
                opened.len() == 2,
                "the corridor at ({sx}, {sy}) opens into {} room(s) {:?}, not two",
                opened.len(),
                opened
            );
            found.push((opened[0].min(opened[1]), opened[0].max(opened[1])));
        }
        Ok(found)
    }

    /// One tile `i` of the corridor being filled: counts it, records the rooms it opens into
    /// (only a door may touch a room's floor, and a door must) and pushes its unseen
    /// corridor neighbours.
    fn corridor_tile(&mut self, i: usize, opened: &mut Vec<u32>) -> Result<(), Violation> {
        let (x, y) = (i as i64 % self.w, i as i64 / self.w);
        let door = self.cells[i] == cell::DOOR;
        if door {
            self.facts.door_tiles += 1;
        } else {
            self.facts.corridor_tiles += 1;
        }
        let mut beside_room = false;
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (nx, ny) = (x + dx, y + dy);
            if nx < 0 || ny < 0 || nx >= self.w || ny >= self.h {
                continue;
            }
            let j = self.at(nx, ny);
            if self.room_of[j] != NONE {
                ensure_level!(
                    door,
                    "corridor tile ({x}, {y}) lies beside room {}'s floor without a door",
                    self.room_of[j]
                );
                beside_room = true;
                if !opened.contains(&self.room_of[j]) {
                    opened.push(self.room_of[j]);
                }
            } else if self.passage(j) && !self.seen[j] {
                self.seen[j] = true;
                self.stack.push(j);
            }
        }
        ensure_level!(!door || beside_room, "door ({x}, {y}) opens into no room");
        Ok(())
    }

    /// Every room is reached from the first over floor and doors.
    fn rooms_walkable(&mut self) -> Result<(), Violation> {
        let Some(first) = self.solid_rooms().next() else {
            return Ok(());
        };
        let corner = |c: &Self, v: usize| c.at(i64::from(c.rooms.x0[v]), i64::from(c.rooms.y0[v]));
        let i0 = corner(self, first);
        let walk = |c: u8| c == cell::FLOOR || c == cell::DOOR;
        flood4_by(self.cells, self.w as u32, i0, walk, &mut self.seen);
        if let Some(v) = self.solid_rooms().find(|&v| !self.seen[corner(self, v)]) {
            return Err(Violation::new(format!(
                "room {v} cannot be walked to from room {first}"
            )));
        }
        Ok(())
    }
}
