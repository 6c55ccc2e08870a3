//! Selections: `generate --unique` and `--where` keep exactly `--count` levels, the same ones
//! for any thread count and chunking and for shards joined by `warren merge`; the kept rows
//! pass the filter when pyarrow checks them on its own; an impossible filter, a misspelt
//! column and a `--max-tries` below `--count` each stop with one line and leave no file;
//! `verify` accepts the archives and their footers account for every seed tried.

use std::collections::HashSet;
use std::path::Path;

use crate::common::{
    TempDir, assert_one_line_error, assert_same_rows, assert_succeeded, assert_verifies,
    column_binary, column_u64, generate, rows_of, stdout, warren,
};
use crate::python_reader::{python, python_ready};

/// A maze so small that most seeds repeat an earlier one (82 distinct layouts).
const TINY: [&str; 4] = ["--set", "maze.width=3", "--set", "maze.height=3"];

fn tiny(out: &Path, extra: &[&str]) {
    let mut args = TINY.to_vec();
    args.extend_from_slice(extra);
    generate(out, &args);
}

#[test]
fn unique_is_the_same_for_threads_chunks_and_merged_shards() {
    let dir = TempDir::new("select-unique");
    let one = dir.join("one.arrow");
    tiny(
        &one,
        &[
            "--count",
            "70",
            "--unique",
            "--threads",
            "1",
            "--chunk-size",
            "7",
        ],
    );
    let two = dir.join("two.arrow");
    tiny(&two, &["--count", "70", "--unique", "--threads", "2"]);
    let hashes = column_u64(&one, "layout_hash");
    assert_eq!(hashes.len(), 70);
    assert_eq!(
        hashes.iter().collect::<HashSet<_>>().len(),
        70,
        "a hash repeats"
    );
    // Index order: each kept level is the first seed with its layout.
    let indices = column_u64(&one, "index");
    assert!(indices.windows(2).all(|w| w[0] < w[1]));
    assert!(
        *indices.last().unwrap() >= 70,
        "duplicates made the run go past 70 seeds"
    );
    assert_same_rows(&rows_of(&[&one]), &rows_of(&[&two]));

    let shards = [
        dir.join("s0.arrow"),
        dir.join("s1.arrow"),
        dir.join("s2.arrow"),
    ];
    for (i, s) in shards.iter().enumerate() {
        tiny(
            s,
            &["--count", "70", "--unique", "--shard", &format!("{i}/3")],
        );
        assert_verifies(s);
    }
    let merged = dir.join("merged.arrow");
    let out = warren([
        "merge",
        merged.to_str().unwrap(),
        shards[2].to_str().unwrap(),
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
    ]);
    assert_succeeded(&out, "merge");
    assert_same_rows(&rows_of(&[&one]), &rows_of(&[&merged]));
    assert_verifies(&one);
    assert_verifies(&merged);
}

#[test]
fn merge_unique_joins_shards_made_without_a_selection() {
    let dir = TempDir::new("select-merge-unique");
    let single = dir.join("single.arrow");
    tiny(&single, &["--count", "60", "--unique"]);
    let shards = [dir.join("a.arrow"), dir.join("b.arrow")];
    for (i, s) in shards.iter().enumerate() {
        tiny(s, &["--count", "60", "--shard", &format!("{i}/2")]);
    }
    let merged = dir.join("merged.arrow");
    let out = warren([
        "merge",
        "--unique",
        merged.to_str().unwrap(),
        shards[0].to_str().unwrap(),
        shards[1].to_str().unwrap(),
    ]);
    assert_succeeded(&out, "merge --unique");
    assert_same_rows(&rows_of(&[&single]), &rows_of(&[&merged]));
    assert_verifies(&merged);
}

#[test]
fn where_keeps_count_levels_that_pyarrow_finds_passing() {
    let dir = TempDir::new("select-where");
    let path = dir.join("w.arrow");
    let condition = "solution_length >= 150 and (dead_ends < 205 or turns > 90)";
    generate(&path, &["--count", "500", "--where", condition]);
    assert_verifies(&path);
    // The same run with 1 thread and small chunks keeps the same levels.
    let again = dir.join("again.arrow");
    generate(
        &again,
        &[
            "--count",
            "500",
            "--where",
            condition,
            "--threads",
            "1",
            "--chunk-size",
            "33",
        ],
    );
    assert_same_rows(&rows_of(&[&path]), &rows_of(&[&again]));
    if !python_ready() {
        return;
    }
    // pyarrow alone: every row passes, the count is exact, and the footer accounts for every
    // seed tried (levels + filtered out == the seeds looked at).
    let script = r#"
import sys, json, pyarrow as pa, pyarrow.compute as pc
f = pa.ipc.open_file(sys.argv[1])
t = f.read_all()
ok = pc.and_(pc.greater_equal(t["solution_length"], 150),
             pc.or_(pc.less(t["dead_ends"], 205), pc.greater(t["turns"], 90)))
scanned = json.loads(f.schema.metadata[b"warren.selection"])
print(t.num_rows, pc.all(ok).as_py(), scanned["where"])
"#;
    let printed = python(script, &[path.to_str().unwrap()]);
    assert_eq!(printed.trim(), format!("500 True {condition}"));
    // Without the filter, many of the same seeds fail it: the filter did the work.
    let plain = dir.join("plain.arrow");
    generate(&plain, &["--count", "500"]);
    let script = r#"
import sys, pyarrow as pa, pyarrow.compute as pc
t = pa.ipc.open_file(sys.argv[1]).read_all()
ok = pc.and_(pc.greater_equal(t["solution_length"], 150),
             pc.or_(pc.less(t["dead_ends"], 205), pc.greater(t["turns"], 90)))
print(pc.sum(pc.cast(ok, pa.int64())).as_py())
"#;
    let passing: u64 = python(script, &[plain.to_str().unwrap()])
        .trim()
        .parse()
        .unwrap();
    assert!(
        passing < 400,
        "{passing} of 500 unfiltered levels pass: a weak test"
    );
}

#[test]
fn bad_selections_stop_with_one_line_and_no_file() {
    let dir = TempDir::new("select-bad");
    let out = dir.join("x.arrow");
    let cases: [(&[&str], &str); 4] = [
        (
            &["--where", "rooms > 100000", "--max-tries", "3000"],
            "kept 0 of the 1000",
        ),
        (
            &["--where", "solution_lenght > 3"],
            "no metric column `solution_lenght`",
        ),
        (
            &["--where", "rooms = 3"],
            "column 7: `=` is not an operator",
        ),
        (
            &["--unique", "--max-tries", "10"],
            "--max-tries 10 is below --count 1000",
        ),
    ];
    for (extra, expected) in cases {
        let mut args = vec!["generate", "maze", "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        let result = warren(&args);
        assert_one_line_error(&result, &format!("{extra:?}"));
        let err = crate::common::stderr(&result);
        assert!(err.contains(expected), "{extra:?}: {err}");
        assert!(!out.exists(), "{extra:?} left {}", out.display());
    }
    // Too few distinct layouts within the tries: the run says so instead of running forever.
    let mut args = vec!["generate", "maze", "--out", out.to_str().unwrap()];
    args.extend_from_slice(&TINY);
    args.extend_from_slice(&["--unique", "--count", "100", "--max-tries", "5000"]);
    let result = warren(&args);
    assert_one_line_error(&result, "too few layouts");
    assert!(crate::common::stderr(&result).contains("kept 82 of the 100"));
    assert!(!out.exists());
}

/// `path`'s levels rewritten under schema metadata changed by `edit` (footer kept).
fn rewrite_metadata(path: &Path, out: &Path, edit: impl FnOnce(&mut arrow_schema::Metadata)) {
    use std::sync::Arc;
    use warren::archive::{Archive, ArchiveWriter};
    let archive = Archive::open(path).unwrap();
    let mut metadata = archive.schema().metadata().clone();
    edit(&mut metadata);
    let schema = Arc::new(arrow_schema::Schema::new_with_metadata(
        archive.schema().fields().clone(),
        metadata,
    ));
    let mut writer = ArchiveWriter::create(out, &schema).unwrap();
    for i in 0..archive.batch_count() {
        let batch = archive.batch(i).unwrap();
        let batch =
            arrow_array::RecordBatch::try_new(schema.clone(), batch.columns().to_vec()).unwrap();
        writer.write(&batch).unwrap();
    }
    let footer: Vec<(String, String)> = archive
        .footer_metadata()
        .iter()
        .filter(|(k, _)| k.as_str() != "warren.batch_crc32")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    writer.finish(&footer).unwrap();
}

#[test]
fn verify_rechecks_the_stored_selection() {
    let dir = TempDir::new("select-verify");
    let plain = dir.join("plain.arrow");
    tiny(&plain, &["--count", "200"]);
    // Claim a filter the levels were not made under: the rows that fail it are violations.
    let claimed = dir.join("claimed.arrow");
    rewrite_metadata(&plain, &claimed, |m| {
        m.insert(
            "warren.selection".to_string(),
            r#"{"unique":false,"where":"dead_ends >= 3","max_tries":1000}"#.to_string(),
        );
    });
    let out = warren(["verify", claimed.to_str().unwrap()]);
    assert_eq!(crate::common::exit_code(&out), 1);
    assert!(stdout(&out).contains("does not pass the run's --where \"dead_ends >= 3\""));
    // Claim uniqueness: 200 seeds of 82 layouts repeat.
    let unique = dir.join("unique.arrow");
    rewrite_metadata(&plain, &unique, |m| {
        m.insert(
            "warren.selection".to_string(),
            r#"{"unique":true,"where":null,"max_tries":1000}"#.to_string(),
        );
    });
    let out = warren(["verify", unique.to_str().unwrap()]);
    assert_eq!(crate::common::exit_code(&out), 1);
    assert!(
        stdout(&out).contains("levels repeat an earlier layout_hash"),
        "{}",
        stdout(&out)
    );
}

/// A square grid's canonical bytes by brute force, independent of warren's code: the least of
/// its 8 rotations and reflections, each materialised.
fn canonical_bytes(side: usize, cells: &[u8]) -> Vec<u8> {
    let rotate = |g: &[u8]| {
        let mut out = vec![0u8; g.len()];
        for r in 0..side {
            for c in 0..side {
                out[c * side + (side - 1 - r)] = g[r * side + c];
            }
        }
        out
    };
    let mirror = |g: &[u8]| {
        let mut out = vec![0u8; g.len()];
        for r in 0..side {
            for c in 0..side {
                out[r * side + (side - 1 - c)] = g[r * side + c];
            }
        }
        out
    };
    let mut best = cells.to_vec();
    let mut g = cells.to_vec();
    for _ in 0..4 {
        best = best.min(g.clone()).min(mirror(&g));
        g = rotate(&g);
    }
    best
}

#[test]
fn unique_canonical_keeps_one_maze_of_each_symmetry_class() {
    let dir = TempDir::new("select-canonical");
    // 4 x 4 rooms: symmetric copies are common among a few thousand seeds.
    let small = ["--set", "maze.width=4", "--set", "maze.height=4"];
    let plain = dir.join("plain.arrow");
    let mut args = small.to_vec();
    args.extend_from_slice(&["--count", "3000"]);
    generate(&plain, &args);
    let grids = column_binary(&plain, "grid");
    let exact: HashSet<&Vec<u8>> = grids.iter().collect();
    let classes: HashSet<Vec<u8>> = grids.iter().map(|g| canonical_bytes(9, g)).collect();
    let stored: HashSet<u64> = column_u64(&plain, "canonical_hash").into_iter().collect();
    // The stored hash splits the levels exactly as the brute force does.
    assert_eq!(stored.len(), classes.len());
    assert!(
        classes.len() < exact.len(),
        "no mirrored copies among 3,000 small mazes ({} exact, {} classes)",
        exact.len(),
        classes.len()
    );

    let unique = dir.join("unique.arrow");
    let mut args = small.to_vec();
    args.extend_from_slice(&["--count", "600", "--unique=canonical", "--threads", "2"]);
    generate(&unique, &args);
    assert_verifies(&unique);
    let grids = column_binary(&unique, "grid");
    assert_eq!(grids.len(), 600);
    let classes: HashSet<Vec<u8>> = grids.iter().map(|g| canonical_bytes(9, g)).collect();
    assert_eq!(
        classes.len(),
        600,
        "two kept mazes are rotations or mirrors of each other"
    );
    // The first of each class in index order: the same as one thread in small chunks.
    let one = dir.join("one.arrow");
    let mut args = small.to_vec();
    args.extend_from_slice(&[
        "--count",
        "600",
        "--unique=canonical",
        "--threads",
        "1",
        "--chunk-size",
        "64",
    ]);
    generate(&one, &args);
    assert_same_rows(&rows_of(&[&unique]), &rows_of(&[&one]));
    // `--unique` alone is exact: it keeps mirrored copies.
    let exact_run = dir.join("exact.arrow");
    let mut args = small.to_vec();
    args.extend_from_slice(&["--count", "600", "--unique"]);
    generate(&exact_run, &args);
    let grids = column_binary(&exact_run, "grid");
    let classes: HashSet<Vec<u8>> = grids.iter().map(|g| canonical_bytes(9, g)).collect();
    assert!(classes.len() < 600);
}
