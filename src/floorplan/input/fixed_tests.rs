//! Tests of fixed rooms in the level-graph file: the pin as read, and every error's message and
//! place.

use super::*;
use crate::floorplan::spec::Fixed;

fn paper() -> Library {
    builtin_library("edgar-paper").expect("built in")
}

/// A graph of rooms `a` and `b`, joined, `a` with the given extra members.
fn pinned(members: &str) -> String {
    format!(
        "{{\"rooms\": [{{\"id\": \"a\", {members}}}, {{\"id\": \"b\"}}],\n \"connections\": [[\"a\", \"b\"]]}}"
    )
}

#[test]
fn a_pin_is_its_template_transform_and_tile() {
    let l = paper();
    for (fixed, transform) in [
        (r#""fixed": {"template": "L12x12", "at": [3, 4]}"#, 0),
        (
            r#""fixed": {"template": "L12x12", "transform": 3, "at": [3, 4]}"#,
            3,
        ),
        (
            r#""fixed": {"template": "L12x12", "transform": "rotate180", "at": [3, 4]}"#,
            2,
        ),
    ] {
        let g = parse_graph(&pinned(fixed), "g.json", &l).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            g.rooms[0].fixed,
            Some(Fixed {
                template: 3,
                transform,
                at: (3, 4)
            })
        );
        assert_eq!(g.rooms[1].fixed, None);
    }
}

#[test]
fn pin_errors_name_their_place() {
    let l = paper();
    for (members, want) in [
        (
            r#""fixed": {"template": "L9", "at": [0, 0]}"#,
            "g.json:1:46: unknown template `L9` in library `edgar-paper`",
        ),
        (
            r#""fixed": {"template": "8x8", "transform": "flip", "at": [0, 0]}"#,
            "g.json:1:66: unknown transform `flip` (expected 0 to 7 or one of identity, rotate90",
        ),
        (
            r#""fixed": {"template": "8x8", "transform": 8, "at": [0, 0]}"#,
            "g.json:1:66: a transform must be at most 7",
        ),
        (
            r#""fixed": {"template": "8x8", "transform": "mirror", "at": [0, 0]}"#,
            "g.json:1:66: template `8x8` may not be mirrored (its `transforms` do not allow it)",
        ),
        (
            r#""fixed": {"template": "8x8", "at": [-1, 0]}"#,
            "g.json:1:60: a fixed room's tile must be at least 0",
        ),
        (
            r#""fixed": {"template": "8x8"}"#,
            "g.json:1:33: `fixed` needs `template` and `at` (and may give `transform`)",
        ),
        (
            r#""fixed": {"template": "8x8", "at": [0, 0], "where": 1}"#,
            "g.json:1:67: unknown key `where` in `fixed`",
        ),
        (
            r#""templates": ["12x12"], "fixed": {"template": "8x8", "at": [0, 0]}"#,
            "g.json:1:57: room `a` is fixed to template `8x8`, which its `templates` do not list",
        ),
        (
            r#""fixed": [0, 0]"#,
            "g.json:1:33: expected `fixed` (an object)",
        ),
    ] {
        let e = parse_graph(&pinned(members), "g.json", &l)
            .expect_err(members)
            .to_string();
        assert!(e.starts_with(want), "{members}:\n got  {e}\n want {want}");
    }
}
