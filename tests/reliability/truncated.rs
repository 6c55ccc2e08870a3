//! An archive opened with the safe reader ([`Archive::open`]) whose file is cut short or written
//! over by someone else afterwards: batches already read stay valid, later reads fail with an
//! error naming the file, and nothing crashes (a mapped reader would take `SIGBUS` or read
//! changed bytes behind shared references). The mapped reader decodes the same batches.

use std::fs::OpenOptions;
use std::io::{Seek, SeekFrom, Write};
use std::path::PathBuf;

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use warren::archive::Archive;

use crate::common::{SMALL, TempDir, generate};

/// A 320-level archive in record batches of 32 (ten batches).
fn ten_batches(dir: &TempDir) -> PathBuf {
    let out = dir.join("levels.arrow");
    let mut args = vec!["--count", "320", "--seed", "9", "--chunk-size", "32"];
    args.extend(SMALL);
    generate(&out, &args);
    out
}

/// The `index` column of `batch`.
fn indices(batch: &arrow_array::RecordBatch) -> Vec<u64> {
    let column = batch.column_by_name("index").expect("an index column");
    column.as_primitive::<UInt64Type>().values().to_vec()
}

#[test]
fn an_archive_cut_short_after_open_fails_cleanly() {
    let dir = TempDir::new("cut");
    let out = ten_batches(&dir);
    let archive = Archive::open(&out).unwrap();
    assert!(!archive.is_mapped());
    assert_eq!(archive.batch_count(), 10);
    let first = archive.batch(0).unwrap();

    let file = OpenOptions::new().write(true).open(&out).unwrap();
    file.set_len(archive.file_len() as u64 / 2).unwrap();
    drop(file);

    let (mut read, mut failed) = (0, 0);
    for i in 0..archive.batch_count() {
        match archive.batch(i) {
            Ok(batch) => {
                assert_eq!(
                    indices(&batch),
                    (32 * i as u64..32 * (i as u64 + 1)).collect::<Vec<_>>()
                );
                read += 1;
            }
            Err(e) => {
                let message = e.to_string();
                assert!(message.contains(&*out.to_string_lossy()), "{message}");
                assert!(message.contains("shrank"), "{message}");
                failed += 1;
            }
        }
    }
    assert!(
        read >= 3,
        "batches before the cut should still read: {read}"
    );
    assert!(failed >= 3, "batches past the cut should fail: {failed}");
    // A batch read before the cut owns its bytes.
    assert_eq!(indices(&first), (0..32).collect::<Vec<_>>());
}

#[test]
fn an_archive_written_over_after_open_fails_its_checksums() {
    let dir = TempDir::new("rewritten");
    let out = ten_batches(&dir);
    let archive = Archive::open(&out).unwrap();
    let len = archive.file_len();

    // Another program writes over the record batches in place (the footer survives).
    let mut file = OpenOptions::new().write(true).open(&out).unwrap();
    file.seek(SeekFrom::Start(64)).unwrap();
    file.write_all(&vec![0x5A; len / 2]).unwrap();
    drop(file);

    let mut failed = 0;
    for i in 0..archive.batch_count() {
        if let Err(e) = archive.batch(i) {
            let message = e.to_string();
            assert!(message.contains("not a valid warren archive"), "{message}");
            failed += 1;
        }
    }
    assert!(failed >= 4, "only {failed} damaged batches were noticed");
}

#[test]
fn mapped_and_read_archives_decode_the_same_batches() {
    let dir = TempDir::new("mapped");
    let out = ten_batches(&dir);
    let read = Archive::open(&out).unwrap();
    // SAFETY: the file is this test's own, in its own temporary folder; nothing writes it while
    // the archive is open.
    let mapped = unsafe { Archive::open_mapped(&out) }.unwrap();
    assert!(mapped.is_mapped());
    assert_eq!(read.batch_count(), mapped.batch_count());
    assert_eq!(read.file_len(), mapped.file_len());
    for i in 0..read.batch_count() {
        assert_eq!(
            read.batch(i).unwrap(),
            mapped.batch(i).unwrap(),
            "batch {i}"
        );
        mapped.release(i);
    }
    assert_eq!(read.footer_metadata(), mapped.footer_metadata());
}
