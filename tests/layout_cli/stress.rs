//! The stress layout from the command line: lower stress than the force drawing, pinned
//! vertices exactly where the pin file puts them, a start drawing refined without being
//! redrawn, and one-line errors for bad position files.

use std::collections::HashMap;
use std::path::Path;

use super::multilevel::{grid_text, json_number, level_like_file};
use super::{graph_file, layout};
use crate::common::{TempDir, assert_one_line_error, exit_code, stderr, stdout};

/// Runs `warren layout GRAPH --json` with `extra`, checks success, returns the JSON object.
fn layout_json(graph: &Path, extra: &[&str]) -> String {
    let mut args = vec!["--json", "--algorithm", "stress"];
    args.extend(extra);
    let output = layout(graph, &args);
    assert_eq!(exit_code(&output), 0, "{}", stderr(&output));
    stdout(&output)
}

/// A positions file as a map from id to the two coordinates as written (exact text).
fn read_tsv(path: &Path) -> HashMap<String, (String, String)> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), (f[1].to_string(), f[2].to_string()))
        })
        .collect()
}

#[test]
fn stress_beats_the_force_drawing_on_a_grid_and_a_level_like_graph() {
    let dir = TempDir::new("layout-stress-better");
    let grid = graph_file(&dir, "grid.txt", &grid_text(20, 0));
    let level = level_like_file(&dir, 1500);
    for graph in [&grid, &level] {
        let stress = json_number(&layout_json(graph, &[]), "stress");
        let output = layout(graph, &["--json", "--algorithm", "multilevel"]);
        let force = json_number(&stdout(&output), "stress");
        // Measured: the 20 x 20 grid 0.029 against 0.042, the level-like graph 0.021
        // against 0.031.
        assert!(
            stress < 0.9 * force,
            "{}: {stress} against {force}",
            graph.display()
        );
    }
}

#[test]
fn pinned_vertices_stay_exactly_where_the_pins_put_them() {
    let dir = TempDir::new("layout-stress-pins");
    for n in [150, 1_200] {
        let graph = level_like_file(&dir, n);
        let pins = dir.join(&format!("pins-{n}.tsv"));
        let rows = [
            ("0", "-3.25", "7.5"),
            ("17", "40", "-2.125"),
            ("99", "0.1", "0.3"),
        ];
        let text: String = rows
            .iter()
            .map(|(v, x, y)| format!("{v}\t{x}\t{y}\n"))
            .collect();
        std::fs::write(&pins, format!("id\tx\ty\n{text}")).unwrap();
        let out = dir.join(&format!("pos-{n}.tsv"));
        let output = layout(
            &graph,
            &[
                "--algorithm",
                "stress",
                "--pin",
                pins.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ],
        );
        assert_eq!(exit_code(&output), 0, "{}", stderr(&output));
        let got = read_tsv(&out);
        for (v, x, y) in rows {
            let (gx, gy) = &got[v];
            assert_eq!(
                (gx.parse::<f32>().unwrap(), gy.parse::<f32>().unwrap()),
                (x.parse::<f32>().unwrap(), y.parse::<f32>().unwrap()),
                "{n}: vertex {v}"
            );
        }
    }
}

#[test]
fn a_start_drawing_is_refined_not_redrawn() {
    // The stress layout (full stress at 3,000 vertices) and the default past its full-stress
    // limit (the force drawing refined by sparse stress, at 9,000).
    for (n, algorithm) in [(3_000, "stress"), (9_000, "auto")] {
        start_is_refined(n, algorithm);
    }
}

/// Lays a level-like graph of `n` vertices out with `algorithm`, then again from that drawing,
/// and checks that the second run kept the stress (within 1%, or lower) and moved no vertex by
/// 5% of the drawing's diameter.
fn start_is_refined(n: usize, algorithm: &str) {
    let dir = TempDir::new("layout-stress-start");
    let graph = level_like_file(&dir, n);
    let first = dir.join("first.tsv");
    let lay_out = |extra: &[&str]| {
        let mut args = vec!["--json", "--algorithm", algorithm];
        args.extend(extra);
        let output = layout(&graph, &args);
        assert_eq!(exit_code(&output), 0, "{}", stderr(&output));
        stdout(&output)
    };
    let before = lay_out(&["--out", first.to_str().unwrap()]);
    let second = dir.join("second.tsv");
    let after = lay_out(&[
        "--start",
        first.to_str().unwrap(),
        "--out",
        second.to_str().unwrap(),
    ]);
    let (s0, s1) = (
        json_number(&before, "stress"),
        json_number(&after, "stress"),
    );
    // The stress layout has converged, so its stress stays within 1%; the default's light
    // refinement has not, and its small steps from its own drawing may only lower it
    // (measured at 6,000 vertices: 0.00210 then 0.00196).
    let kept = if algorithm == "stress" {
        (s1 - s0).abs() < 0.01 * s0
    } else {
        s1 < 1.01 * s0
    };
    assert!(kept, "{algorithm}: stress {s0} then {s1}");
    let (a, b) = (read_tsv(&first), read_tsv(&second));
    let point = |p: &(String, String)| (p.0.parse::<f64>().unwrap(), p.1.parse::<f64>().unwrap());
    let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
    let mut moved = 0.0f64;
    for (v, p) in &a {
        let (x, y) = point(p);
        lo = (lo.0.min(x), lo.1.min(y));
        hi = (hi.0.max(x), hi.1.max(y));
        let (x2, y2) = point(&b[v]);
        moved = moved.max((x2 - x).hypot(y2 - y));
    }
    let diameter = (hi.0 - lo.0).hypot(hi.1 - lo.1);
    assert!(
        moved < 0.05 * diameter,
        "{algorithm}: moved {moved} of {diameter}"
    );
}

#[test]
fn bad_pin_and_start_files_are_one_line_errors_at_their_place() {
    let dir = TempDir::new("layout-stress-bad");
    let graph = level_like_file(&dir, 300);
    let bad = dir.join("bad.tsv");
    std::fs::write(&bad, "id\tx\ty\n3\t1.5\tabc\n").unwrap();
    let path = bad.to_str().unwrap();
    for flag in ["--pin", "--start"] {
        let output = layout(&graph, &["--algorithm", "stress", flag, path]);
        assert_ne!(exit_code(&output), 0, "{flag}: {}", stderr(&output));
        assert_one_line_error(&output, flag);
        let err = stderr(&output);
        assert!(
            err.contains(&format!("{path}:2:7: expected a finite number")),
            "{flag}: {err}"
        );
    }
    std::fs::write(&bad, "id\tx\ty\n9999\t1\t2\n").unwrap();
    let output = layout(&graph, &["--algorithm", "stress", "--pin", path]);
    assert_one_line_error(&output, "unknown id");
    assert!(stderr(&output).contains(&format!("{path}:2:1: expected the id of a vertex")));
    let output = layout(&graph, &["--pin", path, "--algorithm", "multilevel"]);
    assert_one_line_error(&output, "pins need stress");
    assert!(stderr(&output).contains("--pin"), "{}", stderr(&output));
}
