//! The level graph's constraints, end to end and independently of `warren verify`: every layout
//! keeps its `min_path` and `max_path` by a breadth-first walk over the archive's floor, and
//! every locked door is met only with its key by a walk over the floor that carries the keys it
//! has been through; graphs whose locks cannot hold are refused naming the walk that breaks them;
//! the designer's `data` on rooms and connections reaches the archive and the Tiled map.

use std::collections::VecDeque;

use arrow_array::types::UInt16Type;

use super::{assert_says, example, map_error, verify_passes};
use crate::common::{TempDir, column_binary, column_u16, generate_kind, list_column};

const FLOOR: u8 = 1;
const DOOR: u8 = 2;

/// One level's grid: cells, owners, width.
type Floor = (Vec<u8>, Vec<u16>, usize);

/// The levels of `out`.
fn floors(out: &std::path::Path) -> Vec<Floor> {
    let cells = column_binary(out, "grid");
    let owners = list_column::<UInt16Type>(out, "owner");
    let widths = column_u16(out, "grid_width");
    cells
        .into_iter()
        .zip(owners)
        .zip(widths)
        .map(|((c, o), w)| (c, o, usize::from(w)))
        .collect()
}

/// The 4 neighbours of tile `i` inside the grid.
fn near(i: usize, (w, len): (usize, usize)) -> impl Iterator<Item = usize> {
    let (x, y, h) = (i % w, i / w, len / w);
    [
        (x > 0).then(|| i - 1),
        (x + 1 < w).then(|| i + 1),
        (y > 0).then(|| i - w),
        (y + 1 < h).then(|| i + w),
    ]
    .into_iter()
    .flatten()
}

/// Steps of the shortest walk over floor and doors from room `a`'s floor to room `b`'s.
fn steps((cells, owner, w): &Floor, a: u16, b: u16) -> Option<u32> {
    let mut dist = vec![u32::MAX; cells.len()];
    let mut queue: VecDeque<usize> = (0..cells.len()).filter(|&i| owner[i] == a + 1).collect();
    for &i in &queue {
        dist[i] = 0;
    }
    while let Some(i) = queue.pop_front() {
        if owner[i] == b + 1 {
            return Some(dist[i]);
        }
        for k in near(i, (*w, cells.len())) {
            if (cells[k] == FLOOR || cells[k] == DOOR) && dist[k] == u32::MAX {
                dist[k] = dist[i] + 1;
                queue.push_back(k);
            }
        }
    }
    None
}

#[test]
fn every_layout_keeps_its_floor_path_bounds() {
    let dir = TempDir::new("map-paths");
    // start is room 0; boss room 16 of 17 (55..=69 steps), room 40 of 41 (194..=219).
    for (name, boss, range, count) in [
        ("fig8-17-paths.json", 16, 55..=69, 300),
        ("fig8-41-paths.json", 40, 194..=219, 100),
    ] {
        let out = dir.join("p.arrow");
        let graph = format!("map.graph={}", example(name));
        generate_kind(
            "map",
            &out,
            &["--count", &count.to_string(), "--set", &graph],
        );
        verify_passes(&out, count);
        let levels = floors(&out);
        assert_eq!(levels.len(), count);
        let mut seen = Vec::new();
        for level in &levels {
            let d = steps(level, 0, boss).expect("a walk from start to boss");
            assert!(range.contains(&d), "{name}: {d} steps");
            seen.push(d);
        }
        // The bounds bind: layouts reach near both ends of the range.
        let (lo, hi) = (*seen.iter().min().unwrap(), *seen.iter().max().unwrap());
        assert!(
            lo < range.start() + 5 && hi > range.end() - 5,
            "{name}: {lo}..{hi}"
        );
    }
}

/// Walks `level`'s floor from room `start` carrying the keys met: a locked door (between the
/// floors of `a` and `b`, key room `k`) may be stepped on with its key only. Panics when a walk
/// stands next to a locked door without its key; returns the tiles reached.
fn walk_with_keys((cells, owner, w): &Floor, start: u16, locks: &[(u16, u16, u16)]) -> usize {
    let len = cells.len();
    // Per door tile, the lock it belongs to.
    let lock_at = |i: usize| {
        if cells[i] != DOOR {
            return None;
        }
        let around: Vec<u16> = near(i, (*w, len)).map(|k| owner[k]).collect();
        locks
            .iter()
            .position(|&(a, b, _)| around.contains(&(a + 1)) && around.contains(&(b + 1)))
    };
    let key_bit = |i: usize| {
        let o = owner[i];
        locks
            .iter()
            .enumerate()
            .filter(|&(_, &(_, _, k))| o == k + 1)
            .fold(0usize, |m, (l, _)| m | 1 << l)
    };
    let masks = 1 << locks.len();
    let mut seen = vec![false; len * masks];
    let mut queue = VecDeque::new();
    for i in (0..len).filter(|&i| owner[i] == start + 1) {
        let s = key_bit(i) * len + i;
        seen[s] = true;
        queue.push_back(s);
    }
    let mut reached = vec![false; len];
    while let Some(s) = queue.pop_front() {
        let (held, i) = (s / len, s % len);
        reached[i] = true;
        for k in near(i, (*w, len)) {
            if cells[k] != FLOOR && cells[k] != DOOR {
                continue;
            }
            if let Some(l) = lock_at(k) {
                assert!(
                    held & 1 << l != 0,
                    "lock {l} met without its key at tile {k}"
                );
            }
            let t = (held | key_bit(k)) * len + k;
            if !seen[t] {
                seen[t] = true;
                queue.push_back(t);
            }
        }
    }
    reached.iter().filter(|&&r| r).count()
}

#[test]
fn every_locked_door_is_met_with_its_key() {
    let dir = TempDir::new("map-locks");
    for (name, locks, count) in [
        ("fig8-17-locks.json", &[(8, 9, 1), (15, 16, 1)][..], 300),
        (
            "fig8-41-locks.json",
            &[(38, 39, 13), (39, 40, 38), (35, 38, 14)][..],
            100,
        ),
    ] {
        let out = dir.join("l.arrow");
        let graph = format!("map.graph={}", example(name));
        generate_kind(
            "map",
            &out,
            &["--count", &count.to_string(), "--set", &graph],
        );
        verify_passes(&out, count);
        let keys = list_column::<UInt16Type>(&out, "door_key");
        let from = list_column::<UInt16Type>(&out, "door_from");
        let to = list_column::<UInt16Type>(&out, "door_to");
        for (l, level) in floors(&out).iter().enumerate() {
            let open = level.0.iter().filter(|&&c| c == FLOOR || c == DOOR).count();
            assert_eq!(
                walk_with_keys(level, 0, locks),
                open,
                "{name}: all floor reached"
            );
            // The door table names each locked door's key room, and no other door has one.
            for d in 0..keys[l].len() {
                let pair = (from[l][d] - 1, to[l][d] - 1);
                let want = locks
                    .iter()
                    .find(|&&(a, b, _)| pair == (a, b) || pair == (b, a))
                    .map_or(0, |&(_, _, k)| k + 1);
                assert_eq!(keys[l][d], want, "{name}: door {d}");
            }
        }
    }
}

#[test]
fn locks_that_cannot_hold_are_refused_with_the_walk_that_breaks_them() {
    let locks = std::fs::read_to_string(example("fig8-17-locks.json")).unwrap();
    // (what the file changes, what the one-line error says)
    let cases = [
        (
            ("\"key\": \"1\"}", "\"key\": \"7\"}"),
            "lock 2 (`15` - `16`, key `7`) is reached before its key: `0` - `1` - ",
        ),
        (
            ("\"tags\": [\"start\"]", "\"tags\": []"),
            "locks need a room tagged `start`",
        ),
        (
            ("\"lock\": [\"8\", \"9\"]", "\"lock\": [\"8\", \"16\"]"),
            "the two rooms are not connected",
        ),
        (
            ("\"key\": \"1\"}", "\"key\": \"vault\"}"),
            "no room has the id or tag `vault`",
        ),
        ((", \"key\": \"1\"}", "}"), "a lock needs a `key`"),
    ];
    for ((from, to), says) in cases {
        let changed = locks.replace(from, to);
        assert_ne!(changed, locks, "{from}");
        assert_says(
            &map_error(&[("g.json", &changed)], &["map.graph=g.json"]),
            &[says],
        );
    }
}

#[test]
fn a_path_bound_no_layout_keeps_fails_each_seed_with_its_reason() {
    let dir = TempDir::new("map-paths-far");
    let paths = std::fs::read_to_string(example("fig8-17-paths.json")).unwrap();
    let far = paths.replace(
        "\"min_path\": [\"start\", \"boss\", 55]",
        "\"min_path\": [\"start\", \"boss\", 400]",
    );
    let graph = dir.join("far.json");
    std::fs::write(&graph, far).unwrap();
    let out = dir.join("far.arrow");
    let set = format!("map.graph={}", graph.display());
    let result = crate::common::warren([
        "generate",
        "map",
        "--count",
        "2",
        "--set",
        &set,
        "--out",
        out.to_str().unwrap(),
    ]);
    let said = crate::common::stderr(&result);
    assert!(
        said.contains("min_path `start` - `boss` >= 400 not kept in 64 layouts"),
        "{said}"
    );
}

#[test]
fn the_designers_data_reaches_the_archive_the_tiled_map_and_the_ldtk_project() {
    let dir = TempDir::new("map-data");
    let out = dir.join("d.arrow");
    let file = example("fig8-41-locks.json");
    let graph: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    generate_kind(
        "map",
        &out,
        &["--count", "3", "--set", &format!("map.graph={file}")],
    );
    verify_passes(&out, 3);
    // The columns: each room's and connection's `data`, in order, null where none.
    let column = |name: &str| -> Vec<serde_json::Value> {
        let batch = &crate::common::batches(&out)[0];
        let strings = batch.column_by_name(name).unwrap();
        let strings = arrow_array::cast::AsArray::as_string::<i32>(strings);
        (0..arrow_array::Array::len(strings))
            .map(|i| serde_json::from_str(strings.value(i)).unwrap())
            .collect()
    };
    let of = |list: &str| -> serde_json::Value {
        let items = graph[list].as_array().unwrap();
        items
            .iter()
            .map(|item| item.get("data").cloned().unwrap_or(serde_json::Value::Null))
            .collect()
    };
    assert!(
        column("room_data")
            .iter()
            .all(|rooms| *rooms == of("rooms"))
    );
    assert!(
        column("connection_data")
            .iter()
            .all(|c| *c == of("connections"))
    );
    assert_eq!(of("rooms")[13]["items"][0], "red key");
    // The Tiled map: room `13` and the doors of its lock carry them.
    let tmj = dir.join("d.tmj");
    let archive = out.to_str().unwrap();
    let result = crate::common::warren([
        "export",
        archive,
        "--index",
        "1",
        "--tiled",
        tmj.to_str().unwrap(),
    ]);
    crate::common::assert_succeeded(&result, "export");
    let map: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&tmj).unwrap()).unwrap();
    let objects: Vec<&serde_json::Value> = map["layers"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l["objects"].as_array())
        .flatten()
        .collect();
    let property = |o: &serde_json::Value, name: &str| {
        let list = o["properties"].as_array()?;
        let p = list.iter().find(|p| p["name"] == name)?;
        Some(p["value"].as_str()?.to_string())
    };
    let room = objects.iter().find(|o| o["name"] == "13").unwrap();
    assert_eq!(property(room, "data").unwrap(), "{\"items\":[\"red key\"]}");
    let locked: Vec<String> = objects
        .iter()
        .filter(|o| o["type"] == "door")
        .filter_map(|o| property(o, "data"))
        .filter(|d| !d.is_empty())
        .collect();
    assert_eq!(
        locked.len(),
        3,
        "one door for each of the three locks: {locked:?}"
    );
    assert!(locked.contains(&"{\"door\":\"red lock\"}".to_string()));
    // The LDtk project: room `13`'s `Room` entity carries it.
    let ldtk = dir.join("d.ldtk");
    let result = crate::common::warren([
        "export",
        archive,
        "--index",
        "1",
        "--ldtk",
        ldtk.to_str().unwrap(),
    ]);
    crate::common::assert_succeeded(&result, "export");
    let project: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&ldtk).unwrap()).unwrap();
    let rooms = project["levels"][0]["layerInstances"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["__identifier"] == "Rooms")
        .expect("a Rooms layer");
    let field = |e: &serde_json::Value, name: &str| {
        let list = e["fieldInstances"].as_array()?;
        Some(list.iter().find(|f| f["__identifier"] == name)?["__value"].clone())
    };
    let entities = rooms["entityInstances"].as_array().unwrap();
    assert_eq!(entities.len(), 41);
    let room = entities
        .iter()
        .find(|e| field(e, "name").unwrap() == "13")
        .unwrap();
    assert_eq!(field(room, "data").unwrap(), "{\"items\":[\"red key\"]}");
    assert_eq!(field(room, "owner").unwrap(), 14);
}
