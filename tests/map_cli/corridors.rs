//! Corridor templates, end to end and independently of `warren verify`: on Edgar's 17- and
//! 41-room graphs every corridor room's floor is the floor of one of its connection's corridor
//! templates, and its doors lead to exactly its connection's two rooms; connections that take
//! no corridor are one door; bad corridor settings are refused in one line.

use super::{assert_says, example, map_error, verify_passes};
use crate::common::{TempDir, column_binary, column_u16, generate_kind, list_column};
use arrow_array::types::UInt16Type;

const FLOOR: u8 = 1;
const DOOR: u8 = 2;

/// Floor tiles of the corridor templates of `corridor-rooms.json`: `straight` (2 x 2),
/// `bend` (two arms 2 wide, 7 and 5 tiles long, sharing 2 x 2) and `hall` (4 x 3).
const STRAIGHT: usize = 4;
const BEND: usize = 14 + 14 - 4;
const HALL: usize = 12;

/// The owners on both sides of every door tile of a level (`(lower, higher)`).
fn door_pairs(cells: &[u8], owner: &[u16], w: usize) -> Vec<(u16, u16)> {
    let h = cells.len() / w;
    let at = |x: isize, y: isize| -> u16 {
        if x < 0 || y < 0 || x >= w as isize || y >= h as isize {
            0
        } else {
            owner[y as usize * w + x as usize]
        }
    };
    let mut out = Vec::new();
    for i in (0..cells.len()).filter(|&i| cells[i] == DOOR) {
        let (x, y) = ((i % w) as isize, (i / w) as isize);
        for (p, q) in [(at(x - 1, y), at(x + 1, y)), (at(x, y - 1), at(x, y + 1))] {
            if p != 0 && q != 0 {
                out.push((p.min(q), p.max(q)));
            }
        }
    }
    out
}

#[test]
fn corridor_rooms_are_their_templates_and_lead_to_their_two_rooms() {
    let dir = TempDir::new("map-corridor-rooms");
    for (name, rooms, levels) in [
        ("fig8-17-corridors.json", 17, 300),
        ("fig8-41-corridors.json", 41, 300),
    ] {
        let text = std::fs::read_to_string(example(name)).unwrap();
        let graph: serde_json::Value = serde_json::from_str(&text).unwrap();
        let ids: Vec<&str> = graph["rooms"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap())
            .collect();
        let index = |id: &serde_json::Value| {
            ids.iter().position(|i| *i == id.as_str().unwrap()).unwrap() as u16
        };
        // Per connection: its rooms and how it is drawn (templates named, none, the default).
        let conns: Vec<(u16, u16, Option<usize>)> = graph["connections"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| match c {
                serde_json::Value::Array(pair) => (index(&pair[0]), index(&pair[1]), None),
                c => {
                    let floor = match &c["corridor"] {
                        serde_json::Value::Bool(false) => 0,
                        _ => HALL,
                    };
                    (index(&c["from"]), index(&c["to"]), Some(floor))
                }
            })
            .collect();
        let out = dir.join("c.arrow");
        let graph_set = format!("map.graph={}", example(name));
        let library = format!("map.templates={}", example("corridor-rooms.json"));
        generate_kind(
            "map",
            &out,
            &[
                "--count",
                &levels.to_string(),
                "--set",
                &graph_set,
                "--set",
                &library,
                "--set",
                "map.corridors=templates",
                "--set",
                r#"map.corridor_templates=["straight", "bend"]"#,
            ],
        );
        let cells = column_binary(&out, "grid");
        let widths = column_u16(&out, "grid_width");
        let owners = list_column::<UInt16Type>(&out, "owner");
        assert_eq!(cells.len(), levels, "{name}");
        let mut bends = 0;
        for i in 0..levels {
            let (cells, owner, w) = (&cells[i], &owners[i], usize::from(widths[i]));
            let pairs = door_pairs(cells, owner, w);
            for (j, &(a, b, drawn)) in conns.iter().enumerate() {
                let (a, b, corridor) = (a + 1, b + 1, (1 + rooms + j) as u16);
                let floor = (0..cells.len())
                    .filter(|&k| cells[k] == FLOOR && owner[k] == corridor)
                    .count();
                let doors: Vec<(u16, u16)> = pairs
                    .iter()
                    .copied()
                    .filter(|&(p, q)| {
                        p == corridor || q == corridor || (p, q) == (a.min(b), a.max(b))
                    })
                    .collect();
                match drawn {
                    Some(0) => {
                        assert_eq!(floor, 0, "{name}: level {i}, connection {j}");
                        assert!(
                            doors.iter().all(|&d| d == (a.min(b), a.max(b))) && !doors.is_empty(),
                            "{name}: level {i}, connection {j}: {doors:?}"
                        );
                    }
                    want => {
                        match want {
                            Some(hall) => {
                                assert_eq!(floor, hall, "{name}: level {i}, connection {j}")
                            }
                            None => assert!(
                                [STRAIGHT, BEND].contains(&floor),
                                "{name}: level {i}, connection {j}: {floor} floor tiles"
                            ),
                        }
                        bends += usize::from(floor == BEND);
                        // Its doors lead to its two rooms, and nowhere else.
                        let mut ends: Vec<u16> = doors.iter().map(|&(p, _)| p).collect();
                        ends.sort_unstable();
                        ends.dedup();
                        assert_eq!(
                            ends,
                            vec![a.min(b), a.max(b)],
                            "{name}: level {i}, connection {j}"
                        );
                    }
                }
            }
        }
        assert!(bends > 0, "{name}: no bend was ever taken");
        verify_passes(&out, levels);
    }
}

#[test]
fn bad_corridor_settings_are_refused_in_one_line() {
    let library = format!("map.templates={}", example("corridor-rooms.json"));
    let err = map_error(
        &[],
        &[
            &library,
            "map.corridors=templates",
            r#"map.corridor_templates=["tunnel"]"#,
        ],
    );
    assert_says(
        &err,
        &["map.corridor_templates: unknown template `tunnel` in library"],
    );
    let err = map_error(&[], &[&library, r#"map.corridor_templates=["bend"]"#]);
    assert_says(
        &err,
        &[
            "map.corridor_templates",
            "needs map.corridors = \"templates\"",
        ],
    );
    let every = r#"{"templates": [{"name": "a", "size": [8, 8]}]}"#;
    let err = map_error(
        &[("lib.json", every)],
        &[
            "map.templates=lib.json",
            "map.corridors=templates",
            r#"map.corridor_templates=["a"]"#,
        ],
    );
    assert_says(
        &err,
        &["every template of library", "is a corridor template"],
    );
}
