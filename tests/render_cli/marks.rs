//! `warren render` marks a `map` level's constraints: the tiles its mask forbids, its pinned
//! rooms and its locked doors with their keys, each checked against the run's own inputs and
//! columns.

use std::path::Path;

use arrow_array::types::UInt16Type;
use warren::render::{FORBIDDEN, KEY_COLOURS, PIN, Rgba};

use super::render;
use crate::common::{TempDir, exit_code, generate_kind, list_column, stderr};

fn example(name: &str) -> String {
    format!("{}/data/map/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// One map level (seed `--seed 7`) with `set` and its picture as SVG text.
fn drawn(dir: &TempDir, name: &str, set: &[&str]) -> (std::path::PathBuf, String) {
    let out = dir.join(&format!("{name}.arrow"));
    let mut args = vec!["--count", "1", "--seed", "7"];
    for s in set {
        args.extend(["--set", s]);
    }
    generate_kind("map", &out, &args);
    let svg = dir.join(&format!("{name}.svg"));
    let output = render(&out, &svg, &[]);
    assert_eq!(exit_code(&output), 0, "{}", stderr(&output));
    (out, std::fs::read_to_string(&svg).unwrap())
}

fn hex(c: Rgba) -> String {
    let [r, g, b, _] = c.0;
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// The SVG's items of `tag` (`rect`, `line`, `circle`) painted `attr` (`fill`, `stroke`) in `c`.
fn items<'a>(svg: &'a str, tag: &str, attr: &str, c: Rgba) -> Vec<&'a str> {
    let paint = format!(r#"{attr}="{}""#, hex(c));
    svg.lines()
        .filter(|l| l.starts_with(&format!("<{tag} ")) && l.contains(&paint))
        .collect()
}

/// The number value of attribute `name` in one SVG element.
fn attr(item: &str, name: &str) -> f64 {
    let start = item.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
    item[start..].split('"').next().unwrap().parse().unwrap()
}

#[test]
fn a_plain_map_has_no_marks() {
    let dir = TempDir::new("plain");
    let (_, svg) = drawn(&dir, "plain", &[]);
    assert!(items(&svg, "rect", "fill", FORBIDDEN).is_empty());
    assert!(items(&svg, "line", "stroke", PIN).is_empty());
    for key in KEY_COLOURS {
        assert!(items(&svg, "circle", "fill", key).is_empty());
    }
}

/// Forbidden runs cover exactly the mask's `.` tiles (by area, at the picture's scale).
#[test]
fn the_mask_s_forbidden_tiles_are_shaded() {
    let dir = TempDir::new("mask");
    let mask = example("island.txt");
    let (_, svg) = drawn(&dir, "island", &[&format!("map.mask={mask}")]);
    let text = std::fs::read_to_string(&mask).unwrap();
    let rows: Vec<&str> = text.trim_end().lines().collect();
    let forbidden = text.chars().filter(|&c| c == '.').count() as f64;
    let side = rows[0].len().max(rows.len()) as f64;
    let tile = 512.0 / side;
    // Each run in whole tiles (the SVG's numbers are rounded).
    let tiles: f64 = (items(&svg, "rect", "fill", FORBIDDEN).iter())
        .map(|r| (attr(r, "width") / tile).round() * (attr(r, "height") / tile).round())
        .sum();
    assert!(
        tiles == forbidden,
        "{tiles} tiles shaded, the mask forbids {forbidden}"
    );
}

/// Each pinned room: four sides and a pin at its top-left corner, which is the pinned tile.
#[test]
fn pinned_rooms_are_outlined_at_their_pins() {
    let dir = TempDir::new("pins");
    let graph = example("fig8-17-fixed.json");
    let (out, svg) = drawn(&dir, "pinned", &[&format!("map.graph={graph}")]);
    assert_eq!(
        items(&svg, "line", "stroke", PIN).len(),
        8,
        "two rooms, four sides each"
    );
    let pins = items(&svg, "circle", "fill", PIN);
    assert_eq!(pins.len(), 2);
    // fig8-17-fixed.json pins two rooms at rows 40: the pins sit on one row, 55 tiles apart.
    let (a, b) = (pins[0], pins[1]);
    let (w, h) = (
        list_column_len(&out, "grid_width"),
        list_column_len(&out, "grid_height"),
    );
    let tile = 512.0 / w.max(h) as f64;
    assert!((attr(a, "cy") - attr(b, "cy")).abs() < 1e-3);
    let apart = (attr(b, "cx") - attr(a, "cx")).abs() / tile;
    assert!((apart - 55.0).abs() < 1e-3, "pins {apart} tiles apart");
}

fn list_column_len(path: &Path, name: &str) -> u16 {
    crate::common::column_u16(path, name)[0]
}

/// Every locked door (a non-zero `door_key`) is filled in its key's colour, and each key room
/// gets one disc.
#[test]
fn locked_doors_and_their_keys_share_a_colour() {
    let dir = TempDir::new("locks");
    let graph = example("fig8-41-locks.json");
    let (out, svg) = drawn(&dir, "locks", &[&format!("map.graph={graph}")]);
    let keys = &list_column::<UInt16Type>(&out, "door_key")[0];
    let locked = keys.iter().filter(|&&k| k > 0).count();
    let mut distinct: Vec<u16> = keys.iter().copied().filter(|&k| k > 0).collect();
    distinct.sort_unstable();
    distinct.dedup();
    assert!(locked >= 2 && distinct.len() >= 2, "{keys:?}");
    let doors: usize = (KEY_COLOURS.iter())
        .map(|&c| items(&svg, "rect", "fill", c).len())
        .sum();
    let discs: usize = (KEY_COLOURS.iter())
        .map(|&c| items(&svg, "circle", "fill", c).len())
        .sum();
    assert_eq!(doors, locked);
    assert_eq!(discs, distinct.len());
}
