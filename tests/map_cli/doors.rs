//! The door table (`door_*` columns) against the doors rebuilt from the grid, independently of
//! `warren verify`: every run of door tiles the grid shows is one row of the table, with the
//! owners on its two sides, its facing and its connection; every unused run is wall the
//! room's floor lies behind, and no door.

use std::collections::BTreeMap;

use arrow_array::types::{Float32Type, UInt8Type, UInt16Type, UInt32Type};

use crate::common::{
    TempDir, assert_verifies, column_binary, column_u16, generate_kind, list_column,
};

const WALL: u8 = 0;
const DOOR: u8 = 2;

/// A door as the grid shows it: first tile, length, whether it runs down, and the owners on its
/// two sides (left or above first).
type GridDoor = ((i32, i32), u32, bool, (u16, u16));

/// A door's place: first tile, length, whether it runs down.
type DoorKey = ((i32, i32), u32, bool);

/// The doors of one grid: maximal runs of door tiles along a wall with the same owners on both
/// sides.
fn doors_of(cells: &[u8], owner: &[u16], (w, h): (i32, i32)) -> Vec<GridDoor> {
    let at = |x: i32, y: i32| -> Option<usize> {
        (x >= 0 && y >= 0 && x < w && y < h).then(|| (y * w + x) as usize)
    };
    let own = |x: i32, y: i32| at(x, y).map_or(0, |i| owner[i]);
    let is_door = |x: i32, y: i32| at(x, y).is_some_and(|i| cells[i] == DOOR);
    // Per door tile: runs down (owners left and right) or right (owners above and below).
    let across = |x: i32, y: i32| -> (bool, (u16, u16)) {
        let (l, r) = (own(x - 1, y), own(x + 1, y));
        if l != 0 && r != 0 {
            (true, (l, r))
        } else {
            (false, (own(x, y - 1), own(x, y + 1)))
        }
    };
    let mut doors = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if !is_door(x, y) {
                continue;
            }
            let (down, pair) = across(x, y);
            let (dx, dy) = if down { (0, 1) } else { (1, 0) };
            let continues = |x: i32, y: i32| is_door(x, y) && across(x, y) == (down, pair);
            if continues(x - dx, y - dy) {
                continue;
            }
            let mut len = 1;
            while continues(x + dx * len as i32, y + dy * len as i32) {
                len += 1;
            }
            doors.push(((x, y), len, down, pair));
        }
    }
    doors
}

/// Checks the door table of every level of `out` against its grid; returns the doors and unused
/// runs seen.
fn check_tables(out: &std::path::Path) -> (usize, usize) {
    let grids = column_binary(out, "grid");
    let (widths, heights) = (
        column_u16(out, "grid_width"),
        column_u16(out, "grid_height"),
    );
    let owners = list_column::<UInt16Type>(out, "owner");
    let (src, dst) = (
        list_column::<UInt32Type>(out, "edge_src"),
        list_column::<UInt32Type>(out, "edge_dst"),
    );
    let vertices = list_column::<Float32Type>(out, "vertex_x");
    let u16s = |name: &str| list_column::<UInt16Type>(out, name);
    let (conn, from, to) = (u16s("door_connection"), u16s("door_from"), u16s("door_to"));
    let (x, y, len) = (u16s("door_x"), u16s("door_y"), u16s("door_length"));
    let facing = list_column::<UInt8Type>(out, "door_facing");
    let (u_room, u_x, u_y, u_len) = (
        u16s("door_unused_room"),
        u16s("door_unused_x"),
        u16s("door_unused_y"),
        u16s("door_unused_length"),
    );
    let u_facing = list_column::<UInt8Type>(out, "door_unused_facing");
    let (mut doors, mut unused) = (0, 0);
    for l in 0..grids.len() {
        let (w, h) = (i32::from(widths[l]), i32::from(heights[l]));
        let (cells, owner) = (&grids[l], &owners[l]);
        let rooms = vertices[l].len() as u16;
        let mut from_grid: BTreeMap<DoorKey, (u16, u16)> = doors_of(cells, owner, (w, h))
            .into_iter()
            .map(|(at, len, down, pair)| ((at, len, down), pair))
            .collect();
        let step = |f: u8| [(1, 0), (0, 1), (-1, 0), (0, -1)][usize::from(f)];
        for k in 0..conn[l].len() {
            let (fx, fy) = (i32::from(x[l][k]), i32::from(y[l][k]));
            let down = facing[l][k].is_multiple_of(2);
            let key = ((fx, fy), u32::from(len[l][k]), down);
            let pair = from_grid.remove(&key).unwrap_or_else(|| {
                panic!("level {l}: table door {k} at ({fx}, {fy}) is not a door of the grid")
            });
            // Walking through it from `door_from` to `door_to` goes the way it faces.
            let (dx, dy) = step(facing[l][k]);
            let o = |x: i32, y: i32| owner[(y * w + x) as usize];
            assert_eq!(
                (o(fx - dx, fy - dy), o(fx + dx, fy + dy)),
                (from[l][k], to[l][k]),
                "level {l}: door {k}'s owners or facing"
            );
            assert!(pair == (from[l][k], to[l][k]) || pair == (to[l][k], from[l][k]));
            // Its owners are its connection's rooms or corridor.
            let j = usize::from(conn[l][k]);
            let (a, b) = (src[l][j] as u16 + 1, dst[l][j] as u16 + 1);
            let corridor = rooms + j as u16 + 1;
            assert!(
                [(a, b), (a, corridor), (corridor, b)].contains(&(from[l][k], to[l][k])),
                "level {l}: door {k} joins {} and {}, its connection {j} is {a} - {b}",
                from[l][k],
                to[l][k]
            );
            doors += 1;
        }
        assert!(
            from_grid.is_empty(),
            "level {l}: grid doors missing from the table: {from_grid:?}"
        );
        for k in 0..u_room[l].len() {
            let (dx, dy) = step(u_facing[l][k]);
            let down = u_facing[l][k].is_multiple_of(2);
            for t in 0..i32::from(u_len[l][k]) {
                let (tx, ty) = if down {
                    (i32::from(u_x[l][k]), i32::from(u_y[l][k]) + t)
                } else {
                    (i32::from(u_x[l][k]) + t, i32::from(u_y[l][k]))
                };
                let i = (ty * w + tx) as usize;
                let inside = ((ty - dy) * w + tx - dx) as usize;
                assert_eq!(
                    cells[i], WALL,
                    "level {l}: unused run {k} covers a non-wall"
                );
                assert_eq!(owner[inside], u_room[l][k] + 1, "level {l}: unused run {k}");
            }
            unused += 1;
        }
    }
    (doors, unused)
}

#[test]
fn the_door_table_matches_the_grid_on_ten_thousand_levels() {
    let dir = TempDir::new("map-doors");
    let mut seen = (0, 0);
    // Half without corridors (one door a connection), half with routed corridors (two).
    for (name, corridors) in [("none", "none"), ("routed", "routed")] {
        let out = dir.join(&format!("{name}.arrow"));
        let corridors = format!("map.corridors={corridors}");
        let args = [
            "--count",
            "5000",
            "--set",
            "map.graph=edgar-fig8-17",
            "--set",
            &corridors,
        ];
        generate_kind("map", &out, &args);
        let report = assert_verifies(&out);
        assert!(
            report.contains("5,000 levels checked, 0 violations"),
            "{report}"
        );
        let (doors, unused) = check_tables(&out);
        seen = (seen.0 + doors, seen.1 + unused);
        std::fs::remove_file(&out).unwrap();
    }
    // 17 rooms, 20 connections: 20 doors a level without corridors, more with.
    assert!(seen.0 > 10_000 * 20, "{seen:?}");
    assert!(seen.1 > 10_000 * 17, "{seen:?}");
}

/// Validates a map level's Tiled map and LDtk project against their schemas, loads them with
/// pytiled_parser and ldtkpy, and compares their door objects with the archive's door table.
const LOAD_DOORS: &str = r#"
import sys, json, pathlib, jsonschema, pyarrow.ipc as ipc, pytiled_parser
from ldtkpy.api import ldtk_json_from_dict
root, archive, tmj, ldtk = map(pathlib.Path, sys.argv[1:5])
row = ipc.open_file(str(archive)).read_all().slice(int(sys.argv[5]), 1).to_pylist()[0]
faces = ["east", "south", "west", "north"]
doors = sorted(zip(row["door_x"], row["door_y"], row["door_length"], [faces[f] for f in row["door_facing"]], row["door_connection"], row["door_from"], row["door_to"]))
unused = sorted(zip(row["door_unused_x"], row["door_unused_y"], row["door_unused_length"], [faces[f] for f in row["door_unused_facing"]], row["door_unused_room"]))
for schema, path in [("tiled-map-1.10.schema.json", tmj), ("ldtk-json-schema-1.5.3.json", ldtk)]:
    validator = jsonschema.Draft7Validator(json.load(open(root / schema)))
    errors = [e.message for e in validator.iter_errors(json.load(open(path)))]
    assert not errors, (str(path), errors[:3])
m = pytiled_parser.parse_map(tmj)
objects = [o for layer in m.layers if hasattr(layer, "tiled_objects") for o in layer.tiled_objects]
def run(o):
    x, y, w, h = (int(v / 16) for v in (o.coordinates.x, o.coordinates.y, o.size.width, o.size.height))
    return x, y, max(w, h), o.properties["facing"]
tiled = sorted(run(o) + (o.properties["connection"], o.properties["from"], o.properties["to"]) for o in objects if o.class_ == "door")
tiled_unused = sorted(run(o) + (o.properties["room"],) for o in objects if o.class_ == "unused_door")
assert (tiled, tiled_unused) == (doors, unused), "Tiled"
project = ldtk_json_from_dict(json.load(open(ldtk)))
layer = [l for l in project.levels[0].layer_instances if l.identifier == "Doors"][0]
def entity(e):
    f = {i.identifier: i.value for i in e.field_instances}
    x, y = e.grid
    return (x, y, max(e.width, e.height) // 16, f["facing"]), f
ents = [entity(e) + (e.identifier,) for e in layer.entity_instances]
ldtk_doors = sorted(r + (f["connection"], f["from"], f["to"]) for r, f, k in ents if k == "Door")
ldtk_unused = sorted(r + (f["room"],) for r, f, k in ents if k == "UnusedDoor")
assert (ldtk_doors, ldtk_unused) == (doors, unused), "LDtk"
rooms = [l for l in project.levels[0].layer_instances if l.identifier == "Rooms"][0]
ldtk_rooms = sorted((e.grid[0], e.grid[1], e.width // 16, e.height // 16, {i.identifier: i.value for i in e.field_instances}["room"]) for e in rooms.entity_instances)
boxes = zip(row["room_x0"], row["room_y0"], row["room_x1"], row["room_y1"])
assert ldtk_rooms == sorted((x0, y0, x1 - x0, y1 - y0, i) for i, (x0, y0, x1, y1) in enumerate(boxes)), "LDtk rooms"
print(len(doors), len(unused))
"#;

#[test]
fn map_exports_carry_the_door_table_and_load_in_the_editors_libraries() {
    use crate::python_reader::{python, python_has};
    let dir = TempDir::new("map-door-exports");
    let out = dir.join("m.arrow");
    let args = ["--count", "3", "--set", "map.corridors=routed"];
    generate_kind("map", &out, &args);
    let (tmj, ldtk) = (dir.join("m.tmj"), dir.join("m.ldtk"));
    for (flag, path) in [("--tiled", &tmj), ("--ldtk", &ldtk)] {
        let archive = out.to_str().unwrap();
        let result = crate::common::warren([
            "export",
            archive,
            "--index",
            "2",
            flag,
            path.to_str().unwrap(),
        ]);
        crate::common::assert_succeeded(&result, flag);
    }
    if !python_has("pyarrow, jsonschema, pytiled_parser, ldtkpy.api") {
        return;
    }
    let schemas = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/export_cli");
    let paths = [
        schemas,
        out.to_str().unwrap(),
        tmj.to_str().unwrap(),
        ldtk.to_str().unwrap(),
        "2",
    ];
    let printed = python(LOAD_DOORS, &paths);
    let counts: Vec<usize> = printed
        .split_whitespace()
        .map(|n| n.parse().unwrap())
        .collect();
    assert!(counts[0] > 20 && counts[1] > 17, "{printed}");
}
