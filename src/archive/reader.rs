//! The archive reader: maps the file with memmap2 and decodes record batches without copying
//! (Arrow buffers point into the mapping). It validates before it trusts: magic bytes, footer
//! bounds, the footer and every message flatbuffer, every block and buffer range, then Arrow's
//! own array validation, so a truncated or corrupt file gives an error, never a panic.

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_buffer::Buffer;
use arrow_ipc::reader::{FileDecoder, read_footer_length};
use arrow_ipc::{Block, MessageHeader, MetadataVersion};
use arrow_schema::SchemaRef;
use memmap2::Mmap;

use crate::archive::error::ArchiveError;
use crate::archive::writer::FOOTER_BATCH_CRC32;

const MAGIC: &[u8; 6] = b"ARROW1";
const CONTINUATION: [u8; 4] = [0xFF; 4];

/// A memory-mapped archive.
pub struct Archive {
    path: PathBuf,
    mmap: Arc<Mmap>,
    buffer: Buffer,
    schema: SchemaRef,
    blocks: Vec<Block>,
    footer_metadata: HashMap<String, String>,
    crcs: Vec<u32>,
    decoder: FileDecoder,
}

impl std::fmt::Debug for Archive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Archive")
            .field("path", &self.path)
            .field("batches", &self.blocks.len())
            .finish()
    }
}

impl Archive {
    /// Maps and validates the file's framing, footer and schema.
    ///
    /// # Runtime
    /// O(batches); reads only the footer. No level data is touched until [`Archive::batch`].
    pub fn open(path: &Path) -> Result<Self, ArchiveError> {
        let corrupt = |reason: String| ArchiveError::Corrupt {
            path: path.to_path_buf(),
            reason,
        };
        let file = File::open(path).map_err(|source| ArchiveError::Io {
            path: path.to_path_buf(),
            action: "cannot open",
            source,
        })?;
        let len = file.metadata().map(|m| m.len()).unwrap_or(0) as usize;
        if len < 8 + 10 {
            return Err(corrupt(format!(
                "file is {len} bytes, too short for an Arrow IPC file"
            )));
        }
        // SAFETY: the mapping is read-only and private to this process. warren never writes an
        // archive in place (it writes FILE.tmp and renames), so the bytes cannot change under us
        // unless another program truncates or rewrites the file while it is open, which we
        // document as unsupported, as every mmap-based reader must.
        let mmap = unsafe { Mmap::map(&file) }.map_err(|source| ArchiveError::Io {
            path: path.to_path_buf(),
            action: "cannot map",
            source,
        })?;
        let mmap = Arc::new(mmap);
        let ptr = NonNull::new(mmap.as_ptr() as *mut u8)
            .ok_or_else(|| corrupt("empty mapping".into()))?;
        // SAFETY: `ptr` and `len` describe the mapping, which the Arc keeps alive for as long as
        // any Buffer slice of it exists.
        let buffer = unsafe { Buffer::from_custom_allocation(ptr, mmap.len(), mmap.clone()) };
        let bytes = buffer.as_slice();
        if &bytes[..6] != MAGIC {
            return Err(corrupt("missing ARROW1 magic at the start".into()));
        }
        let trailer: [u8; 10] = bytes[len - 10..].try_into().expect("10 bytes");
        let footer_len = read_footer_length(trailer)
            .map_err(|_| corrupt("missing ARROW1 magic at the end (truncated?)".into()))?;
        if footer_len == 0 || footer_len > len - 10 - 8 {
            return Err(corrupt(format!(
                "footer length {footer_len} does not fit the file"
            )));
        }
        let footer_start = len - 10 - footer_len;
        let footer = arrow_ipc::root_as_footer(&bytes[footer_start..len - 10])
            .map_err(|e| corrupt(format!("footer does not parse: {e}")))?;
        let fb_schema = footer
            .schema()
            .ok_or_else(|| corrupt("footer has no schema".into()))?;
        let schema = Arc::new(
            arrow_ipc::convert::try_fb_to_schema(fb_schema)
                .map_err(|e| corrupt(format!("schema does not parse: {e}")))?,
        );
        let blocks: Vec<Block> = footer
            .recordBatches()
            .map(|v| v.iter().copied().collect())
            .unwrap_or_default();
        for (i, b) in blocks.iter().enumerate() {
            let (off, meta, body) = (b.offset(), i64::from(b.metaDataLength()), b.bodyLength());
            let end = off.checked_add(meta).and_then(|x| x.checked_add(body));
            let ok =
                off >= 8 && meta >= 8 && body >= 0 && end.is_some_and(|e| e <= footer_start as i64);
            if !ok {
                return Err(corrupt(format!("record batch {i} lies outside the file")));
            }
        }
        if footer.dictionaries().is_some_and(|d| !d.is_empty()) {
            return Err(corrupt(
                "dictionary batches are not used by warren archives".into(),
            ));
        }
        let footer_metadata: HashMap<String, String> = footer
            .custom_metadata()
            .map(|kvs| {
                kvs.iter()
                    .filter_map(|kv| Some((kv.key()?.to_string(), kv.value()?.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        let version = footer.version();
        if version != MetadataVersion::V5 && version != MetadataVersion::V4 {
            return Err(corrupt(format!("unsupported metadata version {version:?}")));
        }
        let crcs: Vec<u32> = match footer_metadata.get(FOOTER_BATCH_CRC32) {
            None => Vec::new(),
            Some(list) => {
                let parsed: Option<Vec<u32>> = list
                    .split(',')
                    .filter(|s| !s.is_empty())
                    .map(|h| u32::from_str_radix(h, 16).ok())
                    .collect();
                match parsed {
                    Some(c) if c.len() == blocks.len() => c,
                    _ => return Err(corrupt("batch checksums do not match the batches".into())),
                }
            }
        };
        let decoder = FileDecoder::new(schema.clone(), version).with_require_alignment(false);
        // Read-ahead suits the front-to-back scans of inspect and verify; advice is only a hint.
        #[cfg(unix)]
        let _ = mmap.advise(memmap2::Advice::Sequential);
        Ok(Self {
            path: path.to_path_buf(),
            mmap,
            buffer,
            schema,
            blocks,
            footer_metadata,
            crcs,
            decoder,
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The schema, with the `warren.*` metadata.
    pub fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    /// A schema metadata value.
    pub fn meta(&self, key: &str) -> Option<&str> {
        self.schema.metadata().get(key).map(String::as_str)
    }

    /// Key/value metadata written into the footer when the run finished.
    pub fn footer_metadata(&self) -> &HashMap<String, String> {
        &self.footer_metadata
    }

    /// Number of record batches.
    pub fn batch_count(&self) -> usize {
        self.blocks.len()
    }

    /// Size of the mapped file in bytes.
    pub fn file_len(&self) -> usize {
        self.buffer.len()
    }

    /// Lets the kernel drop the resident pages of batch `i` once a scan is done with it, so that
    /// scanning a file larger than memory keeps the resident set small. A later access simply
    /// reads the pages again. Best effort; does nothing off Unix.
    pub fn release(&self, i: usize) {
        #[cfg(unix)]
        if let Some(block) = self.blocks.get(i) {
            const PAGE: usize = 4096;
            let start = (block.offset() as usize).next_multiple_of(PAGE);
            let end = (block.offset() as usize
                + block.metaDataLength() as usize
                + block.bodyLength() as usize)
                / PAGE
                * PAGE;
            if end > start {
                // SAFETY: the mapping is private and read-only and the file is not modified, so
                // MADV_DONTNEED only discards clean pages, which fault back in from the file
                // with the same bytes; no Rust reference can observe a difference.
                let _ = unsafe {
                    self.mmap.unchecked_advise_range(
                        memmap2::UncheckedAdvice::DontNeed,
                        start,
                        end - start,
                    )
                };
            }
        }
    }

    /// Decodes record batch `i` without copying level data, after checking its checksum.
    ///
    /// # Runtime
    /// O(batch bytes) for the CRC-32 (> 10 GB/s) plus Arrow's validation of offsets (O(rows));
    /// buffers alias the mapping.
    pub fn batch(&self, i: usize) -> Result<RecordBatch, ArchiveError> {
        self.check_batch(i)?;
        self.batch_unchecked(i)
    }

    /// Checks batch `i`'s bytes against the checksum in the footer (archives without checksums
    /// pass).
    pub fn check_batch(&self, i: usize) -> Result<(), ArchiveError> {
        let (data, _, _) = self.block_bytes(i)?;
        if let Some(&want) = self.crcs.get(i) {
            let got = crc32fast::hash(&data);
            if got != want {
                return Err(self.corrupt(format!(
                    "record batch {i}: checksum {got:08x}, footer says {want:08x}"
                )));
            }
        }
        Ok(())
    }

    /// Decodes batch `i` without the checksum test (structure is still validated): `verify`
    /// uses it to name the damaged levels of a batch whose checksum failed.
    pub fn batch_unchecked(&self, i: usize) -> Result<RecordBatch, ArchiveError> {
        let (data, meta_len, body_len) = self.block_bytes(i)?;
        let block = &self.blocks[i];
        check_message(&data, meta_len, body_len)
            .map_err(|r| self.corrupt(format!("record batch {i}: {r}")))?;
        self.decoder
            .read_record_batch(block, &data)
            .map_err(|e| self.corrupt(format!("record batch {i}: {e}")))?
            .ok_or_else(|| self.corrupt(format!("record batch {i} is empty")))
    }

    fn corrupt(&self, reason: String) -> ArchiveError {
        ArchiveError::Corrupt {
            path: self.path.clone(),
            reason,
        }
    }

    /// The bytes of block `i` (bounds were checked at open), with its metadata and body lengths.
    fn block_bytes(&self, i: usize) -> Result<(Buffer, usize, usize), ArchiveError> {
        let block = self
            .blocks
            .get(i)
            .ok_or_else(|| self.corrupt(format!("no record batch {i}")))?;
        let meta_len = block.metaDataLength() as usize;
        let body_len = block.bodyLength() as usize;
        let data = self
            .buffer
            .slice_with_length(block.offset() as usize, meta_len + body_len);
        Ok((data, meta_len, body_len))
    }
}

/// Checks an encapsulated record-batch message before Arrow decodes it: the flatbuffer parses,
/// it is a record batch, uncompressed, and every buffer lies inside the body.
fn check_message(data: &[u8], meta_len: usize, body_len: usize) -> Result<(), String> {
    let meta = &data[..meta_len];
    let fb = if meta[..4] == CONTINUATION {
        &meta[8..]
    } else {
        &meta[4..]
    };
    let message =
        arrow_ipc::root_as_message(fb).map_err(|e| format!("message does not parse: {e}"))?;
    if message.header_type() != MessageHeader::RecordBatch {
        return Err(format!(
            "expected a record batch, found {:?}",
            message.header_type()
        ));
    }
    let batch = message
        .header_as_record_batch()
        .ok_or("record batch header missing")?;
    if batch.compression().is_some() {
        return Err("compressed bodies are not used by warren archives".into());
    }
    if batch.length() < 0 {
        return Err("negative row count".into());
    }
    for buf in batch.buffers().iter().flatten() {
        let (off, len) = (buf.offset(), buf.length());
        if off < 0 || len < 0 || (off as u64).saturating_add(len as u64) > body_len as u64 {
            return Err(format!(
                "buffer at {off}+{len} lies outside the {body_len}-byte body"
            ));
        }
    }
    Ok(())
}
