//! `merge` and `split` against whole runs: shards merge into the levels of the unsharded run,
//! refusals write nothing, a selection's merge makes the run up to its count, and splits
//! partition the levels by hash.

use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;

use super::tests::{temp_dir, write_run};
use super::*;
use crate::archive::{Archive, RunFooter, RunMeta};
use crate::batch::Shard;

/// Every `layout_hash` of the archive at `path`, in order.
fn hashes(path: &Path) -> Vec<u64> {
    column(path, "layout_hash")
}

/// The `u64` column `name` of the archive at `path`, in order.
fn column(path: &Path, name: &str) -> Vec<u64> {
    let archive = Archive::open(path).unwrap();
    (0..archive.batch_count())
        .flat_map(|b| {
            let batch = archive.batch(b).unwrap();
            let column = batch.column_by_name(name).unwrap();
            column.as_primitive::<UInt64Type>().values().to_vec()
        })
        .collect()
}

/// Shards `0..n` of a run of `count` levels from `seed`, in `dir`.
fn shards(dir: &Path, count: u64, seed: u64, n: u64, unique: bool) -> Vec<PathBuf> {
    (0..n)
        .map(|index| {
            let path = dir.join(format!("s{index}.arrow"));
            write_run(&path, count, seed, Shard { index, count: n }, unique);
            path
        })
        .collect()
}

#[test]
fn shards_merge_into_the_levels_of_the_whole_run() {
    let dir = temp_dir("merge-plain");
    let whole = dir.join("whole.arrow");
    write_run(&whole, 300, 5, Shard::default(), false);
    let mut parts = shards(&dir, 300, 5, 3, false);
    parts.reverse();
    let out = dir.join("merged.arrow");
    let summary = merge(&parts, &out, MergeOptions::default()).unwrap();
    assert_eq!(
        (
            summary.shards,
            summary.total,
            summary.levels,
            summary.failed()
        ),
        (3, 300, 300, 0)
    );
    assert_eq!((summary.from_shards, summary.scanned.clone()), (300, None));
    assert_eq!(summary.bytes, std::fs::metadata(&out).unwrap().len());
    assert_eq!(hashes(&out), hashes(&whole));
    let archive = Archive::open(&out).unwrap();
    let run = RunMeta::from_archive(&archive).unwrap();
    assert_eq!(run.shard.unwrap().shard, Shard::default());
    assert_eq!(RunFooter::from_archive(&archive).unwrap().levels, 300);
    // Resuming a finished merge does nothing.
    let options = MergeOptions {
        resume: true,
        ..MergeOptions::default()
    };
    let again = merge(&parts, &out, options).unwrap();
    assert!(again.finished_already && again.levels == 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn refused_merges_name_the_file_and_write_nothing() {
    let dir = temp_dir("merge-refused");
    let parts = shards(&dir, 200, 1, 3, false);
    let other = dir.join("other.arrow");
    write_run(&other, 200, 2, Shard { index: 1, count: 3 }, false);
    let out = dir.join("merged.arrow");
    let refusal = |given: Vec<PathBuf>| {
        let e = merge(&given, &out, MergeOptions::default()).unwrap_err();
        assert!(!out.exists() && !crate::archive::temp_path(&out).exists());
        e
    };
    let e = refusal(vec![parts[0].clone(), parts[2].clone()]);
    assert!(matches!(e, MergeError::MissingShard { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "shard 1/3 of the run is missing (2 of 3 shards given)"
    );
    let e = refusal(vec![parts[0].clone(), parts[0].clone(), parts[1].clone()]);
    assert!(e.to_string().ends_with("are both shard 0/3"), "{e}");
    let e = refusal(vec![parts[0].clone(), other.clone(), parts[2].clone()]);
    assert_eq!(
        e.to_string(),
        format!(
            "{}: master seed 2, but {} has master seed 1: not shards of one run",
            other.display(),
            parts[0].display()
        )
    );
    let e = refusal(Vec::new());
    assert!(matches!(e, MergeError::NoShards), "{e:?}");
    let e = merge(&parts, &parts[1], MergeOptions::default()).unwrap_err();
    assert!(matches!(e, MergeError::OutputIsShard { .. }), "{e:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn unique_shards_merge_into_the_whole_unique_run() {
    let dir = temp_dir("merge-unique");
    let whole = dir.join("whole.arrow");
    write_run(&whole, 60, 3, Shard::default(), true);
    let parts = shards(&dir, 60, 3, 2, true);
    let out = dir.join("merged.arrow");
    let options = MergeOptions {
        threads: 2,
        ..MergeOptions::default()
    };
    let summary = merge(&parts, &out, options).unwrap();
    let scanned = summary.scanned.clone().unwrap();
    assert_eq!(summary.levels, 60);
    assert!(summary.from_shards < 60, "the shards repeat layouts");
    assert!(scanned.duplicates > 0 && scanned.end > 60, "{scanned:?}");
    assert_eq!(hashes(&out), hashes(&whole));
    let resume = MergeOptions {
        resume: true,
        ..options
    };
    let e = merge(&parts, &dir.join("again.arrow"), resume).unwrap_err();
    assert!(matches!(e, MergeError::ResumeWithSelection), "{e:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn splits_partition_the_levels_by_hash() {
    let dir = temp_dir("split");
    let source = dir.join("all.arrow");
    write_run(&source, 400, 9, Shard::default(), false);
    let options = SplitOptions {
        train: 0.5,
        val: 0.5,
        test: 0.0,
        ..SplitOptions::default()
    };
    let summary = split(&source, &dir.join("out"), options).unwrap();
    assert_eq!(summary.levels, 400);
    let names: Vec<&str> = summary.parts.iter().map(|p| p.name).collect();
    assert_eq!(names, ["train", "val"]);
    assert!(!dir.join("out/test.arrow").exists());
    let mut all = Vec::new();
    for (i, part) in summary.parts.iter().enumerate() {
        let got = hashes(&part.path);
        assert_eq!(got.len() as u64, part.levels);
        // Drawn from the canonical identity: symmetric copies share a split.
        let canonical = column(&part.path, "canonical_hash");
        assert!(
            canonical
                .iter()
                .all(|&h| split_of(h, &[0.5, 0.5, 0.0]) == i)
        );
        all.extend(got);
    }
    all.sort_unstable();
    let mut want = hashes(&source);
    want.sort_unstable();
    assert_eq!(all, want);
    let e = split(&summary.parts[0].path, &dir.join("again"), options).unwrap_err();
    assert!(matches!(e, SplitError::AlreadySplit { .. }), "{e:?}");
    let bad = SplitOptions {
        train: 0.5,
        ..SplitOptions::default()
    };
    let e = split(&source, &dir.join("bad"), bad).unwrap_err();
    assert_eq!(
        e.to_string(),
        "--train 0.5 --val 0.1 --test 0.1 add up to 0.7000, not 1"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
