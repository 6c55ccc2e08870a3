//! The archive reader: maps the file with memmap2 and decodes record batches without copying
//! (Arrow buffers point into the mapping). It validates before it trusts: magic bytes, footer
//! bounds, the footer and every message flatbuffer, every block and buffer range, then Arrow's
//! own array validation, so a truncated or corrupt file gives an error, never a panic. It also
//! refuses archives whose metadata is of another format version (see `meta`).

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_buffer::Buffer;
use arrow_ipc::reader::{FileDecoder, read_footer_length};
use arrow_ipc::{Block, MessageHeader, MetadataVersion};
use arrow_schema::{DataType, Schema, SchemaRef};
use memmap2::Mmap;

use crate::archive::error::{ArchiveError, MessageError, MetaError};
use crate::archive::meta::{FOOTER_BATCH_CRC32, batch_crcs_from_json, check_format};
use crate::archive::schema::ArchiveColumns;

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

/// What the footer says of the file, checked against the file's length.
struct Footer {
    schema: SchemaRef,
    blocks: Vec<Block>,
    metadata: HashMap<String, String>,
    version: MetadataVersion,
}

/// The file is not a well-formed archive, for `reason`.
fn corrupt(path: &Path, reason: impl Into<String>) -> ArchiveError {
    ArchiveError::Corrupt {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

/// Maps `path` read-only; returns the mapping and a buffer over all of it.
fn map_file(path: &Path) -> Result<(Arc<Mmap>, Buffer), ArchiveError> {
    let io = |action, source| ArchiveError::Io {
        path: path.to_path_buf(),
        action,
        source,
    };
    let file = File::open(path).map_err(|e| io("cannot open", e))?;
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if len < 8 + 10 {
        return Err(corrupt(
            path,
            format!("file is {len} bytes, too short for an Arrow IPC file"),
        ));
    }
    // SAFETY: the mapping is read-only and private to this process. warren never writes an
    // archive in place (it writes FILE.tmp and renames), so the bytes cannot change under us
    // unless another program truncates or rewrites the file while it is open, which we
    // document as unsupported, as every mmap-based reader must.
    let mmap = Arc::new(unsafe { Mmap::map(&file) }.map_err(|e| io("cannot map", e))?);
    let ptr =
        NonNull::new(mmap.as_ptr() as *mut u8).ok_or_else(|| corrupt(path, "empty mapping"))?;
    // SAFETY: `ptr` and `len` describe the mapping, which the Arc keeps alive for as long as
    // any Buffer slice of it exists.
    let buffer = unsafe { Buffer::from_custom_allocation(ptr, mmap.len(), mmap.clone()) };
    Ok((mmap, buffer))
}

/// Where the footer of `bytes` starts, after checking the magic bytes at both ends and the
/// footer length.
fn footer_start(path: &Path, bytes: &[u8]) -> Result<usize, ArchiveError> {
    let len = bytes.len();
    if &bytes[..6] != MAGIC {
        return Err(corrupt(path, "missing ARROW1 magic at the start"));
    }
    let trailer: [u8; 10] = bytes[len - 10..].try_into().expect("10 bytes");
    let footer_len = read_footer_length(trailer)
        .map_err(|_| corrupt(path, "missing ARROW1 magic at the end (truncated?)"))?;
    if footer_len == 0 || footer_len > len - 10 - 8 {
        return Err(corrupt(
            path,
            format!("footer length {footer_len} does not fit the file"),
        ));
    }
    Ok(len - 10 - footer_len)
}

/// Parses the footer of `bytes`, which starts at `start`: schema, record batch blocks (each
/// inside the file before the footer), metadata version and key/value metadata.
fn read_footer(path: &Path, bytes: &[u8], start: usize) -> Result<Footer, ArchiveError> {
    let footer = arrow_ipc::root_as_footer(&bytes[start..bytes.len() - 10])
        .map_err(|e| corrupt(path, format!("footer does not parse: {e}")))?;
    let fb_schema = footer
        .schema()
        .ok_or_else(|| corrupt(path, "footer has no schema"))?;
    let schema = arrow_ipc::convert::try_fb_to_schema(fb_schema)
        .map_err(|e| corrupt(path, format!("schema does not parse: {e}")))?;
    let blocks: Vec<Block> = footer
        .recordBatches()
        .map(|v| v.iter().copied().collect())
        .unwrap_or_default();
    check_blocks(path, &blocks, start)?;
    if footer.dictionaries().is_some_and(|d| !d.is_empty()) {
        return Err(corrupt(
            path,
            "dictionary batches are not used by warren archives",
        ));
    }
    let version = footer.version();
    if version != MetadataVersion::V5 && version != MetadataVersion::V4 {
        return Err(corrupt(
            path,
            format!("unsupported metadata version {version:?}"),
        ));
    }
    let metadata = footer
        .custom_metadata()
        .map(|kvs| {
            kvs.iter()
                .filter_map(|kv| Some((kv.key()?.to_string(), kv.value()?.to_string())))
                .collect()
        })
        .unwrap_or_default();
    Ok(Footer {
        schema: Arc::new(schema),
        blocks,
        metadata,
        version,
    })
}

/// Checks that every block lies inside the file, before the footer at `footer_start`.
fn check_blocks(path: &Path, blocks: &[Block], footer_start: usize) -> Result<(), ArchiveError> {
    for (i, b) in blocks.iter().enumerate() {
        let (off, meta, body) = (b.offset(), i64::from(b.metaDataLength()), b.bodyLength());
        let end = off.checked_add(meta).and_then(|x| x.checked_add(body));
        let ok =
            off >= 8 && meta >= 8 && body >= 0 && end.is_some_and(|e| e <= footer_start as i64);
        if !ok {
            return Err(corrupt(
                path,
                format!("record batch {i} lies outside the file"),
            ));
        }
    }
    Ok(())
}

/// The batch checksums of footer `metadata`, one per batch (none when the footer has no list).
fn batch_crcs(
    path: &Path,
    metadata: &HashMap<String, String>,
    batches: usize,
) -> Result<Vec<u32>, ArchiveError> {
    let Some(list) = metadata.get(FOOTER_BATCH_CRC32) else {
        return Ok(Vec::new());
    };
    let crcs = batch_crcs_from_json(list).map_err(|error| ArchiveError::Metadata {
        path: path.to_path_buf(),
        error,
    })?;
    if crcs.len() != batches {
        return Err(corrupt(
            path,
            format!(
                "{} batch checksums for {batches} record batches",
                crcs.len()
            ),
        ));
    }
    Ok(crcs)
}

impl Archive {
    /// Maps and validates the file's framing, footer and schema, and the format of its
    /// metadata (see [`check_format`]).
    ///
    /// # Runtime
    /// O(batches); reads only the footer. No level data is touched until [`Archive::batch`].
    pub fn open(path: &Path) -> Result<Self, ArchiveError> {
        let (mmap, buffer) = map_file(path)?;
        let start = footer_start(path, buffer.as_slice())?;
        let footer = read_footer(path, buffer.as_slice(), start)?;
        check_format(footer.schema.metadata()).map_err(|error| ArchiveError::Metadata {
            path: path.to_path_buf(),
            error,
        })?;
        let crcs = batch_crcs(path, &footer.metadata, footer.blocks.len())?;
        let decoder =
            FileDecoder::new(footer.schema.clone(), footer.version).with_require_alignment(false);
        // Read-ahead suits the front-to-back scans of inspect and verify; advice is only a hint.
        #[cfg(unix)]
        let _ = mmap.advise(memmap2::Advice::Sequential);
        Ok(Self {
            path: path.to_path_buf(),
            mmap,
            buffer,
            schema: footer.schema,
            blocks: footer.blocks,
            footer_metadata: footer.metadata,
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

    /// The archive's column layout, read from its schema (see [`ArchiveColumns::from_schema`]).
    ///
    /// # Errors
    /// Columns not laid out as warren lays them out; the message names the file and column.
    pub fn columns(&self) -> Result<ArchiveColumns, ArchiveError> {
        ArchiveColumns::from_schema(&self.schema).map_err(|error| ArchiveError::Schema {
            path: self.path.clone(),
            error,
        })
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
        check_message(&data, meta_len, body_len, &self.schema).map_err(|error| {
            ArchiveError::Message {
                path: self.path.clone(),
                batch: i,
                error,
            }
        })?;
        self.decoder
            .read_record_batch(block, &data)
            .map_err(|e| self.corrupt(format!("record batch {i}: {e}")))?
            .ok_or_else(|| self.corrupt(format!("record batch {i} is empty")))
    }

    fn corrupt(&self, reason: String) -> ArchiveError {
        corrupt(&self.path, reason)
    }

    /// `error` in this archive's metadata, naming the file.
    pub(crate) fn metadata_error(&self, error: MetaError) -> ArchiveError {
        ArchiveError::Metadata {
            path: self.path.clone(),
            error,
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
/// it is a record batch, uncompressed, and every buffer lies inside the body and holds whole
/// values of its column's type.
fn check_message(
    data: &[u8],
    meta_len: usize,
    body_len: usize,
    schema: &Schema,
) -> Result<(), MessageError> {
    let meta = &data[..meta_len];
    let fb = if meta[..4] == CONTINUATION {
        &meta[8..]
    } else {
        &meta[4..]
    };
    let message =
        arrow_ipc::root_as_message(fb).map_err(|e| MessageError::Unparsable(e.to_string()))?;
    if message.header_type() != MessageHeader::RecordBatch {
        return Err(MessageError::NotARecordBatch(format!(
            "{:?}",
            message.header_type()
        )));
    }
    let batch = message
        .header_as_record_batch()
        .ok_or(MessageError::NoHeader)?;
    if batch.compression().is_some() {
        return Err(MessageError::Compressed);
    }
    if batch.length() < 0 {
        return Err(MessageError::NegativeRows);
    }
    for buf in batch.buffers().iter().flatten() {
        let (offset, length) = (buf.offset(), buf.length());
        if offset < 0
            || length < 0
            || (offset as u64).saturating_add(length as u64) > body_len as u64
        {
            return Err(MessageError::BufferOutside {
                offset,
                length,
                body: body_len,
            });
        }
    }
    check_buffer_widths(batch.buffers().iter().flatten().map(|b| b.length()), schema)
}

/// Checks that each buffer's length is a multiple of its values' size, as Arrow's decoder
/// assumes (it asserts, panicking on a damaged length).
fn check_buffer_widths(
    lengths: impl Iterator<Item = i64>,
    schema: &Schema,
) -> Result<(), MessageError> {
    let mut widths = Vec::new();
    // NOTE: a type this does not know leaves the remaining buffers to Arrow's own checks.
    let _ = schema
        .fields()
        .iter()
        .all(|f| buffer_widths(f.data_type(), &mut widths));
    for (index, (length, &width)) in lengths.zip(&widths).enumerate() {
        if length % width as i64 != 0 {
            return Err(MessageError::BufferLength {
                index,
                length,
                width,
            });
        }
    }
    Ok(())
}

/// Appends the value size of each IPC buffer of a column of type `dt` (1 for validity bitmaps
/// and bytes), children after their parent, as the IPC format orders them; `false` for a type
/// it does not know.
fn buffer_widths(dt: &DataType, out: &mut Vec<usize>) -> bool {
    match dt {
        DataType::Boolean => out.extend([1, 1]),
        DataType::Binary | DataType::Utf8 => out.extend([1, 4, 1]),
        DataType::LargeBinary | DataType::LargeUtf8 => out.extend([1, 8, 1]),
        DataType::List(child) => {
            out.extend([1, 4]);
            return buffer_widths(child.data_type(), out);
        }
        DataType::LargeList(child) => {
            out.extend([1, 8]);
            return buffer_widths(child.data_type(), out);
        }
        dt => match dt.primitive_width() {
            Some(width) => out.extend([1, width]),
            None => return false,
        },
    }
    true
}
