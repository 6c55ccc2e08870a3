//! Shared helpers: run the `warren` binary, make throwaway folders, read archive columns.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU64, Ordering};

use arrow_array::cast::AsArray;
use arrow_array::types::{UInt16Type, UInt32Type, UInt64Type};
use arrow_array::{Array, ArrayRef, ArrowPrimitiveType};
use warren::archive::Archive;

#[path = "../../src/levelxml/corpus_tests.rs"]
mod corpus;
pub use corpus::corpus;

/// Flags that make levels small where their size does not matter.
pub const SMALL: [&str; 4] = ["--set", "maze.width=8", "--set", "maze.height=8"];

/// The path of the `warren` executable under test.
pub fn warren_bin() -> &'static str {
    env!("CARGO_BIN_EXE_warren")
}

/// Runs `warren` with `args` and returns its output.
pub fn warren<I, S>(args: I) -> Output
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    Command::new(warren_bin())
        .args(args)
        .output()
        .expect("warren binary runs")
}

/// splitmix64: the next value of `state` (seeded random moments and sizes in tests).
pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Stdout as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Stderr as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A folder under the system temp dir, unique per process and call, removed on drop.
pub struct TempDir {
    path: PathBuf,
}

impl TempDir {
    /// Creates a fresh folder; `tag` makes it recognisable.
    pub fn new(tag: &str) -> Self {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let path = std::env::temp_dir().join(format!(
            "warren-it-{tag}-{}-{n}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&path).expect("create temp dir");
        Self { path }
    }

    /// `name` inside the folder.
    pub fn join(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// Runs `warren` with `args`, fails the test (showing both output streams) unless it exits 0,
/// and returns its stdout.
pub fn warren_ok<I, S>(args: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let args: Vec<OsString> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
    let output = warren(&args);
    assert_succeeded(&output, &format!("warren {args:?}"));
    stdout(&output)
}

/// Runs `warren` with `args` and expects exit 2 with one line `error: ...` on stderr naming
/// every string of `mentions` ([`assert_fails_naming`]); returns stderr.
pub fn warren_fails<I, S>(args: I, mentions: &[&str]) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let args: Vec<OsString> = args.into_iter().map(|a| a.as_ref().to_owned()).collect();
    assert_fails_naming(&warren(&args), &format!("warren {args:?}"), mentions)
}

/// Asserts the command `what` exited 2 with one line `error: ...` on stderr naming every
/// string of `mentions`, and did not panic; returns stderr.
pub fn assert_fails_naming(output: &Output, what: &str, mentions: &[&str]) -> String {
    let err = stderr(output);
    assert_eq!(exit_code(output), 2, "{what}: {err}");
    assert_one_line_error(output, what);
    for m in mentions {
        assert!(
            err.contains(m),
            "{what}: error does not mention `{m}`: {err}"
        );
    }
    err
}

/// Runs `warren generate KIND --quiet --out OUT` plus `args` (`KIND` a built-in kind or a
/// profile's path), asserting success and that `out` was written.
pub fn generate_kind(kind: impl AsRef<OsStr>, out: &Path, args: &[&str]) {
    let mut all: Vec<&OsStr> = vec![
        OsStr::new("generate"),
        kind.as_ref(),
        OsStr::new("--quiet"),
        OsStr::new("--out"),
        out.as_os_str(),
    ];
    all.extend(args.iter().map(OsStr::new));
    let output = warren(&all);
    assert!(
        output.status.success(),
        "warren {all:?} failed ({:?}): {}",
        output.status,
        stderr(&output)
    );
    assert!(out.exists(), "{} was not written", out.display());
}

/// Runs `warren generate maze --out out --quiet` plus `args`, asserting success.
pub fn generate(out: &Path, args: &[&str]) {
    generate_kind("maze", out, args);
    assert!(out.is_file(), "{} is not a file", out.display());
}

/// Runs `warren verify path`, fails the test unless it exits 0 and reports ` 0 violations`,
/// and returns the report.
pub fn assert_verifies(path: &Path) -> String {
    let report = warren_ok([Path::new("verify"), path]);
    assert!(report.contains(" 0 violations"), "verify said: {report}");
    report
}

/// The names of the entries of folder `dir`, sorted.
pub fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("list {}: {e}", dir.display()))
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Asserts a failed command printed exactly one line `error: ...` on stderr and did not panic.
pub fn assert_one_line_error(out: &Output, what: &str) {
    let err = stderr(out);
    assert!(!err.contains("panicked"), "{what}: panicked: {err}");
    let lines: Vec<&str> = err.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(
        lines.len(),
        1,
        "{what}: expected one stderr line, got {err:?}"
    );
    assert!(
        lines[0].starts_with("error:"),
        "{what}: stderr does not start with `error:`: {err:?}"
    );
}

/// Fails the test, showing `what` and both output streams, unless the process exited with 0.
pub fn assert_succeeded(out: &Output, what: &str) {
    assert_eq!(exit_code(out), 0, "{what}: {}{}", stdout(out), stderr(out));
}

/// The exit code; fails the test when the process died from a signal.
pub fn exit_code(out: &Output) -> i32 {
    out.status
        .code()
        .unwrap_or_else(|| panic!("killed by a signal: {:?}", out.status))
}

/// Every batch of the archive at `path`, opened with the library reader.
pub fn batches(path: &Path) -> Vec<arrow_array::RecordBatch> {
    let archive = Archive::open(path).unwrap_or_else(|e| panic!("open {}: {e}", path.display()));
    (0..archive.batch_count())
        .map(|i| {
            archive
                .batch(i)
                .unwrap_or_else(|e| panic!("batch {i}: {e}"))
        })
        .collect()
}

fn column<'a>(batch: &'a arrow_array::RecordBatch, name: &str) -> &'a ArrayRef {
    batch
        .column_by_name(name)
        .unwrap_or_else(|| panic!("no column `{name}`"))
}

/// A `u64` column across all batches.
pub fn column_u64(path: &Path, name: &str) -> Vec<u64> {
    batches(path)
        .iter()
        .flat_map(|b| {
            column(b, name)
                .as_primitive::<UInt64Type>()
                .values()
                .to_vec()
        })
        .collect()
}

/// A list column across all batches, one `Vec` per level.
pub fn list_column<T: ArrowPrimitiveType>(path: &Path, name: &str) -> Vec<Vec<T::Native>> {
    batches(path)
        .iter()
        .flat_map(|b| {
            let list = b
                .column_by_name(name)
                .unwrap_or_else(|| panic!("no column `{name}`"))
                .as_list::<i32>()
                .clone();
            (0..list.len())
                .map(|r| list.value(r).as_primitive::<T>().values().to_vec())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A `utf8` column across all batches.
pub fn column_utf8(path: &Path, name: &str) -> Vec<String> {
    batches(path)
        .iter()
        .flat_map(|b| {
            let strings = column(b, name).as_string::<i32>();
            (0..strings.len())
                .map(|i| strings.value(i).to_string())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A `u16` column across all batches.
pub fn column_u16(path: &Path, name: &str) -> Vec<u16> {
    batches(path)
        .iter()
        .flat_map(|b| {
            column(b, name)
                .as_primitive::<UInt16Type>()
                .values()
                .to_vec()
        })
        .collect()
}

/// A `u32` column across all batches.
pub fn column_u32(path: &Path, name: &str) -> Vec<u32> {
    batches(path)
        .iter()
        .flat_map(|b| {
            column(b, name)
                .as_primitive::<UInt32Type>()
                .values()
                .to_vec()
        })
        .collect()
}

/// A binary column across all batches (or a fixed-size list of bytes, as the `grid` of a
/// kind with one grid size).
pub fn column_binary(path: &Path, name: &str) -> Vec<Vec<u8>> {
    batches(path)
        .iter()
        .flat_map(|b| {
            let col = column(b, name);
            if let Some(lists) = col.as_fixed_size_list_opt() {
                return (0..lists.len())
                    .map(|i| {
                        lists
                            .value(i)
                            .as_primitive::<arrow_array::types::UInt8Type>()
                            .values()
                            .to_vec()
                    })
                    .collect::<Vec<_>>();
            }
            col.as_binary::<i32>()
                .iter()
                .map(|v| v.expect("no nulls").to_vec())
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Every column of the archives at `paths`, concatenated in order: column names, then per
/// column one single-row array per level (any Arrow type; arrays compare by value).
pub fn rows_of(paths: &[&Path]) -> (Vec<String>, Vec<Vec<ArrayRef>>) {
    let mut names: Option<Vec<String>> = None;
    let mut columns: Vec<Vec<ArrayRef>> = Vec::new();
    for path in paths {
        for batch in batches(path) {
            let these: Vec<String> = batch
                .schema()
                .fields()
                .iter()
                .map(|f| f.name().clone())
                .collect();
            match &names {
                Some(n) => assert_eq!(n, &these, "{}: columns differ", path.display()),
                None => {
                    columns = vec![Vec::new(); these.len()];
                    names = Some(these);
                }
            }
            for (slot, array) in columns.iter_mut().zip(batch.columns()) {
                slot.extend((0..array.len()).map(|r| array.slice(r, 1)));
            }
        }
    }
    (names.unwrap_or_default(), columns)
}

/// Asserts two `rows_of` results hold the same levels, value by value.
pub fn assert_same_rows(
    (names_a, cols_a): &(Vec<String>, Vec<Vec<ArrayRef>>),
    (names_b, cols_b): &(Vec<String>, Vec<Vec<ArrayRef>>),
) {
    assert_eq!(names_a, names_b, "column names differ");
    for ((name, a), b) in names_a.iter().zip(cols_a).zip(cols_b) {
        assert_eq!(a.len(), b.len(), "column `{name}`: row counts differ");
        for (row, (x, y)) in a.iter().zip(b).enumerate() {
            assert!(
                x.as_ref() == y.as_ref(),
                "column `{name}` differs at row {row}: {x:?} vs {y:?}"
            );
        }
    }
}

/// The mean of a `u32` column.
pub fn mean(values: &[u32]) -> f64 {
    values.iter().map(|&v| f64::from(v)).sum::<f64>() / values.len().max(1) as f64
}
