//! `warren bench`: the table, the JSON, and flamegraphs of `bench` and `generate`.

use std::ffi::OsStr;

use crate::common::{TempDir, stderr, stdout, warren};

#[test]
fn bench_prints_a_row_per_kind_and_stages() {
    let out = warren(["bench", "maze", "dmg", "--count", "100", "--threads", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("warren ") && lines[0].contains("bench"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("profile") && lines[1].contains("2 threads/s"),
        "{text}"
    );
    assert!(
        lines[2].starts_with("maze ") && lines[2].contains(" 100 "),
        "{text}"
    );
    assert!(lines[3].starts_with("dmg "), "{text}");
    assert!(
        text.contains("stages of dmg: passages and exits "),
        "{text}"
    );
}

#[test]
fn profile_files_are_named_by_their_stem() {
    let out = warren([
        "bench",
        "profiles/coloring-edge.toml",
        "--count",
        "50",
        "--threads",
        "1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.lines().nth(2).unwrap().starts_with("coloring-edge "),
        "{text}"
    );
}

#[test]
fn bench_json_parses_with_every_field() {
    let out = warren(["bench", "maze", "--count", "100", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    // One JSON object on one line, checked with Python's parser when there is one.
    assert_eq!(text.trim().lines().count(), 1);
    assert!(text.starts_with("{\"version\":") && text.trim().ends_with('}'));
    for key in [
        "\"levels_per_second_per_core\":",
        "\"us_median\":",
        "\"us_p99\":",
        "\"scaling\":",
        "\"archive_mb_per_second\":",
        "\"peak_rss_mb\":",
    ] {
        assert!(text.contains(key), "{key} in {text}");
    }
    if let Ok(py) = std::process::Command::new("python3")
        .args([
            "-c",
            "import json,sys; d=json.load(sys.stdin); print(d['kinds'][0]['kind'], d['kinds'][0]['levels'])",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
    {
        use std::io::Write;
        let mut py = py;
        py.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
        let parsed = py.wait_with_output().unwrap();
        assert_eq!(String::from_utf8_lossy(&parsed.stdout).trim(), "maze 100");
    }
}

#[test]
fn an_unknown_kind_fails_before_anything_runs() {
    let out = warren(["bench", "maze", "mazes"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("mazes"), "{}", stderr(&out));
    assert!(stdout(&out).is_empty());
}

#[cfg(all(unix, feature = "flamegraph"))]
#[test]
fn flamegraphs_name_warrens_functions() {
    let dir = TempDir::new("flamegraph");
    let svg = dir.join("f.svg");
    let args: [&OsStr; 6] = [
        "bench".as_ref(),
        "maze".as_ref(),
        "--count".as_ref(),
        "3000".as_ref(),
        "--flamegraph".as_ref(),
        svg.as_os_str(),
    ];
    let out = warren(args);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(&svg).expect("the flamegraph is written");
    assert!(text.starts_with("<?xml") && text.contains("<svg"), "an SVG");
    // Warren's own functions appear as frames: the maze's stages, or (with few samples on a
    // fast machine) at least the generator they run in.
    assert!(
        ["kruskal", "peel", "MazeGenerator"]
            .iter()
            .any(|f| text.contains(f)),
        "warren's frames resolve"
    );
    // `generate` samples too.
    let arrow = dir.join("m.arrow");
    let svg2 = dir.join("g.svg");
    let args: [&OsStr; 8] = [
        "generate".as_ref(),
        "maze".as_ref(),
        "--count".as_ref(),
        "2000".as_ref(),
        "--out".as_ref(),
        arrow.as_os_str(),
        "--flamegraph".as_ref(),
        svg2.as_os_str(),
    ];
    let out = warren(args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::read_to_string(&svg2).unwrap().contains("<svg"));
}

#[test]
fn a_flamegraph_must_be_an_svg() {
    let out = warren(["bench", "maze", "--flamegraph", "f.png"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("SVG"), "{}", stderr(&out));
}
