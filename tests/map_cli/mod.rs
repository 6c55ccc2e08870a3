//! Maps from level graphs end to end: `generate map` writes archives that verify and do not
//! depend on the thread count, template corridors show in the metrics, a user's graph and library
//! files travel in the archive, and every bad graph or library is a one-line error naming its
//! file, line and column.

mod constraints;
mod controls;
mod corridors;
mod doors;
mod frame;
mod graphs;
mod proofs;
mod variety;

use std::path::Path;

use crate::common::{
    TempDir, assert_one_line_error, assert_verifies, column_u32, column_u64, exit_code,
    generate_kind, stderr, warren,
};

fn verify_passes(archive: &Path, levels: usize) {
    let report = assert_verifies(archive);
    let want = format!("{levels} levels checked, 0 violations");
    assert!(report.contains(&want), "{report}");
}

#[test]
fn generated_maps_verify_and_do_not_depend_on_threads() {
    let dir = TempDir::new("map-verify");
    let (one, two) = (dir.join("one.arrow"), dir.join("two.arrow"));
    generate_kind(
        "map",
        &one,
        &["--count", "20", "--seed", "4", "--threads", "1"],
    );
    generate_kind(
        "map",
        &two,
        &["--count", "20", "--seed", "4", "--threads", "2"],
    );
    verify_passes(&one, 20);
    assert_eq!(
        column_u64(&one, "layout_hash"),
        column_u64(&two, "layout_hash")
    );
    assert_eq!(std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
}

#[test]
fn template_corridors_are_two_tiles_long() {
    let dir = TempDir::new("map-corridors");
    let out = dir.join("c.arrow");
    generate_kind(
        "map",
        &out,
        &["--count", "20", "--set", "map.corridors=templates"],
    );
    verify_passes(&out, 20);
    let longest = column_u32(&out, "longest_corridor");
    assert_eq!(longest, vec![2; 20]);
    let connections = column_u32(&out, "connections");
    assert_eq!(column_u32(&out, "corridors"), connections);
    assert!(connections.iter().all(|&c| c == 20), "{connections:?}");
}

/// A ring of four rooms with a spur; rooms ask for templates of the library below by name.
const USER_GRAPH: &str = r#"{
  "name": "a ring and a spur",
  "rooms": [
    {"id": "hall", "templates": ["big"], "tags": ["start"]},
    {"id": 1},
    {"id": 2, "templates": ["long"]},
    {"id": 3},
    {"id": "vault", "templates": ["small"], "tags": ["goal"]}
  ],
  "connections": [
    ["hall", "1"], ["1", "2"], ["2", "3"], ["3", "hall"],
    {"from": "2", "to": "vault", "corridor": false}
  ]
}
"#;

const USER_LIBRARY: &str = r#"{
  "library": "mine",
  "doors": {"length": 2, "corner_distance": 1},
  "templates": [
    {"name": "big", "size": [10, 10]},
    {"name": "long", "size": [6, 12]},
    {"name": "small", "size": [6, 6]},
    {"name": "ell", "outline": [[0,0],[10,0],[10,5],[5,5],[5,10],[0,10]], "transforms": ["rotate", "mirror"]}
  ]
}
"#;

#[test]
fn user_graph_and_library_travel_in_the_archive() {
    let dir = TempDir::new("map-user");
    let (graph, library) = (dir.join("ring.json"), dir.join("mine.json"));
    std::fs::write(&graph, USER_GRAPH).unwrap();
    std::fs::write(&library, USER_LIBRARY).unwrap();
    let out = dir.join("u.arrow");
    let graph_set = format!("map.graph={}", graph.display());
    let library_set = format!("map.templates={}", library.display());
    generate_kind(
        "map",
        &out,
        &["--count", "12", "--set", &graph_set, "--set", &library_set],
    );
    assert_eq!(column_u32(&out, "rooms"), vec![5; 12]);
    std::fs::remove_file(&graph).unwrap();
    std::fs::remove_file(&library).unwrap();
    verify_passes(&out, 12);
}

/// Runs `generate map` with these `--set` values and files (written to a fresh folder and named
/// by their full paths in the values) and returns stderr after asserting a one-line error.
fn map_error(files: &[(&str, &str)], sets: &[&str]) -> String {
    let dir = TempDir::new("map-bad");
    for (name, text) in files {
        std::fs::write(dir.join(name), text).unwrap();
    }
    let out = dir.join("bad.arrow");
    let mut args = vec![
        "generate".to_string(),
        "map".into(),
        "--count".into(),
        "2".into(),
        "--out".into(),
        out.to_str().unwrap().into(),
    ];
    for set in sets {
        let (key, value) = set.split_once('=').unwrap();
        let value = if files.iter().any(|(name, _)| *name == value) {
            dir.join(value).display().to_string()
        } else {
            value.to_string()
        };
        args.extend(["--set".to_string(), format!("{key}={value}")]);
    }
    let output = warren(&args);
    let what = format!("warren {args:?}");
    assert_eq!(exit_code(&output), 2, "{what}: {}", stderr(&output));
    assert_one_line_error(&output, &what);
    assert!(!out.exists(), "{what}: wrote {}", out.display());
    stderr(&output)
}

/// The path of the example input `name` of `data/map/examples`.
fn example(name: &str) -> String {
    format!("{}/data/map/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Asserts `err` holds each of `parts`.
fn assert_says(err: &str, parts: &[&str]) {
    for part in parts {
        assert!(err.contains(part), "expected {part:?} in {err:?}");
    }
}

#[test]
fn a_bad_graph_names_its_file_line_and_column() {
    let unknown = "{\n  \"rooms\": [{\"id\": \"a\"}, {\"id\": \"b\"}],\n  \"connections\": [[\"a\", \"x\"]]\n}\n";
    assert_says(
        &map_error(&[("unknown.json", unknown)], &["map.graph=unknown.json"]),
        &["unknown.json:3:25: connection 1: unknown room `x`"],
    );
    let twice = "{\n  \"rooms\": [\n    {\"id\": \"a\"},\n    {\"id\": \"a\"}\n  ],\n  \"connections\": []\n}\n";
    assert_says(
        &map_error(&[("twice.json", twice)], &["map.graph=twice.json"]),
        &["twice.json:4:12: room id `a` is used twice (first at line 3)"],
    );
    let empty = "{\"rooms\": [], \"connections\": []}\n";
    assert_says(
        &map_error(&[("empty.json", empty)], &["map.graph=empty.json"]),
        &["empty.json:1:11: the graph has no rooms"],
    );
    let k5 = r#"{
  "rooms": [{"id": "a"}, {"id": "b"}, {"id": "c"}, {"id": "d"}, {"id": "e"}],
  "connections": [["a","b"],["a","c"],["a","d"],["a","e"],["b","c"],["b","d"],["b","e"],
    ["c","d"],["c","e"],["d","e"]]
}
"#;
    assert_says(
        &map_error(&[("k5.json", k5)], &["map.graph=k5.json"]),
        &["k5.json:1:1: the graph is not planar"],
    );
    let apart = "{\n  \"rooms\": [{\"id\": \"a\"}, {\"id\": \"b\"}, {\"id\": \"c\"}],\n  \"connections\": [[\"a\", \"b\"]]\n}\n";
    assert_says(
        &map_error(&[("apart.json", apart)], &["map.graph=apart.json"]),
        &["apart.json:2:46: the graph is not connected: room `c` cannot be reached from room `a`"],
    );
    assert_says(
        &map_error(&[], &["map.graph=nope"]),
        &["unknown level graph `nope`", "edgar-fig1", "edgar-fig8-41"],
    );
    assert_says(
        &map_error(&[], &["map.graph=missing.json"]),
        &["missing.json: cannot read: "],
    );
}

#[test]
fn a_bad_library_names_its_file_line_and_column() {
    let tiny = "{\n  \"doors\": {\"length\": 2},\n  \"templates\": [{\"name\":\"tiny\",\"size\":[3,3]}]\n}\n";
    assert_says(
        &map_error(&[("tiny.json", tiny)], &["map.templates=tiny.json"]),
        &["tiny.json:3:17: template `tiny`: no wall is long enough for a door of 2 tile(s)"],
    );
    let slanted = "{\n  \"templates\": [\n    {\"name\": \"Z\", \"outline\": [[0,0],[8,0],[8,8],[4,10],[0,8]]}\n  ]\n}\n";
    assert_says(
        &map_error(
            &[("slanted.json", slanted)],
            &["map.templates=slanted.json"],
        ),
        &[
            "slanted.json:3:5: template `Z`: the outline is not rectilinear: the edge from \
             corner 3 to corner 4 is diagonal",
        ],
    );
    assert_says(
        &map_error(&[], &["map.templates=nope"]),
        &[
            "unknown template library `nope`",
            "edgar-paper",
            "edgar-docs",
        ],
    );
}

/// Room `a` takes only a template with doors of 1 tile, room `b` only one with doors of 2.
const MIXED_LIBRARY: &str = r#"{
  "templates": [
    {"name": "one", "size": [8, 8], "doors": {"length": 1}},
    {"name": "two", "size": [8, 8], "doors": {"length": 2}}
  ]
}
"#;

const MIXED_GRAPH: &str = r#"{
  "rooms": [{"id": "a", "templates": ["one"]}, {"id": "b", "templates": ["two"]}],
  "connections": [["a", "b"]]
}
"#;

#[test]
fn rooms_whose_doors_never_match_are_an_error() {
    let err = map_error(
        &[("mixed.json", MIXED_LIBRARY), ("pair.json", MIXED_GRAPH)],
        &["map.templates=mixed.json", "map.graph=pair.json"],
    );
    assert_says(
        &err,
        &[
            "connection 1 (`a` - `b`) can never get a door",
            "doors 1 tile(s) wide",
            "2 tile(s) wide",
        ],
    );
}

#[test]
fn rooms_whose_doors_never_match_name_the_graph_file() {
    let err = map_error(
        &[("mixed.json", MIXED_LIBRARY), ("pair.json", MIXED_GRAPH)],
        &["map.templates=mixed.json", "map.graph=pair.json"],
    );
    assert_says(&err, &["pair.json:3:"]);
}

/// A `k` x `k` grid of rooms, each connected to its 4 neighbours, as level-graph JSON.
fn grid_graph(k: usize) -> String {
    let rooms: Vec<String> = (0..k * k)
        .map(|i| format!("{{\"id\": \"r{i}\"}}"))
        .collect();
    let mut conns = Vec::new();
    for y in 0..k {
        for x in 0..k {
            let i = y * k + x;
            if x + 1 < k {
                conns.push(format!("[\"r{i}\", \"r{}\"]", i + 1));
            }
            if y + 1 < k {
                conns.push(format!("[\"r{i}\", \"r{}\"]", i + k));
            }
        }
    }
    format!(
        "{{\"rooms\": [{}], \"connections\": [{}]}}",
        rooms.join(", "),
        conns.join(", ")
    )
}

#[test]
fn grids_of_rooms_lay_out_without_corridors() {
    // 8 x 8 rooms: 49 four-cycles, every one closed by rooms touching at a corner point.
    let dir = TempDir::new("map-grid");
    let graph = dir.join("grid.json");
    std::fs::write(&graph, grid_graph(8)).unwrap();
    let out = dir.join("g.arrow");
    let graph_set = format!("map.graph={}", graph.display());
    generate_kind("map", &out, &["--count", "20", "--set", &graph_set]);
    assert_eq!(column_u32(&out, "rooms"), vec![64; 20]);
    verify_passes(&out, 20);
}

#[test]
fn a_random_planar_graph_of_150_rooms_lays_out() {
    // `scripts/level_graphs.py random 150 2`: 15 cycles of up to 12 rooms in a tree of 150. The
    // builder before issue 49 (chronological backtracking steered by the MDS drawing) laid it
    // out 0 times in 10 seeds; since, 10 of 10.
    let graph = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/map_cli/random-150-2.json");
    let dir = TempDir::new("map-random");
    let out = dir.join("r.arrow");
    let graph_set = format!("map.graph={}", graph.display());
    generate_kind("map", &out, &["--count", "10", "--set", &graph_set]);
    assert_eq!(column_u32(&out, "rooms"), vec![150; 10]);
    verify_passes(&out, 10);
}

#[test]
fn a_random_planar_graph_of_1000_rooms_lays_out_in_pieces() {
    // `scripts/level_graphs.py random 1000 2`: 100 cycles of up to 12 rooms in a tree of 1,000.
    // One search over it never laid it out (every attempt died 400 to 700 rooms in); laid out
    // in pieces of up to 20 rooms (`floorplan::build::pieces`) it does, and verifies.
    let graph = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/map_cli/random-1000-2.json");
    let dir = TempDir::new("map-random-1000");
    let out = dir.join("r.arrow");
    let graph_set = format!("map.graph={}", graph.display());
    generate_kind("map", &out, &["--count", "1", "--set", &graph_set]);
    assert_eq!(column_u32(&out, "rooms"), vec![1000]);
    verify_passes(&out, 1);
}

/// Lays out `count` seeds of one of Edgar's random benchmark graphs (a file in
/// `tests/map_cli/`) with the blocks of its random-graph benchmark (`data/map/edgar-basic.json`)
/// and the `map.*` settings `sets`, into `out`; the levels made.
fn edgar_random_map(graph: &str, out: &Path, count: usize, sets: &[&str]) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let graph = format!(
        "map.graph={}",
        root.join("tests/map_cli").join(graph).display()
    );
    let library = format!(
        "map.templates={}",
        root.join("data/map/edgar-basic.json").display()
    );
    let count = count.to_string();
    let mut args = vec!["--count", &count, "--set", &graph, "--set", &library];
    for set in sets {
        args.extend(["--set", set]);
    }
    generate_kind("map", out, &args);
    column_u32(out, "rooms").len()
}

#[test]
fn a_graph_of_three_nearly_equal_paths_between_two_rooms_lays_out() {
    // Edgar's random graph 15 of cycle rank 2 and 20 to 29 rooms (`e_2_2_v_20_29` in
    // Edgar-DotNet): three paths of 5, 4 and 5 connections between rooms `r8` and `r0`, trees
    // hanging off them. Its stress drawing lays the paths over each other; with the drawing's
    // shake fixed, 0 of 10 seeds laid out, with the shake growing over the attempts 10 of 10.
    let dir = TempDir::new("map-theta");
    let out = dir.join("t.arrow");
    assert_eq!(
        edgar_random_map("edgar-random-2-20-15.json", &out, 4, &[]),
        4
    );
    assert_eq!(column_u32(&out, "rooms"), vec![25; 4]);
    verify_passes(&out, 4);
}

#[test]
fn more_effort_lays_out_a_seed_that_fails_without_it() {
    // Edgar's random graph 3 of cycle rank 5 and 10 to 19 rooms (`e_5_5_v_10_19` in
    // Edgar-DotNet): one of seeds 0 to 3 fails at `map.effort = 1`; ten times the work bound
    // lays out all four.
    let dir = TempDir::new("map-effort");
    let graph = "edgar-random-5-10-3.json";
    let at_1 = edgar_random_map(graph, &dir.join("e1.arrow"), 4, &["map.effort=1"]);
    assert_eq!(at_1, 3);
    let at_10 = edgar_random_map(graph, &dir.join("e10.arrow"), 4, &["map.effort=10"]);
    assert_eq!(at_10, 4);
    verify_passes(&dir.join("e10.arrow"), 4);
    let err = map_error(&[], &["map.effort=0"]);
    assert!(
        err.contains("map.effort = 0 is out of range 1..=1000"),
        "{err}"
    );
}
