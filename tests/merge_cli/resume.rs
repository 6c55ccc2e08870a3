//! `warren merge --resume`: a merge killed midway goes on from its `OUT.tmp` into the archive an
//! uninterrupted merge writes, byte for byte; a killed merge of other shard files is refused.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use super::{merge, succeeded};
use crate::common::{TempDir, assert_one_line_error, exit_code, stderr, warren, warren_bin};

/// Shard `index` of 3 of a run of 120,000 small mazes, in record batches of `chunk` levels.
fn small_shard(out: &Path, index: u64, chunk: u64) {
    let output = warren([
        "generate",
        "maze",
        "--quiet",
        "--count",
        "120000",
        "--seed",
        "8",
        "--shard",
        &format!("{index}/3"),
        "--chunk-size",
        &chunk.to_string(),
        "--set",
        "maze.width=8",
        "--set",
        "maze.height=8",
        "--out",
        out.to_str().unwrap(),
    ]);
    succeeded(&output, &format!("shard {index}"));
}

/// `warren merge --resume OUT SHARDS...` as a command.
fn merge_resume(out: &Path, shards: &[PathBuf]) -> Command {
    let mut command = Command::new(warren_bin());
    command.args(["merge", "--resume"]).arg(out).args(shards);
    command
}

/// Runs a resumable merge of `shards` onto `out` until its progress record holds `lines`
/// batches, then kills it (`SIGKILL`).
fn killed_merge(out: &Path, shards: &[PathBuf], lines: usize) {
    let progress = warren::archive::progress_path(&warren::archive::temp_path(out));
    let mut child = merge_resume(out, shards)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    while std::fs::read_to_string(&progress).map_or(0, |t| t.lines().count()) < lines + 1 {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the merge finished before it was killed"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

#[test]
fn a_killed_merge_resumes_into_the_identical_archive() {
    let dir = TempDir::new("merge-resume");
    let shards: Vec<PathBuf> = (0..3).map(|i| dir.join(&format!("s{i}.arrow"))).collect();
    for (i, s) in shards.iter().enumerate() {
        small_shard(s, i as u64, 64);
    }
    let whole = dir.join("whole.arrow");
    succeeded(&merge(&whole, &shards), "the uninterrupted merge");

    let out = dir.join("resumed.arrow");
    for lines in [5, 300, 900] {
        killed_merge(&out, &shards, lines);
    }
    let output = merge_resume(&out, &shards).output().unwrap();
    succeeded(&output, "the resumed merge");
    assert!(
        stderr(&output).contains("warren: resuming"),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&whole).unwrap());
    let again = merge_resume(&out, &shards).output().unwrap();
    assert!(
        stderr(&again).contains("nothing to do"),
        "{}",
        stderr(&again)
    );

    // The same run's shards, made again with other batches: not the killed merge's inputs.
    let other = dir.join("other.arrow");
    killed_merge(&other, &shards, 50);
    small_shard(&shards[1], 1, 256);
    let tmp = warren::archive::temp_path(&other);
    let before = std::fs::read(&tmp).unwrap();
    let output = merge_resume(&other, &shards).output().unwrap();
    assert_eq!(exit_code(&output), 2, "{}", stderr(&output));
    assert_one_line_error(&output, "resume over other shards");
    assert!(
        stderr(&output).contains("other shard files"),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read(&tmp).unwrap(), before);
}
