//! `SIGKILL` in the middle of `warren generate`: the archive already under the output name
//! stays byte for byte what it was, no partial file takes its name, and the one temporary file
//! a killed run leaves (`FILE.tmp`, with its progress record `FILE.tmp.progress`) is reused by
//! the next run instead of piling up.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use warren::archive::Archive;

use crate::common::{SMALL, TempDir, assert_verifies, file_names, generate, splitmix, warren_bin};

/// Seed of the kill delays (the test is the same every run).
const SEED: u64 = 0x5EED_0019;
/// Runs started and killed.
const KILLS: usize = 20;

/// Starts a run far too long to finish (a million levels, a record batch every 64) onto `out`.
fn start_long_run(out: &Path) -> std::process::Child {
    Command::new(warren_bin())
        .args(["generate", "maze", "--count", "1000000", "--seed", "2"])
        .args(["--chunk-size", "64", "--quiet", "--out"])
        .arg(out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn warren")
}

#[test]
fn killed_runs_leave_the_previous_archive_whole() {
    let dir = TempDir::new("kill");
    let out = dir.join("levels.arrow");
    let mut args = vec!["--count", "200", "--seed", "1", "--chunk-size", "32"];
    args.extend(SMALL);
    generate(&out, &args);
    let before = std::fs::read(&out).unwrap();
    let levels = Archive::open(&out).unwrap().batch_count();

    let mut state = SEED;
    let mut killed_after_temp = 0;
    for round in 0..KILLS {
        let mut child = start_long_run(&out);
        // Between 30 and 630 ms: from before the temporary file exists to batches streaming.
        let delay = 30 + splitmix(&mut state) % 600;
        std::thread::sleep(Duration::from_millis(delay));
        let running = child.try_wait().unwrap().is_none();
        child.kill().expect("SIGKILL warren");
        child.wait().unwrap();
        assert!(
            running,
            "round {round}: the long run ended within {delay} ms"
        );

        let now = std::fs::read(&out).unwrap_or_else(|e| panic!("round {round}: {e}"));
        assert!(now == before, "round {round}: {} changed", out.display());
        let archive = Archive::open(&out).unwrap();
        assert_eq!(archive.batch_count(), levels, "round {round}");
        // At most the temporary file and its progress record (`--resume` reads them).
        let left = file_names(dir.path());
        let allowed = [
            "levels.arrow",
            "levels.arrow.tmp",
            "levels.arrow.tmp.progress",
        ];
        assert!(
            left.first().map(String::as_str) == Some("levels.arrow")
                && left.iter().all(|n| allowed.contains(&n.as_str())),
            "round {round}: the folder holds {left:?}"
        );
        killed_after_temp += usize::from(left.iter().any(|n| n == "levels.arrow.tmp"));
    }
    assert!(
        killed_after_temp > 0,
        "no run was killed while writing its temporary file"
    );
    assert_verifies(&out);

    // The next run to finish takes the name and leaves no temporary file behind.
    let mut args = vec!["--count", "50", "--seed", "3"];
    args.extend(SMALL);
    generate(&out, &args);
    assert_eq!(file_names(dir.path()), ["levels.arrow"]);
    assert_ne!(std::fs::read(&out).unwrap(), before);
    assert_verifies(&out);
}
