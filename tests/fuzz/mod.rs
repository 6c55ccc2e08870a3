//! Mutation fuzzing of every input parser: real inputs (the shipped rule files, profiles and
//! tables, the corpora when present, small archives made by the CLI) are bit-flipped, cut,
//! spliced, duplicated and salted with random bytes and UTF-8, and each parser must then return
//! (no panic), within a time limit (no hang), and every rejection must name its file and place.
//!
//! The share of a CI run is bounded: each parser gets `$WARREN_FUZZ_CASES` cases (default
//! [`DEFAULT_CASES`]), from the seed `$WARREN_FUZZ_SEED` (default [`SEED_1`]), each limited to
//! `$WARREN_FUZZ_TIMEOUT_MS` milliseconds (default 2000). `scripts/fuzz.sh` runs the same tests
//! in release mode with a million cases per parser.
//!
//! NOTE: each case runs on a thread of its own so that a hang is reported (with its input) after
//! the time limit instead of stalling the test binary; the hung thread is left behind, which is
//! harmless since the test fails.

mod answers;
mod archive;
mod map_inputs;
mod shape;
mod text;

use std::panic::AssertUnwindSafe;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use proptest::prelude::*;
use proptest::sample::Index;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};

/// Cases per parser when `$WARREN_FUZZ_CASES` is unset: keeps every fuzz test together under a
/// minute in a debug build.
const DEFAULT_CASES: u32 = 2000;

/// Fixed seed of the CI runs.
const SEED_1: u64 = 0x5EED_F022;

/// What a parser makes of one input: `Ok` when it behaved (accepted, or rejected with a message
/// that names the file and place), `Err` with what is wrong otherwise.
pub type Check = fn(&[u8]) -> Result<(), String>;

/// One change to an input.
#[derive(Clone, Debug)]
enum Mutation {
    /// Flips one bit.
    FlipBit(Index, u8),
    /// Removes up to `n` bytes.
    Delete(Index, usize),
    /// Inserts random bytes.
    InsertBytes(Index, Vec<u8>),
    /// Inserts random UTF-8.
    InsertText(Index, String),
    /// Inserts one of the parser's tokens.
    InsertToken(Index, Index),
    /// Overwrites bytes with random ones.
    Overwrite(Index, Vec<u8>),
    /// Cuts the input at a point.
    Truncate(Index),
    /// The input's head followed by another input's tail.
    Splice(Index, Index, Index),
    /// Copies a range to another place.
    Duplicate(Index, usize, Index),
    /// Replaces the whole input by random bytes.
    Random(Vec<u8>),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let idx = any::<Index>;
    prop_oneof![
        4 => (idx(), 0..8u8).prop_map(|(i, b)| Mutation::FlipBit(i, b)),
        2 => (idx(), 1..64usize).prop_map(|(i, n)| Mutation::Delete(i, n)),
        2 => (idx(), prop::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(i, b)| Mutation::InsertBytes(i, b)),
        2 => (idx(), ".{1,8}").prop_map(|(i, s)| Mutation::InsertText(i, s)),
        4 => (idx(), idx()).prop_map(|(i, t)| Mutation::InsertToken(i, t)),
        2 => (idx(), prop::collection::vec(any::<u8>(), 1..8))
            .prop_map(|(i, b)| Mutation::Overwrite(i, b)),
        2 => idx().prop_map(Mutation::Truncate),
        1 => (idx(), idx(), idx()).prop_map(|(a, s, b)| Mutation::Splice(a, s, b)),
        1 => (idx(), 1..256usize, idx()).prop_map(|(i, n, at)| Mutation::Duplicate(i, n, at)),
        1 => prop::collection::vec(any::<u8>(), 0..64).prop_map(Mutation::Random),
    ]
}

/// A place in `0..=len`.
fn at(i: &Index, len: usize) -> usize {
    i.index(len + 1)
}

impl Mutation {
    fn apply(&self, input: &mut Vec<u8>, seeds: &[Vec<u8>], tokens: &[&str]) {
        let len = input.len();
        match self {
            Mutation::FlipBit(i, bit) if len > 0 => input[i.index(len)] ^= 1 << bit,
            Mutation::FlipBit(..) => {}
            Mutation::Delete(i, n) => {
                let from = at(i, len);
                input.drain(from..(from + n).min(len));
            }
            Mutation::InsertBytes(i, b) => {
                input.splice(at(i, len)..at(i, len), b.iter().copied());
            }
            Mutation::InsertText(i, s) => {
                input.splice(at(i, len)..at(i, len), s.bytes());
            }
            Mutation::InsertToken(i, t) if !tokens.is_empty() => {
                let token = tokens[t.index(tokens.len())].bytes();
                input.splice(at(i, len)..at(i, len), token);
            }
            Mutation::InsertToken(..) => {}
            Mutation::Overwrite(i, b) => {
                let from = at(i, len);
                for (k, &byte) in b.iter().enumerate() {
                    if let Some(slot) = input.get_mut(from + k) {
                        *slot = byte;
                    }
                }
            }
            Mutation::Truncate(i) => input.truncate(at(i, len)),
            Mutation::Splice(a, s, b) => {
                let other = &seeds[s.index(seeds.len())];
                input.truncate(at(a, len));
                input.extend_from_slice(&other[at(b, other.len())..]);
            }
            Mutation::Duplicate(i, n, to) => {
                let from = at(i, len);
                let range = input[from..(from + n).min(len)].to_vec();
                input.splice(at(to, len)..at(to, len), range);
            }
            Mutation::Random(bytes) => *input = bytes.clone(),
        }
    }
}

/// A number from the environment, or `default`.
fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().replace('_', "").parse().ok())
        .unwrap_or(default)
}

/// Cases per parser.
fn cases() -> u32 {
    u32::try_from(env_number("WARREN_FUZZ_CASES", u64::from(DEFAULT_CASES))).unwrap_or(u32::MAX)
}

fn runner() -> TestRunner {
    let config = Config {
        cases: cases(),
        failure_persistence: None,
        max_shrink_iters: 2000,
        ..Config::default()
    };
    let seed = env_number("WARREN_FUZZ_SEED", SEED_1);
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// Runs `check` on one input on a thread of its own: its panic or its running past the time
/// limit is a failure that shows the input.
pub fn run_case(check: Check, input: Vec<u8>) -> Result<(), String> {
    run_case_within(check, input, 2000)
}

/// [`run_case`] with a time limit of `default_ms` milliseconds unless
/// `$WARREN_FUZZ_TIMEOUT_MS` says otherwise.
pub fn run_case_within(check: Check, input: Vec<u8>, default_ms: u64) -> Result<(), String> {
    let limit = Duration::from_millis(env_number("WARREN_FUZZ_TIMEOUT_MS", default_ms));
    let (tx, rx) = mpsc::channel();
    let shown = input.clone();
    let worker = std::thread::spawn(move || {
        let started = Instant::now();
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| check(&input)));
        let _ = tx.send((outcome, started.elapsed()));
    });
    let describe = || describe_input(&shown);
    match rx.recv_timeout(limit) {
        Ok((Ok(result), took)) => {
            let _ = worker.join();
            if took > limit {
                return Err(format!("took {took:?} (limit {limit:?}); {}", describe()));
            }
            result.map_err(|e| format!("{e}\n{}", describe()))
        }
        Ok((Err(panic), _)) => {
            let _ = worker.join();
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(format!("panicked: {message}\n{}", describe()))
        }
        Err(_) => Err(format!("no answer within {limit:?} (hang); {}", describe())),
    }
}

/// The input's length and head.
fn describe_input(input: &[u8]) -> String {
    format!("input ({} bytes): {:?}", input.len(), lossy(input))
}

/// Saves the minimal failing input of `parser` where the failure message can name it.
fn save_failure(parser: &str, input: &[u8]) -> String {
    let name: String = parser.chars().filter(char::is_ascii_alphanumeric).collect();
    let path = std::env::temp_dir().join(format!(
        "warren-fuzz-failure-{name}-{}.bin",
        std::process::id()
    ));
    match std::fs::write(&path, input) {
        Ok(()) => format!("minimal failing input saved to {}", path.display()),
        Err(e) => format!("minimal failing input not saved ({}: {e})", path.display()),
    }
}

fn lossy(bytes: &[u8]) -> String {
    const SHOWN: usize = 600;
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(SHOWN)]).into_owned();
    if bytes.len() > SHOWN {
        format!("{text}... ({} more bytes)", bytes.len() - SHOWN)
    } else {
        text
    }
}

/// Fuzzes `check` with mutants of `seeds` (1-4 mutations each, tokens from `tokens`), then
/// prints how many cases ran and how long they took.
pub fn fuzz(parser: &str, seeds: &[Vec<u8>], tokens: &[&str], check: Check) {
    assert!(!seeds.is_empty(), "{parser}: no seed inputs");
    // The seeds themselves must pass: a parser that rejects its own shipped inputs wrongly would
    // make every mutant's verdict meaningless.
    for seed in seeds {
        if let Err(e) = run_case(check, seed.clone()) {
            panic!("{parser}: a seed input fails: {e}");
        }
    }
    let strategy = (0..seeds.len(), prop::collection::vec(mutation(), 1..=4));
    let started = Instant::now();
    let count = std::cell::Cell::new(0u64);
    let mutant = |seed: usize, mutations: &[Mutation]| {
        let mut input = seeds[seed].clone();
        for m in mutations {
            m.apply(&mut input, seeds, tokens);
        }
        input
    };
    let result = runner().run(&strategy, |(seed, mutations)| {
        count.set(count.get() + 1);
        run_case(check, mutant(seed, &mutations)).map_err(TestCaseError::fail)
    });
    let (count, took) = (count.get(), started.elapsed());
    eprintln!(
        "fuzz {parser}: {count} cases in {:.1} s ({:.0} cases/s)",
        took.as_secs_f64(),
        count as f64 / took.as_secs_f64().max(1e-9)
    );
    match result {
        Ok(()) => {}
        Err(TestError::Fail(reason, (seed, mutations))) => {
            let saved = save_failure(parser, &mutant(seed, &mutations));
            panic!(
                "fuzz {parser}: {reason}\nminimal failing input: seed input {seed}, \
                 mutations {mutations:?}\n{saved}"
            );
        }
        Err(e) => panic!("fuzz {parser}: {e}"),
    }
}

/// Whether `message` names `file` and a `line:col` place right after it (`file:12:3`).
pub fn names_line_col(message: &str, file: &str) -> bool {
    message.match_indices(file).any(|(i, _)| {
        let rest = &message[i + file.len()..];
        let mut parts = rest.splitn(4, ':');
        parts.next() == Some("")
            && parts.next().is_some_and(is_number)
            && parts.next().is_some_and(is_number)
    })
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `Ok` when `message`'s first line names `file:line:col`, else the failure to report.
pub fn expect_line_col(what: &str, message: &str, file: &str) -> Result<(), String> {
    let first = message.lines().next().unwrap_or("");
    if names_line_col(first, file) {
        Ok(())
    } else {
        Err(format!(
            "{what}: error does not name `{file}:line:col`: {message}"
        ))
    }
}

/// The files in `dir` whose names end with `suffix`, as bytes, in name order.
pub fn files_in(dir: &std::path::Path, suffix: &str) -> Vec<(String, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(suffix))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p.display().to_string(), bytes)
        })
        .collect()
}

#[test]
fn names_line_col_wants_file_line_and_column() {
    assert!(names_line_col("a.grammar:3:14: error: x", "a.grammar"));
    assert!(!names_line_col("a.grammar:3: error: x", "a.grammar"));
    assert!(!names_line_col("a.grammar: error: 1:2", "a.grammar"));
    assert!(!names_line_col("b.grammar:3:4: x", "a.grammar"));
}

#[test]
fn run_case_reports_panics_and_hangs() {
    fn panics(_: &[u8]) -> Result<(), String> {
        panic!("boom")
    }
    fn hangs(_: &[u8]) -> Result<(), String> {
        let limit = env_number("WARREN_FUZZ_TIMEOUT_MS", 2000);
        std::thread::sleep(Duration::from_millis(limit + 1000));
        Ok(())
    }
    let e = run_case(panics, b"xyz".to_vec()).unwrap_err();
    assert!(e.contains("panicked: boom") && e.contains("xyz"), "{e}");
    let e = run_case(hangs, b"abc".to_vec()).unwrap_err();
    assert!(e.contains("hang") && e.contains("abc"), "{e}");
}
