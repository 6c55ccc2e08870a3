//! `warren generate --resume`: a run killed (`SIGKILL`) at seeded moments and resumed each time
//! ends in the archive an uninterrupted run writes, byte for byte; another run's file is
//! refused and left as it was; a torn or damaged tail is made again, never kept.
//!
//! The kill tests run at a size `cargo test` can afford. `WARREN_RESUME_SCALE=full` runs the
//! acceptance sizes instead, 2,000,000 mazes and 200,000 grammar levels with `--unique`, with
//! the binary `WARREN_BIN` names (a release build), and prints what every kill cost:
//!
//! ```text
//! cargo build --release
//! WARREN_RESUME_SCALE=full WARREN_BIN=target/release/warren \
//!     cargo test --test tests resume_cli::a_ -- --nocapture --test-threads 1
//! ```

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{
    TempDir, assert_one_line_error, assert_succeeded, exit_code, splitmix, stderr, warren,
    warren_bin,
};

mod damage;

/// Seed of the kill moments (the test is the same every run).
const SEED: u64 = 0x5EED_0035;
/// Kills per run.
const KILLS: usize = 20;

/// Whether the acceptance sizes were asked for.
fn full_scale() -> bool {
    std::env::var("WARREN_RESUME_SCALE").is_ok_and(|v| v == "full")
}

/// The binary under test: `WARREN_BIN` at full scale, else this build's.
fn bin() -> String {
    match std::env::var("WARREN_BIN") {
        Ok(path) if full_scale() => path,
        _ => warren_bin().to_string(),
    }
}

/// Runs `bin()` with `args` to the end.
fn run_bin(args: &[String]) -> std::process::Output {
    Command::new(bin())
        .args(args)
        .output()
        .expect("warren runs")
}

/// `FILE.tmp`.
fn tmp_of(out: &Path) -> PathBuf {
    warren::archive::temp_path(out)
}

/// The arguments of `generate` for `run` onto `out`.
fn generate_args(run: &[&str], out: &Path) -> Vec<String> {
    let mut args = vec!["generate".to_string()];
    args.extend(run.iter().map(|s| s.to_string()));
    args.extend(["--quiet".into(), "--out".into()]);
    args.push(out.to_string_lossy().into_owned());
    args
}

/// Whether two files hold the same bytes (read in pieces: the full-scale files are gigabytes).
fn same_bytes(a: &Path, b: &Path) -> bool {
    let (mut fa, mut fb) = (
        std::fs::File::open(a).unwrap(),
        std::fs::File::open(b).unwrap(),
    );
    if fa.metadata().unwrap().len() != fb.metadata().unwrap().len() {
        return false;
    }
    let (mut ba, mut bb) = (vec![0u8; 8 << 20], vec![0u8; 8 << 20]);
    loop {
        let n = fa.read(&mut ba).unwrap();
        if n == 0 {
            return true;
        }
        fb.read_exact(&mut bb[..n]).unwrap();
        if ba[..n] != bb[..n] {
            return false;
        }
    }
}

/// The size of `path`, 0 when it does not exist.
fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// Starts `warren generate --resume` for `run` onto `out`, its stderr captured.
fn spawn_resume(run: &[&str], out: &Path) -> Child {
    let mut args = generate_args(run, out);
    args.retain(|a| a != "--quiet");
    args.push("--resume".into());
    Command::new(bin())
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn warren")
}

/// The levels a `--resume` run said it kept (0 when it started afresh).
fn levels_kept(err: &str) -> u64 {
    err.lines()
        .find_map(|l| {
            let rest = l.strip_prefix("warren: resuming ")?;
            let (_, after) = rest.split_once(": ")?;
            let (n, _) = after.split_once(" levels kept")?;
            n.replace(',', "").parse().ok()
        })
        .unwrap_or(0)
}

/// What one kill cost.
struct Kill {
    /// Bytes of `FILE.tmp` when the process was killed.
    at: u64,
    /// Levels the next run that got as far as resuming kept of it (`None`: the next run was
    /// killed before it said).
    kept: Option<u64>,
}

/// Runs `run` onto `out` with `--resume`, killing it after each of `delays` from the moment it
/// opened the archive, and then lets it finish; returns the kills and the wall time.
fn run_with_kills(run: &[&str], out: &Path, delays: &[Duration]) -> (Vec<Kill>, Duration) {
    let tmp = tmp_of(out);
    let started = Instant::now();
    let mut kills: Vec<Kill> = Vec::new();
    for &delay in delays {
        let mut child = spawn_resume(run, out);
        let mut pipe = child.stderr.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut text = String::new();
            let _ = pipe.read_to_string(&mut text);
            text
        });
        // The moment counts from when the process has opened the archive (its progress
        // record is created or cut to what it keeps), not from its start-up.
        let progress = warren::archive::progress_path(&tmp);
        let stamp = |p: &Path| {
            std::fs::metadata(p)
                .ok()
                .map(|m| (m.modified().ok(), m.len()))
        };
        let before = stamp(&progress);
        let mut finished = false;
        while stamp(&progress) == before {
            if child.try_wait().unwrap().is_some() {
                finished = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let deadline = Instant::now() + delay;
        while !finished && Instant::now() < deadline {
            if child.try_wait().unwrap().is_some() {
                finished = true;
                break;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        let at = size(&tmp);
        if !finished {
            child.kill().expect("SIGKILL warren");
        }
        let status = child.wait().unwrap();
        let err = reader.join().unwrap();
        if let Some(kept) = resumed_levels(&err) {
            for k in kills.iter_mut().rev().take_while(|k| k.kept.is_none()) {
                k.kept = Some(kept);
            }
        }
        if finished {
            assert!(status.success(), "{err}");
            return (kills, started.elapsed());
        }
        kills.push(Kill { at, kept: None });
    }
    let last = spawn_resume(run, out).wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&last.stderr).into_owned();
    assert_eq!(exit_code(&last), 0, "the last resume: {err}");
    if let Some(kept) = resumed_levels(&err) {
        for k in kills.iter_mut().rev().take_while(|k| k.kept.is_none()) {
            k.kept = Some(kept);
        }
    }
    (kills, started.elapsed())
}

/// The levels a `--resume` run said it kept (0 when it found nothing to keep), or `None` when
/// it was killed before it said.
fn resumed_levels(err: &str) -> Option<u64> {
    if err.lines().any(|l| {
        l.starts_with("warren: ") && (l.contains("holds no level") || l.contains("progress record"))
    }) {
        return Some(0);
    }
    err.contains("warren: resuming ").then(|| levels_kept(err))
}

/// Kills `run` at [`KILLS`] seeded moments, resumes after each, and checks the result equals an
/// uninterrupted run's bytes. Each process is killed after a seeded random share (0 to 1.5
/// times `1 / KILLS`) of the uninterrupted run's time, so the kills fall all through the run.
fn killed_and_resumed_equals_uninterrupted(tag: &str, run: &[&str], levels: u64) {
    let dir = TempDir::new(tag);
    let reference = dir.join("reference.arrow");
    let started = Instant::now();
    let output = run_bin(&generate_args(run, &reference));
    assert_succeeded(&output, "the uninterrupted run");
    let uninterrupted = started.elapsed();
    let total = size(&reference);
    let mut state = SEED;
    let delays: Vec<Duration> = (0..KILLS)
        .map(|_| {
            let share = (splitmix(&mut state) >> 11) as f64 / (1u64 << 53) as f64;
            uninterrupted.mul_f64(1.5 * share / KILLS as f64)
        })
        .collect();

    let out = dir.join("resumed.arrow");
    let (kills, resumed) = run_with_kills(run, &out, &delays);
    assert!(
        same_bytes(&reference, &out),
        "{tag}: the resumed archive differs from the uninterrupted run's"
    );
    assert!(!tmp_of(&out).exists(), "{tag}: FILE.tmp left behind");
    let progress = warren::archive::progress_path(&tmp_of(&out));
    assert!(!progress.exists(), "{tag}: the progress record left behind");
    assert!(
        kills.len() >= KILLS / 2,
        "{tag}: only {} of {KILLS} kills landed before the run finished",
        kills.len()
    );

    // What each kill cost: the levels written before it and made again after it.
    let per_level = total as f64 / levels as f64;
    let extra = (resumed.as_secs_f64() - uninterrupted.as_secs_f64()) / kills.len().max(1) as f64;
    println!(
        "{tag}: {} kills; uninterrupted {:.1} s, killed and resumed {:.1} s: {extra:.2} s more per \
         kill (start-up, the resume's checks and the work redone), {:.0} levels' worth",
        kills.len(),
        uninterrupted.as_secs_f64(),
        resumed.as_secs_f64(),
        extra * levels as f64 / uninterrupted.as_secs_f64()
    );
    let mut redone = Vec::new();
    for (i, k) in kills.iter().enumerate() {
        let written = (k.at as f64 / per_level) as u64;
        let kept = k.kept.unwrap_or(0);
        let lost = written.saturating_sub(kept);
        redone.push(lost);
        println!(
            "{tag}: kill {i:2}: FILE.tmp {:>8.1} MB (~{written} levels written); {kept} levels \
             kept; ~{lost} written levels made again",
            k.at as f64 / 1e6,
        );
    }
    assert!(
        kills.iter().any(|k| k.kept.is_some_and(|n| n > 0)),
        "{tag}: no resume kept anything"
    );
    redone.sort_unstable();
    println!(
        "{tag}: written levels made again per kill: median {}, max {} (plus the chunks in flight)",
        redone[redone.len() / 2],
        redone.last().copied().unwrap_or(0)
    );
}

#[test]
fn a_maze_run_killed_at_seeded_moments_resumes_into_the_identical_archive() {
    if full_scale() {
        killed_and_resumed_equals_uninterrupted(
            "resume-maze",
            &["maze", "--count", "2000000", "--seed", "35"],
            2_000_000,
        );
    } else {
        let run = [
            "maze",
            "--count",
            "150000",
            "--seed",
            "35",
            "--chunk-size",
            "256",
            "--set",
            "maze.width=8",
            "--set",
            "maze.height=8",
        ];
        killed_and_resumed_equals_uninterrupted("resume-maze", &run, 150_000);
    }
}

#[test]
fn a_unique_filtered_run_killed_at_seeded_moments_resumes_into_the_identical_archive() {
    if full_scale() {
        killed_and_resumed_equals_uninterrupted(
            "resume-grammar",
            &["grammar", "--count", "200000", "--seed", "35", "--unique"],
            200_000,
        );
    } else {
        let run = [
            "maze",
            "--count",
            "250000",
            "--seed",
            "36",
            "--chunk-size",
            "256",
            "--set",
            "maze.width=5",
            "--set",
            "maze.height=5",
            "--unique",
            "--where",
            "solution_length >= 14",
        ];
        killed_and_resumed_equals_uninterrupted("resume-unique", &run, 250_000);
    }
}

#[test]
fn a_quota_run_killed_at_seeded_moments_resumes_into_the_identical_archive() {
    // The bins and caps a resumed run counts again from the levels its `FILE.tmp` kept.
    let run = [
        "maze",
        "--count",
        "120000",
        "--seed",
        "37",
        "--chunk-size",
        "256",
        "--set",
        "maze.width=8",
        "--set",
        "maze.height=8",
        "--quota",
        "path_length=..44:0.2,44..56:0.5,56..:0.3",
        "--max-share",
        "path_length=0.11",
    ];
    killed_and_resumed_equals_uninterrupted("resume-quota", &run, 120_000);
}

/// A killed run of `run` onto `out`: killed once `FILE.tmp` holds `bytes`.
fn killed_run(run: &[&str], out: &Path, bytes: u64) {
    let mut child = spawn_resume(run, out);
    let tmp = tmp_of(out);
    while size(&tmp) < bytes {
        assert!(
            child.try_wait().unwrap().is_none(),
            "the run finished before FILE.tmp held {bytes} bytes"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    child.kill().unwrap();
    child.wait().unwrap();
}

/// Small mazes, many chunks: the run the refusal and damage tests kill.
const SMALL_RUN: [&str; 11] = [
    "maze",
    "--count",
    "60000",
    "--seed",
    "5",
    "--chunk-size",
    "128",
    "--set",
    "maze.width=8",
    "--set",
    "maze.height=8",
];

/// `run` with the value after `flag` replaced by `value` (or `flag value` added).
fn with(run: &[&str], flag: &str, value: &str) -> Vec<String> {
    let mut out: Vec<String> = run.iter().map(|s| s.to_string()).collect();
    match out.iter().position(|a| a == flag) {
        Some(i) => out[i + 1] = value.to_string(),
        None => out.extend([flag.to_string(), value.to_string()]),
    }
    out
}

/// Runs `generate --resume` for `run` onto `out`, expecting a one-line refusal that mentions
/// every one of `mentions`, with `FILE.tmp` and its record unchanged.
fn refused(run: &[String], out: &Path, mentions: &[&str]) {
    let tmp = tmp_of(out);
    let progress = warren::archive::progress_path(&tmp);
    let before = (std::fs::read(&tmp).unwrap(), std::fs::read(&progress).ok());
    let mut args = generate_args(&run.iter().map(String::as_str).collect::<Vec<_>>(), out);
    args.push("--resume".into());
    let output = warren(&args);
    let what = format!("resume with {run:?}");
    assert_eq!(exit_code(&output), 2, "{what}: {}", stderr(&output));
    assert_one_line_error(&output, &what);
    let err = stderr(&output);
    for m in mentions {
        assert!(err.contains(m), "{what}: no `{m}` in: {err}");
    }
    let after = (std::fs::read(&tmp).unwrap(), std::fs::read(&progress).ok());
    assert!(before == after, "{what}: FILE.tmp or its record changed");
    assert!(!out.exists(), "{what}: wrote {}", out.display());
}

#[test]
fn resuming_another_run_is_refused_in_one_line_and_changes_nothing() {
    let dir = TempDir::new("resume-refuse");
    let out = dir.join("m.arrow");
    killed_run(&SMALL_RUN, &out, 6 << 20);
    refused(&with(&SMALL_RUN, "--seed", "6"), &out, &["seed", "5", "6"]);
    refused(
        &with(&SMALL_RUN, "--count", "50000"),
        &out,
        &["count is 60000, this run's 50000"],
    );
    refused(
        &with(&SMALL_RUN, "--set", "maze.width=9"),
        &out,
        &["profile"],
    );
    refused(
        &with(&SMALL_RUN, "--chunk-size", "256"),
        &out,
        &["--chunk-size 128", "256"],
    );
    refused(
        &with(&SMALL_RUN, "--compression", "zstd"),
        &out,
        &["--compression none", "zstd"],
    );
    refused(
        &with(&SMALL_RUN, "--shard", "1/2"),
        &out,
        &["shard is 0/1, this run's 1/2"],
    );
    refused(
        &with(&SMALL_RUN, "--max-tries", "70000")
            .into_iter()
            .chain(["--unique".into()])
            .collect::<Vec<_>>(),
        &out,
        &["selection"],
    );

    // Another warren version: the same file with its version string changed in place.
    let tmp = tmp_of(&out);
    let mut bytes = std::fs::read(&tmp).unwrap();
    let version = env!("CARGO_PKG_VERSION").as_bytes();
    let at = bytes
        .windows(version.len() + 2)
        .position(|w| {
            w[1..=version.len()] == *version && w[0] == b'"' && w[version.len() + 1] == b'"'
        })
        .or_else(|| bytes.windows(version.len()).position(|w| w == version))
        .expect("the version is in the header");
    let at = if bytes[at] == b'"' { at + 1 } else { at };
    bytes[at] = if bytes[at] == b'9' { b'8' } else { b'9' };
    std::fs::write(&tmp, &bytes).unwrap();
    refused(&SMALL_RUN.map(String::from), &out, &["version"]);

    // A killed run whose header is longer than this run's (it has a selection).
    let out = dir.join("u.arrow");
    let mut unique: Vec<&str> = SMALL_RUN.to_vec();
    unique.push("--unique");
    killed_run(&unique, &out, 6 << 20);
    refused(&SMALL_RUN.map(String::from), &out, &["selection", "none"]);
}

#[test]
fn a_finished_archive_is_left_alone_and_nothing_to_resume_starts_afresh() {
    let dir = TempDir::new("resume-finished");
    let out = dir.join("m.arrow");
    // Nothing there yet: `--resume` is the plain run (a Slurm task's first start).
    let mut args = generate_args(&SMALL_RUN[..], &out);
    args.push("--resume".into());
    assert_succeeded(&warren(&args), "resume with nothing to resume");
    let plain = dir.join("plain.arrow");
    assert_succeeded(&warren(generate_args(&SMALL_RUN, &plain)), "plain run");
    assert!(same_bytes(&out, &plain));

    // The finished archive of this run: nothing to do, nothing touched.
    let before = std::fs::metadata(&out).unwrap().modified().unwrap();
    args.retain(|a| a != "--quiet");
    let again = warren(&args);
    assert_succeeded(&again, "resume of a finished run");
    assert!(
        stderr(&again).contains("nothing to do"),
        "{}",
        stderr(&again)
    );
    assert_eq!(std::fs::metadata(&out).unwrap().modified().unwrap(), before);

    // Another run's finished archive under the name: refused, kept.
    let other = with(&SMALL_RUN, "--seed", "9");
    let mut args = generate_args(&other.iter().map(String::as_str).collect::<Vec<_>>(), &out);
    args.push("--resume".into());
    let output = warren(&args);
    assert_eq!(exit_code(&output), 2, "{}", stderr(&output));
    assert_one_line_error(&output, "resume over another run's archive");
    assert!(stderr(&output).contains("seed"), "{}", stderr(&output));
    assert!(same_bytes(&out, &plain));
}
