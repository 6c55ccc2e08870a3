//! `warren split`: every level lands in exactly one split, no `layout_hash` in two splits (the
//! tiny mazes here repeat layouts often), each level keeps its split when the archive grows,
//! the split archives verify, and bad shares stop with one line and no files.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::common::{
    TempDir, assert_one_line_error, assert_succeeded, assert_verifies, column_binary, column_u64,
    generate, warren,
};

mod plant;

const TINY: [&str; 4] = ["--set", "maze.width=3", "--set", "maze.height=3"];

fn split(archive: &Path, dir: &Path, extra: &[&str]) {
    let mut args = vec![
        "split",
        archive.to_str().unwrap(),
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ];
    args.extend_from_slice(extra);
    assert_succeeded(&warren(&args), "split");
}

/// index -> split name, and hash -> split names, over the split archives in `dir`.
fn assignment(
    dir: &Path,
) -> (
    HashMap<u64, &'static str>,
    HashMap<u64, HashSet<&'static str>>,
) {
    let mut by_index = HashMap::new();
    let mut by_hash: HashMap<u64, HashSet<&str>> = HashMap::new();
    for name in ["train", "val", "test"] {
        let path = dir.join(format!("{name}.arrow"));
        assert_verifies(&path);
        let indices = column_u64(&path, "index");
        let hashes = column_u64(&path, "layout_hash");
        assert!(
            indices.windows(2).all(|w| w[0] < w[1]),
            "{name}: index order"
        );
        for (i, h) in indices.into_iter().zip(hashes) {
            assert!(
                by_index.insert(i, name).is_none(),
                "level {i} in two splits"
            );
            by_hash.entry(h).or_default().insert(name);
        }
    }
    (by_index, by_hash)
}

#[test]
fn no_layout_in_two_splits_and_stable_as_the_archive_grows() {
    let dir = TempDir::new("split");
    let small = dir.join("small.arrow");
    let mut args = TINY.to_vec();
    args.extend_from_slice(&["--count", "1500"]);
    generate(&small, &args);
    split(
        &small,
        &dir.join("a"),
        &["--train", "0.6", "--val", "0.2", "--test", "0.2"],
    );
    let (small_split, by_hash) = assignment(&dir.join("a"));
    assert_eq!(small_split.len(), 1500, "every level in one split");
    assert!(
        by_hash.values().all(|s| s.len() == 1),
        "a layout in two splits"
    );
    assert!(by_hash.len() < 100, "the tiny mazes should repeat layouts");

    let big = dir.join("big.arrow");
    let mut args = TINY.to_vec();
    args.extend_from_slice(&["--count", "3000"]);
    generate(&big, &args);
    split(
        &big,
        &dir.join("b"),
        &["--train", "0.6", "--val", "0.2", "--test", "0.2"],
    );
    let (big_split, _) = assignment(&dir.join("b"));
    for (index, name) in &small_split {
        assert_eq!(big_split[index], *name, "level {index} changed split");
    }
}

#[test]
fn bad_shares_stop_with_one_line_and_no_files() {
    let dir = TempDir::new("split-bad");
    let archive = dir.join("m.arrow");
    generate(&archive, &["--count", "20"]);
    let out = dir.join("out");
    for (extra, expected) in [
        (&["--train", "0.7"][..], "add up to 0.9000, not 1"),
        (
            &["--train", "1.2", "--val=-0.2", "--test", "0"][..],
            "--train 1.2: a share",
        ),
    ] {
        let mut args = vec![
            "split",
            archive.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        let result = warren(&args);
        assert_one_line_error(&result, &format!("{extra:?}"));
        assert!(
            crate::common::stderr(&result).contains(expected),
            "{extra:?}"
        );
        assert!(!out.join("train.arrow").exists());
    }
    // A split of a split is refused: its source is the archive to split.
    split(&archive, &out, &[]);
    let again = warren([
        "split",
        out.join("val.arrow").to_str().unwrap(),
        "--out",
        dir.join("again").to_str().unwrap(),
    ]);
    assert_one_line_error(&again, "split of a split");
}

/// Whether the square grid `b` is one of the 8 rotations and reflections of `a` (brute force,
/// independent of warren's code).
fn is_symmetric_copy(side: usize, a: &[u8], b: &[u8]) -> bool {
    let at = |g: &[u8], r: usize, c: usize| g[r * side + c];
    let n = side - 1;
    let maps: [&dyn Fn(usize, usize) -> (usize, usize); 8] = [
        &|r, c| (r, c),
        &|r, c| (r, n - c),
        &|r, c| (n - r, c),
        &|r, c| (n - r, n - c),
        &|r, c| (c, r),
        &|r, c| (c, n - r),
        &|r, c| (n - c, r),
        &|r, c| (n - c, n - r),
    ];
    maps.iter().any(|m| {
        (0..side).all(|r| {
            (0..side).all(|c| {
                let (sr, sc) = m(r, c);
                at(b, r, c) == at(a, sr, sc)
            })
        })
    })
}

#[test]
fn splits_hold_no_symmetric_copies_and_verify_disjoint_names_them_across_runs() {
    let dir = TempDir::new("split-disjoint");
    let small = ["--set", "maze.width=4", "--set", "maze.height=4"];
    let one = dir.join("one.arrow");
    let mut args = small.to_vec();
    args.extend_from_slice(&["--count", "3000"]);
    generate(&one, &args);
    split(
        &one,
        &dir.join("s"),
        &["--train", "0.8", "--val", "0.1", "--test", "0.1"],
    );
    let parts: Vec<String> = ["train", "val", "test"]
        .iter()
        .map(|n| {
            dir.join("s")
                .join(format!("{n}.arrow"))
                .display()
                .to_string()
        })
        .collect();
    let mut args = vec!["verify", "--disjoint"];
    args.extend(parts.iter().map(String::as_str));
    let out = warren(&args);
    assert_succeeded(&out, "verify --disjoint of a split");
    assert!(
        crate::common::stdout(&out).contains("0 exact and 0 canonical overlaps"),
        "{}",
        crate::common::stdout(&out)
    );
    // The same 4 x 4 mazes from another seed: many are mirror images of the first run's,
    // and --disjoint names them; the named levels are copies by brute force.
    let two = dir.join("two.arrow");
    let mut args = small.to_vec();
    args.extend_from_slice(&["--count", "3000", "--seed", "9"]);
    generate(&two, &args);
    let out = warren([
        "verify",
        "--disjoint",
        one.to_str().unwrap(),
        two.to_str().unwrap(),
        "--show",
        "100000",
    ]);
    assert_eq!(out.status.code(), Some(1), "overlaps are a failure");
    let text = crate::common::stdout(&out);
    let (grids_one, grids_two) = (column_binary(&one, "grid"), column_binary(&two, "grid"));
    let (index_one, index_two) = (column_u64(&one, "index"), column_u64(&two, "index"));
    let mut mirrored = 0;
    for line in text.lines().filter(|l| l.starts_with("canonical_hash")) {
        let levels: Vec<u64> = line
            .split(" level ")
            .skip(1)
            .map(|t| t.split(',').next().unwrap().trim().parse().unwrap())
            .collect();
        assert_eq!(levels.len(), 2, "{line}");
        let a = &grids_one[index_one.iter().position(|&i| i == levels[0]).unwrap()];
        let b = &grids_two[index_two.iter().position(|&i| i == levels[1]).unwrap()];
        assert!(is_symmetric_copy(9, a, b), "{line}: not copies");
        mirrored += usize::from(a != b);
    }
    assert!(mirrored > 0, "no mirror-image pair named:\n{text}");
    // Exact overlaps are counted too, and the summary adds up.
    assert!(text.contains(" exact and "), "{text}");
}
