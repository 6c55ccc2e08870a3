//! `warren inspect` measures how different a run's maps are, and `map.variety` moves both of its
//! figures the same way.

use super::map_error;
use crate::common::{TempDir, generate_kind, warren};

/// `(distinct levels, room spread as a percentage of the mean room radius)` of a map run.
fn variety(graph: &str, value: &str, count: &str) -> (u64, f64) {
    let dir = TempDir::new("map-variety");
    let out = dir.join("v.arrow");
    let sets = [format!("map.graph={graph}"), format!("map.variety={value}")];
    generate_kind(
        "map",
        &out,
        &["--count", count, "--set", &sets[0], "--set", &sets[1]],
    );
    let report = warren(["inspect", out.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&report.stdout).to_string();
    let line = |start: &str| {
        text.lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("no `{start}` line in {text}"))
            .to_string()
    };
    let v = line("variety ");
    let distinct: u64 = v
        .split_whitespace()
        .nth(1)
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap();
    let levels = v
        .split(" distinct of ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap();
    assert_eq!(levels.replace(',', ""), count, "{v}");
    let s = line("room spread ");
    let share: f64 = s
        .split(" tiles, ")
        .nth(1)
        .unwrap()
        .split('%')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    (distinct, share)
}

#[test]
fn seventeen_rooms_make_no_two_maps_alike() {
    // Edgar's 17-room graph: every layout distinct up to the 8 symmetries (10,000 of 10,000 in
    // `docs/map.md`; 1,000 here).
    let (distinct, share) = variety("edgar-fig8-17", "1", "1000");
    assert_eq!(distinct, 1000);
    assert!(share > 30.0, "{share}");
}

#[test]
fn less_variety_gives_fewer_distinct_maps_and_closer_rooms() {
    // Edgar's 5-room basics graph: at 0 the drawing is neither turned nor shaken and candidates
    // get no noise, so some seeds repeat a map and rooms sit near their places in the others.
    let (d0, s0) = variety("edgar-basics", "0", "500");
    let (d5, s5) = variety("edgar-basics", "0.5", "500");
    let (d1, s1) = variety("edgar-basics", "1", "500");
    assert!(d0 < d5 && d5 <= d1, "{d0} {d5} {d1}");
    assert!(s0 < s5 && s5 < s1, "{s0} {s5} {s1}");
    assert!(s1 > 2.0 * s0, "{s0} {s1}");
    let err = map_error(&[], &["map.variety=1.5"]);
    assert!(
        err.contains("map.variety = 1.5 is out of range 0..=1"),
        "{err}"
    );
}
