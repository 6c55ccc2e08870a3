//! Placing a chamber (seed 003's clearance proposals, `chamber.rs`) into the map: digging it,
//! recording it and queueing its exits.

use std::collections::VecDeque;

use crate::core::grid::cell;
use crate::core::rng::WarrenRng;
use crate::dmg::canvas::{Cursor, Map};
use crate::dmg::chamber::{self, ChamberRequest, Entrance, ProposalKind};
use crate::dmg::dungeon::gates::{queue_door, width_roll};
use crate::dmg::dungeon::state::{
    Bbox, CHAMBER, Counts, DungeonParams, DungeonScratch, Exit, Gate, Placed,
};
use crate::dmg::tables::{TableKind, Tables};

/// Places a chamber of `shape` at `entrance`; on success digs it, records it and queues its
/// exits. Returns whether it was placed.
#[allow(clippy::too_many_arguments)]
pub(super) fn place(
    map: &mut Map,
    tables: &Tables,
    p: &DungeonParams,
    rng: &mut WarrenRng,
    entrance: &Entrance,
    req: ChamberRequest,
    shape: &str,
    (from, gate): (u32, Gate),
    s: &mut DungeonScratch,
    counts: &mut Counts,
) -> bool {
    let started = s.time_chambers.then(std::time::Instant::now);
    let won = chamber::place_chamber(map, entrance, &req, &p.place, rng, &mut s.analysis);
    if let Some(t) = started {
        s.chamber_ns += t.elapsed().as_nanos() as u64;
    }
    let Some(won) = won else {
        counts.placements[3] += 1;
        return false;
    };
    counts.placements[match won.kind {
        ProposalKind::Whole => 0,
        ProposalKind::Shifted => 1,
        ProposalKind::Shrunk => 2,
    }] += 1;
    counts.chambers += 1;
    let c = entrance.cursor;
    let (w, l) = (won.width, won.length);
    // Round and cross shapes only where the chamber got the square it asked for: cut into a
    // narrowed strip they could fall apart.
    let as_rolled = (w, l) == (req.width, req.length);
    let shape = if as_rolled && (w == l || shape == "cross") {
        shape
    } else {
        "rectangle"
    };
    // Shapes inside the placed rectangle; the squares next to the entrance are always floor so
    // the doorway opens into the chamber.
    let plain = shape == "rectangle";
    let inside = |a: i32, j: i32| -> bool {
        let (cx, cy) = (f64::from(w - 1) / 2.0, f64::from(l - 1) / 2.0);
        let (dx, dy) = (f64::from(j) - cx, f64::from(a) - cy);
        match shape {
            "circle" => {
                let r = f64::from(w.min(l)) / 2.0;
                dx * dx + dy * dy <= r * r + 0.5 || a == 0
            }
            "octagon" => {
                let cut = f64::from(w.min(l)) * 0.3;
                dx.abs() + dy.abs() <= cx + cy - cut + 0.5 || a == 0
            }
            "cross" => {
                let (tx, ty) = (f64::from(w) / 6.0, f64::from(l) / 6.0);
                dx.abs() <= cx - tx + 0.5 || dy.abs() <= cy - ty + 0.5 || a == 0
            }
            _ => true,
        }
    };
    let (mut x0, mut y0, mut x1, mut y1) = (i32::MAX, i32::MAX, i32::MIN, i32::MIN);
    for (a, j) in [(0, 0), (l - 1, w - 1)] {
        let (x, y) = c.map_square(a, won.left - j);
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x + 1), y1.max(y + 1));
    }
    if plain {
        map.dig_rect((x0, y0), (x1, y1), cell::FLOOR);
        s.floor += (w * l) as u32;
    } else {
        for a in 0..l {
            for j in 0..w {
                if inside(a, j) {
                    let (x, y) = c.map_square(a, won.left - j);
                    map.set(x, y, cell::FLOOR);
                    s.floor += 1;
                }
            }
        }
    }
    let bbox = Bbox { x0, y0, x1, y1 };
    s.chambers.push(bbox);
    let id = s.record(CHAMBER, bbox, from, gate);

    let frame = Placed {
        cursor: c,
        entrance: entrance.width,
        left: won.left,
        width: w,
        length: l,
        id,
    };
    s.placed.push(frame);
    queue_exits(map, tables, rng, &mut s.queue, frame);
    true
}

/// Rolls a chamber's exits (how many, which wall, door or opening) and queues them.
pub(super) fn queue_exits(
    map: &Map,
    tables: &Tables,
    rng: &mut WarrenRng,
    queue: &mut VecDeque<Exit>,
    f: Placed,
) {
    let (c, w, l) = (f.cursor, f.width, f.length);
    // Exits.
    let n = tables.get(TableKind::ChamberExits).roll(rng).count;
    for _ in 0..n {
        let loc = tables.get(TableKind::ExitLocation).roll(rng).outcome;
        let kind = tables.get(TableKind::ExitKind).roll(rng).outcome;
        let ew = if kind == "door" {
            1
        } else {
            width_roll(tables, rng)
        };
        // The doorway: its left-edge square (looking out) and the facing out of the chamber.
        let doorway = match loc {
            "left" if ew <= l => {
                let a0 = rng.below((l - ew + 1) as u32) as i32;
                let (x, y) = c.map_square(a0, f.left + 1);
                Some(Cursor::at(x, y, c.facing.left()))
            }
            "right" if ew <= l => {
                let a0 = rng.below((l - ew + 1) as u32) as i32;
                let (x, y) = c.map_square(a0 + ew - 1, f.left - w);
                Some(Cursor::at(x, y, c.facing.right()))
            }
            "opposite" if ew <= w => {
                let k = rng.below((w - ew + 1) as u32) as i32;
                let (x, y) = c.map_square(l, f.left - k);
                Some(Cursor::at(x, y, c.facing))
            }
            "same" if ew <= w => {
                // The entrance wall, looking back; the doorway's left edge (looking out) is its
                // square furthest right in the chamber's frame. It keeps a square of rock from
                // the entrance (lateral offsets `1..=-(entrance width)` stay clear).
                let k = rng.below((w - ew + 1) as u32) as i32;
                let (hi, lo) = (f.left - k, f.left - k - ew + 1);
                if lo <= 1 && hi >= -f.entrance {
                    None
                } else {
                    let (x, y) = c.map_square(-1, lo);
                    Some(Cursor::at(x, y, c.facing.back()))
                }
            }
            _ => None,
        };
        let Some(doorway) = doorway else { continue };
        // The squares just inside the doorway must be floor (shaped chambers have corners).
        let mut back = doorway;
        back.forward(-1);
        if !(0..ew).all(|k| {
            let (x, y) = back.map_square(0, -k);
            map.dug(x, y)
        }) {
            continue;
        }
        if kind == "door" {
            let mut beyond = doorway;
            beyond.forward(1);
            queue_door(tables, rng, queue, (doorway.x, doorway.y), beyond, f.id);
        } else {
            queue.push_back(Exit::Opening {
                doorway,
                width: ew,
                from: f.id,
            });
        }
    }
}
