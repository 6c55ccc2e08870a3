//! Fixed rooms and masks, end to end and independently of `warren verify`: every pinned room of
//! 1,000 layouts of Edgar's 17- and 41-room graphs has its template, transform and tile as
//! pinned; every level of a masked run is the mask's size with no tile off the mask; every
//! courtyard (a template with a hole) has void where its hole is; pins and masks that cannot
//! hold are refused in one line naming the rooms or the file's place.

use arrow_array::types::{Int32Type, UInt8Type, UInt16Type};

use super::{assert_says, example, map_error, verify_passes};
use crate::common::{
    TempDir, assert_verifies, column_binary, column_u16, generate_kind, list_column,
};

const VOID: u8 = 8;

#[test]
fn fixed_rooms_are_where_they_are_pinned() {
    let dir = TempDir::new("map-fixed");
    // (room, template index in edgar-paper, transform, tile): 12x18 turned a quarter, 12x12.
    for (name, pins) in [
        (
            "fig8-17-fixed.json",
            [(0, 2, 1, (0, 40)), (16, 0, 0, (55, 40))],
        ),
        (
            "fig8-41-fixed.json",
            [(0, 0, 0, (0, 70)), (40, 0, 0, (140, 70))],
        ),
    ] {
        let out = dir.join("f.arrow");
        let graph = format!("map.graph={}", example(name));
        generate_kind("map", &out, &["--count", "1000", "--set", &graph]);
        let templates = list_column::<UInt16Type>(&out, "room_template");
        let transforms = list_column::<UInt8Type>(&out, "room_transform");
        let (x0, y0) = (
            list_column::<Int32Type>(&out, "room_x0"),
            list_column::<Int32Type>(&out, "room_y0"),
        );
        assert_eq!(templates.len(), 1000, "{name}");
        for i in 0..templates.len() {
            for (v, template, transform, at) in pins {
                assert_eq!(
                    (templates[i][v], transforms[i][v], (x0[i][v], y0[i][v])),
                    (template, transform, at),
                    "{name}: level {i}, room {v}"
                );
            }
            // Nothing reaches left of or above the grid's tile (0, 0).
            assert!(
                x0[i].iter().chain(&y0[i]).all(|&c| c >= 0),
                "{name}: level {i}"
            );
        }
        let report = assert_verifies(&out);
        assert!(
            report.contains("1,000 levels checked, 0 violations"),
            "{report}"
        );
    }
}

/// A disc of `d` tiles across as a mask file.
fn disc(d: usize) -> String {
    let r = d as f64 / 2.0;
    let mut text = String::new();
    for y in 0..d {
        for x in 0..d {
            let inside = (x as f64 + 0.5 - r).powi(2) + (y as f64 + 0.5 - r).powi(2) <= r * r;
            text.push(if inside { '#' } else { '.' });
        }
        text.push('\n');
    }
    text
}

#[test]
fn every_level_of_a_masked_run_lies_on_its_mask() {
    let dir = TempDir::new("map-mask");
    let mask = dir.join("disc.txt");
    let d = 84;
    std::fs::write(&mask, disc(d)).unwrap();
    let allowed: Vec<bool> = disc(d)
        .lines()
        .flat_map(|l| l.chars())
        .map(|c| c == '#')
        .collect();
    let out = dir.join("m.arrow");
    let set = format!("map.mask={}", mask.display());
    generate_kind("map", &out, &["--count", "300", "--set", &set]);
    let cells = column_binary(&out, "grid");
    let (w, h) = (
        column_u16(&out, "grid_width"),
        column_u16(&out, "grid_height"),
    );
    assert_eq!(cells.len(), 300);
    for (i, level) in cells.iter().enumerate() {
        assert_eq!((usize::from(w[i]), usize::from(h[i])), (d, d), "level {i}");
        let off = (0..level.len()).find(|&k| level[k] != VOID && !allowed[k]);
        assert_eq!(off, None, "level {i}: a tile off the mask");
    }
    verify_passes(&out, 300);
}

/// The 17-room graph with its first two rooms (joined) pinned as given.
fn two_pins(a: &str, b: &str) -> String {
    let text = std::fs::read_to_string(example("fig8-17-fixed.json")).unwrap();
    let text = text.replace(
        r#""fixed": {"template": "12x18", "transform": "rotate90", "at": [0, 40]}"#,
        &format!(r#""fixed": {a}"#),
    );
    text.replace(r#"{"id": "1"}"#, &format!(r#"{{"id": "1", "fixed": {b}}}"#))
}

#[test]
fn pins_and_masks_that_cannot_hold_are_refused() {
    let on_top = two_pins(
        r#"{"template": "12x12", "at": [20, 20]}"#,
        r#"{"template": "12x12", "at": [25, 25]}"#,
    );
    let err = map_error(&[("g.json", &on_top)], &["map.graph=g.json"]);
    assert_says(
        &err,
        &["fixed rooms `0` and `1` overlap where they are pinned"],
    );
    let apart = two_pins(
        r#"{"template": "12x12", "at": [20, 20]}"#,
        r#"{"template": "12x12", "at": [40, 20]}"#,
    );
    let err = map_error(&[("g.json", &apart)], &["map.graph=g.json"]);
    assert_says(
        &err,
        &["fixed rooms `0` and `1` are joined, but no door of one meets a door of the other"],
    );
    let err = map_error(
        &[("g.json", &apart)],
        &["map.graph=g.json", "map.bounds=[50, 50]"],
    );
    assert_says(
        &err,
        &[
            "room `1` is fixed at [40, 20], where its 12 x 12 tiles do not lie inside map.bounds = [50, 50]",
        ],
    );
    let pinned = std::fs::read_to_string(example("fig8-17-fixed.json")).unwrap();
    let err = map_error(
        &[("g.json", &pinned)],
        &["map.graph=g.json", "map.exhaustive=true"],
    );
    assert_says(&err, &["map.exhaustive does not take fixed rooms"]);
    let err = map_error(
        &[("m.txt", "##\n##\n")],
        &["map.mask=m.txt", "map.bounds=[80, 80]"],
    );
    assert_says(&err, &["map.mask", "cannot both be set"]);
    let err = map_error(&[("m.txt", "###\n#x#\n")], &["map.mask=m.txt"]);
    assert_says(&err, &["m.txt:2:2: expected `#`"]);
    let err = map_error(&[("m.txt", &disc(10))], &["map.mask=m.txt"]);
    assert_says(
        &err,
        &[
            "the rooms' floors need at least 612 tiles, more than the 8 x 8 = 64 tiles inside the walls of map.mask",
        ],
    );
}

#[test]
fn no_floor_lies_in_a_hole() {
    let dir = TempDir::new("map-holes");
    let out = dir.join("h.arrow");
    let library = format!("map.templates={}", example("courtyards.json"));
    generate_kind("map", &out, &["--count", "1000", "--set", &library]);
    let cells = column_binary(&out, "grid");
    let widths = column_u16(&out, "grid_width");
    let templates = list_column::<UInt16Type>(&out, "room_template");
    let (x0, y0) = (
        list_column::<Int32Type>(&out, "room_x0"),
        list_column::<Int32Type>(&out, "room_y0"),
    );
    let mut courtyards = 0;
    for i in 0..cells.len() {
        let w = usize::from(widths[i]);
        // `courtyard` (template 4): 18 x 18 tiles, its hole's wall ring on tiles 6 and 11 of
        // each side, void on 7 to 10, whichever way it is turned.
        for v in (0..templates[i].len()).filter(|&v| templates[i][v] == 4) {
            courtyards += 1;
            for dy in 7..=10 {
                for dx in 7..=10 {
                    let (x, y) = ((x0[i][v] + dx) as usize, (y0[i][v] + dy) as usize);
                    assert_eq!(cells[i][y * w + x], VOID, "level {i}, room {v}");
                }
            }
        }
    }
    assert!(courtyards > 1000, "{courtyards} courtyards");
    let report = assert_verifies(&out);
    assert!(
        report.contains("1,000 levels checked, 0 violations"),
        "{report}"
    );
}
