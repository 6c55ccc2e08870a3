//! Parquet datasets (`generate --format parquet`, `export --parquet`, `split --format
//! parquet`) checked by `warren verify DIR` and read back through `ParquetDataset`: the rows are
//! the archive's, damage and a missing file are named in one line, splits add up.

use std::path::Path;

use arrow_array::RecordBatch;
use warren::archive::{
    Archive, FOOTER_BATCH_CRC32, LevelSource, ParquetDataset, RunMeta, dataset_splits,
};

use crate::common::{
    SMALL, TempDir, assert_one_line_error, assert_succeeded, assert_verifies, exit_code, generate,
    generate_kind, stderr, stdout, warren,
};

/// The only data file of a one-file `train` split.
const TRAIN: &str = "data/train-00000-of-00001.parquet";

/// Runs `warren generate KIND --format parquet --out DIR --quiet` plus `args`.
fn generate_parquet(kind: &str, dir: &Path, args: &[&str]) {
    generate_kind(kind, dir, &[&["--format", "parquet"][..], args].concat());
}

/// Every batch of `source`, in order.
fn all_batches(source: &dyn LevelSource) -> Vec<RecordBatch> {
    (0..source.batch_count())
        .map(|i| source.batch(i).unwrap_or_else(|e| panic!("batch {i}: {e}")))
        .collect()
}

/// One batch of all of `source`'s rows.
fn all_rows(source: &dyn LevelSource) -> RecordBatch {
    arrow_select::concat::concat_batches(source.schema(), &all_batches(source)).unwrap()
}

/// Asserts `warren verify DIR` passes with one ` 0 violations` line per split.
fn assert_splits_verify(dir: &Path, splits: usize) {
    let text = assert_verifies(dir);
    assert_eq!(text.matches(" 0 violations").count(), splits, "{text}");
}

#[test]
fn generated_datasets_verify_for_lattice_binary_and_gridless_kinds() {
    let tmp = TempDir::new("pq-kinds");
    let mut maze = SMALL.to_vec();
    maze.extend_from_slice(&["--count", "300", "--chunk-size", "64"]);
    for (kind, args, shape) in [
        ("maze", maze, Some((17, 17))),
        ("grammar", vec!["--count", "40"], None),
        ("coloring", vec!["--count", "100"], None),
    ] {
        let dir = tmp.join(kind);
        generate_parquet(kind, &dir, &args);
        assert_splits_verify(&dir, 1);
        let dataset = ParquetDataset::open(&dir, "train").unwrap();
        let columns = dataset.columns().unwrap();
        assert_eq!(
            columns.grid_shape, shape,
            "{kind}: the grid column's layout"
        );
        assert_eq!(columns.grid, kind != "coloring", "{kind}: a grid");
        let meta = RunMeta::from_schema(dataset.schema()).unwrap();
        assert_eq!(meta.generator, kind);
        let rows = all_rows(&dataset).num_rows() as u64;
        assert_eq!(rows, dataset.row_count(), "{kind}: rows read = rows stored");
    }
}

#[test]
fn exported_dataset_reads_back_as_the_archive_rows() {
    let tmp = TempDir::new("pq-export");
    let archive_path = tmp.join("mazes.arrow");
    let mut args = SMALL.to_vec();
    args.extend_from_slice(&["--count", "700", "--chunk-size", "128", "--seed", "3"]);
    generate(&archive_path, &args);
    let dir = tmp.join("ds");
    let out = warren([
        "export",
        archive_path.to_str().unwrap(),
        "--parquet",
        dir.to_str().unwrap(),
    ]);
    assert_succeeded(&out, "export --parquet");
    assert!(
        stderr(&out).contains("700 levels written to"),
        "{}",
        stderr(&out)
    );
    assert_splits_verify(&dir, 1);

    let archive = Archive::open(&archive_path).unwrap();
    let dataset = ParquetDataset::open(&dir, "train").unwrap();
    assert_eq!(dataset.schema(), archive.schema(), "schema and metadata");
    let (ours, theirs) = (all_rows(&dataset), all_rows(&archive));
    assert_eq!(ours.num_rows(), 700);
    assert_eq!(ours, theirs, "the archive's rows, grids included");
    let mut footer = archive.footer_metadata().clone();
    assert!(
        footer.remove(FOOTER_BATCH_CRC32).is_some(),
        "archives carry checksums"
    );
    assert_eq!(
        dataset.footer_metadata(),
        &footer,
        "footer minus IPC checksums"
    );
}

#[test]
fn damaged_data_file_fails_verify_naming_the_file() {
    let tmp = TempDir::new("pq-damage");
    let dir = tmp.join("ds");
    let mut args = SMALL.to_vec();
    args.extend_from_slice(&["--count", "400"]);
    generate_parquet("maze", &dir, &args);
    let file = dir.join(TRAIN);
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    for (k, b) in bytes[middle..middle + 64].iter_mut().enumerate() {
        *b ^= 0xA5 ^ k as u8;
    }
    std::fs::write(&file, &bytes).unwrap();
    let out = warren(["verify", dir.to_str().unwrap()]);
    let code = exit_code(&out);
    assert_ne!(code, 0, "damage went unnoticed: {}", stdout(&out));
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    if code == 2 {
        assert_one_line_error(&out, "verify of a damaged file");
    }
    let text = format!("{}{}", stdout(&out), stderr(&out));
    let named = text
        .lines()
        .filter(|l| l.contains("train-00000-of-00001.parquet"))
        .count();
    assert!(named >= 1, "no line names the damaged file: {text}");
}

#[test]
fn missing_or_miscounted_data_files_are_named() {
    let tmp = TempDir::new("pq-missing");
    let dir = tmp.join("ds");
    generate_parquet("coloring", &dir, &["--count", "20"]);
    // The only file now claims to be the first of two: the second is missing.
    let data = dir.join("data");
    std::fs::rename(dir.join(TRAIN), data.join("train-00000-of-00002.parquet")).unwrap();
    let out = warren(["verify", dir.to_str().unwrap()]);
    assert_eq!(exit_code(&out), 2);
    assert_one_line_error(&out, "verify with a file missing");
    assert!(
        stderr(&out).contains("train-00001-of-00002.parquet"),
        "{}",
        stderr(&out)
    );
    // A file that says one of three among files of two.
    std::fs::copy(
        data.join("train-00000-of-00002.parquet"),
        data.join("train-00001-of-00003.parquet"),
    )
    .unwrap();
    let out = warren(["verify", dir.to_str().unwrap()]);
    assert_one_line_error(&out, "verify with files of two counts");
    assert!(
        stderr(&out).contains("train-00001-of-00003.parquet"),
        "{}",
        stderr(&out)
    );
    // No data files at all.
    let empty = tmp.join("empty");
    std::fs::create_dir_all(empty.join("data")).unwrap();
    let out = warren(["verify", empty.to_str().unwrap()]);
    assert_one_line_error(&out, "verify of an empty dataset");
    assert!(stderr(&out).contains("data"), "{}", stderr(&out));
}

#[test]
fn parquet_splits_verify_and_add_up_to_the_source() {
    let tmp = TempDir::new("pq-split");
    let archive_path = tmp.join("mazes.arrow");
    let mut args = SMALL.to_vec();
    args.extend_from_slice(&["--count", "600", "--chunk-size", "100"]);
    generate(&archive_path, &args);
    let dir = tmp.join("splits");
    let out = warren([
        "split",
        archive_path.to_str().unwrap(),
        "--format",
        "parquet",
        "--out",
        dir.to_str().unwrap(),
        "--quiet",
    ]);
    assert_succeeded(&out, "split --format parquet");
    assert_eq!(
        dataset_splits(&dir).unwrap(),
        ["train", "validation", "test"]
    );
    assert_splits_verify(&dir, 3);
    let mut total = 0;
    for split in ["train", "validation", "test"] {
        let dataset = ParquetDataset::open(&dir, split).unwrap();
        let meta = RunMeta::from_schema(dataset.schema()).unwrap();
        let record = meta.split.expect("a warren.split record");
        let ours = if split == "validation" { "val" } else { split };
        assert_eq!(record.name, ours);
        assert_eq!(record.source, "mazes.arrow");
        let rows = all_rows(&dataset).num_rows();
        assert!(rows > 0, "{split} is empty");
        total += rows;
    }
    assert_eq!(total, 600, "every level in one split");
}
