//! The streaming archive writer (DESIGN.md, "Archive"): record batches go to `FILE.tmp` in the
//! output's folder; `finish` writes the footer, syncs and renames onto `FILE`. An interrupted
//! run therefore never leaves a truncated file under the final name (an archive already there
//! stays whole until the rename replaces it), and a writer dropped without `finish` (an error,
//! a panic) removes its temporary file. A process killed outright (`SIGKILL`, power loss)
//! cannot clean up: its `FILE.tmp` stays until the next run for the same `FILE`, which
//! truncates and reuses it, so stale temporary files never pile up: at most one per output.
//! The output must be a regular file or not exist yet: the rename would replace anything else
//! (a device, a named pipe), so such outputs are refused before anything is written.
//!
//! Every record batch's bytes are checksummed (CRC-32, IEEE) as they stream out;
//! the list goes into the footer as [`FOOTER_BATCH_CRC32`], and the reader checks a batch's
//! checksum before it decodes it, so damage anywhere in level data is caught, not just damage
//! to the framing.
//!
//! Bytes reach the device through [`DirectFile`] (direct I/O where the file system allows it).
//! While a long run writes, a flusher thread syncs the data written so far every
//! [`FLUSH_EVERY`] bytes through a second handle, so the disk works alongside the generators and
//! the final sync only waits for the tail.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Sender, channel};
use std::thread::JoinHandle;

use arrow_array::RecordBatch;
use arrow_ipc::CompressionType;
use arrow_ipc::writer::{FileWriter, IpcWriteOptions};
use arrow_schema::Schema;

use crate::archive::direct::DirectFile;
use crate::archive::error::ArchiveError;
use crate::archive::meta::{FOOTER_BATCH_CRC32, batch_crcs_to_json};

/// Passes bytes through to `inner`, folding them into a CRC-32.
pub struct Checksummed<W> {
    inner: W,
    crc: crc32fast::Hasher,
}

impl<W: Write> Write for Checksummed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        // PERF: crc32fast uses the carry-less multiply instructions: > 10 GB/s.
        self.crc.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// How an archive's record batches store their buffers: as they are (the default: a reader maps
/// them without a copy), or compressed with Arrow IPC's buffer compression, which pyarrow,
/// polars and every warren command read (decompressing each batch as it is read).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Compression {
    /// Buffers as they are.
    #[default]
    None,
    /// Zstandard (level 3, Arrow's default): the smaller files.
    Zstd,
    /// LZ4 frames: the faster to write and read.
    Lz4,
}

impl Compression {
    /// Every choice, as the command line names them.
    pub const ALL: [Self; 3] = [Self::None, Self::Zstd, Self::Lz4];

    /// Its name on the command line and in messages: `none`, `zstd`, `lz4`.
    pub fn name(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Zstd => "zstd",
            Self::Lz4 => "lz4",
        }
    }

    /// The choice named `name` (see [`Compression::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Arrow's codec for it.
    pub(crate) fn codec(self) -> Option<CompressionType> {
        match self {
            Self::None => None,
            Self::Zstd => Some(CompressionType::ZSTD),
            Self::Lz4 => Some(CompressionType::LZ4_FRAME),
        }
    }

    /// The choice whose Arrow codec is `codec`.
    pub(crate) fn from_codec(codec: Option<CompressionType>) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.codec() == codec)
    }
}

/// Bytes between background syncs.
pub const FLUSH_EVERY: u64 = 64 << 20;

/// Writes one archive atomically.
pub struct ArchiveWriter {
    path: PathBuf,
    tmp: PathBuf,
    writer: Option<FileWriter<Checksummed<DirectFile>>>,
    crcs: Vec<u32>,
    /// Approximate bytes of level data written so far (in-memory size of the batches), which
    /// paces the background syncs.
    bytes: u64,
    next_flush: u64,
    flusher: Option<(Sender<()>, JoinHandle<()>)>,
}

/// A thread that syncs `file` (a clone of the archive's handle) each time it is poked.
fn spawn_flusher(file: File) -> Option<(Sender<()>, JoinHandle<()>)> {
    let (tx, rx) = channel::<()>();
    let handle = std::thread::Builder::new()
        .name("warren-flusher".into())
        .spawn(move || {
            // PERF: write-back overlaps generation; errors surface at the final sync_all.
            while rx.recv().is_ok() {
                while rx.try_recv().is_ok() {}
                let _ = file.sync_data();
            }
        })
        .ok()?;
    Some((tx, handle))
}

/// Refuses an output that exists and is not a regular file (a folder, a device, a named pipe):
/// renaming the finished temporary file onto it would replace it, or fail only at the end.
fn check_output(path: &Path) -> Result<(), ArchiveError> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(ArchiveError::Io {
            path: path.to_path_buf(),
            action: "cannot write an archive here",
            source: std::io::Error::other("exists and is not a regular file"),
        }),
        _ => Ok(()),
    }
}

/// An Arrow error while writing `tmp`: a failed write (a full disk, an I/O error) becomes an
/// [`ArchiveError::Io`] naming the file, anything else an [`ArchiveError::Encode`].
fn encode_error(tmp: &Path, source: arrow_schema::ArrowError) -> ArchiveError {
    match source {
        arrow_schema::ArrowError::IoError(_, source) => ArchiveError::Io {
            path: tmp.to_path_buf(),
            action: "cannot write",
            source,
        },
        source => ArchiveError::Encode {
            path: tmp.to_path_buf(),
            source,
        },
    }
}

pub use crate::core::output::temp_path;

impl ArchiveWriter {
    /// Creates `path.tmp` and writes the schema. Fails naming the path when the folder is missing
    /// or not writable.
    pub fn create(path: &Path, schema: &Schema) -> Result<Self, ArchiveError> {
        Self::create_compressed(path, schema, Compression::None)
    }

    /// As [`ArchiveWriter::create`], with every record batch's buffers stored as `compression`
    /// says.
    pub fn create_compressed(
        path: &Path,
        schema: &Schema,
        compression: Compression,
    ) -> Result<Self, ArchiveError> {
        check_output(path)?;
        let tmp = temp_path(path);
        let io = |action, source| ArchiveError::Io {
            path: tmp.clone(),
            action,
            source,
        };
        // PERF: whole 4 MiB blocks go to the device without a page-cache copy (see `direct`).
        let file = DirectFile::create(&tmp, true).map_err(|e| io("cannot create", e))?;
        let flusher = file.file().try_clone().ok().and_then(spawn_flusher);
        let buffered = Checksummed {
            inner: file,
            crc: crc32fast::Hasher::new(),
        };
        let options = IpcWriteOptions::default()
            .try_with_compression(compression.codec())
            .map_err(|source| encode_error(&tmp, source))?;
        let writer = FileWriter::try_new_with_options(buffered, schema, options)
            .map_err(|source| encode_error(&tmp, source))?;
        Ok(Self {
            path: path.to_path_buf(),
            tmp,
            writer: Some(writer),
            crcs: Vec::new(),
            bytes: 0,
            next_flush: FLUSH_EVERY,
            flusher,
        })
    }

    /// Appends one record batch.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), ArchiveError> {
        let writer = self.writer.as_mut().expect("write after finish");
        // NOTE: the file writer emits exactly one block (message and body) per batch, so the
        // bytes that pass during `write` are that block's bytes.
        writer.get_mut().crc = crc32fast::Hasher::new();
        writer
            .write(batch)
            .map_err(|source| encode_error(&self.tmp, source))?;
        let crc = std::mem::replace(&mut writer.get_mut().crc, crc32fast::Hasher::new());
        self.crcs.push(crc.finalize());
        self.bytes += batch.get_array_memory_size() as u64;
        if self.bytes >= self.next_flush {
            self.next_flush = self.bytes + FLUSH_EVERY;
            if let Some((poke, _)) = &self.flusher {
                let _ = poke.send(());
            }
        }
        Ok(())
    }

    /// Writes `footer` key/value metadata and the footer, syncs, and renames into place.
    /// Returns the final file size.
    pub fn finish(mut self, footer: &[(String, String)]) -> Result<u64, ArchiveError> {
        let mut writer = self.writer.take().expect("finish twice");
        self.stop_flusher();
        for (k, v) in footer {
            writer.write_metadata(k.clone(), v.clone());
        }
        writer.write_metadata(FOOTER_BATCH_CRC32, batch_crcs_to_json(&self.crcs));
        let enc = |source| encode_error(&self.tmp, source);
        writer.finish().map_err(enc)?;
        let buffered = writer.into_inner().map_err(enc)?.inner;
        let io = |action, source| ArchiveError::Io {
            path: self.tmp.clone(),
            action,
            source,
        };
        let file = buffered.into_file().map_err(|e| io("cannot write", e))?;
        file.sync_all().map_err(|e| io("cannot sync", e))?;
        let size = file.metadata().map_err(|e| io("cannot stat", e))?.len();
        drop(file);
        std::fs::rename(&self.tmp, &self.path).map_err(|source| ArchiveError::Io {
            path: self.path.clone(),
            action: "cannot rename into place",
            source,
        })?;
        // Best effort: make the rename itself durable.
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty())
            && let Ok(d) = File::open(dir)
        {
            let _ = d.sync_all();
        }
        Ok(size)
    }
}

impl ArchiveWriter {
    fn stop_flusher(&mut self) {
        if let Some((poke, handle)) = self.flusher.take() {
            drop(poke);
            let _ = handle.join();
        }
    }
}

impl Drop for ArchiveWriter {
    fn drop(&mut self) {
        self.stop_flusher();
        if self.writer.take().is_some() {
            // Not finished: the run failed; leave nothing behind.
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}
