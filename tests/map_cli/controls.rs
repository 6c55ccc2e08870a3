//! The designer's controls (issue 50), end to end: every layout of an input that uses a control
//! keeps it, checked here from the archive's columns independently of `warren verify`, and a
//! request no layout can keep is refused in one line naming the rooms or templates.

use arrow_array::types::{Int32Type, UInt8Type, UInt16Type, UInt32Type};

use super::{assert_says, example, map_error, verify_passes};
use crate::common::{
    TempDir, assert_same_rows, assert_verifies, column_binary, column_u16, generate_kind,
    list_column, rows_of,
};

/// The example library with repeat modes: `12x12` (index 0) `no_immediate`, `L12x18` and
/// `T18x12` (4 and 5) `no_repeat`, the rest `allow`.
const REPEAT_LIBRARY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/map/examples/repeat.json");

/// One level's room templates and connections.
type Level = (Vec<u16>, Vec<(u32, u32)>);

/// Each level's templates and connections.
fn templates_and_edges(out: &std::path::Path) -> Vec<Level> {
    let templates = list_column::<UInt16Type>(out, "room_template");
    let src = list_column::<UInt32Type>(out, "edge_src");
    let dst = list_column::<UInt32Type>(out, "edge_dst");
    templates
        .into_iter()
        .zip(src.into_iter().zip(dst))
        .map(|(t, (s, d))| (t, s.into_iter().zip(d).collect()))
        .collect()
}

#[test]
fn every_layout_keeps_the_repeat_modes() {
    let dir = TempDir::new("map-repeat");
    let out = dir.join("r.arrow");
    let library = format!("map.templates={REPEAT_LIBRARY}");
    let args = [
        "--count",
        "60",
        "--set",
        "map.graph=edgar-fig8-41",
        "--set",
        &library,
    ];
    generate_kind("map", &out, &args);
    verify_passes(&out, 60);
    let (mut shared_special, mut used_special) = (0, 0);
    for (templates, edges) in templates_and_edges(&out) {
        for special in [4, 5] {
            let uses = templates.iter().filter(|&&t| t == special).count();
            assert!(uses <= 1, "no_repeat template {special} taken {uses} times");
            used_special += uses;
        }
        for &(a, b) in &edges {
            let (ta, tb) = (templates[a as usize], templates[b as usize]);
            assert!(!(ta == 0 && tb == 0), "rooms {a} and {b} both take `12x12`");
            shared_special += usize::from(ta == tb);
        }
    }
    // The modes bind: the special rooms are used, and `allow` templates still meet.
    assert!(
        used_special > 60 && shared_special > 0,
        "{used_special} {shared_special}"
    );

    let all = dir.join("n.arrow");
    let args = ["--count", "60", "--set", "map.repeat=no_immediate"];
    generate_kind("map", &all, &args);
    verify_passes(&all, 60);
    for (templates, edges) in templates_and_edges(&all) {
        for (a, b) in edges {
            assert_ne!(
                templates[a as usize], templates[b as usize],
                "rooms {a} and {b}"
            );
        }
    }
}

#[test]
fn repeat_modes_no_layout_can_keep_are_refused() {
    // Seventeen rooms and six templates, none to be used twice.
    assert_says(
        &map_error(&[], &["map.repeat=no_repeat"]),
        &[
            "edgar-fig8-17: 7 rooms (`0`, `1`, `2`, `3`, `4`, `5`, `6`) can only take the 6 \
             template(s) `12x12`, `8x8`, `12x18`, `L12x12`, `L12x18`, `T18x12` between them, \
             whose repeat mode is no_repeat",
        ],
    );
    let graph = r#"{"rooms": [{"id": "hall", "templates": ["8x8"]},
        {"id": "stairs", "templates": ["8x8"]}], "connections": [["hall", "stairs"]]}"#;
    assert_says(
        &map_error(
            &[("g.json", graph)],
            &["map.graph=g.json", "map.repeat=no_immediate"],
        ),
        &[
            "connected rooms `hall` and `stairs` can only take template `8x8`, whose repeat mode \
           is no_immediate",
        ],
    );
    let library =
        "{\"templates\": [\n  {\"name\": \"a\", \"size\": [8, 8], \"repeat\": \"once\"}\n]}\n";
    assert_says(
        &map_error(&[("lib.json", library)], &["map.templates=lib.json"]),
        &[
            "lib.json:2:43: unknown repeat mode `once` (expected `allow`, `no_immediate` or \
           `no_repeat`)",
        ],
    );
}

#[test]
fn every_layout_fits_the_bounds() {
    let dir = TempDir::new("map-bounds");
    let out = dir.join("b.arrow");
    // The 1st percentile of the unbounded layouts' larger side is 65 tiles (docs/map.md).
    let args = ["--count", "40", "--set", "map.bounds=[62, 60]"];
    generate_kind("map", &out, &args);
    verify_passes(&out, 40);
    let (w, h) = (
        column_u16(&out, "grid_width"),
        column_u16(&out, "grid_height"),
    );
    assert_eq!(w.len(), 40);
    for (w, h) in w.into_iter().zip(h) {
        assert!(w <= 62 && h <= 60, "a map of {w} x {h} tiles");
    }
}

#[test]
fn bounds_no_room_fits_are_refused() {
    assert_says(
        &map_error(&[], &["map.bounds=[7, 40]"]),
        &[
            "edgar-fig8-17: room `0` fits none of its templates within map.bounds = [7, 40]: the \
           smallest, `8x8`, is 8 x 8 tiles",
        ],
    );
    assert_says(
        &map_error(&[], &["map.bounds=[25, 25]"]),
        &[
            "edgar-fig8-17: the rooms' floors need at least 612 tiles, more than the 23 x 23 = \
           529 tiles inside the walls of map.bounds = [25, 25]",
        ],
    );
    assert_says(
        &map_error(&[], &["map.bounds=[2]"]),
        &["map.bounds = [2] must be empty (any size) or [width, height] in tiles"],
    );
}

#[test]
fn doors_meet_only_their_own_socket() {
    // Walls facing up or down as drawn have socket `ns`, the others `ew`: two rooms meet only
    // when both are turned an even number of quarter turns, or both an odd number.
    let dir = TempDir::new("map-sockets");
    let library = format!("map.templates={}", example("sockets.json"));
    for graph in ["edgar-fig8-17", "edgar-fig8-41"] {
        let out = dir.join(format!("{graph}.arrow").as_str());
        let graph_set = format!("map.graph={graph}");
        generate_kind(
            "map",
            &out,
            &["--count", "40", "--set", &graph_set, "--set", &library],
        );
        verify_passes(&out, 40);
        let turns = list_column::<UInt8Type>(&out, "room_transform");
        let (mut odd, mut even) = (0, 0);
        for ((_, edges), turns) in templates_and_edges(&out).into_iter().zip(turns) {
            for (a, b) in edges {
                let (ta, tb) = (turns[a as usize] & 3, turns[b as usize] & 3);
                assert_eq!(
                    ta % 2,
                    tb % 2,
                    "{graph}: rooms {a} and {b} turned {ta} and {tb}"
                );
                if ta % 2 == 1 { odd += 1 } else { even += 1 }
            }
        }
        assert!(odd > 0 && even > 0, "{graph}: {odd} {even}");
    }
}

/// Per connection of a level without corridors, the way its door faces out of each room
/// (`shape::side`: 0 east, 1 south, 2 west, 3 north) as the room's template is drawn, for
/// rectangle templates turned only.
fn drawn_door_sides(out: &std::path::Path) -> Vec<Vec<[u8; 2]>> {
    let grids = column_binary(out, "grid");
    let widths = column_u16(out, "grid_width");
    let owners = list_column::<UInt16Type>(out, "owner");
    let boxes: Vec<Vec<Vec<i32>>> = ["room_x0", "room_y0", "room_x1", "room_y1"]
        .iter()
        .map(|c| list_column::<Int32Type>(out, c))
        .collect();
    let turns = list_column::<UInt8Type>(out, "room_transform");
    let levels = templates_and_edges(out);
    let mut result = Vec::new();
    for (i, (_, edges)) in levels.iter().enumerate() {
        let (grid, w, owner) = (&grids[i], widths[i] as usize, &owners[i]);
        let facing = |room: usize, x: i32, y: i32| -> u8 {
            let [x0, y0, x1, y1] = [0, 1, 2, 3].map(|k| boxes[k][i][room]);
            let placed = if y == y0 {
                3
            } else if y == y1 - 1 {
                1
            } else if x == x0 {
                2
            } else {
                assert_eq!(x, x1 - 1, "a door off room {room}'s walls");
                0
            };
            (placed + 4 - (turns[i][room] & 3)) % 4
        };
        let mut level = Vec::new();
        for &(a, b) in edges {
            let (oa, ob) = (a as u16 + 1, b as u16 + 1);
            let door = (0..grid.len()).find(|&t| {
                let (x, y) = (t % w, t / w);
                let pair = |p: u16, q: u16| (p, q) == (oa, ob) || (p, q) == (ob, oa);
                grid[t] == 2
                    && ((x > 0 && x + 1 < w && pair(owner[t - 1], owner[t + 1]))
                        || (y > 0 && t + w < grid.len() && pair(owner[t - w], owner[t + w])))
            });
            let t = door.unwrap_or_else(|| panic!("level {i}: no door between {a} and {b}"));
            let (x, y) = ((t % w) as i32, (t / w) as i32);
            level.push([facing(a as usize, x, y), facing(b as usize, x, y)]);
        }
        result.push(level);
    }
    result
}

#[test]
fn directed_connections_leave_by_an_exit_and_arrive_by_an_entrance() {
    // Top walls (as drawn) are entrances, bottom walls exits, the sides both.
    let dir = TempDir::new("map-directed");
    let library = format!("map.templates={}", example("one-way.json"));
    for graph in ["fig8-17-directed.json", "fig8-41-directed.json"] {
        let out = dir.join(format!("{graph}.arrow").as_str());
        let graph_set = format!("map.graph={}", example(graph));
        generate_kind(
            "map",
            &out,
            &["--count", "40", "--set", &graph_set, "--set", &library],
        );
        verify_passes(&out, 40);
        let mut through = [0usize; 4];
        for level in drawn_door_sides(&out) {
            for [from, to] in level {
                assert_ne!(from, 3, "{graph}: left by an entrance");
                assert_ne!(to, 1, "{graph}: arrived by an exit");
                through[from as usize] += 1;
            }
        }
        // Exits (bottom) and two-way doors are both used.
        assert!(through[1] > 0 && through[0] + through[2] > 0, "{through:?}");
    }
}

#[test]
fn door_lines_along_whole_walls_lay_out_as_simple_doors() {
    let dir = TempDir::new("map-lines");
    let (simple, lines) = (dir.join("s.arrow"), dir.join("l.arrow"));
    for (out, library) in [
        (&simple, "rectangles.json"),
        (&lines, "rectangles-lines.json"),
    ] {
        let set = format!("map.templates={}", example(library));
        generate_kind("map", out, &["--count", "1000", "--set", &set]);
    }
    // Every column of every level (seeds 0..999); the archives differ only in the library file
    // they carry.
    assert_same_rows(&rows_of(&[&simple]), &rows_of(&[&lines]));
    let report = assert_verifies(&lines);
    assert!(
        report.contains("1,000 levels checked, 0 violations"),
        "{report}"
    );
}

#[test]
fn doors_that_can_never_meet_are_refused() {
    let library = r#"{"templates": [
  {"name": "in", "size": [8, 8], "doors": {"length": 2, "type": "entrance"}},
  {"name": "a", "size": [8, 8], "doors": {"length": 2, "socket": "gold"}},
  {"name": "b", "size": [8, 8], "doors": [{"length": 2, "socket": "iron"},
                                         {"length": 1, "socket": "gold"}]}
]}"#;
    let files = |graph: &'static str| [("g.json", graph), ("lib.json", library)];
    let sets = ["map.graph=g.json", "map.templates=lib.json"];
    let sockets = r#"{"rooms": [{"id": "z", "templates": ["a"]}, {"id": "w", "templates": ["b"]}],
  "connections": [["z", "w"]]}"#;
    assert_says(
        &map_error(&files(sockets), &sets),
        &[
            "g.json:2:19: connection 1 (`z` - `w`) can never get a door: no door of room `z`'s \
           templates faces a door of room `w`'s of the same width with the same socket",
        ],
    );
    let entrances = r#"{"directed": true,
  "rooms": [{"id": "x", "templates": ["in"]}, {"id": "y", "templates": ["in"]}],
  "connections": [["x", "y"]]}"#;
    assert_says(
        &map_error(&files(entrances), &sets),
        &[
            "connection 1 (`x` - `y`) can never get a door: no door of room `x`'s templates faces \
           a door of room `y`'s of the same width with the same socket and lets the connection \
           go out of `x` and come into `y`",
        ],
    );
    let bad = "{\"templates\": [{\"name\": \"a\", \"size\": [8, 8],\n  \"doors\": {\"sides\": [\"up\"]}}]}";
    assert_says(
        &map_error(&[("lib.json", bad)], &["map.templates=lib.json"]),
        &["lib.json:2:23: unknown side `up` (expected `top`, `right`, `bottom` or `left`)"],
    );
}
