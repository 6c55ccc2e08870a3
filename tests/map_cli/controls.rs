//! The designer's controls (issue 50), end to end: every layout of an input that uses a control
//! keeps it, checked here from the archive's columns independently of `warren verify`, and a
//! request no layout can keep is refused in one line naming the rooms or templates.

use arrow_array::types::{UInt16Type, UInt32Type};

use super::{assert_says, map_error, verify_passes};
use crate::common::{TempDir, column_u16, generate_kind, list_column};

/// The example library with repeat modes: `12x12` (index 0) `no_immediate`, `L12x18` and
/// `T18x12` (4 and 5) `no_repeat`, the rest `allow`.
const REPEAT_LIBRARY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/data/map/edgar-paper-repeat.json"
);

/// Each level's templates and connections.
fn templates_and_edges(out: &std::path::Path) -> Vec<(Vec<u16>, Vec<(u32, u32)>)> {
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
