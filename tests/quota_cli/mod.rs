//! `--quota` and `--max-share`: each bin holds exactly its share of `--count` (the shares
//! rounded to whole levels), the same levels for any thread count and chunking; no value of a
//! capped column passes its cap; a quota that cannot be filled, an unknown column, shares that
//! do not add up and a sharded run are each refused in one line; `verify` accepts the archives,
//! and task runs take the same flags (a cap on the `answer` text).

use std::collections::HashMap;
use std::path::Path;

use arrow_array::cast::AsArray;

use crate::common::{
    TempDir, assert_fails_naming, assert_same_rows, assert_verifies, batches, column_u32, generate,
    rows_of, stderr, warren,
};

const SMALL: [&str; 4] = ["--set", "maze.width=8", "--set", "maze.height=8"];
/// Bins over 8 x 8 mazes' path lengths (32..90 seen, about 10%, 55% and 35% of the levels),
/// with other shares.
const QUOTA: &str = "path_length=..44:0.2,44..56:0.5,56..:0.3";

fn small(out: &Path, extra: &[&str]) {
    let mut args = SMALL.to_vec();
    args.extend_from_slice(extra);
    generate(out, &args);
}

/// Levels of `values` per bin of [`QUOTA`].
fn per_bin(values: &[u32]) -> [usize; 3] {
    let mut bins = [0; 3];
    for &v in values {
        bins[match v {
            ..44 => 0,
            44..56 => 1,
            _ => 2,
        }] += 1;
    }
    bins
}

#[test]
fn a_quota_fills_each_bin_exactly_whatever_the_threads_and_chunks() {
    let dir = TempDir::new("quota-exact");
    let one = dir.join("one.arrow");
    small(
        &one,
        &[
            "--count",
            "3001",
            "--quota",
            QUOTA,
            "--threads",
            "1",
            "--chunk-size",
            "7",
        ],
    );
    let two = dir.join("two.arrow");
    small(
        &two,
        &["--count", "3001", "--quota", QUOTA, "--threads", "2"],
    );
    let lengths = column_u32(&one, "path_length");
    assert_eq!(lengths.len(), 3001);
    // 600.2, 1500.5 and 900.3: the one level left over goes to the largest fraction.
    assert_eq!(per_bin(&lengths), [600, 1501, 900]);
    assert_same_rows(&rows_of(&[&one]), &rows_of(&[&two]));
    assert_verifies(&one);
    // The unconstrained run keeps other shares: the quota did the shaping.
    let free = dir.join("free.arrow");
    small(&free, &["--count", "3001"]);
    let natural = per_bin(&column_u32(&free, "path_length"));
    assert!(natural[0] < 500, "{natural:?}");
    let inspect = crate::common::warren_ok([Path::new("inspect"), &one]);
    assert!(inspect.contains(&format!("quota {QUOTA}")), "{inspect}");
}

#[test]
fn a_cap_keeps_every_value_at_or_below_its_share() {
    let dir = TempDir::new("quota-cap");
    let out = dir.join("capped.arrow");
    small(
        &out,
        &["--count", "2000", "--max-share", "path_length=0.08"],
    );
    let mut counts: HashMap<u32, usize> = HashMap::new();
    for v in column_u32(&out, "path_length") {
        *counts.entry(v).or_default() += 1;
    }
    assert!(counts.values().all(|&n| n <= 160), "{counts:?}");
    // Without the cap the commonest length takes more than 8%.
    let free = dir.join("free.arrow");
    small(&free, &["--count", "2000"]);
    let mut free_counts: HashMap<u32, usize> = HashMap::new();
    for v in column_u32(&free, "path_length") {
        *free_counts.entry(v).or_default() += 1;
    }
    assert!(free_counts.values().any(|&n| n > 160), "{free_counts:?}");
    assert_verifies(&out);
}

#[test]
fn quotas_that_cannot_be_met_are_refused_in_one_line_and_leave_no_file() {
    let dir = TempDir::new("quota-refused");
    let out = dir.join("never.arrow");
    let run = |extra: &[&str]| {
        let mut args = vec!["generate", "maze", "--quiet", "--count", "3000"];
        args.extend_from_slice(&SMALL);
        args.extend_from_slice(extra);
        args.push("--out");
        args.push(out.to_str().unwrap());
        warren(&args)
    };
    // No 8 x 8 maze has a path shorter than 14 steps: the rate seen proves it, long before
    // the 30,000 seeds of --max-tries run out.
    let output = run(&["--quota", "path_length=..20:0.5,20..:0.5"]);
    assert_fails_naming(
        &output,
        "unfillable quota",
        &["bin ..20 cannot be filled", "0.0000% of the seeds tried"],
    );
    assert!(!out.exists());
    for (args, mentions) in [
        (
            vec!["--quota", "nope=1..2:1"],
            vec!["no metric column `nope`", "path_length"],
        ),
        (
            vec!["--quota", "path_length=1..20:0.5,20..:0.4"],
            vec!["add up to 0.9"],
        ),
        (
            vec!["--quota", "path_length=1..20:0.5,10..:0.5"],
            vec!["overlap"],
        ),
        (
            vec!["--max-share", "path_length=0.0001"],
            vec!["allows no level"],
        ),
        (
            vec![
                "--quota",
                "path_length=44..46:0.5,46..:0.5",
                "--max-share",
                "path_length=0.1",
            ],
            vec!["bin 44..46 needs 1500 levels", "at most 600"],
        ),
        (
            vec!["--quota", QUOTA, "--shard", "0/2"],
            vec!["need a whole run"],
        ),
    ] {
        let output = run(&args);
        assert_fails_naming(&output, &format!("{args:?}"), &mentions);
        assert!(!out.exists());
    }
}

#[test]
fn task_items_take_quotas_and_a_cap_on_the_answer() {
    let dir = TempDir::new("quota-tasks");
    let out = dir.join("items.arrow");
    let output = warren([
        "tasks",
        "maze-steps",
        "--count",
        "1000",
        "--format",
        "arrow",
        "--quiet",
        "--quota",
        "distance=..8:0.5,8..:0.5",
        "--max-share",
        "answer=0.2",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let distance = column_u32(&out, "distance");
    assert_eq!(distance.iter().filter(|&&d| d < 8).count(), 500);
    let mut answers: HashMap<String, usize> = HashMap::new();
    for b in batches(&out) {
        let column = b.column_by_name("answer").unwrap().as_string::<i32>();
        for a in column.iter() {
            *answers.entry(a.unwrap().to_string()).or_default() += 1;
        }
    }
    assert!(answers.values().all(|&n| n <= 200), "{answers:?}");
    assert_verifies(&out);
}
