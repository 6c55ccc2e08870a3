//! `warren pack`: train, id_test and ood_test splits along size and along algorithm, whose
//! manifests count what the files hold and prove no level in two splits; each split verifies
//! (its levels made again through the recorded mixture) and a tampered level does not; every
//! level's grid lies in its split's range; the same command writes the same bytes; bad inputs
//! stop with one line before anything is written; `datasets.load_dataset` sees three splits.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use arrow_array::cast::AsArray;
use arrow_array::types::UInt16Type;
use arrow_array::{Array, ArrayRef, BinaryArray, RecordBatch};
use warren::archive::{LevelSource, ParquetDataset, ParquetWriter};

use crate::common::{TempDir, assert_verifies, exit_code, stdout, warren, warren_fails, warren_ok};

const SPLITS: [&str; 3] = ["train", "id_test", "ood_test"];

/// Runs `warren pack maze --out DIR --quiet` plus `args`.
fn pack(dir: &Path, args: &[&str]) {
    let mut all = vec!["pack", "maze", "--quiet", "--out", dir.to_str().unwrap()];
    all.extend_from_slice(args);
    warren_ok(&all);
}

fn manifest(dir: &Path) -> serde_json::Value {
    let text = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    serde_json::from_str(&text).unwrap()
}

/// Every batch of split `name` of the pack at `dir`, in the archive layout.
fn split_batches(dir: &Path, name: &str) -> (ParquetDataset, Vec<RecordBatch>) {
    let set = ParquetDataset::open(&dir.join(name), name).unwrap();
    let batches = (0..set.batch_count())
        .map(|b| set.batch(b).unwrap())
        .collect();
    (set, batches)
}

/// The `grid_width` of every level of split `name`.
fn grid_widths(dir: &Path, name: &str) -> Vec<u16> {
    let (_, batches) = split_batches(dir, name);
    batches
        .iter()
        .flat_map(|b| {
            let c = b.column_by_name("grid_width").unwrap();
            c.as_primitive::<UInt16Type>().values().to_vec()
        })
        .collect()
}

/// Checks what every pack must be: the manifest's counts are the files' rows and the asked
/// counts, no overlaps, each split verifies, `verify --disjoint` passes.
fn assert_sound_pack(dir: &Path, train: u64, test: u64) {
    let m = manifest(dir);
    for (i, (name, asked)) in SPLITS.iter().zip([train, test, test]).enumerate() {
        let entry = &m["splits"][i];
        assert_eq!(entry["name"], *name);
        let set = ParquetDataset::open(&dir.join(name), name).unwrap();
        assert_eq!(entry["written"], set.row_count(), "{name}");
        assert_eq!(entry["count"], asked, "{name}");
        assert_eq!(set.row_count(), asked, "{name}");
        assert_verifies(&dir.join(name));
    }
    assert_eq!(m["proof"]["exact_overlaps"], 0);
    assert_eq!(m["proof"]["canonical_overlaps"], 0);
    assert_eq!(m["proof"]["disjoint"], true);
    let dirs: Vec<String> = SPLITS
        .iter()
        .map(|s| dir.join(s).display().to_string())
        .collect();
    let mut args = vec!["verify", "--disjoint"];
    args.extend(dirs.iter().map(String::as_str));
    let out = warren_ok(&args);
    assert!(out.contains(": disjoint"), "{out}");
}

/// Every file under `dir` (path relative to it -> bytes).
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.insert(rel, std::fs::read(&p).unwrap());
            }
        }
    }
    out
}

const SIZE_ARGS: [&str; 10] = [
    "--axis",
    "size",
    "--train",
    "4..=8",
    "--ood",
    "12..=16",
    "--count",
    "300",
    "--test-count",
    "60",
];

#[test]
fn a_pack_along_size_keeps_each_split_in_its_sizes_and_repeats_byte_for_byte() {
    let tmp = TempDir::new("pack-size");
    let dir = tmp.join("pack");
    pack(&dir, &SIZE_ARGS);
    assert_sound_pack(&dir, 300, 60);
    // A lattice of n rooms a side is drawn on 2n + 1 cells.
    for (name, sides) in [("train", 4..=8), ("id_test", 4..=8), ("ood_test", 12..=16)] {
        let widths = grid_widths(&dir, name);
        for w in &widths {
            assert!(sides.contains(&((w - 1) / 2)), "{name}: grid width {w}");
        }
        let distinct: std::collections::BTreeSet<_> = widths.iter().collect();
        assert!(distinct.len() >= 3, "{name}: sizes {distinct:?}");
    }
    let m = manifest(&dir);
    assert_eq!(m["splits"][2]["values"][0], "12");
    assert_eq!(m["splits"][0]["given"], "4..=8");
    // id_test goes on where train stopped.
    assert_eq!(
        m["splits"][1]["scanned"]["start"],
        m["splits"][0]["scanned"]["end"]
    );
    let first = tree(&dir);
    pack(&dir, &SIZE_ARGS);
    let again = tmp.join("again");
    pack(&again, &[&SIZE_ARGS[..], &["--threads", "1"]].concat());
    assert_eq!(tree(&dir), first, "the same command, the same bytes");
    assert_eq!(
        tree(&again),
        first,
        "another folder and one thread, the same bytes"
    );
}

#[test]
fn a_pack_along_algorithm_verifies_and_a_tampered_level_does_not() {
    let tmp = TempDir::new("pack-algorithm");
    let dir = tmp.join("pack");
    pack(
        &dir,
        &[
            "--axis",
            "algorithm",
            "--train",
            "dfs,wilson",
            "--ood",
            "prim,eller",
            "--set",
            "maze.width=6",
            "--set",
            "maze.height=6",
            "--count",
            "200",
            "--test-count",
            "50",
            "--seed",
            "3",
        ],
    );
    assert_sound_pack(&dir, 200, 50);
    let m = manifest(&dir);
    assert_eq!(m["axis_keys"][0], "maze.algorithm");
    assert_eq!(m["splits"][0]["variants"][1][0], "maze.algorithm=wilson");
    assert_eq!(m["splits"][2]["variants"][0][0], "maze.algorithm=prim");
    assert_eq!(grid_widths(&dir, "ood_test"), vec![13; 50]);
    let train = dir.join("train");
    let text = warren_ok([Path::new("inspect"), &train]);
    assert!(
        text.contains("[maze.algorithm=dfs] x1, [maze.algorithm=wilson] x1"),
        "{text}"
    );
    // Flip one cell of the first ood level's grid, keeping the rest of the file as it was.
    let (set, batches) = split_batches(&dir, "ood_test");
    let schema = set.schema().clone();
    let footer: Vec<(String, String)> = set.footer_metadata().clone().into_iter().collect();
    drop(set);
    let tampered = tmp.join("tampered");
    let mut writer = ParquetWriter::create(&tampered, "ood_test", &schema).unwrap();
    for (b, batch) in batches.iter().enumerate() {
        let batch = if b == 0 {
            flip_first_cell(batch)
        } else {
            batch.clone()
        };
        writer.write(&batch).unwrap();
    }
    writer.finish(&footer).unwrap();
    let out = warren(["verify", tampered.to_str().unwrap()]);
    assert_eq!(exit_code(&out), 1, "{}", stdout(&out));
    assert!(stdout(&out).contains("1 violations"), "{}", stdout(&out));
}

/// `batch` with one inner cell of its first grid flipped between wall and floor.
fn flip_first_cell(batch: &RecordBatch) -> RecordBatch {
    let (i, _) = batch.schema().column_with_name("grid").unwrap();
    let grid = batch.column(i);
    let column: ArrayRef = if let Some(list) = grid.as_fixed_size_list_opt() {
        let cells = list
            .values()
            .as_primitive::<arrow_array::types::UInt8Type>();
        let mut values = cells.values().to_vec();
        values[list.value_length() as usize / 2] ^= 1;
        let field = match list.data_type() {
            arrow_schema::DataType::FixedSizeList(f, _) => f.clone(),
            _ => unreachable!(),
        };
        std::sync::Arc::new(arrow_array::FixedSizeListArray::new(
            field,
            list.value_length(),
            std::sync::Arc::new(arrow_array::UInt8Array::from(values)),
            None,
        ))
    } else {
        let bins = grid.as_binary::<i32>();
        let mut rows: Vec<Vec<u8>> = bins.iter().map(|v| v.unwrap().to_vec()).collect();
        let mid = rows[0].len() / 2;
        rows[0][mid] ^= 1;
        std::sync::Arc::new(BinaryArray::from_iter_values(rows))
    };
    let mut columns = batch.columns().to_vec();
    columns[i] = column;
    RecordBatch::try_new(batch.schema(), columns).unwrap()
}

#[test]
fn bad_packs_stop_with_one_line_before_writing() {
    let tmp = TempDir::new("pack-bad");
    let dir = tmp.join("pack");
    let out = dir.to_str().unwrap();
    for (args, mentions) in [
        (
            &["--axis", "bogus", "--train", "1..2", "--ood", "2..3"][..],
            &["--axis `bogus`", "unknown axis"][..],
        ),
        (
            &["--axis", "maze.nope", "--train", "1", "--ood", "2"],
            &["unknown key `maze.nope`"],
        ),
        (
            &["--axis", "size", "--train", "4..x", "--ood", "8"],
            &["--train 4..x", "not a range"],
        ),
        (
            &["--axis", "size", "--train", "4,5", "--ood", "5,4"],
            &["same values along `size`"],
        ),
        (
            &["--axis", "dead_ends", "--train", "10..5", "--ood", "1..2"],
            &["--train 10..5", "empty range"],
        ),
        (
            &["--axis", "algorithm", "--train", "dfs", "--ood", "nosuch"],
            &["--ood nosuch", "unknown variant `nosuch`"],
        ),
    ] {
        let mut all = vec!["pack", "maze", "--out", out];
        all.extend_from_slice(args);
        warren_fails(&all, mentions);
        assert!(!dir.exists(), "{args:?} wrote {}", dir.display());
    }
}

#[test]
fn datasets_loads_the_three_splits_of_a_pack() {
    let probe = Command::new("python3")
        .args(["-c", "import datasets"])
        .output();
    let required =
        std::env::var_os("WARREN_DOCS_REQUIRE_PYTHON").is_some_and(|v| !v.is_empty() && v != "0");
    if !probe.is_ok_and(|o| o.status.success()) {
        assert!(
            !required,
            "python3 cannot import datasets (and $WARREN_DOCS_REQUIRE_PYTHON is set)"
        );
        eprintln!("skipped: python3 cannot import datasets");
        return;
    }
    let tmp = TempDir::new("pack-datasets");
    let dir = tmp.join("pack");
    pack(
        &dir,
        &[
            "--axis",
            "size",
            "--train",
            "3,4",
            "--ood",
            "6",
            "--count",
            "40",
            "--test-count",
            "10",
        ],
    );
    let script = r#"
import sys, datasets
d = datasets.load_dataset(sys.argv[1], cache_dir=sys.argv[2])
print(sorted((k, len(v)) for k, v in d.items()))
"#;
    let load = || {
        let out = Command::new("python3")
            .args([
                "-c",
                script,
                dir.to_str().unwrap(),
                tmp.join("hf-cache").to_str().unwrap(),
            ])
            .env("HF_DATASETS_OFFLINE", "1")
            .env("HF_HUB_OFFLINE", "1")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    assert_eq!(load(), "[('id_test', 10), ('ood_test', 10), ('train', 40)]");
    // Another pack written into the same folder: `datasets` caches a local folder by its name
    // and config name, so the config is named after the manifest and the new rows load.
    pack(
        &dir,
        &[
            "--axis",
            "size",
            "--train",
            "3,4",
            "--ood",
            "6",
            "--count",
            "30",
            "--test-count",
            "5",
        ],
    );
    assert_eq!(load(), "[('id_test', 5), ('ood_test', 5), ('train', 30)]");
}
