//! Bad input gives one line `error: ...` on stderr and exit 2, never a panic.

use std::path::{Path, PathBuf};

use crate::common::{
    SMALL, TempDir, assert_one_line_error, exit_code, generate, stderr, stdout, warren,
    warren_fails,
};

/// Runs `warren generate` with `args` (plus a valid `--out` unless given) and expects exit 2
/// with one error line containing every string of `mentions`.
fn generate_fails(dir: &TempDir, args: &[&str], mentions: &[&str]) {
    let out = dir.join("out.arrow");
    let mut all = vec!["generate"];
    all.extend(args);
    if !args.contains(&"--out") {
        all.extend(["--out", out.to_str().unwrap(), "--count", "10", "--quiet"]);
    }
    warren_fails(&all, mentions);
    assert!(!out.exists(), "warren {all:?}: wrote {}", out.display());
}

#[test]
fn unknown_kind() {
    let dir = TempDir::new("kind");
    generate_fails(&dir, &["dungeon9"], &["dungeon9"]);
}

#[test]
fn unknown_set_key() {
    let dir = TempDir::new("setkey");
    generate_fails(&dir, &["maze", "--set", "maze.wdth=3"], &["maze.wdth"]);
}

#[test]
fn set_value_not_a_number() {
    let dir = TempDir::new("setabc");
    generate_fails(
        &dir,
        &["maze", "--set", "maze.width=abc"],
        &["maze.width", "abc"],
    );
}

#[test]
fn set_value_out_of_range() {
    let dir = TempDir::new("setzero");
    generate_fails(
        &dir,
        &["maze", "--set", "maze.width=0"],
        &["maze.width", "0"],
    );
}

#[test]
fn braid_out_of_range() {
    let dir = TempDir::new("braid");
    for bad in ["1.5", "-0.1"] {
        generate_fails(
            &dir,
            &["maze", "--set", &format!("maze.braid={bad}")],
            &["maze.braid", bad],
        );
    }
}

#[test]
fn join_chance_out_of_range() {
    let dir = TempDir::new("joinchance");
    for bad in ["2", "-0.5"] {
        generate_fails(
            &dir,
            &["dmg", "--set", &format!("dmg.join_chance={bad}")],
            &["dmg.join_chance", bad],
        );
    }
}

#[test]
fn world_depth_past_its_bound() {
    let dir = TempDir::new("worlddepth");
    // 16 x 4^3 = 1024 per side fits the bound of 1,048,576 cells; 32 x 4^3 does not.
    generate_fails(
        &dir,
        &[
            "regions",
            "--set",
            "regions.depth=3",
            "--set",
            "regions.world_depth=3",
            "--set",
            "regions.max_width=32",
            "--set",
            "regions.width=32",
        ],
        &["regions.world_depth = 3", "2048 x 1024", "1048576"],
    );
    generate_fails(
        &dir,
        &["regions", "--set", "regions.world_depth=5"],
        &["regions.world_depth = 5", "out of range 0..=4"],
    );
}

#[test]
fn shard_auto_outside_a_job_array() {
    let dir = TempDir::new("shardauto");
    if std::env::var_os("SLURM_ARRAY_TASK_ID").is_some()
        || std::env::var_os("JOB_COMPLETION_INDEX").is_some()
    {
        // Inside a real job array `auto` is valid; the refusal cannot be shown here.
        return;
    }
    generate_fails(
        &dir,
        &["maze", "--shard", "auto"],
        &["--shard auto", "no job array here"],
    );
}

#[test]
fn missing_output_folder() {
    let dir = TempDir::new("nofolder");
    generate_fails(
        &dir,
        &["maze", "--count", "10", "--out", "/nonexistent_dir/x.arrow"],
        &["/nonexistent_dir"],
    );
}

#[test]
fn output_folder_is_a_file() {
    let dir = TempDir::new("filefolder");
    let file = dir.join("plain");
    std::fs::write(&file, b"not a folder").unwrap();
    let out = file.join("x.arrow");
    let out = out.to_str().unwrap();
    generate_fails(
        &dir,
        &["maze", "--count", "10", "--quiet", "--out", out],
        &[file.to_str().unwrap()],
    );
}

#[test]
fn profile_with_unknown_key_names_file_and_line() {
    let dir = TempDir::new("profile");
    let profile = dir.join("typo.toml");
    std::fs::write(
        &profile,
        "kind = \"maze\"\n\n[maze]\nwidth = 8\nhieght = 8\n",
    )
    .unwrap();
    let profile = profile.to_str().unwrap();
    generate_fails(&dir, &[profile], &["typo.toml", "hieght"]);
    // The typo is on line 5: accept `FILE:5:COLUMN` or `line 5`.
    let out = dir.join("x.arrow");
    let output = warren([
        "generate",
        profile,
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    let err = stderr(&output);
    assert!(
        err.contains(&format!("{profile}:5:")) || err.contains("line 5"),
        "error does not give line 5: {err}"
    );
}

/// A small valid archive to damage.
fn archive(dir: &TempDir) -> (PathBuf, Vec<u8>) {
    let path = dir.join("good.arrow");
    generate(&path, &[&SMALL[..], &["--count", "300"]].concat());
    let bytes = std::fs::read(&path).unwrap();
    (path, bytes)
}

/// Runs inspect, verify and render on `file`: each must fail cleanly with a one-line error.
/// `verify_may_report` also accepts verify exiting 1 with a violation report.
fn readers_fail(dir: &TempDir, file: &Path, verify_may_report: bool) {
    let file = file.to_str().unwrap();
    let picture = dir.join("pic.svg");
    let picture = picture.to_str().unwrap();
    let commands: [&[&str]; 3] = [
        &["inspect", file],
        &["verify", file],
        &["render", file, "--index", "0", "--out", picture],
    ];
    for args in commands {
        let output = warren(args);
        let what = format!("warren {args:?}");
        let code = exit_code(&output);
        let err = stderr(&output);
        assert!(!err.contains("panicked"), "{what}: panicked: {err}");
        assert_ne!(code, 101, "{what}: panicked: {err}");
        if verify_may_report && args[0] == "verify" && code == 1 {
            assert!(
                stdout(&output).contains("violations"),
                "{what}: exit 1 without a report: {}",
                stdout(&output)
            );
            continue;
        }
        assert_eq!(code, 2, "{what}: stdout {} stderr {err}", stdout(&output));
        assert_one_line_error(&output, &what);
    }
}

#[test]
fn readers_reject_a_missing_file() {
    let dir = TempDir::new("missing");
    readers_fail(&dir, &dir.join("nothing-here.arrow"), false);
}

#[test]
fn readers_reject_an_empty_file() {
    let dir = TempDir::new("empty");
    let path = dir.join("empty.arrow");
    std::fs::write(&path, b"").unwrap();
    readers_fail(&dir, &path, false);
}

#[test]
fn readers_reject_a_text_file() {
    let dir = TempDir::new("text");
    let path = dir.join("notes.arrow");
    std::fs::write(&path, "these are notes, not an archive\n".repeat(40)).unwrap();
    readers_fail(&dir, &path, false);
}

#[test]
fn readers_reject_an_archive_cut_in_half() {
    let dir = TempDir::new("half");
    let (path, bytes) = archive(&dir);
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    readers_fail(&dir, &path, false);
}

#[test]
fn readers_reject_an_archive_missing_its_last_byte() {
    let dir = TempDir::new("minus1");
    let (path, bytes) = archive(&dir);
    std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
    readers_fail(&dir, &path, false);
}

/// A small archive with 64 bytes zeroed in the middle of the file (inside level data).
fn zeroed_archive(dir: &TempDir) -> PathBuf {
    let (path, mut bytes) = archive(dir);
    let mid = bytes.len() / 2;
    bytes[mid - 32..mid + 32].fill(0);
    std::fs::write(&path, &bytes).unwrap();
    path
}

#[test]
fn verify_rejects_an_archive_with_zeroed_bytes() {
    let dir = TempDir::new("zeroed-verify");
    let path = zeroed_archive(&dir);
    let output = warren([Path::new("verify"), &path]);
    let (code, err) = (exit_code(&output), stderr(&output));
    assert!(!err.contains("panicked"), "verify panicked: {err}");
    match code {
        1 => assert!(
            stdout(&output).contains("violations"),
            "exit 1 without a report: {}",
            stdout(&output)
        ),
        2 => assert_one_line_error(&output, "verify"),
        _ => panic!("verify exited {code}: {}{err}", stdout(&output)),
    }
}

#[test]
fn readers_reject_an_archive_with_zeroed_bytes() {
    let dir = TempDir::new("zeroed");
    let path = zeroed_archive(&dir);
    readers_fail(&dir, &path, true);
}

/// The footer's first record-batch block (`offset: i64, metaDataLength: i32, pad, bodyLength:
/// i64`, stored inline in the flatbuffer): its byte position in `bytes`.
fn first_block_in_footer(bytes: &[u8]) -> usize {
    let n = bytes.len();
    let footer_len = i32::from_le_bytes(bytes[n - 10..n - 6].try_into().unwrap()) as usize;
    let start = n - 10 - footer_len;
    (start..n - 10 - 24)
        .step_by(4)
        .find(|&i| {
            let off = i64::from_le_bytes(bytes[i..i + 8].try_into().unwrap());
            let meta = i32::from_le_bytes(bytes[i + 8..i + 12].try_into().unwrap());
            let body = i64::from_le_bytes(bytes[i + 16..i + 24].try_into().unwrap());
            (8..start as i64).contains(&off)
                && (8..100_000).contains(&meta)
                && body >= 0
                && off + i64::from(meta) + body <= start as i64
                && bytes[off as usize..off as usize + 4] == [0xFF; 4]
        })
        .expect("a block in the footer")
}

/// Regression: a block length near i64::MAX overflowed the bounds check and panicked.
#[test]
fn readers_reject_a_footer_block_of_absurd_length() {
    let dir = TempDir::new("footer");
    let (path, mut bytes) = archive(&dir);
    let at = first_block_in_footer(&bytes);
    bytes[at + 16..at + 24].copy_from_slice(&i64::MAX.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    readers_fail(&dir, &path, false);
}
