//! Untrusted inputs too big to handle are refused in one line before the world is allocated: a
//! maze profile past the size limits, a level file over 16 MiB, an edge list over 1 GiB. The
//! files are sparse (`set_len`), so the test costs no disk and no time.

use std::fs::File;
use std::path::Path;

use crate::common::{TempDir, assert_one_line_error, exit_code, stderr, warren};

/// A sparse file of `len` bytes at `path`.
fn sparse(path: &Path, len: u64) {
    File::create(path).unwrap().set_len(len).unwrap();
}

#[test]
fn a_maze_too_large_is_refused_before_generating() {
    let dir = TempDir::new("huge-maze");
    let out = dir.join("m.arrow");
    for (sets, named) in [
        (
            ["maze.width=65535", "maze.height=65535"],
            "maze.width = 65535",
        ),
        (["maze.width=4096", "maze.height=4096"], "4,194,304 rooms"),
    ] {
        let mut args = vec!["generate", "maze", "--count", "1", "--quiet"];
        for set in &sets {
            args.extend(["--set", set]);
        }
        args.extend(["--out", out.to_str().unwrap()]);
        let output = warren(&args);
        assert_eq!(exit_code(&output), 2, "{sets:?}: {}", stderr(&output));
        assert_one_line_error(&output, named);
        assert!(stderr(&output).contains(named), "{}", stderr(&output));
        assert!(!out.exists() && !dir.join("m.arrow.tmp").exists());
    }
}

#[test]
fn a_level_file_over_16_mib_is_refused_before_reading() {
    let dir = TempDir::new("huge-level");
    let level = dir.join("huge.xml");
    sparse(&level, (16 << 20) + 1);
    for command in ["eval", "check"] {
        let output = warren(["levelxml".as_ref(), command.as_ref(), level.as_os_str()]);
        assert_ne!(exit_code(&output), 0, "{command}");
        let err = stderr(&output);
        assert!(!err.contains("panicked"), "{err}");
        assert!(
            err.contains(&format!(
                "{}: cannot read: 16777217 bytes is more than the 16777216 bytes",
                level.display()
            )),
            "{command}: {err}"
        );
    }
    let output = warren(["levelxml".as_ref(), "eval".as_ref(), level.as_os_str()]);
    assert_one_line_error(&output, "levelxml eval");
}

#[test]
fn an_edge_list_over_1_gib_is_refused_before_reading() {
    let dir = TempDir::new("huge-edges");
    let graph = dir.join("huge.txt");
    sparse(&graph, (1 << 30) + 1);
    let output = warren(["layout".as_ref(), graph.as_os_str()]);
    assert_eq!(exit_code(&output), 2, "{}", stderr(&output));
    assert_one_line_error(&output, "layout");
    let want = format!(
        "{}: 1073741825 bytes is more than the 1073741824 bytes an edge list may hold",
        graph.display()
    );
    assert!(stderr(&output).contains(&want), "{}", stderr(&output));
}
