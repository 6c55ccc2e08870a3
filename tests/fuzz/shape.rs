//! `--quota`, `--max-share` and `--where`, the selection arguments a dataset builder types:
//! each compiles or is refused with the flag and the argument named; a quota that compiles
//! splits any count exactly and bins any value.

use warren::batch::{Filter, MaxShare, Quota, check_shape};
use warren::core::generator::{Columns, Generator};
use warren::task::TaskConfig;
use warren::{MazeConfig, MazeGenerator};

use super::fuzz;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn maze_columns() -> Columns {
    MazeGenerator::new(MazeConfig::default()).unwrap().columns()
}

fn task_columns() -> Columns {
    warren::task::TaskGenerator::new(TaskConfig::default())
        .unwrap()
        .columns()
}

fn check_quota(bytes: &[u8]) -> Result<(), String> {
    let arg = text(bytes);
    let columns = maze_columns();
    match Quota::compile(&arg, columns.metrics) {
        Ok(q) => {
            for n in [0, 1, 7, 1000, 999_983] {
                let sum: u64 = q.targets(n).iter().sum();
                if sum != n {
                    return Err(format!("--quota {arg}: targets of {n} add up to {sum}"));
                }
            }
            for v in [f64::MIN, -1.0, 0.0, 0.5, 1e300, f64::NAN] {
                let _ = q.bin_of(v);
            }
            check_shape(Some(&q), &[], 1000).map_err(|e| e.to_string())
        }
        Err(e) if e.to_string().starts_with("--quota ") => Ok(()),
        Err(e) => Err(format!("--quota {arg}: error without its flag: {e}")),
    }
}

fn check_max_share(bytes: &[u8]) -> Result<(), String> {
    let arg = text(bytes);
    let columns = task_columns();
    match MaxShare::compile(&arg, columns.metrics, columns.extra) {
        Ok(cap) => {
            let _ = cap.cap(u64::MAX);
            let _ = check_shape(None, &[cap], 10);
            Ok(())
        }
        Err(e) if e.to_string().starts_with("--max-share ") => Ok(()),
        Err(e) => Err(format!("--max-share {arg}: error without its flag: {e}")),
    }
}

fn check_where(bytes: &[u8]) -> Result<(), String> {
    let arg = text(bytes);
    let columns = maze_columns();
    match Filter::compile(&arg, columns.metrics) {
        Ok(f) => {
            let _ = f.passes(&vec![1.5; columns.metrics.len()]);
            Ok(())
        }
        Err(e) if e.to_string().starts_with("--where ") => Ok(()),
        Err(e) => Err(format!("--where {arg}: error without its flag: {e}")),
    }
}

const TOKENS: &[&str] = &[
    "=",
    "..",
    "..=",
    ":",
    ",",
    "-",
    "0",
    "1",
    "0.5",
    "1e309",
    "nan",
    "inf",
    "-inf",
    "4294967296",
    "path_length",
    "solution_length",
    "answer",
    "distance",
    " ",
    "é",
    "and",
    "or",
    "(",
    ")",
    ">=",
];

#[test]
fn fuzz_quotas() {
    let seeds: Vec<Vec<u8>> = [
        "path_length=10..20:0.25,20..40:0.5,40..80:0.25",
        "solution_length=..22:0.2,22..30:0.5,30..:0.3",
        "dead_ends=0..1:1",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    fuzz("--quota", &seeds, TOKENS, check_quota);
}

#[test]
fn fuzz_max_shares() {
    let seeds: Vec<Vec<u8>> = ["answer=0.05", "distance=0.2", "rows=1"]
        .iter()
        .map(|s| s.as_bytes().to_vec())
        .collect();
    fuzz("--max-share", &seeds, TOKENS, check_max_share);
}

#[test]
fn fuzz_where_filters() {
    let seeds: Vec<Vec<u8>> = [
        "solution_length >= 120 and dead_ends < 150",
        "dead_ends / rooms < 0.1 or not loops == 0",
        "-(path_length) * 2 != 3",
    ]
    .iter()
    .map(|s| s.as_bytes().to_vec())
    .collect();
    fuzz("--where", &seeds, TOKENS, check_where);
}
