//! The macro loop of seed 003: a starting area, then every open exit explored breadth-first
//! until none remain or the size budget is reached.
//!
//! Passages are drawn square by square by a cursor of the passage's width; a passage stops one
//! square short of anything in its way ("the passage needs to know what it will collide with as
//! it is being drawn") and ends there as a dead end. At the end of each stretch the passage table
//! says what comes next: more passage, a side door, a branch, a turn, a dead end (perhaps with a
//! secret door), a chamber or stairs. Chambers are placed by [`chamber::place_chamber`]; their
//! exits are rolled (how many, which wall, door or opening, door kind) and queued. Every object
//! keeps a wall of rock around it and is reached through a doorway dug on purpose, so an exit
//! that leads nowhere is never dug: it is recorded as a false door or a dead end, never left as a
//! hole into rock.

use std::collections::VecDeque;

use crate::core::grid::cell;
use crate::core::rng::WarrenRng;
use crate::dmg::chamber::{self, Analysis, ChamberRequest, Entrance, PlaceParams, ProposalKind};
use crate::dmg::map::{Cursor, Facing, Map};
use crate::dmg::tables::{TableKind, Tables};

/// Feet per square.
pub const FEET: u32 = 5;

/// What a finished dungeon holds, besides its grid.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Chambers placed.
    pub chambers: u32,
    /// Passage stretches drawn.
    pub passages: u32,
    /// Doors dug, by kind index of the door table's outcomes (wooden, stone, locked, secret,
    /// portcullis, barred).
    pub doors: [u32; 6],
    /// Passages that ended at an obstacle or a dead-end roll.
    pub dead_ends: u32,
    /// Doors that led nowhere and were left as rock.
    pub false_doors: u32,
    /// Passages and doors that opened into the floor ahead instead of stopping short of it.
    pub joins: u32,
    /// Stairs placed.
    pub stairs: u32,
    /// Chamber placements: whole, shifted, shrunk, cancelled.
    pub placements: [u32; 4],
}

/// One rectangle of floor a chamber covers (its bounding box for round and cross shapes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChamberBox {
    /// Left column.
    pub x0: i32,
    /// Top row.
    pub y0: i32,
    /// One past the right column.
    pub x1: i32,
    /// One past the bottom row.
    pub y1: i32,
}

/// Settings of one dungeon.
#[derive(Clone, Debug, PartialEq)]
pub struct DungeonParams {
    /// Squares across.
    pub width: u32,
    /// Squares down.
    pub height: u32,
    /// Stop opening new exits once this share of the map is floor.
    pub max_floor: f64,
    /// Stop after this many objects (passages and chambers).
    pub max_objects: u32,
    /// Chamber placement.
    pub place: PlaceParams,
    /// Chance that a passage (or a door's passage) stopped by floor one or two rock rows ahead
    /// opens into it (`join::join`), making a loop.
    pub join_chance: f64,
}

/// Work a worker reuses across dungeons.
#[derive(Default)]
pub struct DungeonScratch {
    /// The map of the last dungeon.
    pub map: Option<Map>,
    /// Its chambers.
    pub chambers: Vec<ChamberBox>,
    /// Where it starts (a floor square).
    pub start: (i32, i32),
    queue: VecDeque<Exit>,
    analysis: Analysis,
    floor: u32,
    placed: Vec<Placed>,
    /// Passage stretches drawn, for side doors when the dungeon runs out of exits.
    stretches: Vec<Stretch>,
    /// Objects (passage stretches and chambers): kind (`PASSAGE`, `CHAMBER`) and bounding box.
    pub objects: Vec<(u8, Bbox)>,
    /// Connections between objects: `(from, to, flags)`; flags carry the door (see
    /// [`DOOR_FLAG`]).
    pub links: Vec<(u32, u32, u8)>,
    /// Squares joins reached, their owners found once the dungeon is drawn (`JOINED | k` stands
    /// for the owner of `joined[k]` in `links` until then).
    joined: Vec<(i32, i32)>,
    /// Per square: the object whose box holds it (resolving joins), and the objects in paint
    /// order.
    owner: Vec<u32>,
    paint: Vec<u32>,
    /// Time the chamber placements and the whole dungeon (`chamber_ns`, `total_ns`): off by
    /// default, a clock read per chamber costs about 2% of a level.
    pub time_chambers: bool,
    /// Nanoseconds the last dungeon spent placing chambers (with `time_chambers`).
    pub chamber_ns: u64,
    /// Nanoseconds the last dungeon took in all (with `time_chambers`).
    pub total_ns: u64,
}

mod join;
use join::{join, join_through, resolve_joins};
mod passage;
use passage::*;
mod place;
use place::*;

/// Object kind: a stretch of passage.
pub const PASSAGE: u8 = 0;
/// Object kind: a chamber.
pub const CHAMBER: u8 = 1;
/// No object (the start).
pub const NO_OBJECT: u32 = u32::MAX;
/// Edge flag: the connection is a door; bits 4 to 6 hold the door kind (the index of the door
/// table's outcome: wooden, stone, locked, secret, portcullis, barred).
pub const DOOR_FLAG: u8 = 1 << 3;

/// An object's bounding box, `[x0, x1) x [y0, y1)` in map cells.
pub type Bbox = crate::core::geom::Rect<i32>;

impl DungeonScratch {
    /// Records an object reached from `from` through `gate`; returns its id.
    fn record(&mut self, kind: u8, bbox: Bbox, from: u32, gate: Gate) -> u32 {
        let id = self.objects.len() as u32;
        self.objects.push((kind, bbox));
        if from != NO_OBJECT {
            let flags = match gate {
                Gate::Door { kind, .. } => DOOR_FLAG | ((kind as u8) << 4),
                _ => 0,
            };
            self.links.push((from, id, flags));
        }
        id
    }
}

/// A chamber's frame, for rolling exits on it.
#[derive(Clone, Copy, Debug)]
struct Placed {
    cursor: Cursor,
    /// The entrance's width.
    entrance: i32,
    left: i32,
    width: i32,
    length: i32,
    id: u32,
}

/// A stretch of passage as drawn: its first square's cursor (the left edge), its width, the rows
/// drawn and its object id.
#[derive(Clone, Copy, Debug)]
struct Stretch {
    cursor: Cursor,
    width: i32,
    drawn: i32,
    id: u32,
}

/// What a passage opens from, dug only once the passage has a first square.
#[derive(Clone, Copy, Debug)]
enum Gate {
    /// Nothing to dig (a continuation, a turn, a branch, the start).
    Open,
    /// A door square.
    Door {
        at: (i32, i32),
        code: u8,
        kind: usize,
    },
    /// A doorway through a chamber wall: `width` squares from `cursor`'s square rightward.
    Doorway { cursor: Cursor, width: i32 },
}

/// An opening waiting to be explored.
#[derive(Clone, Copy, Debug)]
enum Exit {
    /// A passage to draw from `cursor` (first square, left edge), `width` wide, `length` squares,
    /// through `gate`.
    Passage {
        cursor: Cursor,
        width: i32,
        length: i32,
        gate: Gate,
        from: u32,
    },
    /// A door at `door` (a square of the wall) with `cursor` on the first square beyond it.
    Door {
        door: (i32, i32),
        cursor: Cursor,
        code: u8,
        kind: usize,
        from: u32,
    },
    /// An opening of `width` squares in a wall (`doorway`, the left edge square, and its
    /// `width - 1` neighbours to the right), `cursor` beyond it.
    Opening {
        doorway: Cursor,
        width: i32,
        from: u32,
    },
}

fn squares(ft: u32) -> i32 {
    (ft / FEET).max(1) as i32
}

/// Generates one dungeon into `s.map`; returns its counts.
pub fn generate(
    tables: &Tables,
    p: &DungeonParams,
    rng: &mut WarrenRng,
    s: &mut DungeonScratch,
) -> Counts {
    let started = s.time_chambers.then(std::time::Instant::now);
    s.chamber_ns = 0;
    // The map leaves the scratch while it is drawn on (the helpers take both) and goes back at
    // the end.
    let mut owned = s.map.take().unwrap_or_else(|| Map::new(p.width, p.height));
    let map = &mut owned;
    begin(map, p, s);
    let mut counts = Counts::default();
    start(map, tables, p, rng, s, &mut counts);
    let budget = (p.max_floor * f64::from(p.width * p.height)) as u32;
    let mut objects = 0;
    let mut reopened = 0;
    while s.floor < budget && objects < p.max_objects {
        reopen(map, tables, p, rng, s, &mut reopened);
        let Some(exit) = s.queue.pop_front() else {
            break;
        };
        objects += 1;
        match exit {
            Exit::Passage {
                cursor,
                width,
                length,
                gate,
                from,
            } => passage(
                map,
                tables,
                p,
                rng,
                cursor,
                width,
                length,
                (from, gate),
                s,
                &mut counts,
            ),
            Exit::Door {
                door,
                cursor,
                code,
                kind,
                from,
            } => {
                let gate = Gate::Door {
                    at: door,
                    code,
                    kind,
                };
                open_door(map, tables, p, rng, (cursor, gate, from), s, &mut counts);
            }
            Exit::Opening {
                doorway,
                width,
                from,
            } => open_doorway(map, p, rng, (doorway, width, from), s, &mut counts),
        }
    }
    resolve_joins(map, s);
    s.map = Some(owned);
    s.total_ns = started.map_or(0, |t| t.elapsed().as_nanos() as u64);
    counts
}

/// Clears the map and the scratch for a new dungeon.
fn begin(map: &mut Map, p: &DungeonParams, s: &mut DungeonScratch) {
    map.reset(p.width, p.height, true);
    s.chambers.clear();
    s.placed.clear();
    s.stretches.clear();
    s.objects.clear();
    s.links.clear();
    s.joined.clear();
    s.queue.clear();
    s.floor = 0;
}

/// The start (the middle of the bottom edge's neighbourhood, facing north): a chamber, or a
/// passage when the table says so or the chamber does not fit.
fn start(
    map: &mut Map,
    tables: &Tables,
    p: &DungeonParams,
    rng: &mut WarrenRng,
    s: &mut DungeonScratch,
    counts: &mut Counts,
) {
    let start = Cursor::at(p.width as i32 / 2, p.height as i32 - 3, Facing::North);
    s.start = (start.x, start.y);
    let e = tables.get(TableKind::Start).roll(rng);
    match e.outcome {
        "chamber" => {
            let entrance = Entrance {
                cursor: start,
                width: 1,
            };
            let req = ChamberRequest {
                width: squares(e.width_ft),
                length: squares(e.length_ft),
                min_length: 3,
            };
            let gate = (NO_OBJECT, Gate::Open);
            if !place(
                map,
                tables,
                p,
                rng,
                &entrance,
                req,
                "rectangle",
                gate,
                s,
                counts,
            ) {
                // Too big for the map: a passage instead.
                s.queue.push_back(Exit::Passage {
                    cursor: start,
                    width: 2,
                    length: squares(e.width_ft.max(30)),
                    gate: Gate::Open,
                    from: NO_OBJECT,
                });
            }
        }
        _ => s.queue.push_back(Exit::Passage {
            cursor: start,
            width: width_roll(tables, rng),
            length: squares(e.length_ft),
            gate: Gate::Open,
            from: NO_OBJECT,
        }),
    }
}

/// When every exit is explored and the budget is not spent, a chamber grows new exits or a
/// passage a side door (the DMG's dungeon goes on as far as the map allows).
///
/// Chambers are asked three times in four when there are any (their exits lead on far more
/// often than a door in a passage's side, which measured a quarter less floor per dungeon); the
/// fourth attempt, and every attempt in a dungeon without a chamber yet, grows from a passage,
/// so a start chamber walled in by its own passages still grows (without it, 0.7% of dungeons
/// stayed below 2% floor). A failed attempt (no room beside the chosen wall) tries again, up to
/// `4 * max_objects` attempts per dungeon (`reopened` counts them).
fn reopen(
    map: &mut Map,
    tables: &Tables,
    p: &DungeonParams,
    rng: &mut WarrenRng,
    s: &mut DungeonScratch,
    reopened: &mut u32,
) {
    let grown = s.placed.len() + s.stretches.len();
    while s.queue.is_empty() && grown > 0 && *reopened < 4 * p.max_objects {
        *reopened += 1;
        if !s.placed.is_empty() && (!reopened.is_multiple_of(4) || s.stretches.is_empty()) {
            let pick = s.placed[rng.below(s.placed.len() as u32) as usize];
            queue_exits(map, tables, rng, &mut s.queue, pick);
        } else {
            let pick = rng.below(s.stretches.len() as u32) as usize;
            let Stretch {
                cursor: c,
                width,
                drawn,
                id,
            } = s.stretches[pick];
            let a = rng.below(drawn as u32) as i32;
            let (door, facing) = if rng.below(2) == 0 {
                (c.map_square(a, 1), c.facing.left())
            } else {
                (c.map_square(a, -width), c.facing.right())
            };
            let beyond = past_door(door, facing);
            if !map.dug(door.0, door.1) && row_clear(map, &beyond, 1) {
                queue_door(tables, rng, &mut s.queue, door, beyond, id);
            }
        }
    }
}

/// What lies beyond a door (`cursor` on the first square past it): passages ahead or to both
/// sides, or a chamber; failing those, a join into what is there, else a false door.
fn open_door(
    map: &mut Map,
    tables: &Tables,
    p: &DungeonParams,
    rng: &mut WarrenRng,
    (cursor, gate, from): (Cursor, Gate, u32),
    s: &mut DungeonScratch,
    counts: &mut Counts,
) {
    let e = tables.get(TableKind::BeyondDoor).roll(rng);
    // Passages dig the door themselves once they have a first square.
    let queued = match e.outcome {
        "passage_ahead" => start_passage(
            map,
            &mut s.queue,
            cursor,
            1,
            squares(e.length_ft),
            gate,
            from,
        ),
        "passage_left_right" => {
            let l = squares(e.length_ft);
            let mut left = cursor;
            left.turn_left();
            let mut right = cursor;
            right.turn_right();
            let a = start_passage(map, &mut s.queue, left, 1, l, gate, from);
            let b = start_passage(map, &mut s.queue, right, 1, l, gate, from);
            a || b
        }
        _ => false,
    };
    let ok = queued
        || match e.outcome {
            "chamber" => {
                let c = tables.get(TableKind::Chamber).roll(rng);
                let req = ChamberRequest {
                    width: squares(c.width_ft),
                    length: squares(c.length_ft.max(c.width_ft)),
                    min_length: 3,
                };
                let entrance = Entrance { cursor, width: 1 };
                let placed = place(
                    map,
                    tables,
                    p,
                    rng,
                    &entrance,
                    req,
                    c.outcome,
                    (from, gate),
                    s,
                    counts,
                );
                if placed {
                    dig_gate(map, gate, s, counts);
                }
                placed
            }
            _ => false,
        };
    if !ok && !join_through(map, p, rng, &cursor, 1, (from, gate), s, counts) {
        counts.false_doors += 1;
    }
}

/// A passage through an opening in a chamber wall; failing that, a join into what is there,
/// else a dead end.
fn open_doorway(
    map: &mut Map,
    p: &DungeonParams,
    rng: &mut WarrenRng,
    (doorway, width, from): (Cursor, i32, u32),
    s: &mut DungeonScratch,
    counts: &mut Counts,
) {
    let mut beyond = doorway;
    beyond.forward(1);
    let gate = Gate::Doorway {
        cursor: doorway,
        width,
    };
    if !start_passage(map, &mut s.queue, beyond, width, squares(30), gate, from)
        && !join_through(map, p, rng, &beyond, width, (from, gate), s, counts)
    {
        counts.dead_ends += 1;
    }
}

#[cfg(test)]
mod tests;
