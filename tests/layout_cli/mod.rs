//! `warren layout`: edge lists laid out end to end through the binary, its figures, its TSV of
//! positions, determinism for a seed, and one-line errors that point at the bad line; the other
//! graph formats and `--svg` in `formats.rs`, the multilevel layout, `--threads` and
//! `--positions` in `multilevel.rs`, `--weights` in `weights.rs`.

mod formats;
mod multilevel;
mod stress;
mod weights;

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{
    TempDir, assert_fails_naming, assert_one_line_error, exit_code, stderr, stdout, warren,
};

/// A cube (8 vertices, 12 edges) with sparse, large ids, tabs, weights, comments and one
/// self-loop.
const CUBE: &str = "# a cube, SNAP style\n\
    # FromNodeId\tToNodeId\n\
    100 200\n\
    200\t300 1.5\n\
    300 400 {'weight': 2}\n\
    400 100 # back to the start\n\
    \n\
    5000 6000\n\
    6000 7000\n\
    7000 18446744073709551615\n\
    18446744073709551615 5000\n\
    100 5000\n\
    200 6000\n\
    300 7000\n\
    400 18446744073709551615\n\
    300 300\n";

/// The cube's ids in order of first appearance.
const CUBE_IDS: [&str; 8] = [
    "100",
    "200",
    "300",
    "400",
    "5000",
    "6000",
    "7000",
    "18446744073709551615",
];

/// Writes `text` to `name` in `dir`.
fn graph_file(dir: &TempDir, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs `warren layout graph` plus `extra`.
fn layout(graph: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["layout", graph.to_str().unwrap()];
    args.extend(extra);
    warren(&args)
}

/// Runs `warren layout graph --out out` plus `extra`, asserting success; returns stdout.
fn layout_ok(graph: &Path, out: &Path, extra: &[&str]) -> String {
    let mut args = vec!["--out", out.to_str().unwrap()];
    args.extend(extra);
    let output = layout(graph, &args);
    assert_eq!(exit_code(&output), 0, "{}", stderr(&output));
    assert!(out.is_file(), "{} was not written", out.display());
    stdout(&output)
}

/// The value after `prefix` on the line of `text` that starts with it.
fn figure<'a>(text: &'a str, prefix: &str) -> &'a str {
    text.lines()
        .find_map(|l| l.strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no line `{prefix}...` in {text:?}"))
}

#[test]
fn lays_out_a_small_graph_with_its_original_ids() {
    let dir = TempDir::new("layout");
    let graph = graph_file(&dir, "cube.txt", CUBE);
    let out = dir.join("cube.tsv");
    let text = layout_ok(
        &graph,
        &out,
        &["--seed", "7", "--algorithm", "stress", "--epochs", "40"],
    );
    assert_eq!(text.lines().count(), 9, "{text}");
    assert_eq!(figure(&text, "vertices "), "8");
    assert_eq!(figure(&text, "edges "), "12 (1 self-loops dropped)");
    // The stress layout: 8 vertices start from random positions, no force drawing.
    assert_eq!(figure(&text, "algorithm "), "stress (1 levels)");
    let time = figure(&text, "time ");
    assert!(time.ends_with(" ms (median of 1)"), "{time}");
    let ms: f64 = time.split(' ').next().unwrap().parse().unwrap();
    assert!(ms >= 0.0, "{time}");
    let iterations = figure(&text, "iterations ");
    assert_eq!(iterations, "40 (converged)");
    figure(&text, "crossings ").parse::<u64>().unwrap();
    let cv: f32 = figure(&text, "edge length cv ").parse().unwrap();
    assert!(cv.is_finite() && cv >= 0.0, "{cv}");
    let stress: f64 = figure(&text, "stress ").parse().unwrap();
    assert!((0.0..1.0).contains(&stress), "{stress}");
    let np: f64 = figure(&text, "neighbourhood preservation ")
        .parse()
        .unwrap();
    assert!((0.0..=1.0).contains(&np), "{np}");

    let tsv = std::fs::read_to_string(&out).unwrap();
    let mut lines = tsv.lines();
    assert_eq!(lines.next(), Some("id\tx\ty"));
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    let ids: Vec<&str> = rows.iter().map(|r| r[0]).collect();
    assert_eq!(ids, CUBE_IDS);
    for row in &rows {
        assert_eq!(row.len(), 3, "{row:?}");
        for v in &row[1..] {
            assert!(v.parse::<f32>().unwrap().is_finite(), "{row:?}");
        }
    }
    assert!(
        !dir.join("cube.tsv.tmp").exists(),
        "the temp file was left behind"
    );
}

#[test]
fn json_output_is_one_object_with_every_key() {
    let dir = TempDir::new("layout-json");
    let graph = graph_file(&dir, "cube.txt", CUBE);
    let output = layout(
        &graph,
        &["--json", "--repeat", "2", "--algorithm", "single"],
    );
    assert_eq!(exit_code(&output), 0, "{}", stderr(&output));
    let text = stdout(&output);
    let object = text.trim_end();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(object.starts_with('{') && object.ends_with('}'), "{text}");
    for key in [
        "\"vertices\":8,",
        "\"edges\":12,",
        "\"self_loops\":1,",
        "\"algorithm\":\"single\",",
        "\"levels\":1,",
        "\"repeat\":2,",
        "\"time_ms\":",
        "\"times_ms\":[",
        "\"iterations\":",
        "\"converged\":",
        "\"last_move\":",
        "\"crossings\":",
        "\"crossings_sampled\":false,",
        "\"edge_length_cv\":",
        "\"stress\":",
        "\"scoring_ms\":",
        "\"neighbourhood_preservation\":",
        "\"neighbourhood_sampled\":false,",
        "\"weighted\":false}",
    ] {
        assert!(object.contains(key), "no {key} in {object}");
    }
    assert!(
        !object.contains("null") && !object.contains("NaN"),
        "{object}"
    );
    let times = object
        .split("\"times_ms\":[")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .unwrap();
    assert_eq!(times.split(',').count(), 2, "{object}");
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let dir = TempDir::new("layout-seed");
    let graph = graph_file(&dir, "cube.txt", CUBE);
    let run = |name: &str, seed: &str| {
        let out = dir.join(name);
        layout_ok(&graph, &out, &["--seed", seed, "--tolerance", "0"]);
        std::fs::read(out).unwrap()
    };
    let (a, b, other) = (run("a.tsv", "3"), run("b.tsv", "3"), run("c.tsv", "4"));
    assert_eq!(a, b, "seed 3 gave different positions twice");
    assert_ne!(a, other, "seeds 3 and 4 gave the same positions");
}

#[test]
fn repeat_reports_the_median_and_writes_the_first_run() {
    let dir = TempDir::new("layout-repeat");
    let graph = graph_file(&dir, "cube.txt", CUBE);
    let (once, thrice) = (dir.join("once.tsv"), dir.join("thrice.tsv"));
    let text_once = layout_ok(&graph, &once, &["--seed", "9"]);
    let text_thrice = layout_ok(&graph, &thrice, &["--seed", "9", "--repeat", "3"]);
    assert!(
        figure(&text_thrice, "time ").ends_with("ms (median of 3)"),
        "{text_thrice}"
    );
    assert_eq!(std::fs::read(once).unwrap(), std::fs::read(thrice).unwrap());
    for prefix in [
        "iterations ",
        "crossings ",
        "edge length cv ",
        "stress ",
        "neighbourhood preservation ",
    ] {
        assert_eq!(figure(&text_once, prefix), figure(&text_thrice, prefix));
    }
}

#[test]
fn every_spring_and_kernel_runs() {
    let dir = TempDir::new("layout-kernels");
    let graph = graph_file(&dir, "cube.txt", CUBE);
    for (spring, repulsion) in [
        ("log", "scalar"),
        ("sigmoid", "simd"),
        ("linear", "barnes-hut"),
        ("log", "auto"),
    ] {
        let out = dir.join(&format!("{spring}-{repulsion}.tsv"));
        let flags = [
            "--spring",
            spring,
            "--repulsion",
            repulsion,
            "--theta",
            "0.7",
            "--cutoff",
            "4",
            "--iterations",
            "50",
        ];
        let text = layout_ok(&graph, &out, &flags);
        assert_eq!(figure(&text, "vertices "), "8", "{spring} {repulsion}");
    }
}

#[test]
fn both_starts_run_and_the_curve_start_untangles_a_grid() {
    // A 12 x 12 grid graph, vertex ids row by row.
    let mut text = String::new();
    for r in 0..12u32 {
        for c in 0..12u32 {
            let v = r * 12 + c;
            if c + 1 < 12 {
                text.push_str(&format!("{v} {}\n", v + 1));
            }
            if r + 1 < 12 {
                text.push_str(&format!("{v} {}\n", v + 12));
            }
        }
    }
    let dir = TempDir::new("layout-starts");
    let graph = graph_file(&dir, "grid.txt", &text);
    let mut crossings = Vec::new();
    for start in ["curve", "random"] {
        let out = dir.join(&format!("{start}.tsv"));
        let args = [
            "--algorithm",
            "single",
            "--start",
            start,
            "--iterations",
            "300",
        ];
        let text = layout_ok(&graph, &out, &args);
        assert_eq!(figure(&text, "vertices "), "144", "{start}");
        crossings.push(figure(&text, "crossings ").parse::<u64>().unwrap());
    }
    assert!(
        crossings[0] <= crossings[1],
        "curve {} random {}",
        crossings[0],
        crossings[1]
    );
}

#[test]
fn malformed_lines_are_one_line_errors_naming_file_line_and_column() {
    let dir = TempDir::new("layout-bad");
    let cases = [
        (
            "1 2\nabc 3\n",
            "2:1: expected a vertex id (a non-negative integer), found \"abc\"",
        ),
        (
            "# ok\n1 2\n  7\n",
            "3:4: expected a second vertex id, found end of line",
        ),
        (
            "1 2 # fine\n3 4\n5\t-6\n",
            "3:3: expected a vertex id (a non-negative integer), found \"-6\"",
        ),
        (
            "1 2.0\n",
            "1:3: expected a vertex id (a non-negative integer), found \"2.0\"",
        ),
        (
            "1 2\n2 99999999999999999999\n",
            "2:3: expected a vertex id of at most 18446744073709551615, found \"99999999999999999999\"",
        ),
        (
            "8 # 9\n",
            "1:3: expected a second vertex id, found end of line",
        ),
    ];
    for (i, (text, expected)) in cases.iter().enumerate() {
        let graph = graph_file(&dir, &format!("bad{i}.txt"), text);
        let output = layout(&graph, &[]);
        let what = format!("case {i} {text:?}");
        assert_eq!(exit_code(&output), 2, "{what}");
        assert_one_line_error(&output, &what);
        let wanted = format!("error: {}:{expected}", graph.display());
        assert_eq!(stderr(&output).trim_end(), wanted, "{what}");
        assert!(stdout(&output).is_empty(), "{what}");
    }
}

#[test]
fn a_missing_file_is_a_one_line_error() {
    let dir = TempDir::new("layout-missing");
    let graph = dir.join("no-such-graph.txt");
    let output = layout(&graph, &[]);
    assert_eq!(exit_code(&output), 2);
    assert_one_line_error(&output, "missing file");
    assert!(
        stderr(&output).contains(&format!("{}: cannot read", graph.display())),
        "{}",
        stderr(&output)
    );
}

/// Documented choice: an edge list without edges is an error, not a zero result.
#[test]
fn an_edge_list_without_edges_is_a_one_line_error() {
    let dir = TempDir::new("layout-empty");
    for (name, text) in [
        ("empty.txt", ""),
        ("comments.txt", "# nothing\n\n   # here\n"),
        ("loops.txt", "4 4\n5 5\n"),
    ] {
        let graph = graph_file(&dir, name, text);
        assert_fails_naming(&layout(&graph, &[]), name, &["no edges to lay out"]);
    }
}

#[test]
fn bad_options_are_one_line_errors() {
    let dir = TempDir::new("layout-options");
    let graph = graph_file(&dir, "cube.txt", CUBE);
    let missing_folder = dir.join("nowhere").join("pos.tsv");
    for flags in [
        &["--theta", "-1"][..],
        &["--theta", "NaN"],
        &["--cutoff", "0"],
        &["--cutoff", "-2"],
        &["--tolerance", "-0.5"],
        &["--repeat", "0"],
        &["--out", missing_folder.to_str().unwrap()],
        &["--svg", missing_folder.to_str().unwrap()],
    ] {
        let output = layout(&graph, flags);
        assert_eq!(exit_code(&output), 2, "{flags:?}");
        assert_one_line_error(&output, &format!("{flags:?}"));
        let named = if flags[0] == "--out" || flags[0] == "--svg" {
            "output folder does not exist".to_string()
        } else {
            format!("{} {}: must be", flags[0], flags[1])
        };
        assert!(stderr(&output).contains(&named), "{}", stderr(&output));
    }
    assert!(!missing_folder.exists());
}
