//! Tests of the map input files: the shipped files, every error's one-line message and place,
//! and no panic on hostile input.

use super::*;
use crate::floorplan::spec::{CorridorSpec, RoomSpec};
use proptest::prelude::*;

fn paper() -> Library {
    builtin_library("edgar-paper").expect("built in")
}

fn lib_err(text: &str) -> String {
    parse_library(text, "lib.json")
        .expect_err("should be rejected")
        .to_string()
}

fn graph(text: &str) -> LevelGraph {
    parse_graph(text, "g.json", &paper()).unwrap_or_else(|e| panic!("{e}"))
}

fn graph_err(text: &str) -> String {
    parse_graph(text, "g.json", &paper())
        .expect_err("should be rejected")
        .to_string()
}

/// A library of one template given by its JSON object.
fn one_template(template: &str) -> String {
    format!("{{\"templates\": [\n  {template}\n]}}")
}

/// A graph of rooms `a`, `b`, `c` and the given connections.
fn abc(connections: &str) -> String {
    format!(
        "{{\"rooms\": [{{\"id\": \"a\"}}, {{\"id\": \"b\"}}, {{\"id\": \"c\"}}],\n \"connections\": [\n{connections}\n]}}"
    )
}

#[test]
fn the_paper_library_is_edgars_building_blocks() {
    let lib = paper();
    assert_eq!(lib.name, "edgar-paper");
    let names: Vec<&str> = lib.templates.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        ["12x12", "8x8", "12x18", "L12x12", "L12x18", "T18x12"]
    );
    for t in &lib.templates {
        assert_eq!(
            t.doors[0].place,
            Doors::Simple {
                length: 2,
                corner_distance: 1
            }
        );
        assert_eq!(
            t.transforms,
            Transforms {
                rotate: true,
                mirror: false
            }
        );
    }
    assert_eq!(
        lib.templates[2].outline,
        [(0, 0), (12, 0), (12, 18), (0, 18)]
    );
    assert_eq!(
        lib.templates[5].outline,
        [
            (0, 0),
            (18, 0),
            (18, 6),
            (12, 6),
            (12, 12),
            (6, 12),
            (6, 6),
            (0, 6)
        ]
    );
    let docs = builtin_library("edgar-docs").expect("built in");
    assert_eq!(docs.templates.len(), 2);
    assert_eq!(
        docs.templates[0].outline,
        [(0, 0), (6, 0), (6, 10), (0, 10)]
    );
    assert_eq!(
        docs.templates[1].doors[0].place,
        Doors::Simple {
            length: 1,
            corner_distance: 1
        }
    );
    assert!(builtin_library("edgar").is_none());
    for name in BUILTIN_LIBRARIES {
        assert_eq!(load_library(name).expect("loads").name, *name);
    }
}

#[test]
fn the_shipped_graphs_are_edgars_inputs() {
    let sizes = [(9, 11), (17, 20), (41, 44), (5, 5)];
    for library in BUILTIN_LIBRARIES
        .iter()
        .map(|n| builtin_library(n).expect("built in"))
    {
        for (name, &(rooms, connections)) in BUILTIN_GRAPHS.iter().zip(&sizes) {
            let g = load_graph(name, &library).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(
                (g.rooms.len(), g.connections.len()),
                (rooms, connections),
                "{name}"
            );
            for (i, r) in g.rooms.iter().enumerate() {
                assert_eq!(r.id, i.to_string());
                assert_eq!(r.templates, None);
            }
        }
    }
    let basics = load_graph("edgar-basics", &paper()).expect("loads");
    let pairs: Vec<(u32, u32)> = basics.connections.iter().map(|c| (c.a, c.b)).collect();
    assert_eq!(pairs, [(0, 1), (0, 3), (0, 4), (1, 2), (2, 3)]);
}

#[test]
fn files_are_read_by_path_and_names_are_checked() {
    let dir = std::env::temp_dir().join(format!("warren-map-input-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let lib_path = dir.join("lib.json");
    std::fs::write(
        &lib_path,
        one_template(r#"{"name": "box", "size": [5, 4]}"#),
    )
    .expect("write");
    let lib_name = lib_path.display().to_string();
    let lib = load_library(&lib_name).expect("loads");
    assert_eq!(
        (lib.name.as_str(), lib.templates.len()),
        (lib_name.as_str(), 1)
    );
    let graph_path = dir.join("g.json");
    std::fs::write(
        &graph_path,
        r#"{"rooms": [{"id": "x", "templates": ["nope"]}]}"#,
    )
    .expect("write");
    let graph_name = graph_path.display().to_string();
    assert_eq!(
        load_graph(&graph_name, &lib)
            .expect_err("unknown template")
            .to_string(),
        format!(
            "{graph_name}:1:38: unknown template `nope` in library `{lib_name}` (its templates: box)"
        )
    );
    std::fs::remove_dir_all(&dir).expect("clean up");

    assert_eq!(
        load_library("edgar").expect_err("unknown").to_string(),
        "unknown template library `edgar` (built in: edgar-paper, edgar-docs; or a path to a .json \
         library file)"
    );
    assert_eq!(
        load_graph("fig1", &lib).expect_err("unknown").to_string(),
        "unknown level graph `fig1` (built in: edgar-fig1, edgar-fig8-17, edgar-fig8-41, \
         edgar-basics; or a path to a .json level graph file)"
    );
    let missing = "/no/such/warren/lib.json";
    let e = load_library(missing).expect_err("missing").to_string();
    assert!(
        e.starts_with("/no/such/warren/lib.json: cannot read: "),
        "{e}"
    );
    assert!(!e.contains('\n'));
}

#[test]
fn files_are_recorded_for_archives() {
    let dir = std::env::temp_dir().join(format!("warren-map-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("g.json");
    let text = r#"{"rooms": [{"id": 0}]}"#;
    std::fs::write(&path, text).expect("write");
    let name = path.display().to_string();
    let (g, recorded) = files::record(|| load_graph(&name, &paper()));
    assert_eq!(g.expect("loads").rooms[0].id, "0");
    assert_eq!(recorded.get(&name).map(String::as_str), Some(text));
    std::fs::remove_dir_all(&dir).expect("clean up");
    // From the stored files alone, once the file is gone.
    let files = recorded.clone();
    let g = files::with_embedded(files, || load_graph(&name, &paper()));
    assert_eq!(g.expect("embedded").rooms.len(), 1);
}

#[test]
fn library_defaults_and_overrides() {
    let text = r#"{
  "library": "mine",
  "doors": {"length": 2, "corner_distance": 0},
  "transforms": [],
  "templates": [
    {"name": "a", "size": [6, 5]},
    {"name": "b", "size": [8, 8], "doors": {"positions": [[[3, 0], [4, 0]]]}, "transforms": ["rotate", "mirror"]},
    {"name": "L", "outline": [[0,0],[12,0],[12,6],[6,6],[6,12],[0,12]], "doors": {"length": 1}}
  ]
}"#;
    let lib = parse_library(text, "mine.json").expect("valid");
    assert_eq!(lib.name, "mine.json");
    let [a, b, l] = &lib.templates[..] else {
        panic!("three templates")
    };
    assert_eq!(
        a.doors[0].place,
        Doors::Simple {
            length: 2,
            corner_distance: 0
        }
    );
    assert_eq!(
        a.transforms,
        Transforms {
            rotate: false,
            mirror: false
        }
    );
    assert_eq!(b.doors[0].place, Doors::Listed(vec![[(3, 0), (4, 0)]]));
    assert_eq!(
        b.transforms,
        Transforms {
            rotate: true,
            mirror: true
        }
    );
    assert_eq!(
        l.doors[0].place,
        Doors::Simple {
            length: 1,
            corner_distance: 1
        }
    );
    let plain =
        parse_library(&one_template(r#"{"name": "x", "size": [5, 5]}"#), "p").expect("valid");
    assert_eq!(
        plain.templates[0].doors[0].place,
        Doors::Simple {
            length: 1,
            corner_distance: 1
        }
    );
    assert_eq!(
        plain.templates[0].transforms,
        Transforms {
            rotate: true,
            mirror: false
        }
    );
}

#[test]
fn library_errors_name_their_place() {
    let cases: &[(&str, &str)] = &[
        (
            r#"{"name": "x", "size": [2, 8]}"#,
            "lib.json:2:26: a template's width must be at least 3",
        ),
        (
            r#"{"name": "x", "size": [8, 1e5]}"#,
            "lib.json:2:29: a template's height must be at most 4096",
        ),
        (
            r#"{"name": "x", "size": [8, 8.5]}"#,
            "lib.json:2:29: expected an integer, found 8.5",
        ),
        (
            r#"{"name": "x", "size": [8]}"#,
            "lib.json:2:25: expected a size `[width, height]`, found an array of 1 items",
        ),
        (
            r#"{"name": 7, "size": [8, 8]}"#,
            "lib.json:2:12: expected a string, found a number",
        ),
        (
            r#"{"size": [8, 8]}"#,
            "lib.json:2:3: a template needs a `name`",
        ),
        (
            r#"{"name": "x"}"#,
            "lib.json:2:3: template `x` needs a `size` or an `outline`",
        ),
        (
            r#"{"name": "x", "size": [8, 8], "outline": []}"#,
            "lib.json:2:33: template `x` has both `size` and `outline`; give one",
        ),
        (
            r#"{"name": "x", "size": [8, 8], "colour": "red"}"#,
            "lib.json:2:33: unknown key `colour` in a template (expected `name`, `size`, \
             `outline`, `doors`, `transforms`, `repeat` or `holes`)",
        ),
        (
            r#"{"name": "x", "size": [8, 8], "doors": {"length": 0}}"#,
            "lib.json:2:53: a door's length must be at least 1",
        ),
        (
            r#"{"name": "x", "size": [8, 8], "doors": {"length": 2, "positions": [[[3,0],[4,0]]]}}"#,
            "lib.json:2:43: `length` cannot be used with `positions` (a list of doors)",
        ),
        (
            r#"{"name": "x", "size": [8, 8], "doors": {"positions": []}}"#,
            "lib.json:2:56: `positions` lists no doors",
        ),
        (
            r#"{"name": "x", "size": [8, 8], "doors": {"positions": [[[0,0],[1,0]]]}}"#,
            "lib.json:2:3: template `x`: door 1 is not on one straight wall clear of its corners",
        ),
        (
            r#"{"name": "x", "size": [8, 8], "doors": {"positions": [[3,0]]}}"#,
            "lib.json:2:58: expected a point `[x, y]`, found a number",
        ),
        (
            r#"{"name": "x", "size": [8, 8], "transforms": ["flip"]}"#,
            "lib.json:2:48: unknown transform `flip` (expected `rotate` or `mirror`)",
        ),
        (
            r#"{"name": "x", "size": [4, 4], "doors": {"length": 3}}"#,
            "lib.json:2:3: template `x`: no wall is long enough for a door of 3 tile(s) with 1 \
             wall tile(s) between it and each corner",
        ),
        (
            r#"{"name": "Z", "outline": [[0,0],[6,0],[6,6],[0,7]]}"#,
            "lib.json:2:3: template `Z`: the outline is not rectilinear: the edge from corner 3 \
             to corner 4 is diagonal",
        ),
        (
            r#"{"name": "bow", "outline": [[0,0],[6,0],[6,6],[3,6],[3,-3],[0,-3]]}"#,
            "lib.json:2:3: template `bow`: the outline crosses or touches itself (edges 1 and 4)",
        ),
        (
            r#"{"name": "thin", "outline": [[0,0],[12,0],[12,6],[1,6],[1,12],[0,12]]}"#,
            "lib.json:2:3: template `thin`: the outline is too thin: every part of a room must be \
             at least 3 tiles across (a wall on each side of the floor)",
        ),
    ];
    for (template, expected) in cases {
        assert_eq!(lib_err(&one_template(template)), *expected, "{template}");
    }
}

#[test]
fn library_file_level_errors() {
    assert_eq!(
        lib_err("  \n "),
        "lib.json: the file is empty (expected a JSON object)"
    );
    assert_eq!(
        lib_err("[]"),
        "lib.json:1:1: expected a template library (an object), found an array"
    );
    assert_eq!(
        lib_err("{}"),
        "lib.json:1:1: a template library needs a `templates` list"
    );
    assert_eq!(
        lib_err("{\"templates\": []}"),
        "lib.json:1:15: the library has no templates"
    );
    assert_eq!(
        lib_err("{\n  \"templates\": [],\n  \"door\": {}\n}"),
        "lib.json:3:3: unknown key `door` in a template library (expected `$schema`, `library`, \
         `doors`, `transforms`, `repeat` or `templates`)"
    );
    assert_eq!(
        lib_err("{\"doors\": {\"length\": 1, \"corners\": 1}, \"templates\": []}"),
        "lib.json:1:25: unknown key `corners` in a door rule (expected `length`, `corner_distance`, \
         `positions`, `lines`, `sides`, `socket` or `type`)"
    );
    assert_eq!(
        lib_err(
            "{\"templates\": [\n  {\"name\": \"a\", \"size\": [5, 5]},\n  {\"name\": \"a\", \"size\": [6, 6]}\n]}"
        ),
        "lib.json:3:12: template name `a` is used twice (first at line 2)"
    );
    assert_eq!(
        lib_err("{\"templates\": [\n  {\"name\": \"a\", \"size\": [3, 3],}\n]}"),
        "lib.json:2:32: expected a key (a string in double quotes)"
    );
    // A default that makes a template impossible is reported at the template.
    assert_eq!(
        lib_err(
            "{\"doors\": {\"length\": 9},\n \"templates\": [{\"name\": \"s\", \"size\": [8, 8]}]}"
        ),
        "lib.json:2:16: template `s`: no wall is long enough for a door of 9 tile(s) with 1 wall \
         tile(s) between it and each corner"
    );
}

#[test]
fn rooms_connections_and_corridors() {
    let g = graph(
        r#"{
  "name": "test",
  "rooms": [
    {"id": "a"},
    {"id": "b", "templates": ["L12x12", "8x8"], "name": "Boss room", "tags": ["boss", "goal"]},
    {"id": "c"},
    {"id": "d"}
  ],
  "connections": [
    ["a", "b"],
    {"from": "a", "to": "c", "corridor": {"lengths": [2, 4]}},
    {"from": "b", "to": "c", "corridor": false},
    {"from": "c", "to": "d", "corridor": true},
    {"from": "d", "to": "a"}
  ]
}"#,
    );
    assert_eq!(g.rooms[1].templates, Some(vec![3, 1]));
    assert_eq!(g.rooms[1].name.as_deref(), Some("Boss room"));
    assert_eq!(g.rooms[1].tags, ["boss", "goal"]);
    assert_eq!(
        g.rooms[0],
        RoomSpec {
            id: "a".into(),
            ..RoomSpec::default()
        }
    );
    let summary: Vec<(u32, u32, CorridorSpec)> = g
        .connections
        .iter()
        .map(|c| (c.a, c.b, c.corridor.clone()))
        .collect();
    assert_eq!(
        summary,
        [
            (0, 1, CorridorSpec::Default),
            (0, 2, CorridorSpec::Lengths(vec![2, 4])),
            (1, 2, CorridorSpec::None),
            (2, 3, CorridorSpec::Default),
            (3, 0, CorridorSpec::Default),
        ]
    );
}

#[test]
fn integer_ids_are_their_decimal_strings() {
    let g = graph(
        r#"{"rooms": [{"id": 0}, {"id": 1}, {"id": "2"}, {"id": -3}], "connections": [[0, 1], ["1", 2], {"from": 2, "to": -3}]}"#,
    );
    let ids: Vec<&str> = g.rooms.iter().map(|r| r.id.as_str()).collect();
    assert_eq!(ids, ["0", "1", "2", "-3"]);
    assert_eq!(g.connections.len(), 3);
    assert_eq!(
        graph_err(r#"{"rooms": [{"id": 0}, {"id": "0"}]}"#),
        "g.json:1:30: room id `0` is used twice (first at line 1)"
    );
    assert_eq!(
        graph_err(r#"{"rooms": [{"id": 1.5}]}"#),
        "g.json:1:19: expected a room id (a string or an integer), found a number"
    );
    assert_eq!(
        graph_err(r#"{"rooms": [{"id": ""}]}"#),
        "g.json:1:19: a room id cannot be empty"
    );
}

#[test]
fn graph_errors_name_their_place() {
    let cases: &[(String, &str)] = &[
        (
            abc("[\"a\", \"b\"], [\"b\", \"c\"], [\"c\", \"x\"]"),
            "g.json:3:31: connection 3: unknown room `x`",
        ),
        (
            abc("[\"a\", \"b\"], [\"b\", \"b\"]"),
            "g.json:3:13: connection 2: room `b` is connected to itself",
        ),
        (
            abc("[\"a\", \"b\"], [\"b\", \"c\"],\n{\"from\": \"b\", \"to\": \"a\"}"),
            "g.json:4:1: connection 3: rooms `b` and `a` are already connected (connection 1)",
        ),
        (
            abc("[\"a\", \"b\"]"),
            "g.json:1:45: the graph is not connected: room `c` cannot be reached from room `a`",
        ),
        (
            abc("[\"a\", \"b\", \"c\"]"),
            "g.json:3:1: expected a connection (a pair of room ids `[\"a\", \"b\"]` or an object with `from` and `to`), found an array of 3 items",
        ),
        (
            abc("\"a-b\""),
            "g.json:3:1: expected a connection (a pair of room ids `[\"a\", \"b\"]` or an object with `from` and `to`), found a string",
        ),
        (
            abc("{\"from\": \"a\"}"),
            "g.json:3:1: connection 1: needs both `from` and `to`",
        ),
        (
            abc("{\"from\": \"a\", \"to\": \"b\", \"via\": \"c\"}"),
            "g.json:3:26: unknown key `via` in a connection (expected `from`, `to`, `corridor`, `directed` or `data`)",
        ),
        (
            abc("{\"from\": \"a\", \"to\": \"b\", \"corridor\": null}"),
            "g.json:3:38: expected `true`, `false` or an object with `lengths` or `templates`, found `null`",
        ),
        (
            abc("{\"from\": \"a\", \"to\": \"b\", \"corridor\": {\"lengths\": []}}"),
            "g.json:3:50: `lengths` lists no lengths",
        ),
        (
            abc("{\"from\": \"a\", \"to\": \"b\", \"corridor\": {\"lengths\": [2, 0]}}"),
            "g.json:3:54: a corridor's length must be at least 1",
        ),
        (
            abc("{\"from\": \"a\", \"to\": \"b\", \"corridor\": {}}"),
            "g.json:3:38: `corridor` needs `lengths` or `templates` (or is `true` or `false`)",
        ),
        (
            abc("{\"from\": \"a\", \"to\": \"b\", \"corridor\": {\"templates\": []}}"),
            "g.json:3:52: the list of templates is empty",
        ),
        (
            abc("{\"from\": \"a\", \"to\": \"b\", \"corridor\": {\"templates\": [\"hall\"]}}"),
            "g.json:3:53: unknown template `hall` in library `edgar-paper` (its templates: 12x12, 8x8, 12x18, L12x12, L12x18, T18x12)",
        ),
        (
            abc(
                "{\"from\": \"a\", \"to\": \"b\", \"corridor\": {\"templates\": [\"8x8\", \"8x8\"]}}",
            ),
            "g.json:3:60: template `8x8` is listed twice",
        ),
        (
            abc(
                "{\"from\": \"a\", \"to\": \"b\", \"corridor\": {\"lengths\": [2], \"templates\": [\"8x8\"]}}",
            ),
            "g.json:3:55: `corridor` takes `lengths` (a straight corridor) or `templates` (a corridor room), not both",
        ),
        (
            abc("{\"from\": \"a\", \"to\": \"b\", \"corridor\": {\"width\": 2}}"),
            "g.json:3:39: unknown key `width` in `corridor` (expected `lengths` or `templates`)",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(graph_err(text), *expected, "{text}");
    }
}

#[test]
fn graph_file_level_errors() {
    assert_eq!(
        graph_err(""),
        "g.json: the file is empty (expected a JSON object)"
    );
    assert_eq!(
        graph_err("{}"),
        "g.json:1:1: a level graph needs a `rooms` list"
    );
    assert_eq!(
        graph_err("{\"rooms\": []}"),
        "g.json:1:11: the graph has no rooms"
    );
    assert_eq!(
        graph_err("{\"rooms\": [{\"id\": \"a\"}], \"edges\": []}"),
        "g.json:1:26: unknown key `edges` in a level graph (expected `$schema`, `name`, `directed`, \
         `rooms`, `connections` or `constraints`)"
    );
    assert_eq!(
        graph_err("{\"rooms\": [{\"id\": \"a\", \"tag\": \"x\"}]}"),
        "g.json:1:24: unknown key `tag` in a room (expected `id`, `templates`, `name`, `tags`, `data` or \
         `fixed`)"
    );
    assert_eq!(
        graph_err("{\"rooms\": [{\"name\": \"a\"}]}"),
        "g.json:1:12: a room needs an `id`"
    );
    assert_eq!(
        graph_err("{\"rooms\": [{\"id\": \"a\", \"tags\": [\"x\", 1]}]}"),
        "g.json:1:38: expected a string, found a number"
    );
    assert_eq!(
        graph_err(
            "{\n  \"rooms\": [\n    {\"id\": \"a\"},\n    {\"id\": \"b\"},\n    {\"id\": \"a\"}\n  ]\n}"
        ),
        "g.json:5:12: room id `a` is used twice (first at line 3)"
    );
    assert_eq!(
        graph_err("{\"rooms\": [{\"id\": \"a\", \"templates\": []}]}"),
        "g.json:1:37: a room's `templates` cannot be empty (leave it out for any template)"
    );
    assert_eq!(
        graph_err("{\"rooms\": [{\"id\": \"a\", \"templates\": [\"8x8\", \"8x8\"]}]}"),
        "g.json:1:45: template `8x8` is listed twice"
    );
    assert_eq!(
        graph_err("{\"rooms\": [{\"id\": \"a\",\n  \"templates\": [\"12x12\", \"X\"]}]}"),
        "g.json:2:26: unknown template `X` in library `edgar-paper` (its templates: 12x12, 8x8, \
         12x18, L12x12, L12x18, T18x12)"
    );
    assert_eq!(
        graph_err("{\"rooms\": [{\"id\": \"a\"}],}"),
        "g.json:1:25: expected a key (a string in double quotes)"
    );
}

#[test]
fn unknown_templates_list_at_most_ten_names() {
    let templates: Vec<String> = (0..13)
        .map(|i| format!("{{\"name\": \"t{i}\", \"size\": [5, 5]}}"))
        .collect();
    let text = format!("{{\"templates\": [{}]}}", templates.join(", "));
    let lib = parse_library(&text, "big").expect("valid");
    let e = parse_graph(
        r#"{"rooms": [{"id": "a", "templates": ["t13"]}]}"#,
        "g",
        &lib,
    )
    .expect_err("unknown")
    .to_string();
    assert_eq!(
        e,
        "g:1:38: unknown template `t13` in library `big` (its templates: t0, t1, t2, t3, t4, t5, \
         t6, t7, t8, t9 and 3 more)"
    );
}

#[test]
fn planarity_and_size_limits() {
    // K5 is not planar; K5 less one edge is.
    let rooms: Vec<String> = (0..5).map(|i| format!("{{\"id\": {i}}}")).collect();
    let pairs: Vec<String> = (0..5)
        .flat_map(|a| (a + 1..5).map(move |b| format!("[{a}, {b}]")))
        .collect();
    let k5 = format!(
        "{{\"rooms\": [{}],\n \"connections\": [{}]}}",
        rooms.join(", "),
        pairs.join(", ")
    );
    assert_eq!(
        graph_err(&format!("  {k5}")),
        "g.json:1:3: the graph is not planar: its rooms cannot be laid out without crossing \
         connections: rooms `0`, `1`, `2`, `3` and `4` are each joined to the other four (a K5), \
         by the paths `0` - `1`, `0` - `2`, `0` - `3`, `0` - `4`, `1` - `2`, `1` - `3`, `1` - `4`, \
         `2` - `3`, `2` - `4`, `3` - `4`"
    );
    let k5_less = format!(
        "{{\"rooms\": [{}],\n \"connections\": [{}]}}",
        rooms.join(", "),
        pairs[1..].join(", ")
    );
    assert_eq!(graph(&k5_less).connections.len(), 9);

    let many = |n: usize| {
        let rooms: Vec<String> = (0..n).map(|i| format!("{{\"id\": {i}}}")).collect();
        let path: Vec<String> = (1..n).map(|i| format!("[{}, {i}]", i - 1)).collect();
        format!(
            "{{\"rooms\": [{}], \"connections\": [{}]}}",
            rooms.join(","),
            path.join(",")
        )
    };
    assert_eq!(graph(&many(MAX_ROOMS)).rooms.len(), MAX_ROOMS);
    assert_eq!(
        graph_err(&many(MAX_ROOMS + 1)),
        "g.json:1:11: the graph has 4097 rooms; at most 4096 are allowed"
    );
    // One room and no connections is a graph.
    assert_eq!(graph(r#"{"rooms": [{"id": "only"}]}"#).connections.len(), 0);
}

#[test]
fn every_error_is_one_line() {
    let texts = [
        "{\"rooms\": [{\"id\": \"a\nb\"}]}",
        "{\"rooms\": [{\"id\": \"a\\nb\"}, {\"id\": \"a\\nb\"}]}",
        "{\"rooms\": [{\"id\": \"a\"}], \"connections\": [[\"a\", \"x\\ny\"]]}",
    ];
    for text in texts {
        let e = graph_err(text);
        assert!(!e.contains('\n'), "{e}");
    }
    assert_eq!(
        graph_err(texts[1]),
        "g.json:1:35: room id `a\\nb` is used twice (first at line 1)"
    );
}

/// Cuts every shipped file at every character and changes single bytes: the readers return an
/// error or a value, never panic.
#[test]
fn truncated_and_mutated_files_never_panic() {
    let lib = paper();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    const BYTES: &[u8] = b"{}[],:\"\\0123456789-. \nxtfn";
    let texts: Vec<(&str, bool)> = LIBRARY_FILES
        .iter()
        .map(|t| (*t, true))
        .chain(GRAPH_FILES.iter().map(|t| (*t, false)))
        .collect();
    let read = |text: &str, is_library: bool| {
        if is_library {
            let _ = parse_library(text, "x");
        } else {
            let _ = parse_graph(text, "x", &lib);
        }
    };
    for &(text, is_library) in &texts {
        for cut in (0..text.len())
            .filter(|&c| text.is_char_boundary(c))
            .step_by(3)
        {
            read(&text[..cut], is_library);
        }
        for _ in 0..300 {
            let mut bytes = text.as_bytes().to_vec();
            let i = (next() % bytes.len() as u64) as usize;
            bytes[i] = BYTES[(next() % BYTES.len() as u64) as usize];
            if let Ok(s) = std::str::from_utf8(&bytes) {
                read(s, is_library);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_input_never_panics(bytes in proptest::collection::vec(any::<u8>(), 0..160)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse_library(&text, "x");
        let _ = parse_graph(&text, "x", &paper());
    }
}

/// The examples in `data/map/README.md` are valid.
#[test]
fn the_readme_examples_parse() {
    let readme = include_str!("../../../data/map/README.md");
    let blocks: Vec<&str> = readme
        .split("```json\n")
        .skip(1)
        .map(|b| b.split("```").next().expect("closed"))
        .collect();
    assert_eq!(blocks.len(), 2);
    let lib = parse_library(blocks[0], "readme").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(lib.templates.len(), 3);
    let g = parse_graph(blocks[1], "readme", &lib).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((g.rooms.len(), g.connections.len()), (3, 3));
}

#[test]
fn constraints_name_rooms_by_id_or_tag_and_errors_their_place() {
    let rooms = "{\"rooms\": [{\"id\": \"a\", \"tags\": [\"start\"]}, {\"id\": \"b\", \"tags\": [\"x\"]}, \
                 {\"id\": \"c\", \"tags\": [\"x\"]}],\n \"connections\": [[\"a\", \"b\"], [\"b\", \"c\"]],\n";
    let with = |c: &str| format!("{rooms} \"constraints\": [\n{c}\n]}}");
    let g = graph(&with(
        "{\"min_path\": [\"start\", \"x\", 3]}, {\"lock\": [\"b\", \"c\"], \"key\": \"b\"}",
    ));
    assert_eq!(
        (g.paths[0].from.clone(), g.paths[0].to.clone()),
        (vec![0], vec![1, 2])
    );
    assert!(!g.paths[0].max && g.paths[0].tiles == 3);
    assert_eq!((g.locks[0].connection, g.locks[0].key), (1, 1));
    for (c, want) in [
        (
            "{\"lock\": [\"x\", \"a\"], \"key\": \"a\"}",
            "g.json:4:11: names 2 rooms; name one room here",
        ),
        (
            "{\"lock\": [\"a\", \"c\"], \"key\": \"a\"}",
            "g.json:4:10: the two rooms are not connected",
        ),
        (
            "{\"lock\": [\"a\", \"b\"], \"key\": \"c\"}",
            "g.json:4:1: lock 1 (`a` - `b`, key `c`) is reached before its key: `a`",
        ),
        (
            "{\"min_path\": [\"a\", \"b\"]}",
            "g.json:4:14: expected `[room, room, steps]`, found an array of 2 items",
        ),
        (
            "{\"max_path\": [\"a\", \"b\", -1]}",
            "g.json:4:25: a path's steps must be at least 0",
        ),
        (
            "{\"min_path\": [\"a\", \"b\", 1], \"key\": \"a\"}",
            "g.json:4:1: a constraint is one of",
        ),
    ] {
        let err = graph_err(&with(c));
        assert!(err.starts_with(want), "{c}: {err}");
    }
}
