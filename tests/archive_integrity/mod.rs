//! Archives as written: `verify` accepts fresh ones and catches tampering, an interrupted run
//! leaves no file under the final name, `inspect` summarises, and seed 001's merging holds.
//! `format`: the metadata as stored, and archives of an older format.

mod format;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use warren::archive::{Archive, DOC_KEY};

use crate::common::{
    SMALL, TempDir, assert_verifies, column_binary, column_u32, exit_code, generate, mean, stderr,
    stdout, warren, warren_bin,
};

/// The number before "violations" on verify's summary line.
fn violation_count(report: &str) -> u64 {
    let line = report
        .lines()
        .rfind(|l| l.contains("levels checked"))
        .unwrap_or_else(|| panic!("no summary line in {report:?}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| w.starts_with("violation"))
        .unwrap_or_else(|| panic!("no violation count in {line:?}"));
    words[at - 1]
        .replace(',', "")
        .parse()
        .unwrap_or_else(|_| panic!("bad violation count in {line:?}"))
}

/// Generates with `args` and asserts `verify` passes.
fn verify_passes(tag: &str, args: &[&str]) {
    let dir = TempDir::new(tag);
    let path = dir.join("levels.arrow");
    generate(&path, args);
    let report = assert_verifies(&path);
    assert_eq!(violation_count(&report), 0);
}

#[test]
fn verify_passes_default_lattice() {
    verify_passes("v-default", &["--count", "300", "--seed", "11"]);
}

#[test]
fn verify_passes_delaunay() {
    verify_passes(
        "v-delaunay",
        &[
            "--count",
            "300",
            "--set",
            "maze.topology=delaunay",
            "--set",
            "maze.width=6",
            "--set",
            "maze.height=6",
        ],
    );
}

#[test]
fn verify_passes_holes() {
    verify_passes(
        "v-holes",
        &[&SMALL[..], &["--count", "500", "--set", "maze.holes=0.2"]].concat(),
    );
}

#[test]
fn verify_passes_gradient_weighting() {
    verify_passes(
        "v-gradient",
        &[
            &SMALL[..],
            &["--count", "500", "--set", "maze.weighting=gradient"],
        ]
        .concat(),
    );
}

#[test]
fn verify_passes_biased_weighting() {
    verify_passes(
        "v-biased",
        &[
            &SMALL[..],
            &["--count", "500", "--set", "maze.weighting=biased"],
        ]
        .concat(),
    );
}

#[test]
fn verify_passes_without_merging() {
    verify_passes(
        "v-nomerge",
        &[
            &SMALL[..],
            &["--count", "500", "--set", "maze.merge_dead_ends=false"],
        ]
        .concat(),
    );
}

/// Offset of `needle` in `haystack`, requiring it to occur exactly once.
fn find_once(haystack: &[u8], needle: &[u8]) -> usize {
    let mut hits = haystack
        .windows(needle.len())
        .enumerate()
        .filter(|(_, w)| *w == needle)
        .map(|(i, _)| i);
    let first = hits.next().expect("grid bytes found in the file");
    assert!(hits.next().is_none(), "grid bytes occur twice in the file");
    first
}

#[test]
fn verify_detects_a_flipped_grid_cell() {
    let dir = TempDir::new("tamper");
    let path = dir.join("levels.arrow");
    generate(
        &path,
        &[&SMALL[..], &["--count", "200", "--seed", "5"]].concat(),
    );
    let grid = &column_binary(&path, "grid")[0];
    let width = first_grid_width(&path);
    // The wall or passage between rooms (0, 0) and (0, 1): column 1, row 2 of the raster.
    let cell = 2 * width + 1;
    assert!(cell < grid.len() && grid[cell] <= 1, "unexpected raster");
    let mut bytes = std::fs::read(&path).unwrap();
    let at = find_once(&bytes, grid) + cell;
    bytes[at] ^= 1;
    std::fs::write(&path, &bytes).unwrap();

    let output = warren([Path::new("verify"), &path]);
    let report = stdout(&output);
    assert_eq!(exit_code(&output), 1, "{report}{}", stderr(&output));
    assert!(report.contains("violations"), "{report}");
    assert!(violation_count(&report) > 0, "{report}");
    assert!(
        report.lines().any(|l| l.starts_with("level 0:")),
        "level 0 was not reported: {report}"
    );
}

#[test]
fn verify_checks_another_versions_archive_without_regenerating() {
    let dir = TempDir::new("other-version");
    let path = dir.join("levels.arrow");
    generate(
        &path,
        &[&SMALL[..], &["--count", "50", "--seed", "5"]].concat(),
    );
    // Rewrite the version in the stored metadata (schema and footer copies), same length.
    let ours = env!("CARGO_PKG_VERSION").as_bytes();
    let theirs: Vec<u8> = ours
        .iter()
        .map(|&b| if b.is_ascii_digit() { b'9' } else { b })
        .collect();
    // A flatbuffer string: u32 length, the bytes, a NUL.
    let framed = [&(ours.len() as u32).to_le_bytes()[..], ours, &[0]].concat();
    let mut bytes = std::fs::read(&path).unwrap();
    let mut replaced = 0;
    for at in 0..bytes.len() - framed.len() {
        if bytes[at..].starts_with(&framed) {
            bytes[at + 4..at + 4 + ours.len()].copy_from_slice(&theirs);
            replaced += 1;
        }
    }
    assert!(replaced >= 1, "version string not found");
    std::fs::write(&path, &bytes).unwrap();

    let output = warren([Path::new("verify"), &path]);
    let (report, err) = (stdout(&output), stderr(&output));
    assert_eq!(exit_code(&output), 0, "{report}{err}");
    let theirs = String::from_utf8(theirs).unwrap();
    assert!(
        err.contains(&format!("written by warren {theirs}")) && err.contains("not compared"),
        "{err}"
    );
    assert_eq!(violation_count(&report), 0, "{report}");
}

/// Width of the first level's grid (stored as u16).
fn first_grid_width(path: &Path) -> usize {
    use arrow_array::cast::AsArray;
    use arrow_array::types::UInt16Type;
    let archive = Archive::open(path).unwrap();
    let batch = archive.batch(0).unwrap();
    let column = batch
        .column_by_name("grid_width")
        .expect("grid_width column");
    usize::from(column.as_primitive::<UInt16Type>().value(0))
}

#[test]
fn killed_run_leaves_no_archive() {
    let dir = TempDir::new("killed");
    let path = dir.join("big.arrow");
    let mut child = Command::new(warren_bin())
        .args(["generate", "maze", "--count", "5000000", "--quiet", "--out"])
        .arg(&path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn warren");
    std::thread::sleep(Duration::from_millis(1500));
    let still_running = child.try_wait().unwrap().is_none();
    child.kill().expect("kill warren");
    child.wait().unwrap();
    assert!(still_running, "a 5,000,000-level run finished within 1.5 s");
    assert!(
        !path.exists(),
        "a killed run left {} under its final name",
        path.display()
    );
}

#[test]
fn inspect_lists_count_and_metrics() {
    let dir = TempDir::new("inspect");
    let path = dir.join("levels.arrow");
    generate(&path, &[&SMALL[..], &["--count", "1234"]].concat());
    let output = warren([Path::new("inspect"), &path]);
    let text = stdout(&output);
    assert_eq!(exit_code(&output), 0, "{}", stderr(&output));
    assert!(
        text.lines()
            .any(|l| l.starts_with("levels") && l.contains("1,234")),
        "no `levels 1,234` line: {text}"
    );
    let archive = Archive::open(&path).unwrap();
    let metrics: Vec<String> = archive
        .schema()
        .fields()
        .iter()
        .filter(|f| f.metadata().contains_key(DOC_KEY))
        .map(|f| f.name().clone())
        .collect();
    for name in ["dead_ends", "merges", "mergeable_dead_ends", "diameter"] {
        assert!(metrics.iter().any(|m| m == name), "no metric column {name}");
    }
    for name in &metrics {
        assert!(
            text.lines()
                .any(|l| l.split_whitespace().next() == Some(name)),
            "inspect does not list metric {name}: {text}"
        );
    }
}

#[test]
fn merging_removes_mergeable_dead_ends_and_lowers_dead_ends() {
    let dir = TempDir::new("merging");
    let (on, off) = (dir.join("on.arrow"), dir.join("off.arrow"));
    generate(&on, &["--count", "300", "--seed", "9"]);
    generate(
        &off,
        &[
            "--count",
            "300",
            "--seed",
            "9",
            "--set",
            "maze.merge_dead_ends=false",
        ],
    );
    let mergeable = column_u32(&on, "mergeable_dead_ends");
    assert_eq!(mergeable.len(), 300);
    let left: Vec<(usize, u32)> = mergeable
        .iter()
        .copied()
        .enumerate()
        .filter(|&(_, m)| m != 0)
        .collect();
    assert!(
        left.is_empty(),
        "levels with mergeable dead ends left: {left:?}"
    );
    let (mean_on, mean_off) = (
        mean(&column_u32(&on, "dead_ends")),
        mean(&column_u32(&off, "dead_ends")),
    );
    eprintln!("mean dead_ends: merging on {mean_on:.3}, merging off {mean_off:.3}");
    assert!(
        mean_off > mean_on,
        "merging did not lower dead ends: on {mean_on}, off {mean_off}"
    );
    let merges_off = column_u32(&off, "merges");
    assert!(
        merges_off.iter().all(|&m| m == 0),
        "merges counted with merging off"
    );
}
