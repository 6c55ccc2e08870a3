//! Drawing passages (seed 003): the clearance ahead of a cursor, a passage's run with its side
//! gates, and the doors it queues.

use std::collections::VecDeque;

use crate::core::grid::cell;
use crate::core::rng::WarrenRng;
use crate::dmg::canvas::{Cursor, Map};
use crate::dmg::chamber::{ChamberRequest, Entrance};
use crate::dmg::dungeon::gates::{dig_gate, past_door, queue_door, width_roll};
use crate::dmg::dungeon::join::{join, join_through};
use crate::dmg::dungeon::place::place;
use crate::dmg::dungeon::state::{
    Bbox, Counts, DungeonParams, DungeonScratch, Exit, Gate, PASSAGE, Stretch, squares,
};
use crate::dmg::tables::{TableKind, Tables};

/// Whether the first passage row from `c` (and its side walls, and the row beyond) can be dug.
pub(super) fn row_clear(map: &Map, c: &Cursor, width: i32) -> bool {
    clear_rows(map, c, width, 1) == 1
}

/// How many passage rows, up to `max`, can be drawn from `c`: row `r` can when rows `r` and
/// `r + 1` are open, from one square left of the passage to one right of it (the squares and
/// their side walls undug, inside and off the map's edge).
pub(super) fn clear_rows(map: &Map, c: &Cursor, width: i32, max: i32) -> i32 {
    // Row 0's two ends are checked with bounds; when both are open the row lies inside the map.
    let (x0, y0) = c.map_square(0, 1);
    let (x1, y1) = c.map_square(0, -width);
    if !map.open(x0, y0) || !map.open(x1, y1) {
        return 0;
    }
    let f = map.frame(c);
    // PERF: one index step per square. A row is read only when the row before it was open
    // (inside, off the edge), so it is at worst the edge ring, inside the state array.
    let row_open = |r: i32| {
        let mut i = f.at(r, 1);
        (0..width + 2).all(|_| {
            let open = map.open_at(i);
            i = (i as isize - f.left_step()) as usize;
            open
        })
    };
    if !row_open(0) {
        return 0;
    }
    let mut drawn = 0;
    while drawn < max && row_open(drawn + 1) {
        drawn += 1;
    }
    drawn
}

/// Queues a passage if at least its first row can be dug now.
pub(super) fn start_passage(
    map: &Map,
    queue: &mut VecDeque<Exit>,
    cursor: Cursor,
    width: i32,
    length: i32,
    gate: Gate,
    from: u32,
) -> bool {
    if !row_clear(map, &cursor, width) {
        return false;
    }
    queue.push_back(Exit::Passage {
        cursor,
        width,
        length,
        gate,
        from,
    });
    true
}

impl Stretch {
    /// The cursor on the first square past the stretch's last row (its left edge).
    fn end(&self) -> Cursor {
        let mut end = self.cursor;
        end.forward(self.drawn);
        end
    }

    /// The first square of a passage `w` wide leaving the stretch's last rows through its left
    /// wall (its leftmost column `w` rows back, at most the whole stretch), or of one leaving its
    /// right wall at its last row; facing away from the stretch.
    fn side_exit(&self, left: bool, w: i32) -> Cursor {
        let c = &self.cursor;
        if left {
            let (x, y) = c.map_square(self.drawn - w.min(self.drawn), 1);
            Cursor::at(x, y, c.facing.left())
        } else {
            let (x, y) = c.map_square(self.drawn - 1, -self.width);
            Cursor::at(x, y, c.facing.right())
        }
    }
}

/// Draws a passage `width` wide from `c` (its first square, left edge) through `gate`: as many of
/// its `length` rows as are clear, then what the passage table says comes next. A passage that
/// stops short joins the floor ahead or is a dead end; one with no row at all leaves its gate
/// undug ([`blocked_at_gate`]).
///
/// # Runtime
/// O(width * length) squares checked and dug, plus what comes next; no allocation once the
/// scratch's queues have grown.
#[allow(clippy::too_many_arguments)]
pub(super) fn passage(
    map: &mut Map,
    tables: &Tables,
    p: &DungeonParams,
    rng: &mut WarrenRng,
    c: Cursor,
    width: i32,
    length: i32,
    (from, gate): (u32, Gate),
    s: &mut DungeonScratch,
    counts: &mut Counts,
) {
    // Rows are checked before any is dug: a passage's own squares lie behind the rows checked.
    let drawn = clear_rows(map, &c, width, length);
    if drawn == 0 {
        blocked_at_gate(map, p, rng, &c, width, (from, gate), s, counts);
        return;
    }
    let bbox = dig_rows(map, &c, width, drawn, s);
    dig_gate(map, gate, s, counts);
    counts.passages += 1;
    let id = s.record(PASSAGE, bbox, from, gate);
    let stretch = Stretch {
        cursor: c,
        width,
        drawn,
        id,
    };
    s.stretches.push(stretch);
    if drawn < length {
        stopped_short(map, p, rng, &stretch, s, counts);
    } else {
        what_comes_next(map, tables, p, rng, &stretch, s, counts);
    }
}

/// Digs the first `drawn` rows of a passage `width` wide from `c`; returns their box.
pub(super) fn dig_rows(
    map: &mut Map,
    c: &Cursor,
    width: i32,
    drawn: i32,
    s: &mut DungeonScratch,
) -> Bbox {
    let (ax, ay) = c.map_square(0, 0);
    let (bx, by) = c.map_square(drawn - 1, -(width - 1));
    let mut bbox = Bbox::EMPTY;
    bbox.cover(ax, ay);
    bbox.cover(bx, by);
    map.dig_rect(
        (ax.min(bx), ay.min(by)),
        (ax.max(bx) + 1, ay.max(by) + 1),
        cell::FLOOR,
    );
    s.floor += (width * drawn) as u32;
    bbox
}

/// A passage with no row clear beyond its gate: the gate may still open into floor just ahead
/// ([`join_through`]); else it is a false door (behind a door) or a dead end, left undug.
#[allow(clippy::too_many_arguments)]
fn blocked_at_gate(
    map: &mut Map,
    p: &DungeonParams,
    rng: &mut WarrenRng,
    c: &Cursor,
    width: i32,
    (from, gate): (u32, Gate),
    s: &mut DungeonScratch,
    counts: &mut Counts,
) {
    if join_through(map, p, rng, c, width, (from, gate), s, counts) {
        return;
    }
    if matches!(gate, Gate::Door { .. }) {
        counts.false_doors += 1;
    } else {
        counts.dead_ends += 1;
    }
}

/// A passage stopped short of its length by what lies ahead: it joins that floor (linked to its
/// owner once the dungeon is drawn) or ends as a dead end.
fn stopped_short(
    map: &mut Map,
    p: &DungeonParams,
    rng: &mut WarrenRng,
    st: &Stretch,
    s: &mut DungeonScratch,
    counts: &mut Counts,
) {
    if let Some(to) = join(map, p, rng, &st.cursor, st.width, st.drawn, false, s) {
        s.links.push((st.id, to, 0));
        counts.joins += 1;
    } else {
        counts.dead_ends += 1;
    }
}

/// Rolls the passage table at the end of a full stretch and acts on it: more passage, a door, a
/// branch, a turn, a dead end, a chamber or stairs.
fn what_comes_next(
    map: &mut Map,
    tables: &Tables,
    p: &DungeonParams,
    rng: &mut WarrenRng,
    st: &Stretch,
    s: &mut DungeonScratch,
    counts: &mut Counts,
) {
    let e = *tables.get(TableKind::Passage).roll(rng);
    match e.outcome {
        "straight" => continue_straight(&mut s.queue, st, squares(e.length_ft)),
        "door_left" | "door_right" | "door_ahead" => {
            side_door(tables, rng, st, e.outcome, &mut s.queue);
        }
        "branch_left" | "branch_right" => {
            let left = e.outcome == "branch_left";
            branch(map, tables, rng, st, left, &mut s.queue);
        }
        "turn_left" | "turn_right" if st.width <= st.drawn => {
            let turned = st.side_exit(e.outcome == "turn_left", st.width);
            turn(map, p, rng, st, turned, squares(e.length_ft), s, counts);
        }
        // A turn the stretch is too short for is a dead end.
        "dead_end" | "turn_left" | "turn_right" => {
            dead_end(rng, st, e.chance, &mut s.queue, counts);
        }
        "chamber" => chamber_ahead(map, tables, p, rng, st, s, counts),
        _ => stairs(map, tables, rng, st, counts),
    }
}

/// Queues the passage going on straight from the stretch's end for `length` squares.
fn continue_straight(queue: &mut VecDeque<Exit>, st: &Stretch, length: i32) {
    queue.push_back(Exit::Passage {
        cursor: st.end(),
        width: st.width,
        length,
        gate: Gate::Open,
        from: st.id,
    });
}

/// A door (`outcome`: `door_left`, `door_right` or `door_ahead`) in the last row's left or right
/// wall or in the wall ahead, its kind rolled; past a side door the passage goes on 30 ft.
fn side_door(
    tables: &Tables,
    rng: &mut WarrenRng,
    st: &Stretch,
    outcome: &str,
    queue: &mut VecDeque<Exit>,
) {
    let c = &st.cursor;
    let (door, facing) = match outcome {
        "door_left" => (c.map_square(st.drawn - 1, 1), c.facing.left()),
        "door_right" => (c.map_square(st.drawn - 1, -st.width), c.facing.right()),
        _ => (c.map_square(st.drawn, 0), c.facing),
    };
    queue_door(tables, rng, queue, door, past_door(door, facing), st.id);
    if outcome != "door_ahead" {
        continue_straight(queue, st, squares(30));
    }
}

/// A side passage of a rolled width through the left or right wall (when the stretch is at
/// least that long), and the passage going on 30 ft.
fn branch(
    map: &Map,
    tables: &Tables,
    rng: &mut WarrenRng,
    st: &Stretch,
    left: bool,
    queue: &mut VecDeque<Exit>,
) {
    let w = width_roll(tables, rng);
    if w <= st.drawn {
        let side = st.side_exit(left, w);
        start_passage(map, queue, side, w, squares(30), Gate::Open, st.id);
    }
    continue_straight(queue, st, squares(30));
}

/// The passage turning at its end into `turned` for `length` squares; when no row is clear
/// there, a join into the floor beyond, else a dead end.
#[allow(clippy::too_many_arguments)]
fn turn(
    map: &mut Map,
    p: &DungeonParams,
    rng: &mut WarrenRng,
    st: &Stretch,
    turned: Cursor,
    length: i32,
    s: &mut DungeonScratch,
    counts: &mut Counts,
) {
    let open = (st.id, Gate::Open);
    if !start_passage(
        map,
        &mut s.queue,
        turned,
        st.width,
        length,
        Gate::Open,
        st.id,
    ) && !join_through(map, p, rng, &turned, st.width, open, s, counts)
    {
        counts.dead_ends += 1;
    }
}

/// A dead end; with `chance` percent, a secret door in the wall ahead.
fn dead_end(
    rng: &mut WarrenRng,
    st: &Stretch,
    chance: u32,
    queue: &mut VecDeque<Exit>,
    counts: &mut Counts,
) {
    counts.dead_ends += 1;
    if chance > 0 && rng.below(100) < chance {
        let door = st.cursor.map_square(st.drawn, 0);
        queue.push_back(Exit::Door {
            door,
            cursor: past_door(door, st.cursor.facing),
            code: cell::SECRET_DOOR,
            kind: 3,
            from: st.id,
        });
    }
}

/// A chamber of a rolled shape and size past a doorway row at the stretch's end, at least as wide
/// as the passage; when it does not fit, a join into the floor beyond, else a dead end.
fn chamber_ahead(
    map: &mut Map,
    tables: &Tables,
    p: &DungeonParams,
    rng: &mut WarrenRng,
    st: &Stretch,
    s: &mut DungeonScratch,
    counts: &mut Counts,
) {
    let doorway = st.end();
    let mut entrance_cursor = doorway;
    entrance_cursor.forward(1);
    let ch = tables.get(TableKind::Chamber).roll(rng);
    let req = ChamberRequest {
        width: squares(ch.width_ft).max(st.width),
        length: squares(ch.length_ft.max(ch.width_ft)),
        min_length: 3,
    };
    let entrance = Entrance {
        cursor: entrance_cursor,
        width: st.width,
    };
    let gate = Gate::Doorway {
        cursor: doorway,
        width: st.width,
    };
    let from = (st.id, gate);
    if place(
        map, tables, p, rng, &entrance, req, ch.outcome, from, s, counts,
    ) {
        dig_gate(map, gate, s, counts);
    } else if !join_through(map, p, rng, &entrance_cursor, st.width, from, s, counts) {
        counts.dead_ends += 1;
    }
}

/// Stairs, up or down as rolled, on the stretch's last row (its left square).
fn stairs(map: &mut Map, tables: &Tables, rng: &mut WarrenRng, st: &Stretch, counts: &mut Counts) {
    let up = tables.get(TableKind::Stairs).roll(rng).outcome == "up";
    let (x, y) = st.cursor.map_square(st.drawn - 1, 0);
    map.set(
        x,
        y,
        if up {
            cell::STAIRS_UP
        } else {
            cell::STAIRS_DOWN
        },
    );
    counts.stairs += 1;
}

#[cfg(test)]
#[path = "passage_tests.rs"]
mod tests;
