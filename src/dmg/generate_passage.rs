//! Drawing passages (seed 003): the passage-width roll, the clearance ahead of a cursor, a
//! passage's run with its side gates, and the doors it queues.

use super::*;

pub(super) fn width_roll(tables: &Tables, rng: &mut WarrenRng) -> i32 {
    squares(tables.get(TableKind::PassageWidth).roll(rng).width_ft)
}

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
    let mut bbox = Bbox::EMPTY;
    // Rows are checked before any is dug: a passage's own squares lie behind the rows checked.
    let drawn = clear_rows(map, &c, width, length);
    if drawn > 0 {
        let (ax, ay) = c.map_square(0, 0);
        let (bx, by) = c.map_square(drawn - 1, -(width - 1));
        bbox.add(ax, ay);
        bbox.add(bx, by);
        map.dig_rect(
            (ax.min(bx), ay.min(by)),
            (ax.max(bx) + 1, ay.max(by) + 1),
            cell::FLOOR,
        );
        s.floor += (width * drawn) as u32;
    }
    if drawn == 0 {
        // Nothing could be dug beyond the gate: it may still open into floor just ahead.
        if join_through(map, p, rng, &c, width, (from, gate), s, counts) {
        } else if matches!(gate, Gate::Door { .. }) {
            counts.false_doors += 1;
        } else {
            counts.dead_ends += 1;
        }
        return;
    }
    dig_gate(map, gate, s, counts);
    counts.passages += 1;
    let id = s.record(PASSAGE, bbox, from, gate);
    s.stretches.push((c, width, drawn, id));
    if drawn < length {
        if let Some(to) = join(map, p, rng, &c, width, drawn, false, s) {
            s.links.push((id, to, 0));
            counts.joins += 1;
        } else {
            counts.dead_ends += 1;
        }
        return;
    }
    // What comes next.
    let e = tables.get(TableKind::Passage).roll(rng);
    let mut end = c;
    end.forward(drawn);
    let straight = |queue: &mut VecDeque<Exit>, len: i32| {
        queue.push_back(Exit::Passage {
            cursor: end,
            width,
            length: len,
            gate: Gate::Open,
            from: id,
        });
    };
    match e.outcome {
        "straight" => straight(&mut s.queue, squares(e.length_ft)),
        "door_left" | "door_right" | "door_ahead" => {
            let (door, beyond) = match e.outcome {
                "door_left" => {
                    let d = c.map_square(drawn - 1, 1);
                    let mut b = Cursor::at(d.0, d.1, c.facing.left());
                    b.forward(1);
                    (d, b)
                }
                "door_right" => {
                    let d = c.map_square(drawn - 1, -width);
                    let mut b = Cursor::at(d.0, d.1, c.facing.right());
                    b.forward(1);
                    (d, b)
                }
                _ => {
                    let d = c.map_square(drawn, 0);
                    let mut b = Cursor::at(d.0, d.1, c.facing);
                    b.forward(1);
                    (d, b)
                }
            };
            queue_door(tables, rng, &mut s.queue, door, beyond, id);
            if e.outcome != "door_ahead" {
                straight(&mut s.queue, squares(30));
            }
        }
        "branch_left" | "branch_right" => {
            let w = width_roll(tables, rng);
            let branch = if e.outcome == "branch_left" {
                let (x, y) = c.map_square(drawn - w.min(drawn), 1);
                Cursor::at(x, y, c.facing.left())
            } else {
                let (x, y) = c.map_square(drawn - 1, -width);
                Cursor::at(x, y, c.facing.right())
            };
            if w <= drawn {
                start_passage(map, &mut s.queue, branch, w, squares(30), Gate::Open, id);
            }
            straight(&mut s.queue, squares(30));
        }
        "turn_left" | "turn_right" if width <= drawn => {
            let turned = if e.outcome == "turn_left" {
                let (x, y) = c.map_square(drawn - width, 1);
                Cursor::at(x, y, c.facing.left())
            } else {
                let (x, y) = c.map_square(drawn - 1, -width);
                Cursor::at(x, y, c.facing.right())
            };
            if !start_passage(
                map,
                &mut s.queue,
                turned,
                width,
                squares(e.length_ft),
                Gate::Open,
                id,
            ) && !join_through(map, p, rng, &turned, width, (id, Gate::Open), s, counts)
            {
                counts.dead_ends += 1;
            }
        }
        "dead_end" | "turn_left" | "turn_right" => {
            counts.dead_ends += 1;
            if e.chance > 0 && rng.below(100) < e.chance {
                let door = c.map_square(drawn, 0);
                let mut beyond = Cursor::at(door.0, door.1, c.facing);
                beyond.forward(1);
                s.queue.push_back(Exit::Door {
                    door,
                    cursor: beyond,
                    code: cell::SECRET_DOOR,
                    kind: 3,
                    from: id,
                });
            }
        }
        "chamber" => {
            // A doorway row, then the chamber.
            let mut entrance_cursor = c;
            entrance_cursor.forward(drawn + 1);
            let ch = tables.get(TableKind::Chamber).roll(rng);
            let req = ChamberRequest {
                width: squares(ch.width_ft).max(width),
                length: squares(ch.length_ft.max(ch.width_ft)),
                min_length: 3,
            };
            let entrance = Entrance {
                cursor: entrance_cursor,
                width,
            };
            let mut doorway = c;
            doorway.forward(drawn);
            let gate = Gate::Doorway {
                cursor: doorway,
                width,
            };
            if place(
                map,
                tables,
                p,
                rng,
                &entrance,
                req,
                ch.outcome,
                (id, gate),
                s,
                counts,
            ) {
                dig_gate(map, gate, s, counts);
            } else if !join_through(map, p, rng, &entrance_cursor, width, (id, gate), s, counts) {
                counts.dead_ends += 1;
            }
        }
        _ => {
            // Stairs at the passage end.
            let st = tables.get(TableKind::Stairs).roll(rng);
            let (x, y) = c.map_square(drawn - 1, 0);
            map.set(
                x,
                y,
                if st.outcome == "up" {
                    cell::STAIRS_UP
                } else {
                    cell::STAIRS_DOWN
                },
            );
            counts.stairs += 1;
        }
    }
}

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
