//! The gameplay constraints of a level graph: locks and keys ([`lock_problem`], decided on the
//! graph, since a map's floor joins rooms exactly where the graph connects them) and bounds on
//! floor paths ([`floor_steps`], measured on each map).

use crate::core::grid::cell;
use crate::floorplan::spec::{LevelGraph, Lock};

/// The most distinct key rooms a graph's locks may name (the lock check walks the graph once
/// per set of keys held).
pub const MAX_KEYS: usize = 12;

/// The first room tagged `start`.
pub fn start_room(graph: &LevelGraph) -> Option<u32> {
    let at = graph
        .rooms
        .iter()
        .position(|r| r.tags.iter().any(|t| t == "start"))?;
    Some(at as u32)
}

/// Why the locks of `graph`, walked from `start`, do not hold, if they do not: `(lock, why)`
/// for a walk that reaches a locked connection before its key (the walk named room by room), or
/// `(locks.len(), why)` for a room no walk reaches (its way is locked by keys behind it).
///
/// A walk may pass a locked connection once it has been through the lock's key room.
///
/// # Runtime
/// O(2^keys x (rooms + connections)) with `keys` <= [`MAX_KEYS`].
pub fn lock_problem(graph: &LevelGraph, locks: &[Lock], start: u32) -> Option<(usize, String)> {
    let n = graph.rooms.len();
    let mut keys: Vec<u32> = locks.iter().map(|l| l.key).collect();
    keys.sort_unstable();
    keys.dedup();
    let bit = |room: u32| keys.binary_search(&room).map_or(0u32, |i| 1 << i);
    let mut adjacent = vec![Vec::new(); n];
    let mut lock_of = vec![None; graph.connections.len()];
    for (l, lock) in locks.iter().enumerate() {
        lock_of[lock.connection as usize] = Some(l);
    }
    for (j, c) in graph.connections.iter().enumerate() {
        adjacent[c.a as usize].push((c.b, j));
        adjacent[c.b as usize].push((c.a, j));
    }
    // Walks by state (room, keys held): the state each was first reached from.
    let states = n << keys.len();
    let mut from = vec![u32::MAX; states];
    let state = |room: u32, held: u32| ((held as usize) * n + room as usize) as u32;
    let first = state(start, bit(start));
    from[first as usize] = first;
    let mut queue = std::collections::VecDeque::from([first]);
    let mut reached = vec![false; n];
    let name = |r: u32| format!("`{}`", graph.rooms[r as usize].id);
    while let Some(s) = queue.pop_front() {
        let (room, held) = (s % n as u32, s / n as u32);
        reached[room as usize] = true;
        for &(next, j) in &adjacent[room as usize] {
            let locked = lock_of[j].map(|l| (l, bit(locks[l].key)));
            if let Some((l, need)) = locked
                && held & need == 0
            {
                // Standing at the locked door without its key.
                let mut walk = vec![room];
                let mut at = s;
                while from[at as usize] != at {
                    at = from[at as usize];
                    walk.push(at % n as u32);
                }
                let walk: Vec<String> = walk.iter().rev().map(|&r| name(r)).collect();
                let c = &graph.connections[j];
                return Some((
                    l,
                    format!(
                        "lock {} ({} - {}, key {}) is reached before its key: {}",
                        l + 1,
                        name(c.a),
                        name(c.b),
                        name(locks[l].key),
                        walk.join(" - ")
                    ),
                ));
            }
            let t = state(next, held | bit(next));
            if from[t as usize] == u32::MAX {
                from[t as usize] = s;
                queue.push_back(t);
            }
        }
    }
    let lost = reached.iter().position(|&r| !r)?;
    Some((
        locks.len(),
        format!(
            "room {} can never be reached: every way to it passes a lock whose key lies behind it",
            name(lost as u32)
        ),
    ))
}

/// The least number of steps over floor and door tiles (4-connected) from a floor tile owned by
/// a room of `from` to one owned by a room of `to` (owner values `1 + room`), or `None` when no
/// walk joins them. `queue` and `seen` are scratch.
///
/// # Runtime
/// O(tiles).
pub fn floor_steps(
    (cells, owner, width): (&[u8], &[u16], usize),
    (from, to): (&[u32], &[u32]),
    (queue, seen): (&mut Vec<u32>, &mut Vec<u32>),
) -> Option<u32> {
    let is = |set: &[u32], o: u16| o != 0 && set.contains(&(u32::from(o) - 1));
    seen.clear();
    seen.resize(cells.len(), u32::MAX);
    queue.clear();
    for (i, &o) in owner.iter().enumerate() {
        if is(from, o) {
            seen[i] = 0;
            queue.push(i as u32);
        }
    }
    let height = cells.len() / width.max(1);
    let mut head = 0;
    while head < queue.len() {
        let i = queue[head] as usize;
        head += 1;
        if is(to, owner[i]) {
            return Some(seen[i]);
        }
        let (x, y) = (i % width, i / width);
        let near = [
            (x > 0).then(|| i - 1),
            (x + 1 < width).then(|| i + 1),
            (y > 0).then(|| i - width),
            (y + 1 < height).then(|| i + width),
        ];
        for k in near.into_iter().flatten() {
            let open = cells[k] == cell::FLOOR || cells[k] == cell::DOOR;
            if open && seen[k] == u32::MAX {
                seen[k] = seen[i] + 1;
                queue.push(k as u32);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::floorplan::spec::{Connection, CorridorSpec, RoomSpec};

    /// A graph of rooms `0..n` with `edges`, room 0 tagged `start`.
    fn graph(n: usize, edges: &[(u32, u32)]) -> LevelGraph {
        let rooms = (0..n)
            .map(|i| RoomSpec {
                id: i.to_string(),
                tags: if i == 0 { vec!["start".into()] } else { vec![] },
                ..RoomSpec::default()
            })
            .collect();
        let connections = edges
            .iter()
            .map(|&(a, b)| Connection {
                a,
                b,
                corridor: CorridorSpec::Default,
                directed: false,
                data: None,
                at: None,
            })
            .collect();
        LevelGraph {
            rooms,
            connections,
            ..LevelGraph::default()
        }
    }

    fn lock(connection: u32, key: u32) -> Lock {
        Lock { connection, key }
    }

    #[test]
    fn a_key_on_the_only_way_holds_and_a_way_around_it_does_not() {
        // 0 - 1 - 2 - 3, and 1 - 4 - 3 around room 2.
        let g = graph(5, &[(0, 1), (1, 2), (2, 3), (1, 4), (4, 3)]);
        assert_eq!(start_room(&g), Some(0));
        // Lock 2 - 3 with key 2: 3 is reached by 1 - 4 - 3 without 2.
        let (l, why) = lock_problem(&g, &[lock(2, 2)], 0).unwrap();
        assert_eq!(l, 0);
        assert!(why.contains("`0` - `1` - `4` - `3`"), "{why}");
        // Lock 1 - 2 and 4 - 3 with key 1: every walk passes 1 first.
        assert_eq!(lock_problem(&g, &[lock(1, 1), lock(4, 1)], 0), None);
    }

    #[test]
    fn nested_locks_hold_and_a_key_behind_its_own_lock_is_found() {
        // 0 - 1 - 2 - 3 - 4: lock 1 - 2 with key 1, lock 3 - 4 with key 3 (behind the first).
        let g = graph(5, &[(0, 1), (1, 2), (2, 3), (3, 4)]);
        assert_eq!(lock_problem(&g, &[lock(1, 1), lock(3, 3)], 0), None);
        // Lock 1 - 2 with its key in 3, behind it: reached before its key.
        let (_, why) = lock_problem(&g, &[lock(1, 3)], 0).unwrap();
        assert!(why.contains("reached before its key"), "{why}");
    }

    #[test]
    fn floor_steps_walk_floor_and_doors() {
        // Row: room 0's floor, a door, room 1's floor, wall, room 2's floor.
        let cells = [1, 2, 1, 1, 0, 1];
        let owner = [1, 0, 2, 2, 0, 3];
        let (mut q, mut s) = (Vec::new(), Vec::new());
        let mut steps = |from: &[u32], to: &[u32]| {
            floor_steps((&cells, &owner, 6), (from, to), (&mut q, &mut s))
        };
        assert_eq!(steps(&[0], &[1]), Some(2));
        assert_eq!(steps(&[0], &[0]), Some(0));
        assert_eq!(steps(&[0], &[2]), None);
    }
}
