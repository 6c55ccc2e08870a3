//! Compressed batches: they decode to what was written, the archive says how it is compressed,
//! and a damaged uncompressed length is an error before the decoder allocates anything.

use std::sync::Arc;

use arrow_array::{ArrayRef, BinaryArray, RecordBatch, UInt32Array};
use arrow_schema::{DataType, Field, Schema};

use super::*;
use crate::archive::ArchiveWriter;

/// A two-batch archive of a `u32` column and a binary one, written with `compression`.
fn write(dir: &Path, compression: Compression) -> (PathBuf, Vec<RecordBatch>) {
    let schema = Arc::new(Schema::new(vec![
        Field::new("x", DataType::UInt32, false),
        Field::new("grid", DataType::Binary, false),
    ]));
    let path = dir.join(format!("{}.arrow", compression.name()));
    let mut writer = ArchiveWriter::create_compressed(&path, &schema, compression).unwrap();
    let batches: Vec<RecordBatch> = (0..2u32)
        .map(|b| {
            let x: ArrayRef = Arc::new(UInt32Array::from_iter_values((0..500).map(|i| i / 7 + b)));
            let rows: Vec<Vec<u8>> = (0..500).map(|i| vec![(i % 3) as u8; 200]).collect();
            let grid: ArrayRef = Arc::new(BinaryArray::from_iter_values(&rows));
            RecordBatch::try_new(schema.clone(), vec![x, grid]).unwrap()
        })
        .collect();
    for batch in &batches {
        writer.write(batch).unwrap();
    }
    writer.finish(&[]).unwrap();
    (path, batches)
}

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warren-reader-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn compressed_batches_decode_to_what_was_written() {
    let dir = temp_dir("codecs");
    let mut sizes = Vec::new();
    for compression in Compression::ALL {
        let (path, batches) = write(&dir, compression);
        let archive = Archive::open(&path).unwrap();
        assert_eq!(archive.compression().unwrap(), compression);
        for (i, batch) in batches.iter().enumerate() {
            assert_eq!(
                &archive.batch(i).unwrap(),
                batch,
                "{compression:?} batch {i}"
            );
        }
        // SAFETY: the file is this test's own and nothing writes it while mapped.
        let mapped = unsafe { Archive::open_mapped(&path) }.unwrap();
        assert_eq!(
            &mapped.batch(1).unwrap(),
            &batches[1],
            "{compression:?} mapped"
        );
        sizes.push(archive.file_len());
    }
    assert!(
        sizes[1] * 4 < sizes[0] && sizes[2] * 4 < sizes[0],
        "{sizes:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Writes `prefix` as the uncompressed length of the first non-empty buffer of batch 0 (of
/// every one with `all`), and returns the error decoding it gives.
fn damaged_prefix(dir: &Path, compression: Compression, prefix: i64) -> ArchiveError {
    damaged_prefixes(dir, compression, prefix, false)
}

fn damaged_prefixes(dir: &Path, compression: Compression, prefix: i64, all: bool) -> ArchiveError {
    let (path, _) = write(dir, compression);
    let archive = Archive::open(&path).unwrap();
    let block = archive.blocks[0];
    let (start, meta_len) = (block.offset() as usize, block.metaDataLength() as usize);
    let mut bytes = std::fs::read(&path).unwrap();
    let header = parse_batch_header(&bytes[start..start + meta_len]).unwrap();
    let buffers: Vec<_> = header
        .buffers()
        .unwrap()
        .iter()
        .filter(|b| b.length() >= 8)
        .map(|b| b.offset() as usize)
        .take(if all { usize::MAX } else { 1 })
        .collect();
    assert!(!buffers.is_empty(), "a compressed buffer");
    for offset in buffers {
        let at = start + meta_len + offset;
        bytes[at..at + 8].copy_from_slice(&prefix.to_le_bytes());
    }
    std::fs::write(&path, &bytes).unwrap();
    let archive = Archive::open(&path).unwrap();
    let checksum = archive.batch(0).expect_err("the checksum passed");
    assert!(checksum.to_string().contains("checksum"), "{checksum}");
    archive
        .batch_unchecked(0)
        .expect_err("the damaged batch decoded")
}

#[test]
fn a_damaged_uncompressed_length_is_refused_before_decoding() {
    let dir = temp_dir("prefix");
    for compression in [Compression::Zstd, Compression::Lz4] {
        let huge = damaged_prefix(&dir, compression, 1 << 50);
        assert!(
            matches!(
                huge,
                ArchiveError::Message {
                    error: MessageError::Inflates { .. },
                    ..
                }
            ),
            "{huge}"
        );
        // Every buffer's length near i64::MAX: their sum passes u64::MAX.
        let wrapping = damaged_prefixes(&dir, compression, i64::MAX, true);
        assert!(
            matches!(
                wrapping,
                ArchiveError::Message {
                    error: MessageError::Inflates { .. },
                    ..
                }
            ),
            "{wrapping}"
        );
        let negative = damaged_prefix(&dir, compression, -5);
        assert!(
            matches!(
                negative,
                ArchiveError::Message {
                    error: MessageError::UncompressedLength { length: -5, .. },
                    ..
                }
            ),
            "{negative}"
        );
        // A plausible but wrong length: the codec's own check, an error, not a panic.
        let wrong = damaged_prefix(&dir, compression, 3);
        assert!(wrong.to_string().contains("record batch 0"), "{wrong}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
