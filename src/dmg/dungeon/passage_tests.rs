//! Tests of `passage.rs`, step by step: passages drawn on a small empty map from a
//! cursor at its bottom, with the tables pinned to one roll each (a d1), so every outcome of the
//! passage table is checked against the squares, exits and counts it should leave.

use super::*;
use crate::dmg::canvas::Facing;
use crate::dmg::chamber::PlaceParams;
use crate::dmg::dungeon::explore::begin;
use crate::dmg::dungeon::gates::past_door;
use crate::dmg::dungeon::state::{CHAMBER, DOOR_FLAG, NO_OBJECT};
use crate::dmg::tables::parse_table;

/// Squares across and down of the test maps.
const SIZE: u32 = 30;

/// The start cursor: the bottom middle, facing north.
fn start() -> Cursor {
    Cursor::at(15, 25, Facing::North)
}

/// The built-in tables with each `(kind, roll)` pinned: a d1 whose one face is `roll` (an
/// outcome and its parameters in TOML).
fn pinned(rolls: &[(TableKind, &str)]) -> Tables {
    rolls.iter().fold(Tables::builtin(), |t, &(kind, roll)| {
        let text = format!("die = 1\n[[roll]]\nrange = [1, 1]\n{roll}\n");
        t.with_table(parse_table(kind, &text, "pinned").unwrap())
    })
}

/// One passage's world: an empty spaced map, the parameters, the scratch and the counts.
struct World {
    map: Map,
    p: DungeonParams,
    rng: WarrenRng,
    s: DungeonScratch,
    counts: Counts,
}

impl World {
    fn new(join_chance: f64) -> Self {
        let p = DungeonParams {
            width: SIZE,
            height: SIZE,
            max_floor: 0.4,
            max_objects: 100,
            place: PlaceParams::default(),
            join_chance,
        };
        let mut map = Map::new(SIZE, SIZE);
        let mut s = DungeonScratch::default();
        begin(&mut map, &p, &mut s);
        Self {
            map,
            p,
            rng: WarrenRng::new(1),
            s,
            counts: Counts::default(),
        }
    }

    /// Draws a passage from [`start`] through `gate` of object `from`.
    fn passage(&mut self, tables: &Tables, width: i32, length: i32, from: (u32, Gate)) {
        let (map, p, rng) = (&mut self.map, &self.p, &mut self.rng);
        passage(
            map,
            tables,
            p,
            rng,
            start(),
            width,
            length,
            from,
            &mut self.s,
            &mut self.counts,
        );
    }

    /// Digs floor squares (as something drawn earlier).
    fn floor(&mut self, squares: &[(i32, i32)]) {
        for &(x, y) in squares {
            self.map.set(x, y, cell::FLOOR);
        }
    }

    fn dug_squares(&self) -> usize {
        self.map
            .grid
            .cells
            .iter()
            .filter(|&&c| c != cell::WALL)
            .count()
    }
}

/// An exit as `(kind, first square, facing, width, length)`: a door as kind `'D'` with its door
/// square (width 1, length 0), a passage as `'P'`.
type Queued = (char, (i32, i32), Facing, i32, i32);

/// The exits queued, in order.
fn queued(s: &DungeonScratch) -> Vec<Queued> {
    s.queue
        .iter()
        .map(|e| match *e {
            Exit::Passage {
                cursor,
                width,
                length,
                ..
            } => ('P', (cursor.x, cursor.y), cursor.facing, width, length),
            Exit::Door { door, cursor, .. } => {
                assert_eq!(cursor, past_door(door, cursor.facing));
                ('D', door, cursor.facing, 1, 0)
            }
            Exit::Opening { .. } => panic!("a passage queues no opening"),
        })
        .collect()
}

#[test]
fn a_stretch_knows_its_end_and_its_side_exits() {
    let st = Stretch {
        cursor: start(),
        width: 2,
        drawn: 4,
        id: 0,
    };
    assert_eq!(st.end(), Cursor::at(15, 21, Facing::North));
    // Left exits leave `w` rows back from the end (at most the whole stretch), through the
    // left wall; right exits leave the last row through the right wall.
    assert_eq!(st.side_exit(true, 1), Cursor::at(14, 22, Facing::West));
    assert_eq!(st.side_exit(true, 2), Cursor::at(14, 23, Facing::West));
    assert_eq!(st.side_exit(true, 9), Cursor::at(14, 25, Facing::West));
    assert_eq!(st.side_exit(false, 1), Cursor::at(17, 22, Facing::East));
    assert_eq!(
        past_door((14, 22), Facing::West),
        Cursor::at(13, 22, Facing::West)
    );
}

#[test]
fn dig_rows_digs_the_rows_and_returns_their_box() {
    let mut w = World::new(0.0);
    let c = Cursor::at(5, 10, Facing::East);
    let bbox = dig_rows(&mut w.map, &c, 3, 4, &mut w.s);
    // East: ahead is +x, and the passage extends to the right of its left edge, +y.
    let want = Bbox {
        x0: 5,
        y0: 10,
        x1: 9,
        y1: 13,
    };
    assert_eq!(bbox, want);
    for y in 10..13 {
        for x in 5..9 {
            assert_eq!(w.map.get(x, y), Some(cell::FLOOR), "({x}, {y})");
        }
    }
    assert_eq!((w.dug_squares(), w.s.floor), (12, 12));
}

#[test]
fn a_full_stretch_is_recorded_and_goes_on_straight() {
    let tables = pinned(&[(TableKind::Passage, "outcome = \"straight\"\nlength_ft = 20")]);
    let mut w = World::new(0.0);
    w.passage(&tables, 2, 4, (NO_OBJECT, Gate::Open));
    assert_eq!(w.counts.passages, 1);
    assert_eq!((w.dug_squares(), w.s.floor), (8, 8));
    let bbox = Bbox {
        x0: 15,
        y0: 22,
        x1: 17,
        y1: 26,
    };
    assert_eq!(w.s.objects, [(PASSAGE, bbox)]);
    assert!(w.s.links.is_empty(), "the start links to nothing");
    assert_eq!(w.s.stretches.len(), 1);
    assert_eq!(queued(&w.s), [('P', (15, 21), Facing::North, 2, 4)]);
}

#[test]
fn a_blocked_gate_is_a_false_door_or_a_dead_end_and_stays_undug() {
    let tables = pinned(&[]);
    let door = Gate::Door {
        at: (15, 26),
        code: cell::DOOR,
        kind: 0,
    };
    for (gate, false_doors, dead_ends) in [(door, 1, 0), (Gate::Open, 0, 1)] {
        let mut w = World::new(0.0);
        w.floor(&[(15, 24)]);
        w.passage(&tables, 1, 5, (0, gate));
        assert_eq!(
            (w.counts.false_doors, w.counts.dead_ends),
            (false_doors, dead_ends)
        );
        assert_eq!((w.counts.passages, w.dug_squares()), (0, 1));
        assert!(w.s.objects.is_empty() && w.s.queue.is_empty());
    }
}

#[test]
fn a_blocked_door_joins_the_floor_just_ahead() {
    let tables = pinned(&[]);
    let door = Gate::Door {
        at: (15, 26),
        code: cell::DOOR,
        kind: 2,
    };
    let mut w = World::new(1.0);
    w.floor(&[(15, 24)]);
    w.passage(&tables, 1, 5, (0, door));
    assert_eq!((w.counts.joins, w.counts.doors[2]), (1, 1));
    assert_eq!(w.map.get(15, 26), Some(cell::DOOR));
    assert_eq!(
        w.map.get(15, 25),
        Some(cell::FLOOR),
        "the rock row dug through"
    );
    assert_eq!(w.s.links.len(), 1);
    assert_eq!(w.s.links[0].2, DOOR_FLAG | (2 << 4));
    assert_eq!(w.counts.passages, 0);
}

#[test]
fn a_stretch_stopped_short_is_a_dead_end_or_joins_the_floor_ahead() {
    let tables = pinned(&[]);
    for (join_chance, joins, dead_ends) in [(0.0, 0, 1), (1.0, 1, 0)] {
        let mut w = World::new(join_chance);
        // Floor across rows 19: rows 0 to 4 (y 25 to 21) can be drawn, row 5 is its wall.
        w.floor(&[(14, 19), (15, 19), (16, 19)]);
        w.passage(&tables, 1, 10, (NO_OBJECT, Gate::Open));
        assert_eq!(w.counts.passages, 1);
        assert_eq!(w.s.stretches[0].drawn, 5);
        assert_eq!((w.counts.joins, w.counts.dead_ends), (joins, dead_ends));
        let joined = w.map.get(15, 20) == Some(cell::FLOOR);
        assert_eq!(joined, joins == 1);
        assert_eq!(w.s.links.len(), joins as usize);
        if let Some(&(from, _, flags)) = w.s.links.first() {
            assert_eq!((from, flags), (0, 0), "a plain link from the stretch");
        }
        assert!(w.s.queue.is_empty(), "nothing comes next");
    }
}

#[test]
fn side_doors_queue_the_door_and_the_passage_on() {
    let mut seen = Vec::new();
    for outcome in ["door_left", "door_right", "door_ahead"] {
        let roll = format!("outcome = \"{outcome}\"");
        let tables = pinned(&[(TableKind::Passage, &roll)]);
        let mut w = World::new(0.0);
        w.passage(&tables, 2, 3, (NO_OBJECT, Gate::Open));
        seen.push(queued(&w.s));
    }
    let on = ('P', (15, 22), Facing::North, 2, 6);
    assert_eq!(seen[0], [('D', (14, 23), Facing::West, 1, 0), on]);
    assert_eq!(seen[1], [('D', (17, 23), Facing::East, 1, 0), on]);
    assert_eq!(seen[2], [('D', (15, 22), Facing::North, 1, 0)]);
}

#[test]
fn a_branch_leaves_through_a_wall_when_the_stretch_is_long_enough() {
    let run = |outcome: &str, width_ft: u32| {
        let roll = format!("outcome = \"{outcome}\"");
        let widths = format!("outcome = \"width\"\nwidth_ft = {width_ft}");
        let tables = pinned(&[
            (TableKind::Passage, &roll),
            (TableKind::PassageWidth, &widths),
        ]);
        let mut w = World::new(0.0);
        w.passage(&tables, 1, 3, (NO_OBJECT, Gate::Open));
        queued(&w.s)
    };
    let on = ('P', (15, 22), Facing::North, 1, 6);
    assert_eq!(
        run("branch_left", 10),
        [('P', (14, 24), Facing::West, 2, 6), on]
    );
    assert_eq!(
        run("branch_right", 5),
        [('P', (16, 23), Facing::East, 1, 6), on]
    );
    // As wide as the stretch is long: leaving from its first row; wider: no branch.
    assert_eq!(
        run("branch_left", 15),
        [('P', (14, 25), Facing::West, 3, 6), on]
    );
    assert_eq!(run("branch_left", 20), [on]);
}

#[test]
fn a_turn_goes_on_sideways_or_is_a_dead_end_when_the_stretch_is_too_short() {
    let tables = pinned(&[(
        TableKind::Passage,
        "outcome = \"turn_right\"\nlength_ft = 20",
    )]);
    let mut w = World::new(0.0);
    w.passage(&tables, 2, 3, (NO_OBJECT, Gate::Open));
    assert_eq!(queued(&w.s), [('P', (17, 23), Facing::East, 2, 4)]);
    assert_eq!(w.counts.dead_ends, 0);
    // Two wide, one row long: no room to turn.
    let mut w = World::new(0.0);
    w.passage(&tables, 2, 1, (NO_OBJECT, Gate::Open));
    assert!(w.s.queue.is_empty());
    assert_eq!(w.counts.dead_ends, 1);
}

#[test]
fn a_blocked_turn_joins_what_blocks_it_or_is_a_dead_end() {
    for (join_chance, joins, dead_ends) in [(0.0, 0, 1), (1.0, 1, 0)] {
        let mut w = World::new(join_chance);
        dig_rows(&mut w.map, &start(), 1, 3, &mut w.s);
        let st = Stretch {
            cursor: start(),
            width: 1,
            drawn: 3,
            id: 0,
        };
        let turned = st.side_exit(true, 1);
        assert_eq!(turned, Cursor::at(14, 23, Facing::West));
        w.floor(&[(13, 23)]);
        turn(
            &mut w.map,
            &w.p,
            &mut w.rng,
            &st,
            turned,
            4,
            &mut w.s,
            &mut w.counts,
        );
        assert!(w.s.queue.is_empty(), "no row clear past the turn");
        assert_eq!((w.counts.joins, w.counts.dead_ends), (joins, dead_ends));
        assert_eq!(w.map.get(14, 23) == Some(cell::FLOOR), joins == 1);
    }
}

#[test]
fn a_dead_end_may_hide_a_secret_door() {
    for (chance, doors) in [(0, 0), (100, 1)] {
        let roll = format!("outcome = \"dead_end\"\nchance = {chance}");
        let tables = pinned(&[(TableKind::Passage, &roll)]);
        let mut w = World::new(0.0);
        w.passage(&tables, 1, 3, (NO_OBJECT, Gate::Open));
        assert_eq!(w.counts.dead_ends, 1);
        let exits = queued(&w.s);
        assert_eq!(exits.len(), doors);
        if let Some(Exit::Door {
            door, code, kind, ..
        }) = w.s.queue.front()
        {
            assert_eq!((*door, *code, *kind), ((15, 22), cell::SECRET_DOOR, 3));
        }
    }
}

#[test]
fn stairs_stand_on_the_last_row() {
    for (roll, code) in [("up", cell::STAIRS_UP), ("down_two", cell::STAIRS_DOWN)] {
        let stairs = format!("outcome = \"{roll}\"");
        let tables = pinned(&[
            (TableKind::Passage, "outcome = \"stairs\""),
            (TableKind::Stairs, &stairs),
        ]);
        let mut w = World::new(0.0);
        w.passage(&tables, 2, 3, (NO_OBJECT, Gate::Open));
        assert_eq!(w.counts.stairs, 1);
        assert_eq!(w.map.get(15, 23), Some(code));
        assert_eq!(w.map.get(16, 23), Some(cell::FLOOR));
    }
}

#[test]
fn a_chamber_opens_past_a_doorway_or_the_passage_dead_ends() {
    let tables = pinned(&[
        (TableKind::Passage, "outcome = \"chamber\""),
        (
            TableKind::Chamber,
            "outcome = \"rectangle\"\nwidth_ft = 20\nlength_ft = 20",
        ),
    ]);
    let mut w = World::new(0.0);
    w.passage(&tables, 1, 3, (NO_OBJECT, Gate::Open));
    assert_eq!((w.counts.chambers, w.counts.dead_ends), (1, 0));
    assert_eq!(w.s.objects[1].0, CHAMBER);
    assert_eq!(w.s.links, [(0, 1, 0)]);
    assert_eq!(w.map.get(15, 22), Some(cell::FLOOR), "the doorway");
    assert_eq!(
        w.map.get(15, 21),
        Some(cell::FLOOR),
        "the chamber's first row"
    );
    // Floor just past the doorway row leaves no room for a chamber.
    let mut w = World::new(0.0);
    w.floor(&[(15, 20)]);
    w.passage(&tables, 1, 3, (NO_OBJECT, Gate::Open));
    assert_eq!((w.counts.chambers, w.counts.dead_ends), (0, 1));
    assert_eq!(
        w.map.get(15, 22),
        Some(cell::WALL),
        "no doorway into nothing"
    );
}
