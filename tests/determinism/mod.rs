//! Determinism is a contract: a level depends only on (profile, master seed, index), never on
//! threads, chunking or shards.

use crate::common::{SMALL, TempDir, assert_same_rows, column_u64, generate, rows_of};

/// Small levels, many chunks, so scheduling has room to reorder work.
const MANY_CHUNKS: [&str; 8] = [
    "--count",
    "1500",
    "--chunk-size",
    "50",
    "--set",
    "maze.width=12",
    "--set",
    "maze.height=12",
];

#[test]
fn same_seed_same_bytes_with_one_and_two_threads() {
    let dir = TempDir::new("threads");
    let (one, two) = (dir.join("t1.arrow"), dir.join("t2.arrow"));
    generate(
        &one,
        &[&MANY_CHUNKS[..], &["--seed", "42", "--threads", "1"]].concat(),
    );
    generate(
        &two,
        &[&MANY_CHUNKS[..], &["--seed", "42", "--threads", "2"]].concat(),
    );
    let (a, b) = (std::fs::read(&one).unwrap(), std::fs::read(&two).unwrap());
    assert!(!a.is_empty());
    assert!(
        a == b,
        "--threads 1 and --threads 2 wrote different bytes ({} vs {} bytes)",
        a.len(),
        b.len()
    );
}

#[test]
fn different_seeds_give_different_files() {
    let dir = TempDir::new("seeds");
    let (s1, s2) = (dir.join("s1.arrow"), dir.join("s2.arrow"));
    generate(
        &s1,
        &[&SMALL[..], &["--count", "300", "--seed", "1"]].concat(),
    );
    generate(
        &s2,
        &[&SMALL[..], &["--count", "300", "--seed", "2"]].concat(),
    );
    assert_ne!(std::fs::read(&s1).unwrap(), std::fs::read(&s2).unwrap());
    let (h1, h2) = (
        column_u64(&s1, "layout_hash"),
        column_u64(&s2, "layout_hash"),
    );
    assert_eq!(h1.len(), 300);
    assert_ne!(h1, h2, "different seeds gave the same layouts");
}

#[test]
fn shards_concatenate_to_the_unsharded_run() {
    let dir = TempDir::new("shards");
    let (whole, s0, s1) = (
        dir.join("whole.arrow"),
        dir.join("s0.arrow"),
        dir.join("s1.arrow"),
    );
    // An odd count so the shards differ in size.
    let base = [&SMALL[..], &["--count", "1001", "--seed", "7"]].concat();
    generate(&whole, &base);
    generate(
        &s0,
        &[&base[..], &["--shard", "0/2", "--chunk-size", "64"]].concat(),
    );
    generate(
        &s1,
        &[&base[..], &["--shard", "1/2", "--chunk-size", "64"]].concat(),
    );

    let index: Vec<u64> = column_u64(&whole, "index");
    assert_eq!(index, (0..1001).collect::<Vec<u64>>());
    let (i0, i1) = (column_u64(&s0, "index"), column_u64(&s1, "index"));
    assert!(!i0.is_empty() && !i1.is_empty(), "a shard is empty");
    assert_eq!(i0.len() + i1.len(), 1001);

    let expected = rows_of(&[&whole]);
    let sharded = rows_of(&[&s0, &s1]);
    assert!(expected.0.iter().any(|n| n == "grid"));
    assert!(expected.0.iter().any(|n| n == "dead_ends"));
    assert_same_rows(&sharded, &expected);
}

#[test]
fn chunk_size_does_not_change_the_rows() {
    let dir = TempDir::new("chunks");
    let (default, seven) = (dir.join("default.arrow"), dir.join("seven.arrow"));
    let base = [&SMALL[..], &["--count", "500", "--seed", "3"]].concat();
    generate(&default, &base);
    generate(&seven, &[&base[..], &["--chunk-size", "7"]].concat());
    let batches = warren::archive::Archive::open(&seven)
        .unwrap()
        .batch_count();
    assert_eq!(
        batches,
        500usize.div_ceil(7),
        "--chunk-size 7 was not applied"
    );
    assert_same_rows(&rows_of(&[&seven]), &rows_of(&[&default]));
}

/// Generates `count` levels of `kind` (seed `seed`, one `--set`) with one worker in one chunk
/// and with two workers in chunks of `chunk`, then with one and two workers in the same chunks:
/// the rows, and then the bytes, must agree.
fn same_for_any_workers_and_chunks(kind: &str, count: &str, seed: &str, set: &str, chunk: &str) {
    let dir = TempDir::new(&format!("{kind}-threads"));
    let run = |name: &str, threads: &str, chunk: &str| {
        let out = dir.join(name);
        let output = crate::common::warren([
            "generate",
            kind,
            "--quiet",
            "--count",
            count,
            "--seed",
            seed,
            "--threads",
            threads,
            "--chunk-size",
            chunk,
            "--set",
            set,
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(
            output.status.success(),
            "{}",
            crate::common::stderr(&output)
        );
        out
    };
    let (one, two) = (run("a1.arrow", "1", count), run("a2.arrow", "2", chunk));
    assert_same_rows(&rows_of(&[&two]), &rows_of(&[&one]));
    let (three, four) = (run("b1.arrow", "1", chunk), run("b2.arrow", "2", chunk));
    assert!(
        std::fs::read(&three).unwrap() == std::fs::read(&four).unwrap(),
        "--threads 1 and --threads 2 wrote different {kind} archives"
    );
}

/// Regions levels reuse a per-worker RegionCache, whose history must never show in the output.
#[test]
fn regions_levels_do_not_depend_on_threads_or_chunks() {
    same_for_any_workers_and_chunks("regions", "400", "13", "regions.depth=2", "9");
}

/// Coloring puzzles keep the last puzzle and the solver's buffers in the worker's scratch: the
/// archive must not depend on which worker made which level.
#[test]
fn coloring_levels_do_not_depend_on_threads_or_chunks() {
    same_for_any_workers_and_chunks("coloring", "300", "17", "coloring.clues=2", "7");
}
