//! Loops in DMG dungeons (beyond seed 003, after its Appendix A, whose dungeons loop back on
//! themselves): a passage that would stop one or two rock rows short of floor, or a door or
//! doorway with no passage behind it, opens into that floor instead ([`join_through`],
//! [`join`]), with chance `dmg.join_chance`; the objects reached are found once the dungeon is
//! drawn ([`resolve_joins`]).

use crate::core::grid::cell;
use crate::core::rng::WarrenRng;
use crate::dmg::canvas::{Cursor, Map};
use crate::dmg::dungeon::gates::dig_gate;
use crate::dmg::dungeon::state::{
    Bbox, Counts, DOOR_FLAG, DungeonParams, DungeonScratch, Gate, NO_OBJECT,
};

/// Marks a link end that stands for the owner of a square a join reached ([`resolve_joins`]).
const JOINED: u32 = 1 << 31;

/// Replaces every `JOINED | k` link end by the object owning square `joined[k]`: of the
/// objects whose boxes hold it, the smallest (a passage's box is its floor; a round chamber's
/// box holds rock in its corners), ties by the lower id.
///
/// # Runtime
/// O(sum of the objects' box areas) to paint their owners, largest first, into a per-square
/// array; then O(1) per join. No allocation once the scratch has grown.
pub(super) fn resolve_joins(map: &Map, s: &mut DungeonScratch) {
    if s.joined.is_empty() {
        return;
    }
    let (w, h) = (map.grid.width as i32, map.grid.height as i32);
    s.owner.clear();
    s.owner.resize((w * h) as usize, NO_OBJECT);
    let area = |b: &Bbox| i64::from(b.x1 - b.x0) * i64::from(b.y1 - b.y0);
    // Objects by decreasing area, then decreasing id: the smallest box (and of equal ones the
    // lowest id) paints last.
    s.paint.clear();
    s.paint.extend(0..s.objects.len() as u32);
    let objects = &s.objects;
    s.paint
        .sort_unstable_by_key(|&i| std::cmp::Reverse((area(&objects[i as usize].1), i)));
    for &i in &s.paint {
        let b = s.objects[i as usize].1;
        for y in b.y0.max(0)..b.y1.min(h) {
            for x in b.x0.max(0)..b.x1.min(w) {
                s.owner[(y * w + x) as usize] = i;
            }
        }
    }
    for k in 0..s.links.len() {
        let to = s.links[k].1;
        if to & JOINED != 0 && to != NO_OBJECT {
            let square = s.joined[(to & !JOINED) as usize];
            s.links[k].1 = owner_near(map, &s.owner, square, &mut s.paint);
        }
    }
    s.joined.clear();
}

/// The owner of `square`, or, for floor no object's box holds (a join's opening, a doorway),
/// of the nearest square along the floor that one holds (breadth-first; `queue` is scratch).
fn owner_near(map: &Map, owner: &[u32], square: (i32, i32), queue: &mut Vec<u32>) -> u32 {
    let w = map.grid.width as i32;
    let at = |(x, y): (i32, i32)| (y * w + x) as usize;
    if owner[at(square)] != NO_OBJECT {
        return owner[at(square)];
    }
    queue.clear();
    queue.push(at(square) as u32);
    let mut head = 0;
    while head < queue.len() && head < 4096 {
        let i = queue[head] as i32;
        head += 1;
        let (x, y) = (i % w, i / w);
        for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (nx, ny) = (x + dx, y + dy);
            let dug = map.get(nx, ny).is_some_and(|c| c != cell::WALL);
            let j = at((nx, ny)) as u32;
            if dug && !queue.contains(&j) {
                if owner[j as usize] != NO_OBJECT {
                    return owner[j as usize];
                }
                queue.push(j);
            }
        }
    }
    NO_OBJECT
}

/// Rock rows a join may dig through to reach floor ahead.
const JOIN_ROWS: i32 = 2;

/// The floor a passage `width` wide along `c` would reach by digging on from row `from_row`:
/// the first row `t` within [`JOIN_ROWS`] rows of it whose squares across the passage are all
/// floor, with every square between undug (off the map's edge) and the squares beside them
/// undug, so that the opening touches nothing else; and a square of that floor. With `gate`,
/// the floor may lie on row `from_row` itself: the gate (a door or doorway dug by the caller)
/// is then the whole opening.
fn join_target(
    map: &Map,
    c: &Cursor,
    width: i32,
    from_row: i32,
    gate: bool,
) -> Option<(i32, (i32, i32))> {
    for t in from_row..=from_row + JOIN_ROWS {
        let across = |l: i32| c.map_square(t, -l);
        if (t > from_row || gate)
            && (0..width).all(|l| {
                let (x, y) = across(l);
                map.get(x, y) == Some(cell::FLOOR)
            })
        {
            return Some((t, across(0)));
        }
        let rock = (0..width).all(|l| {
            let (x, y) = across(l);
            map.open(x, y)
        });
        let (lx, ly) = c.map_square(t, 1);
        let (rx, ry) = c.map_square(t, -width);
        if !rock || map.dug(lx, ly) || map.dug(rx, ry) {
            return None;
        }
    }
    None
}

/// With [`DungeonParams::join_chance`], digs a passage `width` wide along `c` from row
/// `from_row` through the rock up to the floor just ahead ([`join_target`]; `gate`: a door or
/// doorway the caller digs may be the whole opening). Returns the end to link: the object
/// reached, found once the dungeon is drawn ([`resolve_joins`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn join(
    map: &mut Map,
    p: &DungeonParams,
    rng: &mut WarrenRng,
    c: &Cursor,
    width: i32,
    from_row: i32,
    gate: bool,
    s: &mut DungeonScratch,
) -> Option<u32> {
    if p.join_chance <= 0.0 {
        return None;
    }
    let gate = from_row == 0 && gate;
    let (t, square) = join_target(map, c, width, from_row, gate)?;
    if !rng.chance(p.join_chance) {
        return None;
    }
    for row in from_row..t {
        for l in 0..width {
            let (x, y) = c.map_square(row, -l);
            map.set(x, y, cell::FLOOR);
            s.floor += 1;
        }
    }
    s.joined.push(square);
    Some(JOINED | (s.joined.len() as u32 - 1))
}

/// A gate of object `from` behind which no passage could start (`c` on the first square
/// beyond it): with [`join`], the gate is dug and opens through the rock into the floor just
/// ahead, linked to the object reached. Returns whether it did.
#[allow(clippy::too_many_arguments)]
pub(super) fn join_through(
    map: &mut Map,
    p: &DungeonParams,
    rng: &mut WarrenRng,
    c: &Cursor,
    width: i32,
    (from, gate): (u32, Gate),
    s: &mut DungeonScratch,
    counts: &mut Counts,
) -> bool {
    if from == NO_OBJECT {
        return false;
    }
    let dug = !matches!(gate, Gate::Open);
    let Some(to) = join(map, p, rng, c, width, 0, dug, s) else {
        return false;
    };
    dig_gate(map, gate, s, counts);
    let flags = match gate {
        Gate::Door { kind, .. } => DOOR_FLAG | ((kind as u8) << 4),
        _ => 0,
    };
    s.links.push((from, to, flags));
    counts.joins += 1;
    true
}
