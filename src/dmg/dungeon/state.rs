//! The dungeon being drawn (seed 003): its settings, counts and per-worker scratch, the objects
//! and links it records, the exits waiting to be explored and the gates they open from.

use std::collections::VecDeque;

use crate::dmg::canvas::{Cursor, Map};
use crate::dmg::chamber::{Analysis, PlaceParams};

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
pub type ChamberBox = Bbox;

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
    pub(super) queue: VecDeque<Exit>,
    pub(super) analysis: Analysis,
    pub(super) floor: u32,
    pub(super) placed: Vec<Placed>,
    /// Passage stretches drawn, for side doors when the dungeon runs out of exits.
    pub(super) stretches: Vec<Stretch>,
    /// Objects (passage stretches and chambers): kind (`PASSAGE`, `CHAMBER`) and bounding box.
    pub objects: Vec<(u8, Bbox)>,
    /// Connections between objects: `(from, to, flags)`; flags carry the door (see
    /// [`DOOR_FLAG`]).
    pub links: Vec<(u32, u32, u8)>,
    /// Squares joins reached, their owners found once the dungeon is drawn (`JOINED | k` stands
    /// for the owner of `joined[k]` in `links` until then).
    pub(super) joined: Vec<(i32, i32)>,
    /// Per square: the object whose box holds it (resolving joins), and the objects in paint
    /// order.
    pub(super) owner: Vec<u32>,
    pub(super) paint: Vec<u32>,
    /// Time the chamber placements and the whole dungeon (`chamber_ns`, `total_ns`): off by
    /// default, a clock read per chamber costs about 2% of a level.
    pub time_chambers: bool,
    /// Nanoseconds the last dungeon spent placing chambers (with `time_chambers`).
    pub chamber_ns: u64,
    /// Nanoseconds the last dungeon took in all (with `time_chambers`).
    pub total_ns: u64,
}

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
    pub(super) fn record(&mut self, kind: u8, bbox: Bbox, from: u32, gate: Gate) -> u32 {
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
pub(super) struct Placed {
    pub(super) cursor: Cursor,
    /// The entrance's width.
    pub(super) entrance: i32,
    pub(super) left: i32,
    pub(super) width: i32,
    pub(super) length: i32,
    pub(super) id: u32,
}

/// A stretch of passage as drawn: its first square's cursor (the left edge), its width, the rows
/// drawn and its object id.
#[derive(Clone, Copy, Debug)]
pub(super) struct Stretch {
    pub(super) cursor: Cursor,
    pub(super) width: i32,
    pub(super) drawn: i32,
    pub(super) id: u32,
}

/// What a passage opens from, dug only once the passage has a first square.
#[derive(Clone, Copy, Debug)]
pub(super) enum Gate {
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
pub(super) enum Exit {
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

pub(super) fn squares(ft: u32) -> i32 {
    (ft / FEET).max(1) as i32
}
