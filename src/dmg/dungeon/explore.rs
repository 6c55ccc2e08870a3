//! The macro loop of a DMG dungeon (seed 003): the start, then the queue of exits explored
//! breadth-first (passages, doors, doorways), reopening chambers and passages while the budget
//! lasts.

use crate::core::rng::WarrenRng;
use crate::dmg::canvas::{Cursor, Facing, Map};
use crate::dmg::chamber::{ChamberRequest, Entrance};
use crate::dmg::dungeon::gates::{dig_gate, past_door, queue_door, width_roll};
use crate::dmg::dungeon::join::{join_through, resolve_joins};
use crate::dmg::dungeon::passage::{passage, row_clear, start_passage};
use crate::dmg::dungeon::place::{place, queue_exits};
use crate::dmg::dungeon::state::{
    Counts, DungeonParams, DungeonScratch, Exit, Gate, NO_OBJECT, Stretch, squares,
};
use crate::dmg::tables::{TableKind, Tables};

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
pub(super) fn begin(map: &mut Map, p: &DungeonParams, s: &mut DungeonScratch) {
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
#[path = "explore_tests.rs"]
mod tests;
