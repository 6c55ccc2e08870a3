//! The archive's metadata as stored: JSON values read back typed, archives of warren 0.2's
//! layout refused by every command with a message naming the version, and damaged values
//! refused with a one-line error naming their key.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::Schema;
use warren::archive::{
    Archive, ArchiveWriter, FOOTER_BATCH_CRC32, FOOTER_FAILURES, FOOTER_LEVELS, META_FORMAT,
    META_SHARD, META_VERSION, RunFooter, RunMeta,
};
use warren::batch::{Shard, ShardMeta};

use crate::common::{
    SMALL, TempDir, assert_one_line_error, exit_code, generate, stderr, warren, warren_fails,
};

/// The one-line refusal of an archive of warren 0.2's layout.
const TOO_OLD: &str =
    "archive format 0.2 (warren 0.2.0) is older than this warren reads (3); regenerate it";

/// Rewrites the archive `from` into `to` with schema metadata `metadata` and footer `footer`,
/// written by Arrow's own writer (so the footer holds exactly `footer`, checksums included).
fn rewrite(from: &Path, to: &Path, metadata: HashMap<String, String>, footer: &[(&str, String)]) {
    let source = Archive::open(from).unwrap();
    let schema = Arc::new(Schema::new_with_metadata(
        source.schema().fields().clone(),
        metadata,
    ));
    let file = std::fs::File::create(to).unwrap();
    let mut writer = arrow_ipc::writer::FileWriter::try_new(file, &schema).unwrap();
    for i in 0..source.batch_count() {
        let batch = source.batch(i).unwrap();
        let batch = RecordBatch::try_new(schema.clone(), batch.columns().to_vec()).unwrap();
        writer.write(&batch).unwrap();
    }
    for (k, v) in footer {
        writer.write_metadata(*k, v.clone());
    }
    writer.finish().unwrap();
}

/// A fresh archive of 300 small mazes in `dir`, in batches of 100.
fn fresh(dir: &TempDir) -> std::path::PathBuf {
    let path = dir.join("fresh.arrow");
    let args = [&SMALL[..], &["--count", "300", "--chunk-size", "100"]].concat();
    generate(&path, &args);
    path
}

#[test]
fn metadata_values_are_json_and_read_back_typed() {
    let dir = TempDir::new("format-json");
    let path = dir.join("shard.arrow");
    let args = [&SMALL[..], &["--count", "1000", "--shard", "1/4"]].concat();
    generate(&path, &args);
    let archive = Archive::open(&path).unwrap();
    assert_eq!(archive.meta(META_FORMAT), Some("3"));
    assert_eq!(
        archive.meta(META_SHARD),
        Some(r#"{"index":1,"count":4,"total":1000,"start":250,"end":500}"#)
    );
    let run = RunMeta::from_archive(&archive).unwrap();
    assert_eq!(
        run.shard,
        Some(ShardMeta::new(Shard { index: 1, count: 4 }, 1000))
    );
    assert_eq!((run.generator.as_str(), run.master_seed), ("maze", 0));
    assert_eq!(run.cell_codes.get(&1).map(String::as_str), Some("floor"));
    let footer = archive.footer_metadata();
    assert_eq!(footer[FOOTER_FAILURES], "{}");
    let crcs: Vec<u32> = serde_json::from_str(&footer[FOOTER_BATCH_CRC32]).unwrap();
    assert_eq!(crcs.len(), archive.batch_count());
    assert_eq!(RunFooter::from_archive(&archive).unwrap().levels, 250);
}

#[test]
fn an_archive_of_warren_0_2_is_refused_by_every_command_naming_its_version() {
    let dir = TempDir::new("format-0-2");
    let source = fresh(&dir);
    let old = dir.join("old.arrow");
    // warren 0.2's layout: no `warren.format`, a prose shard record, hex checksums with commas.
    let mut metadata: HashMap<String, String> =
        Archive::open(&source).unwrap().schema().metadata().into();
    metadata.remove(META_FORMAT);
    metadata.insert(META_VERSION.into(), "0.2.0".into());
    metadata.insert(META_SHARD.into(), "0/1 of 300 levels: 0..300".into());
    let footer = [
        (FOOTER_LEVELS, "300".to_string()),
        (FOOTER_FAILURES, "{}".to_string()),
        (FOOTER_BATCH_CRC32, "9e3a4c21,0d2f7b10,77c3e0a5".to_string()),
    ];
    rewrite(&source, &old, metadata, &footer);

    let e = Archive::open(&old).unwrap_err().to_string();
    assert_eq!(e, format!("{}: {TOO_OLD}", old.display()));
    let merged = dir.join("merged.arrow");
    let out = dir.join("old.svg");
    let commands: [Vec<&std::ffi::OsStr>; 4] = [
        vec!["inspect".as_ref(), old.as_os_str()],
        vec!["verify".as_ref(), old.as_os_str()],
        vec!["merge".as_ref(), merged.as_os_str(), old.as_os_str()],
        vec![
            "render".as_ref(),
            old.as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
        ],
    ];
    for args in commands {
        warren_fails(&args, &[TOO_OLD]);
        let what = format!("warren {args:?}");
        assert!(!merged.exists() && !out.exists(), "{what} wrote a file");
    }
}

#[test]
fn damaged_metadata_is_a_one_line_error_naming_its_key() {
    let dir = TempDir::new("format-damaged");
    let source = fresh(&dir);
    let metadata: HashMap<String, String> =
        Archive::open(&source).unwrap().schema().metadata().into();
    let good_footer = || {
        let footer = RunFooter::from_archive(&Archive::open(&source).unwrap()).unwrap();
        footer.to_metadata()
    };

    // A shard record whose range is not its shard's.
    let wrong_range = dir.join("wrong-range.arrow");
    let mut bad = metadata.clone();
    bad.insert(
        META_SHARD.into(),
        r#"{"index":0,"count":1,"total":300,"start":0,"end":299}"#.into(),
    );
    let schema = Schema::new_with_metadata(
        Archive::open(&source).unwrap().schema().fields().clone(),
        bad,
    );
    let writer = ArchiveWriter::create(&wrong_range, &schema).unwrap();
    writer.finish(&good_footer()).unwrap();

    // A failure histogram in prose.
    let prose_failures = dir.join("prose-failures.arrow");
    let mut footer: Vec<(&str, String)> = vec![(FOOTER_LEVELS, "300".into())];
    footer.push((FOOTER_FAILURES, "none".into()));
    rewrite(&source, &prose_failures, metadata, &footer);

    let merged = dir.join("merged.arrow");
    let cases = [
        (
            vec!["verify".as_ref(), wrong_range.as_os_str()],
            "warren.shard `{\"index\":0,\"count\":1,\"total\":300,\"start\":0,\"end\":299}` is \
             not the shard's record: shard 0/1 of 300 levels is 0..300, not 0..299",
        ),
        (
            vec![
                "merge".as_ref(),
                merged.as_os_str(),
                prose_failures.as_os_str(),
            ],
            "warren.failures `none` is not a JSON object of counts",
        ),
        (
            vec!["inspect".as_ref(), prose_failures.as_os_str()],
            "warren.failures `none` is not a JSON object of counts",
        ),
    ];
    for (args, want) in cases {
        let output = warren(&args);
        let what = format!("warren {args:?}");
        assert_eq!(exit_code(&output), 2, "{what}: {}", stderr(&output));
        assert_one_line_error(&output, &what);
        assert!(
            stderr(&output).contains(want),
            "{what}: {}",
            stderr(&output)
        );
    }
}
