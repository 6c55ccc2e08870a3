//! A resumable writer on a disk that fills up ([`super::full_disk`]): the archive or its
//! progress record stops taking bytes at a chosen point. The error says the levels are kept,
//! both files stay, the record claims only chunks whose bytes are all in the file, and a resume
//! once there is room ends in the bytes of an uninterrupted run. A failure before any chunk
//! was recorded leaves nothing, as before.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use arrow_array::{ArrayRef, BinaryArray, RecordBatch, UInt32Array};
use arrow_schema::{DataType, Field, Schema};

use super::full_disk;
use crate::archive::{
    ArchiveError, ArchiveWriter, Checkpoint, Compression, ResumeKey, ResumePlan, plan_resume,
    progress_path, temp_path,
};

/// Batches per run.
const BATCHES: usize = 40;
/// Rows per batch.
const ROWS: usize = 1000;
/// Each batch is one chunk.
const KEY: ResumeKey = ResumeKey {
    chunk_size: 1,
    inputs: 0,
};

fn schema() -> Arc<Schema> {
    Arc::new(Schema::new(vec![
        Field::new("x", DataType::UInt32, false),
        Field::new("grid", DataType::Binary, false),
    ]))
}

/// `BATCHES` batches of about 250 KB each, every one different.
fn batches(schema: &Arc<Schema>) -> Vec<RecordBatch> {
    (0..BATCHES as u32)
        .map(|b| {
            let x: ArrayRef = Arc::new(UInt32Array::from_iter_values(
                (0..ROWS as u32).map(|i| i * 7 + b),
            ));
            let rows: Vec<Vec<u8>> = (0..ROWS)
                .map(|i| vec![(i as u32 * 31 + b) as u8; 250])
                .collect();
            let grid: ArrayRef = Arc::new(BinaryArray::from_iter_values(&rows));
            RecordBatch::try_new(schema.clone(), vec![x, grid]).unwrap()
        })
        .collect()
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warren-full-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The room this thread's new files have, until dropped.
struct Room;

impl Room {
    fn set(archive: Option<u64>, record: Option<u64>) -> Self {
        full_disk::ARCHIVE.with(|c| c.set(archive));
        full_disk::RECORD.with(|c| c.set(record));
        Room
    }
}

impl Drop for Room {
    fn drop(&mut self) {
        full_disk::ARCHIVE.with(|c| c.set(None));
        full_disk::RECORD.with(|c| c.set(None));
    }
}

/// Writes `batches` from chunk `from` with a checkpoint after each, and finishes. With `pace`
/// each chunk waits past the record's interval, so its staged bytes go out and its line is
/// written at once.
fn write_from(
    mut writer: ArchiveWriter,
    batches: &[RecordBatch],
    from: usize,
    pace: bool,
) -> Result<u64, ArchiveError> {
    for (i, batch) in batches.iter().enumerate().skip(from) {
        if pace {
            std::thread::sleep(crate::archive::journal::PROGRESS_EVERY + Duration::from_millis(1));
        }
        writer.write(batch)?;
        let chunks = i as u64 + 1;
        writer.checkpoint(&Checkpoint {
            chunks,
            kept: chunks * ROWS as u64,
            ..Checkpoint::default()
        })?;
    }
    writer.finish(&[])
}

/// A fresh resumable run onto `path`, with the room `room` gives.
fn run(path: &Path, batches: &[RecordBatch], pace: bool, room: Room) -> Result<u64, ArchiveError> {
    let writer = ArchiveWriter::create_resumable(path, &schema(), Compression::None, &KEY);
    let result = writer.and_then(|w| write_from(w, batches, 0, pace));
    drop(room);
    result
}

/// Checks what a failed run left at `path` and resumes it with room to spare; returns the
/// chunks the resume kept.
fn resume(path: &Path, batches: &[RecordBatch], levels_in_error: u64) -> u64 {
    let tmp = temp_path(path);
    assert!(
        tmp.exists() && progress_path(&tmp).exists(),
        "files removed"
    );
    assert!(!path.exists(), "a file under the final name");
    let file_len = std::fs::metadata(&tmp).unwrap().len();
    let ResumePlan::Continue(found) =
        plan_resume(path, &schema(), Compression::None, &KEY).unwrap()
    else {
        panic!("nothing to resume");
    };
    // Every chunk the record claims is in the file, whole and matching its checksum.
    assert_eq!(found.dropped_chunks, 0, "the record claimed damaged chunks");
    assert!(found.len_bytes() <= file_len);
    let chunks = found.checkpoint.as_ref().unwrap().chunks;
    assert!(chunks >= 1);
    assert_eq!(found.levels(), levels_in_error, "the error's count");
    let writer = ArchiveWriter::resume(path, &schema(), Compression::None, found).unwrap();
    write_from(writer, batches, chunks as usize, false).unwrap();
    assert!(!tmp.exists() && !progress_path(&tmp).exists());
    chunks
}

/// The levels an error says are kept, after asserting it is the kept kind naming `named`.
fn kept_levels(error: &ArchiveError, named: &Path) -> u64 {
    let text = error.to_string();
    assert!(
        text.contains(&named.display().to_string())
            && text.contains("No space left on device")
            && text.contains(
                "levels written so far are kept: free space and run the same command with --resume"
            ),
        "{text}"
    );
    match error {
        ArchiveError::Kept { levels, .. } => *levels,
        other => panic!("not kept: {other:?}"),
    }
}

#[test]
fn a_full_disk_keeps_a_resumable_run_that_ends_in_the_same_bytes() {
    let dir = temp_dir("archive");
    let schema = schema();
    let batches = batches(&schema);
    let whole = dir.join("whole.arrow");
    run(&whole, &batches, false, Room::set(None, None)).unwrap();
    let expected = std::fs::read(&whole).unwrap();
    assert!(
        expected.len() > 9 << 20,
        "too small to fill the stage twice"
    );

    // Unpaced, the disk fills at a stage write; paced, at a block written ahead. The rooms
    // are not block multiples, so the failing write puts part of its bytes.
    for (pace, room) in [(false, 6_000_123), (true, 3_000_123), (true, 600_001)] {
        let out = dir.join(format!("out-{pace}-{room}.arrow"));
        let error = run(&out, &batches, pace, Room::set(Some(room), None)).unwrap_err();
        let levels = kept_levels(&error, &temp_path(&out));
        assert!(std::fs::metadata(temp_path(&out)).unwrap().len() <= room);
        let chunks = resume(&out, &batches, levels);
        assert!(
            std::fs::read(&out).unwrap() == expected,
            "resumed bytes differ"
        );
        println!("room {room} (paced {pace}): resumed after {chunks} chunks");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_full_disk_under_the_progress_record_keeps_its_whole_lines() {
    let dir = temp_dir("record");
    let schema = schema();
    let batches = batches(&schema);
    let whole = dir.join("whole.arrow");
    run(&whole, &batches, false, Room::set(None, None)).unwrap();
    let expected = std::fs::read(&whole).unwrap();

    let out = dir.join("out.arrow");
    let room = 1_000;
    let error = run(&out, &batches, true, Room::set(None, Some(room))).unwrap_err();
    let record = progress_path(&temp_path(&out));
    let levels = kept_levels(&error, &record);
    let text = std::fs::read(&record).unwrap();
    assert_eq!(text.len() as u64, room, "the failing line was not torn");
    assert_ne!(text.last(), Some(&b'\n'));
    resume(&out, &batches, levels);
    assert!(
        std::fs::read(&out).unwrap() == expected,
        "resumed bytes differ"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_full_disk_before_any_chunk_is_recorded_leaves_nothing() {
    let dir = temp_dir("early");
    let schema = schema();
    let batches = batches(&schema);
    let out = dir.join("out.arrow");
    let error = run(&out, &batches, false, Room::set(Some(4096), None)).unwrap_err();
    assert!(
        matches!(&error, ArchiveError::Io { source, .. } if source.raw_os_error() == Some(28)),
        "{error:?}"
    );
    let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(left.is_empty(), "left {left:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
