//! Gates and rolls shared by passages, chambers and joins (seed 003): the passage-width roll,
//! digging a gate once something lies behind it, the square past a door, and queuing a door of a
//! rolled kind.

use std::collections::VecDeque;

use crate::core::grid::cell;
use crate::core::rng::WarrenRng;
use crate::dmg::canvas::{Cursor, Facing, Map};
use crate::dmg::dungeon::state::{Counts, DungeonScratch, Exit, Gate, squares};
use crate::dmg::tables::{TableKind, Tables};

/// A passage width rolled on the passage-width table, in squares.
pub(super) fn width_roll(tables: &Tables, rng: &mut WarrenRng) -> i32 {
    squares(tables.get(TableKind::PassageWidth).roll(rng).width_ft)
}

/// Digs a passage's or chamber's gate (once: a door shared by two passages counts once).
pub(super) fn dig_gate(map: &mut Map, gate: Gate, s: &mut DungeonScratch, counts: &mut Counts) {
    match gate {
        Gate::Open => {}
        Gate::Door { at, code, kind } => {
            if map.get(at.0, at.1) != Some(code) {
                map.set(at.0, at.1, code);
                s.floor += 1;
                counts.doors[kind] += 1;
            }
        }
        Gate::Doorway { cursor, width } => {
            for k in 0..width {
                let (x, y) = cursor.map_square(0, -k);
                if !map.dug(x, y) {
                    map.set(x, y, cell::FLOOR);
                    s.floor += 1;
                }
            }
        }
    }
}

/// The cursor on the first square past a door at `door` in a wall, facing `facing` (out of the
/// wall).
pub(super) fn past_door(door: (i32, i32), facing: Facing) -> Cursor {
    let mut beyond = Cursor::at(door.0, door.1, facing);
    beyond.forward(1);
    beyond
}

/// Queues a door at `door` of a kind rolled on the door table, `beyond` on the first square past
/// it, opened from object `from`.
pub(super) fn queue_door(
    tables: &Tables,
    rng: &mut WarrenRng,
    queue: &mut VecDeque<Exit>,
    door: (i32, i32),
    beyond: Cursor,
    from: u32,
) {
    let d = tables.get(TableKind::Door).roll(rng);
    let kind = tables
        .get(TableKind::Door)
        .kind
        .outcomes()
        .iter()
        .position(|(n, _)| *n == d.outcome)
        .unwrap_or(0);
    let code = if d.outcome == "secret" {
        cell::SECRET_DOOR
    } else {
        cell::DOOR
    };
    queue.push_back(Exit::Door {
        door,
        cursor: beyond,
        code,
        kind,
        from,
    });
}
