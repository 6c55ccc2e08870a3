//! The archive reader. It validates before it trusts: magic bytes, footer bounds, the footer
//! and every message flatbuffer, every block and buffer range, then Arrow's own array
//! validation, so a truncated or corrupt file gives an error, never a panic. It also refuses
//! archives whose metadata is of another format version (see `meta`).
//!
//! Two ways in, one safe and one not:
//! - [`Archive::open`] reads: the footer at open, then each record batch's bytes with a
//!   positional read into an owned, aligned buffer when the batch is asked for (copy on read).
//!   The bytes a batch is checksummed and decoded from are its own, so another process that
//!   truncates or rewrites the file while it is open causes an error (a short read, a checksum
//!   or validation failure), never undefined behaviour. Every command of the CLI opens this way.
//! - [`Archive::open_mapped`] maps the file (a shared, read-only mapping) and decodes record
//!   batches without copying: Arrow buffers point into the mapping. It is `unsafe` because a
//!   change to the file while it is mapped changes bytes behind `&[u8]` references, or raises
//!   `SIGBUS` when the file shrinks; the caller promises that does not happen.

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::ptr::NonNull;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_buffer::{Buffer, MutableBuffer};
use arrow_ipc::reader::{FileDecoder, read_footer_length};
use arrow_ipc::{Block, CompressionType, MessageHeader, MetadataVersion};
use arrow_schema::{DataType, Schema, SchemaRef};
use memmap2::Mmap;

use crate::archive::error::{ArchiveError, MessageError, MetaError};
use crate::archive::format::Compression;
use crate::archive::meta::{
    FOOTER_BATCH_CRC32, RunFooter, RunMeta, batch_crcs_from_json, check_format,
};
use crate::archive::schema::ArchiveColumns;

const MAGIC: &[u8; 6] = b"ARROW1";
const CONTINUATION: [u8; 4] = [0xFF; 4];
/// Bytes of the trailer: footer length (4) and magic (6).
const TRAILER: usize = 10;

/// A validated archive, read from its file as batches are asked for ([`Archive::open`]) or
/// mapped ([`Archive::open_mapped`]).
pub struct Archive {
    path: PathBuf,
    source: Source,
    len: u64,
    schema: SchemaRef,
    blocks: Vec<Block>,
    footer_metadata: HashMap<String, String>,
    crcs: Vec<u32>,
    decoder: FileDecoder,
}

/// Where an archive's bytes come from.
enum Source {
    /// Positional reads into owned buffers (safe whatever happens to the file).
    Read(File),
    /// A shared read-only mapping and a buffer over all of it (see [`Archive::open_mapped`]).
    Mapped { mmap: Arc<Mmap>, buffer: Buffer },
}

impl std::fmt::Debug for Archive {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Archive")
            .field("path", &self.path)
            .field("mapped", &matches!(self.source, Source::Mapped { .. }))
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

/// Opens `path` and returns the handle and its length, refusing files too short to be Arrow IPC.
fn open_file(path: &Path) -> Result<(File, u64), ArchiveError> {
    let io = |action, source| ArchiveError::Io {
        path: path.to_path_buf(),
        action,
        source,
    };
    let file = File::open(path).map_err(|e| io("cannot open", e))?;
    let len = file.metadata().map_err(|e| io("cannot stat", e))?.len();
    if len < (8 + TRAILER) as u64 {
        return Err(corrupt(
            path,
            format!("file is {len} bytes, too short for an Arrow IPC file"),
        ));
    }
    Ok((file, len))
}

/// Maps `file` read-only; returns the mapping and a buffer over all of it.
///
/// # Safety
/// As [`Archive::open_mapped`]: nobody truncates or writes the file while the mapping lives.
unsafe fn map_file(path: &Path, file: &File) -> Result<Source, ArchiveError> {
    // SAFETY: a shared, read-only mapping. Its bytes stay what they were only while nobody
    // truncates or writes the file; the caller of `open_mapped` promises exactly that.
    let mmap = unsafe { Mmap::map(file) }.map_err(|source| ArchiveError::Io {
        path: path.to_path_buf(),
        action: "cannot map",
        source,
    })?;
    let mmap = Arc::new(mmap);
    let ptr =
        NonNull::new(mmap.as_ptr() as *mut u8).ok_or_else(|| corrupt(path, "empty mapping"))?;
    // SAFETY: `ptr` and `len` describe the mapping, which the Arc keeps alive for as long as
    // any Buffer slice of it exists; Arrow only reads through it.
    let buffer = unsafe { Buffer::from_custom_allocation(ptr, mmap.len(), mmap.clone()) };
    Ok(Source::Mapped { mmap, buffer })
}

/// Fills `buf` from `file` at `offset`.
#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

/// Fills `buf` from `file` at `offset`.
#[cfg(windows)]
fn read_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        match file.seek_read(buf, offset)? {
            0 => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            n => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
        }
    }
    Ok(())
}

impl Source {
    /// `len` bytes at `offset` (which the caller checked lie inside the file as opened).
    ///
    /// # Runtime
    /// Mapped: O(1), a slice of the mapping. Read: one allocation and one positional read.
    fn bytes(&self, path: &Path, offset: u64, len: usize) -> Result<Buffer, ArchiveError> {
        match self {
            Source::Mapped { buffer, .. } => Ok(buffer.slice_with_length(offset as usize, len)),
            Source::Read(file) => {
                // PERF: `MutableBuffer` is 64-byte aligned, so Arrow never copies the buffers
                // it decodes out of these bytes to realign them.
                let mut buf = MutableBuffer::from_len_zeroed(len);
                read_at(file, buf.as_slice_mut(), offset).map_err(|source| {
                    if source.kind() == std::io::ErrorKind::UnexpectedEof {
                        corrupt(
                            path,
                            format!(
                                "the file ends before byte {}: it shrank after it was opened",
                                offset + len as u64
                            ),
                        )
                    } else {
                        ArchiveError::Io {
                            path: path.to_path_buf(),
                            action: "cannot read",
                            source,
                        }
                    }
                })?;
                Ok(buf.into())
            }
        }
    }
}

/// Where the footer of a file of `len` bytes starts, and how long it is, after checking the
/// magic bytes at both ends and the footer length.
fn footer_range(path: &Path, source: &Source, len: u64) -> Result<(u64, usize), ArchiveError> {
    if source.bytes(path, 0, MAGIC.len())?.as_slice() != MAGIC {
        return Err(corrupt(path, "missing ARROW1 magic at the start"));
    }
    let trailer = source.bytes(path, len - TRAILER as u64, TRAILER)?;
    let trailer: [u8; TRAILER] = trailer.as_slice().try_into().expect("10 bytes");
    let footer_len = read_footer_length(trailer)
        .map_err(|_| corrupt(path, "missing ARROW1 magic at the end (truncated?)"))?;
    if footer_len == 0 || footer_len as u64 > len - TRAILER as u64 - 8 {
        return Err(corrupt(
            path,
            format!("footer length {footer_len} does not fit the file"),
        ));
    }
    Ok((len - TRAILER as u64 - footer_len as u64, footer_len))
}

/// Parses the footer `bytes`, which start at byte `start` of the file: schema, record batch
/// blocks (each inside the file before the footer), metadata version and key/value metadata.
fn read_footer(path: &Path, bytes: &[u8], start: u64) -> Result<Footer, ArchiveError> {
    let footer = arrow_ipc::root_as_footer(bytes)
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
fn check_blocks(path: &Path, blocks: &[Block], footer_start: u64) -> Result<(), ArchiveError> {
    for (i, b) in blocks.iter().enumerate() {
        let (off, meta, body) = (b.offset(), i64::from(b.metaDataLength()), b.bodyLength());
        let end = off.checked_add(meta).and_then(|x| x.checked_add(body));
        let ok =
            off >= 8 && meta >= 8 && body >= 0 && end.is_some_and(|e| e as u64 <= footer_start);
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
    /// Opens the file and validates its framing, footer and schema, and the format of its
    /// metadata (see [`check_format`]). Record batches are read from the file when asked for,
    /// into memory of their own, so the archive stays safe to use whatever another process does
    /// to the file meanwhile: a truncated or rewritten file gives an error, never undefined
    /// behaviour.
    ///
    /// # Runtime
    /// O(batches); reads only the first 6 bytes, the trailer and the footer. No level data is
    /// touched until [`Archive::batch`], which reads one batch (one allocation of its size).
    pub fn open(path: &Path) -> Result<Self, ArchiveError> {
        let (file, len) = open_file(path)?;
        Self::from_source(path, Source::Read(file), len)
    }

    /// As [`Archive::open`], but maps the file and decodes record batches without copying:
    /// Arrow buffers point into the mapping.
    ///
    /// # Safety
    /// Nobody (this process or another) may truncate, write or replace the file's contents in
    /// place while the returned archive or any record batch decoded from it is alive. A file
    /// that shrinks raises `SIGBUS` on access; a file written in place changes the bytes behind
    /// `&[u8]` references that Rust assumes immutable, which is undefined behaviour. warren's own
    /// writers never do either (they write `FILE.tmp` and rename it over `FILE`, which leaves a
    /// mapped old file untouched), so the promise is about other programs. Use [`Archive::open`]
    /// for files you do not control.
    ///
    /// # Runtime
    /// As [`Archive::open`], plus one `mmap`; [`Archive::batch`] then copies nothing.
    pub unsafe fn open_mapped(path: &Path) -> Result<Self, ArchiveError> {
        let (file, len) = open_file(path)?;
        // SAFETY: the caller upholds `map_file`'s contract, which is this function's.
        let source = unsafe { map_file(path, &file) }?;
        if let Source::Mapped { mmap, .. } = &source {
            if mmap.len() as u64 != len {
                return Err(corrupt(path, "the file changed size while it was opened"));
            }
            // Read-ahead suits the front-to-back scans of inspect and verify; only a hint.
            #[cfg(unix)]
            let _ = mmap.advise(memmap2::Advice::Sequential);
        }
        Self::from_source(path, source, len)
    }

    /// Validates the archive `len` bytes long behind `source`.
    fn from_source(path: &Path, source: Source, len: u64) -> Result<Self, ArchiveError> {
        let (start, footer_len) = footer_range(path, &source, len)?;
        let footer_bytes = source.bytes(path, start, footer_len)?;
        let footer = read_footer(path, footer_bytes.as_slice(), start)?;
        check_format(footer.schema.metadata()).map_err(|error| ArchiveError::Metadata {
            path: path.to_path_buf(),
            error,
        })?;
        let crcs = batch_crcs(path, &footer.metadata, footer.blocks.len())?;
        let decoder =
            FileDecoder::new(footer.schema.clone(), footer.version).with_require_alignment(false);
        Ok(Self {
            path: path.to_path_buf(),
            source,
            len,
            schema: footer.schema,
            blocks: footer.blocks,
            footer_metadata: footer.metadata,
            crcs,
            decoder,
        })
    }

    /// The record batches `blocks` (checksums `crcs`) of `path`, an archive still being written
    /// (no footer yet) with `schema`, mapped: the batches a killed run left in `FILE.tmp`.
    ///
    /// # Safety
    /// As [`Archive::open_mapped`]: nobody truncates or writes the file while the archive or
    /// a batch decoded from it is alive.
    pub(crate) unsafe fn in_progress(
        path: &Path,
        schema: SchemaRef,
        blocks: Vec<Block>,
        crcs: Vec<u32>,
    ) -> Result<Self, ArchiveError> {
        let (file, len) = open_file(path)?;
        check_blocks(path, &blocks, len)?;
        // SAFETY: the caller upholds `map_file`'s contract, which is this function's.
        let source = unsafe { map_file(path, &file) }?;
        let decoder =
            FileDecoder::new(schema.clone(), MetadataVersion::V5).with_require_alignment(false);
        Ok(Self {
            path: path.to_path_buf(),
            source,
            len,
            schema,
            blocks,
            footer_metadata: HashMap::new(),
            crcs,
            decoder,
        })
    }

    /// Every record batch's CRC-32 from the footer (empty for an archive without them).
    pub fn checksums(&self) -> &[u32] {
        &self.crcs
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

    /// Size of the file in bytes, as it was when opened.
    pub fn file_len(&self) -> usize {
        self.len as usize
    }

    /// Whether the archive was opened with [`Archive::open_mapped`].
    pub fn is_mapped(&self) -> bool {
        matches!(self.source, Source::Mapped { .. })
    }

    /// Lets the kernel drop the resident pages of batch `i` of a mapped archive once a scan is
    /// done with it, so that scanning a file larger than memory keeps the resident set small.
    /// A later access simply reads the pages again. An archive opened with [`Archive::open`]
    /// holds no pages of the file (a batch's bytes are freed with the batch), so there is
    /// nothing to do. Best effort; does nothing off Unix.
    pub fn release(&self, i: usize) {
        #[cfg(unix)]
        if let (Source::Mapped { mmap, .. }, Some(block)) = (&self.source, self.blocks.get(i)) {
            const PAGE: usize = 4096;
            let start = (block.offset() as usize).next_multiple_of(PAGE);
            let end = (block.offset() as usize
                + block.metaDataLength() as usize
                + block.bodyLength() as usize)
                / PAGE
                * PAGE;
            if end > start {
                // SAFETY: the range lies inside the mapping (blocks were checked at open). The
                // mapping is shared and read-only and, by `open_mapped`'s contract, the file is
                // not modified, so MADV_DONTNEED only drops clean pages, which fault back in
                // from the file with the same bytes; no Rust reference can see a difference.
                let _ = unsafe {
                    mmap.unchecked_advise_range(
                        memmap2::UncheckedAdvice::DontNeed,
                        start,
                        end - start,
                    )
                };
            }
        }
    }

    /// How this archive's record batches store their buffers, read from its first batch's
    /// message (an archive without batches reads as uncompressed).
    pub fn compression(&self) -> Result<Compression, ArchiveError> {
        if self.blocks.is_empty() {
            return Ok(Compression::None);
        }
        let (data, meta_len, _) = self.block_bytes(0)?;
        let message_error = |error| ArchiveError::Message {
            path: self.path.clone(),
            batch: 0,
            error,
        };
        let batch = parse_batch_header(&data[..meta_len]).map_err(message_error)?;
        let codec = batch.compression().map(|c| c.codec());
        Compression::from_codec(codec)
            .ok_or_else(|| message_error(MessageError::Codec(format!("{codec:?}"))))
    }

    /// Decodes record batch `i` after checking its checksum. Mapped: without copying level
    /// data. Read: from one read of the batch's bytes, which the checksum covers.
    ///
    /// # Runtime
    /// O(batch bytes) for the read (when not mapped) and the CRC-32 (> 10 GB/s), plus Arrow's
    /// validation of offsets (O(rows)).
    pub fn batch(&self, i: usize) -> Result<RecordBatch, ArchiveError> {
        let (batch, checksum) = self.batch_and_checksum(i)?;
        checksum.map(|()| batch)
    }

    /// Decodes batch `i` and, separately, checks its bytes against the checksum in the footer,
    /// from one read of the bytes: `verify` uses it to name the damaged levels of a batch whose
    /// checksum failed. The outer error is a batch that cannot be decoded.
    pub fn batch_and_checksum(
        &self,
        i: usize,
    ) -> Result<(RecordBatch, Result<(), ArchiveError>), ArchiveError> {
        let (data, meta_len, body_len) = self.block_bytes(i)?;
        let checksum = self.check_crc(i, &data);
        // A batch that does not decode and fails its checksum is reported by the checksum: the
        // bytes changed (a compressed batch's damage mostly shows as a codec error otherwise).
        let batch = match self.decode(i, &data, meta_len, body_len) {
            Ok(batch) => batch,
            Err(error) => return Err(checksum.err().unwrap_or(error)),
        };
        Ok((batch, checksum))
    }

    /// Checks batch `i`'s bytes against the checksum in the footer (archives without checksums
    /// pass).
    pub fn check_batch(&self, i: usize) -> Result<(), ArchiveError> {
        let (data, _, _) = self.block_bytes(i)?;
        self.check_crc(i, &data)
    }

    /// Decodes batch `i` without the checksum test (structure is still validated).
    pub fn batch_unchecked(&self, i: usize) -> Result<RecordBatch, ArchiveError> {
        let (data, meta_len, body_len) = self.block_bytes(i)?;
        self.decode(i, &data, meta_len, body_len)
    }

    /// Compares the CRC-32 of `data`, batch `i`'s bytes, with the footer's.
    fn check_crc(&self, i: usize, data: &[u8]) -> Result<(), ArchiveError> {
        if let Some(&want) = self.crcs.get(i) {
            let got = crc32fast::hash(data);
            if got != want {
                return Err(self.corrupt(format!(
                    "record batch {i}: checksum {got:08x}, footer says {want:08x}"
                )));
            }
        }
        Ok(())
    }

    /// Validates and decodes `data`, the bytes of batch `i`.
    fn decode(
        &self,
        i: usize,
        data: &Buffer,
        meta_len: usize,
        body_len: usize,
    ) -> Result<RecordBatch, ArchiveError> {
        check_message(data, meta_len, body_len, &self.schema).map_err(|error| {
            ArchiveError::Message {
                path: self.path.clone(),
                batch: i,
                error,
            }
        })?;
        // NOTE: the decoder reads only the block's lengths; `data` starts at the block.
        self.decoder
            .read_record_batch(&self.blocks[i], data)
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
            .source
            .bytes(&self.path, block.offset() as u64, meta_len + body_len)?;
        Ok((data, meta_len, body_len))
    }
}

/// Checks an encapsulated record-batch message before Arrow decodes it: the flatbuffer parses,
/// it is a record batch, uncompressed or compressed with a codec warren writes, and every
/// buffer lies inside the body and holds whole values of its column's type (for a compressed
/// buffer: its declared uncompressed length, which must also stay within [`MAX_INFLATION`]
/// times the body, so a damaged length cannot make the decoder allocate without bound).
fn check_message(
    data: &[u8],
    meta_len: usize,
    body_len: usize,
    schema: &Schema,
) -> Result<(), MessageError> {
    let batch = parse_batch_header(&data[..meta_len])?;
    let compressed = match batch.compression().map(|c| c.codec()) {
        None => false,
        Some(CompressionType::LZ4_FRAME | CompressionType::ZSTD) => true,
        Some(other) => return Err(MessageError::Codec(format!("{other:?}"))),
    };
    if batch.length() < 0 {
        return Err(MessageError::NegativeRows);
    }
    let body = &data[meta_len..];
    let mut lengths = Vec::new();
    for (index, buf) in batch.buffers().iter().flatten().enumerate() {
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
        lengths.push(if compressed && length > 0 {
            uncompressed_length(body, index, offset as usize, length)?
        } else {
            length
        });
    }
    if compressed {
        // Saturating: damaged lengths near i64::MAX must not wrap round to a small sum.
        let declared = lengths
            .iter()
            .fold(0u64, |sum, &l| sum.saturating_add(l as u64));
        if declared > MAX_INFLATION * body_len as u64 + INFLATION_SLACK {
            return Err(MessageError::Inflates {
                declared,
                body: body_len,
                limit: MAX_INFLATION,
            });
        }
    }
    check_buffer_widths(lengths.into_iter(), schema)
}

/// The record-batch header of an encapsulated message's metadata (`meta`: the continuation
/// marker, the length, the flatbuffer).
fn parse_batch_header(meta: &[u8]) -> Result<arrow_ipc::RecordBatch<'_>, MessageError> {
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
    message
        .header_as_record_batch()
        .ok_or(MessageError::NoHeader)
}

/// The largest ratio of a compressed batch's declared uncompressed bytes to its body that a
/// reader accepts (plus [`INFLATION_SLACK`]). Level data compresses 3 to 60 times; a batch
/// declaring more is damaged.
const MAX_INFLATION: u64 = 1024;

/// Bytes a compressed batch may declare beyond [`MAX_INFLATION`] times its body (tiny bodies of
/// constant columns).
const INFLATION_SLACK: u64 = 16 << 20;

/// The uncompressed length of compressed buffer `index` (`length` bytes at `offset` of `body`):
/// its 8-byte little-endian prefix, or the bytes after it when the prefix is -1 ("stored as
/// is", Arrow's choice when compressing would not make it smaller).
fn uncompressed_length(
    body: &[u8],
    index: usize,
    offset: usize,
    length: i64,
) -> Result<i64, MessageError> {
    let prefix = body
        .get(offset..offset + 8)
        .filter(|_| length >= 8)
        .ok_or(MessageError::CompressedTooShort { index, length })?;
    match i64::from_le_bytes(prefix.try_into().expect("8 bytes")) {
        -1 => Ok(length - 8),
        n if n >= 0 => Ok(n),
        n => Err(MessageError::UncompressedLength { index, length: n }),
    }
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
        DataType::FixedSizeList(child, _) => {
            out.push(1);
            return buffer_widths(child.data_type(), out);
        }
        dt => match dt.primitive_width() {
            Some(width) => out.extend([1, width]),
            None => return false,
        },
    }
    true
}

impl RunMeta {
    /// Reads the metadata of `archive`.
    ///
    /// # Errors
    /// As [`from_metadata`](Self::from_metadata), naming the file.
    pub fn from_archive(archive: &Archive) -> Result<Self, ArchiveError> {
        Self::from_schema(archive.schema()).map_err(|error| archive.metadata_error(error))
    }
}

impl RunFooter {
    /// Reads the footer of `archive`.
    ///
    /// # Errors
    /// As [`from_metadata`](Self::from_metadata), naming the file.
    pub fn from_archive(archive: &Archive) -> Result<Self, ArchiveError> {
        Self::from_metadata(archive.footer_metadata()).map_err(|e| archive.metadata_error(e))
    }
}

#[cfg(test)]
#[path = "reader_tests.rs"]
mod tests;
