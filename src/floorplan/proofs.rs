//! Proofs that a level graph cannot be laid out, made before any search and each said in one
//! line naming the rooms or templates at fault:
//! - a non-planar graph, with its K5 or K3,3 subdivision ([`not_planar`]);
//! - a room with more connections than any of its templates has room for doors
//!   ([`too_many_doors`], from [`door_capacity`]);
//! - a connection whose rooms' templates have no pair of doors that can meet: no common door
//!   width, or no door of one facing a door of the same width on the other under any allowed
//!   transform ([`no_door_between`]);
//! - two rooms no connection joins, both joined to a room too small to keep them
//!   `map.min_room_distance` apart ([`too_close`]).
//!
//! Cycles that can never close are proved in `floorplan::cycles`.

use crate::core::kuratowski::{Kuratowski, Witness};
use crate::floorplan::shape::{DoorSide, Flow, Shape, side};
use crate::floorplan::spec::{Doors, LevelGraph, Library};

/// The refusal of a non-planar graph, naming the rooms of its K5 or K3,3 subdivision and the
/// paths of connections between them.
pub(crate) fn not_planar(graph: &LevelGraph, w: &Witness) -> String {
    let id = |v: &u32| format!("`{}`", graph.rooms[*v as usize].id);
    let names = |vs: &[u32]| and_list(&vs.iter().map(id).collect::<Vec<_>>());
    let what = match &w.kind {
        Kuratowski::K5(b) => format!(
            "rooms {} are each joined to the other four (a K5)",
            names(b)
        ),
        Kuratowski::K33(x, y) => format!(
            "rooms {} are each joined to each of rooms {} (a K3,3)",
            names(x),
            names(y)
        ),
    };
    let paths: Vec<String> = w
        .paths
        .iter()
        .map(|p| p.iter().map(id).collect::<Vec<_>>().join(" - "))
        .collect();
    format!(
        "the graph is not planar: its rooms cannot be laid out without crossing connections: \
         {what}, by the paths {}",
        paths.join(", ")
    )
}

/// `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// At most how many connections a room of `shape` can have doors for, with at least `gap`
/// tiles between two doors on one wall line: an upper bound that counts, on each wall line, the
/// doors of the shortest allowed length that fit in the runs of tiles doors may cover. One tile
/// is always forced between two doors: two neighbours (or their corridors) along one wall
/// cannot both use the tile where they meet, since a door keeps off its rooms' corners and two
/// owners' floors may not touch. Two neighbours that touch the room (no corridor) keep their
/// own corner distances from that tile as well.
pub(crate) fn door_capacity(shape: &Shape, gap: i32) -> u32 {
    let mut lines: Vec<(u8, i32, i32, i32, u32)> = shape
        .doors
        .iter()
        .map(|d| (d.side, d.fixed, d.lo, d.hi + d.len as i32 - 1, d.len))
        .collect();
    lines.sort_unstable();
    let mut total = 0u32;
    let mut k = 0;
    while k < lines.len() {
        let (side, fixed) = (lines[k].0, lines[k].1);
        let mut end = k;
        while end < lines.len() && (lines[end].0, lines[end].1) == (side, fixed) {
            end += 1;
        }
        let len = lines[k..end].iter().map(|l| l.4).min().unwrap_or(1).max(1) as i32;
        // Runs of covered tiles, merged where they overlap or meet.
        let (mut from, mut to) = (lines[k].2, lines[k].3);
        for l in &lines[k + 1..end] {
            if l.2 > to + 1 {
                total += ((to - from + 1 + gap) / (len + gap)) as u32;
                (from, to) = (l.2, l.3);
            } else {
                to = to.max(l.3);
            }
        }
        total += ((to - from + 1 + gap) / (len + gap)) as u32;
        k = end;
    }
    total
}

/// The first room (in file order) with more connections than any shape it may take has room
/// for doors ([`door_capacity`]; `touching[j]`: connection `j` never takes a corridor), said
/// in one line naming the room and its templates' limits.
pub(crate) fn too_many_doors(
    graph: &LevelGraph,
    library: &Library,
    shapes: &[Shape],
    room_shapes: &[Vec<u32>],
    touching: &[bool],
) -> Option<String> {
    let mut degree = vec![0u32; graph.rooms.len()];
    for c in &graph.connections {
        degree[c.a as usize] += 1;
        degree[c.b as usize] += 1;
    }
    for (v, allowed) in room_shapes.iter().enumerate() {
        let gap = least_gap(graph, library, (shapes, room_shapes), touching, v);
        let capacity = |s: u32| door_capacity(&shapes[s as usize], gap);
        let most = allowed.iter().map(|&s| capacity(s)).max();
        if most.is_some_and(|k| k >= degree[v]) {
            continue;
        }
        // Per template, its best transform.
        let mut per: Vec<(u32, u32)> = Vec::new();
        for &s in allowed {
            let (t, k) = (shapes[s as usize].template, capacity(s));
            match per.iter_mut().find(|p| p.0 == t) {
                Some(p) => p.1 = p.1.max(k),
                None => per.push((t, k)),
            }
        }
        let listed: Vec<String> = per
            .iter()
            .take(8)
            .map(|&(t, k)| format!("`{}` {k}", library.templates[t as usize].name))
            .collect();
        let more = match per.len().saturating_sub(8) {
            0 => String::new(),
            m => format!(" and {m} more"),
        };
        return Some(format!(
            "room `{}` has {} connections, but none of its templates has room for more than {} \
             doors along its walls ({gap} tile(s) between doors): {}{more}",
            graph.rooms[v].id,
            degree[v],
            most.unwrap_or(0),
            listed.join(", ")
        ));
    }
    None
}

/// The first connection (in file order) whose two rooms can never share a door, with why: their
/// templates' doors have no width in common, or no door of one faces (across a shared wall or
/// a straight corridor) a door of the same width on the other under any allowed transform.
pub(crate) fn no_door_between(
    graph: &LevelGraph,
    shapes: &[Shape],
    room_shapes: &[Vec<u32>],
) -> Option<(usize, String)> {
    // Per room, the (width, facing, socket, kind) of all its shapes' door sides.
    let doors = |room: u32| -> Vec<(u32, u8, u16, u8)> {
        let mut v: Vec<(u32, u8, u16, u8)> = room_shapes[room as usize]
            .iter()
            .flat_map(|&s| {
                let doors = &shapes[s as usize].doors;
                doors.iter().map(|d| (d.len, d.side, d.socket, d.kind))
            })
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    for (j, c) in graph.connections.iter().enumerate() {
        let (full_a, full_b) = (doors(c.a), doors(c.b));
        let flow = if c.directed { Flow::Out } else { Flow::Any };
        let door = |&(len, side, socket, kind): &(u32, u8, u16, u8)| DoorSide {
            side,
            fixed: 0,
            lo: 0,
            hi: 0,
            len,
            socket,
            kind,
        };
        let facing = |x: &(u32, u8, u16, u8), y: &(u32, u8, u16, u8)| {
            x.0 == y.0 && y.1 == side::opposite(x.1)
        };
        let meets = full_a.iter().any(|x| {
            full_b
                .iter()
                .any(|y| facing(x, y) && door(x).meets(&door(y), flow))
        });
        if meets {
            continue;
        }
        let name = |v: u32| &graph.rooms[v as usize].id;
        if full_a.iter().any(|x| full_b.iter().any(|y| facing(x, y))) {
            return Some((j, no_socket_meets(graph, j)));
        }
        let strip = |v: &[(u32, u8, u16, u8)]| {
            let mut w: Vec<(u32, u8)> = v.iter().map(|d| (d.0, d.1)).collect();
            w.dedup();
            w
        };
        let (a, b) = (strip(&full_a), strip(&full_b));
        let widths = |v: &[(u32, u8)]| {
            let mut w: Vec<u32> = v.iter().map(|d| d.0).collect();
            w.dedup();
            w.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
        };
        let (wa, wb) = (widths(&a), widths(&b));
        let why = if a.iter().any(|d| b.iter().any(|e| e.0 == d.0)) {
            format!(
                "no door of room `{}`'s templates faces a door of the same width on room `{}`'s, \
                 under any allowed transform: `{}`'s doors face {}, `{}`'s face {}",
                name(c.a),
                name(c.b),
                name(c.a),
                facings(&a),
                name(c.b),
                facings(&b)
            )
        } else {
            format!(
                "the templates of room `{}` have doors {wa} tile(s) wide, those of room `{}` \
                 {wb} tile(s) wide",
                name(c.a),
                name(c.b)
            )
        };
        return Some((
            j,
            format!(
                "connection {} (`{}` - `{}`) can never get a door: {why}",
                j + 1,
                name(c.a),
                name(c.b)
            ),
        ));
    }
    None
}

/// Why connection `j` can never get a door when its rooms' templates have facing doors of one
/// width, but none of one socket (and, when it is directed, of an exit facing an entrance).
fn no_socket_meets(graph: &LevelGraph, j: usize) -> String {
    let c = &graph.connections[j];
    let name = |v: u32| &graph.rooms[v as usize].id;
    let how = if c.directed {
        format!(
            " and lets the connection go out of `{}` and come into `{}`",
            name(c.a),
            name(c.b)
        )
    } else {
        String::new()
    };
    format!(
        "connection {} (`{}` - `{}`) can never get a door: no door of room `{}`'s templates \
         faces a door of room `{}`'s of the same width with the same socket{how}",
        j + 1,
        name(c.a),
        name(c.b),
        name(c.a),
        name(c.b)
    )
}

/// Two rooms that no connection joins but that are both joined to one room, whose templates
/// (with the longest corridors of both connections) are too small to keep them
/// `min_distance` apart, said in one line. Each of the two has a door tile on that room's
/// walls, or at the far end of a straight corridor from them, so the two are at most the room's
/// larger side plus both corridors apart along either axis, and keeping their distance needs
/// `min_distance` along one.
pub(crate) fn too_close(
    graph: &LevelGraph,
    (shapes, room_shapes): (&[Shape], &[Vec<u32>]),
    longest: &[i32],
    min_distance: i32,
) -> Option<String> {
    if min_distance <= 0 {
        return None;
    }
    let n = graph.rooms.len();
    let mut joined: std::collections::HashSet<(u32, u32)> = std::collections::HashSet::new();
    let mut near: Vec<Vec<(u32, i32)>> = vec![Vec::new(); n];
    for (j, c) in graph.connections.iter().enumerate() {
        joined.insert((c.a.min(c.b), c.a.max(c.b)));
        near[c.a as usize].push((c.b, longest[j]));
        near[c.b as usize].push((c.a, longest[j]));
    }
    for (u, around) in near.iter().enumerate() {
        let size = room_shapes[u]
            .iter()
            .map(|&s| shapes[s as usize].w.max(shapes[s as usize].h))
            .max()?;
        for (i, &(v, gv)) in around.iter().enumerate() {
            for &(w, gw) in &around[i + 1..] {
                let most = size + gv + gw;
                if v == w || most >= min_distance || joined.contains(&(v.min(w), v.max(w))) {
                    continue;
                }
                let name = |r: u32| &graph.rooms[r as usize].id;
                let corridors = match gv.max(gw) {
                    0 => String::new(),
                    g => format!(", with corridors of at most {} tile(s)", g - 1),
                };
                return Some(format!(
                    "rooms `{}` and `{}` are not joined, so map.min_room_distance = \
                     {min_distance} keeps them apart, but both are joined to room `{}`, whose \
                     templates are at most {} tiles across{corridors}: the two are never more \
                     than {most} apart",
                    name(v),
                    name(w),
                    graph.rooms[u].id,
                    size + 1
                ));
            }
        }
    }
    None
}

/// The directions doors face, per width: `east and south (1 tile wide), north (2 tiles wide)`.
fn facings(doors: &[(u32, u8)]) -> String {
    const NAMES: [&str; 4] = ["east", "south", "west", "north"];
    let mut parts = Vec::new();
    let mut k = 0;
    while k < doors.len() {
        let len = doors[k].0;
        let sides: Vec<String> = doors[k..]
            .iter()
            .take_while(|d| d.0 == len)
            .map(|d| NAMES[d.1 as usize & 3].to_string())
            .collect();
        k += sides.len();
        parts.push(format!("{} ({len} tile(s) wide)", and_list(&sides)));
    }
    parts.join(", ")
}

/// The fewest tiles between two of room `v`'s doors on one wall line: 1, or when no connection
/// of `v` takes a corridor, 1 plus twice the least corner distance of its neighbours' templates
/// (each neighbour's door keeps that far from the corner tile it may share with the next).
fn least_gap(
    graph: &LevelGraph,
    library: &Library,
    (shapes, room_shapes): (&[Shape], &[Vec<u32>]),
    touching: &[bool],
    v: usize,
) -> i32 {
    let mut corner = i32::MAX;
    for (j, c) in graph.connections.iter().enumerate() {
        let u = match (c.a as usize, c.b as usize) {
            (a, b) if a == v => b,
            (a, b) if b == v => a,
            _ => continue,
        };
        if !touching[j] {
            return 1;
        }
        for &s in &room_shapes[u] {
            let t = &library.templates[shapes[s as usize].template as usize];
            for rule in &t.doors {
                corner = corner.min(match rule.place {
                    Doors::Simple {
                        corner_distance, ..
                    } => corner_distance as i32,
                    Doors::Listed(_) | Doors::Lines { .. } => 0,
                });
            }
        }
    }
    1 + 2 * corner.min(64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::floorplan::input::load_library;
    use crate::floorplan::shape::shapes_of;

    #[test]
    fn door_capacity_counts_doors_a_gap_apart_on_each_wall() {
        // Edgar's paper library: doors 2 tiles long, 1 tile between a door and a corner.
        let library = load_library("edgar-paper").unwrap();
        let shapes = shapes_of(&library.templates).unwrap();
        let of = |name: &str, gap: i32| {
            let t = library
                .templates
                .iter()
                .position(|t| t.name == name)
                .unwrap();
            let caps: Vec<u32> = shapes
                .iter()
                .filter(|s| s.template as usize == t)
                .map(|s| door_capacity(s, gap))
                .collect();
            assert!(caps.windows(2).all(|w| w[0] == w[1]), "{name}: {caps:?}");
            caps[0]
        };
        // 12 x 18: doors may cover tiles 2..=15 of a long wall (14 tiles) and 2..=9 of a short
        // one (8): 14 = 2k + 3(k - 1) gives 3 doors, 8 gives 2; a tile apart, 5 and 3.
        assert_eq!(of("12x18", 3), 10);
        assert_eq!(of("12x18", 1), 16);
        assert_eq!(of("8x8", 3), 4);
        assert_eq!(of("12x12", 3), 8);
    }
}
