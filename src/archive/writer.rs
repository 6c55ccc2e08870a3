//! The streaming archive writer (DESIGN.md, "Archive"): record batches go to `FILE.tmp` in the
//! output's folder; `finish` writes the footer, syncs and renames onto `FILE`. An interrupted
//! run therefore never leaves a truncated file under the final name (an archive already there
//! stays whole until the rename replaces it), and a writer dropped without `finish` (an error,
//! a panic) removes its temporary file, with one exception: when writing or syncing a resumable
//! run's `FILE.tmp` or its progress record fails (a full disk, a quota, an I/O error) after
//! chunks were recorded, both are kept as they are ([`ArchiveError::Kept`]) and `--resume`
//! goes on from them once the file can be written again. A process killed outright (`SIGKILL`,
//! power loss) cannot clean up: its `FILE.tmp` stays until the next run for the same `FILE`, which
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
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use arrow_array::RecordBatch;
use arrow_ipc::Block;
use arrow_ipc::writer::FileWriter;
use arrow_schema::{Metadata, Schema};

use crate::archive::direct::DirectFile;
use crate::archive::error::ArchiveError;
use crate::archive::format::{Compression, encode_error, header_bytes, ipc_options, write_footer};
use crate::archive::journal::{Checkpoint, Journal, JournalHeader, Recovered, ResumeKey};
use crate::archive::meta::{FOOTER_BATCH_CRC32, batch_crcs_to_json};

/// Passes bytes through to `inner`, folding them into a CRC-32, counting the file offset and
/// keeping the first bytes since the last [`Checksummed::start_block`] (a block's prefix, which
/// holds its metadata length). A resumed archive's writer first swallows the header its
/// Arrow writer writes again (the file already holds those very bytes).
pub struct Checksummed<W> {
    inner: Option<W>,
    crc: crc32fast::Hasher,
    /// The file offset of the next byte.
    pos: u64,
    head: [u8; 8],
    head_len: usize,
    /// Bytes still to swallow.
    discard: usize,
}

impl<W> Checksummed<W> {
    fn new(inner: W, pos: u64, discard: usize) -> Self {
        Self {
            inner: Some(inner),
            crc: crc32fast::Hasher::new(),
            pos,
            head: [0; 8],
            head_len: 0,
            discard,
        }
    }

    /// Starts a new block at the current offset: resets the checksum and the kept prefix.
    fn start_block(&mut self) -> u64 {
        self.crc = crc32fast::Hasher::new();
        self.head_len = 0;
        self.pos
    }

    fn inner(&self) -> &W {
        self.inner.as_ref().expect("the file is open until finish")
    }

    fn inner_mut(&mut self) -> &mut W {
        self.inner.as_mut().expect("the file is open until finish")
    }
}

impl<W: Write> Write for Checksummed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.discard > 0 {
            let n = buf.len().min(self.discard);
            self.discard -= n;
            return Ok(n);
        }
        let inner = self
            .inner
            .as_mut()
            .ok_or_else(|| std::io::Error::other("closed"))?;
        let n = inner.write(buf)?;
        // PERF: crc32fast uses the carry-less multiply instructions: > 10 GB/s.
        self.crc.update(&buf[..n]);
        let k = (8 - self.head_len).min(n);
        self.head[self.head_len..self.head_len + k].copy_from_slice(&buf[..k]);
        self.head_len += k;
        self.pos += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.as_mut().map_or(Ok(()), Write::flush)
    }
}

/// Bytes between background syncs.
pub const FLUSH_EVERY: u64 = 64 << 20;

/// The archive's Arrow writer, over the checksumming, offset-counting direct file.
type Ipc = FileWriter<Checksummed<DirectFile>>;

/// Writes one archive atomically.
pub struct ArchiveWriter {
    path: PathBuf,
    tmp: PathBuf,
    schema: Arc<Schema>,
    writer: Option<Box<Ipc>>,
    /// Where each record batch lies (the footer's block list).
    blocks: Vec<Block>,
    crcs: Vec<u32>,
    /// Approximate bytes of level data written so far (in-memory size of the batches), which
    /// paces the background syncs.
    bytes: u64,
    next_flush: u64,
    flusher: Option<(Sender<u64>, JoinHandle<()>)>,
    /// The first failure of the flusher's syncs.
    sync_error: SyncError,
    /// The progress record of a run that can be resumed (`generate`).
    journal: Option<Box<Journal>>,
    /// Blocks already in the progress record.
    recorded: usize,
    /// `FILE.tmp` and its record are kept when the writer is dropped: writing them failed
    /// after chunks were recorded ([`ArchiveError::Kept`]).
    keep: bool,
    /// `finish` renamed the file into place.
    renamed: bool,
}

/// The first error of the background syncs, kept for the writer to report.
type SyncError = Arc<Mutex<Option<std::io::Error>>>;

/// A thread that syncs `file` (a clone of the archive's handle) each time it is poked with the
/// bytes written so far, and then records in `synced` that they are durable. The first failed
/// sync goes into `failed` and ends the thread.
fn spawn_flusher(
    file: File,
    synced: Arc<AtomicU64>,
    failed: SyncError,
) -> Option<(Sender<u64>, JoinHandle<()>)> {
    let (tx, rx) = channel::<u64>();
    let handle = std::thread::Builder::new()
        .name("warren-flusher".into())
        .spawn(move || {
            // PERF: write-back overlaps generation.
            while let Ok(mut upto) = rx.recv() {
                while let Ok(later) = rx.try_recv() {
                    upto = later;
                }
                match file.sync_data() {
                    Ok(()) => {
                        synced.fetch_max(upto, Ordering::Release);
                    }
                    Err(e) => {
                        // NOTE: a failed sync may leave pages that never reached the device
                        // marked clean, and reports the failure once per open file (which the
                        // writer's handle shares): no later sync can vouch for those bytes, so
                        // the durable mark stops here and the writer reports the error.
                        if let Ok(mut slot) = failed.lock() {
                            slot.get_or_insert(e);
                        }
                        return;
                    }
                }
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

use crate::core::output::temp_path;

/// How a writer starts: a new file (with a progress record when it can be resumed), or a
/// killed run's file, continued.
enum Start {
    New(Option<JournalHeader>),
    Resume(Recovered),
}

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
        Self::open(path, schema, compression, Start::New(None))
    }

    /// As [`ArchiveWriter::create_compressed`], for a run (chunks as `key` says) whose state
    /// [`ArchiveWriter::checkpoint`] records after every chunk in `FILE.tmp.progress`, so that a
    /// killed run can be resumed ([`plan_resume`](crate::archive::plan_resume)).
    pub fn create_resumable(
        path: &Path,
        schema: &Schema,
        compression: Compression,
        key: &ResumeKey,
    ) -> Result<Self, ArchiveError> {
        let header =
            JournalHeader::new(&header_bytes(path, schema, compression)?, key, compression);
        Self::open(path, schema, compression, Start::New(Some(header)))
    }

    /// Goes on writing the killed run `recovered` found in `path.tmp`: the file is cut after
    /// its last recorded chunk and the next batch follows it.
    pub fn resume(
        path: &Path,
        schema: &Schema,
        compression: Compression,
        recovered: Recovered,
    ) -> Result<Self, ArchiveError> {
        Self::open(path, schema, compression, Start::Resume(recovered))
    }

    fn open(
        path: &Path,
        schema: &Schema,
        compression: Compression,
        start: Start,
    ) -> Result<Self, ArchiveError> {
        check_output(path)?;
        let tmp = temp_path(path);
        let io = |action, source| ArchiveError::Io {
            path: tmp.clone(),
            action,
            source,
        };
        let options = ipc_options(&tmp, compression)?;
        let (file, ck, journal, blocks, crcs) = match start {
            Start::New(header) => {
                // The old record goes first: it must never describe the new file. A record
                // that cannot be written whole, or whose file cannot be made, describes
                // nothing: it goes.
                let forget = |action, e| {
                    Journal::remove(&tmp);
                    io(action, e)
                };
                let journal = header
                    .map(|h| Journal::create(&tmp, &h).map(Box::new))
                    .transpose()
                    .map_err(|e| forget("cannot write its progress record", e))?;
                // PERF: whole 4 MiB blocks go to the device without a page-cache copy.
                let file = DirectFile::create(&tmp, true);
                let file = file.map_err(|e| match journal {
                    Some(_) => forget("cannot create", e),
                    None => io("cannot create", e),
                })?;
                (file, (0, 0), journal, Vec::new(), Vec::new())
            }
            Start::Resume(r) => {
                let file =
                    DirectFile::append(&tmp, r.len, true).map_err(|e| io("cannot reopen", e))?;
                let journal = Journal::reopen(&tmp, r.journal_len, r.synced, r.checkpoint.clone())
                    .map_err(|e| io("cannot write its progress record", e))?;
                (
                    file,
                    (r.len, r.header_len),
                    Some(Box::new(journal)),
                    r.blocks,
                    r.crcs,
                )
            }
        };
        let synced = journal.as_ref().map_or_else(Arc::default, |j| j.synced());
        let sync_error = SyncError::default();
        let flusher = file
            .file()
            .try_clone()
            .ok()
            .and_then(|f| spawn_flusher(f, synced, sync_error.clone()));
        let checksummed = Checksummed::new(file, ck.0, ck.1 as usize);
        let writer = FileWriter::try_new_with_options(checksummed, schema, options)
            .map_err(|source| encode_error(&tmp, source))?;
        Ok(Self {
            path: path.to_path_buf(),
            tmp,
            schema: Arc::new(schema.clone()),
            writer: Some(Box::new(writer)),
            recorded: blocks.len(),
            blocks,
            crcs,
            bytes: 0,
            next_flush: FLUSH_EVERY,
            flusher,
            sync_error,
            journal,
            keep: false,
            renamed: false,
        })
    }

    /// The error to return for `error`, a failed write or sync of `FILE.tmp` or its progress
    /// record ([`ArchiveError::Io`]): once the record holds a chunk, both files are kept for
    /// `--resume` and the error says so ([`ArchiveError::Kept`]); before, the writer removes
    /// them when dropped, as after any other failure. The record stays consistent on its own:
    /// a chunk's line is written only after its bytes were, and the durable mark only rises
    /// after a sync succeeded.
    fn output_failed(&mut self, error: ArchiveError) -> ArchiveError {
        let levels = self
            .journal
            .as_ref()
            .and_then(|j| j.last_recorded())
            .map(|c| c.kept);
        match (error, levels) {
            (
                ArchiveError::Io {
                    path,
                    action,
                    source,
                },
                Some(levels),
            ) => {
                self.keep = true;
                ArchiveError::Kept {
                    path,
                    action,
                    error: source,
                    levels,
                }
            }
            (error, _) => error,
        }
    }

    /// A failed write of `FILE.tmp`, as [`ArchiveWriter::output_failed`] returns it.
    fn write_failed(&mut self, source: std::io::Error) -> ArchiveError {
        let error = ArchiveError::Io {
            path: self.tmp.clone(),
            action: "cannot write",
            source,
        };
        self.output_failed(error)
    }

    /// Fails with the first failed background sync, if one failed.
    fn check_syncs(&mut self) -> Result<(), ArchiveError> {
        let failed = self.sync_error.lock().ok().and_then(|mut slot| slot.take());
        match failed {
            None => Ok(()),
            Some(source) => {
                let error = ArchiveError::Io {
                    path: self.tmp.clone(),
                    action: "cannot sync",
                    source,
                };
                Err(self.output_failed(error))
            }
        }
    }

    /// Appends one record batch.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), ArchiveError> {
        let writer = self.writer.as_mut().expect("write after finish");
        // NOTE: the file writer emits exactly one block (message and body) per batch, so the
        // bytes that pass during `write` are that block's bytes.
        let offset = writer.get_mut().start_block();
        if let Err(source) = writer.write(batch) {
            let error = encode_error(&self.tmp, source);
            return Err(self.output_failed(error));
        }
        let ck = writer.get_mut();
        let crc = std::mem::replace(&mut ck.crc, crc32fast::Hasher::new()).finalize();
        let [c0, c1, c2, c3, l0, l1, l2, l3] = ck.head;
        if ck.head_len < 8 || [c0, c1, c2, c3] != [0xFF; 4] {
            return Err(ArchiveError::Io {
                path: self.tmp.clone(),
                action: "cannot write",
                source: std::io::Error::other("a record batch did not start with its prefix"),
            });
        }
        let meta = 8 + i64::from(i32::from_le_bytes([l0, l1, l2, l3]));
        let len = (ck.pos - offset) as i64;
        self.blocks
            .push(Block::new(offset as i64, meta as i32, len - meta));
        self.crcs.push(crc);
        let (on_os, written) = (ck.inner().on_os(), ck.inner().written());
        if let Some(journal) = self.journal.as_mut() {
            // The stage may just have gone out: record the chunks it completed.
            let recorded = journal.write_up_to(on_os);
            recorded.map_err(|e| self.output_failed(e))?;
        }
        self.bytes += batch.get_array_memory_size() as u64;
        if self.bytes >= self.next_flush {
            self.next_flush = self.bytes + FLUSH_EVERY;
            if let Some((poke, _)) = &self.flusher {
                let _ = poke.send(written);
            }
        }
        self.check_syncs()
    }

    /// Records that every level up to the end of the batches written so far is in the file,
    /// with the run's state there (`checkpoint`): the record reaches the progress file as soon
    /// as those bytes have left the writer's stage for the operating system. Does nothing for
    /// an archive that cannot be resumed.
    pub fn checkpoint(&mut self, checkpoint: &Checkpoint) -> Result<(), ArchiveError> {
        let (Some(journal), Some(writer)) = (self.journal.as_mut(), self.writer.as_mut()) else {
            return Ok(());
        };
        let ck = writer.get_mut();
        let new = self.recorded..self.blocks.len();
        journal.record(
            ck.pos,
            &self.blocks[new.clone()],
            &self.crcs[new],
            checkpoint,
        );
        self.recorded = self.blocks.len();
        if journal.due()
            && let Err(source) = ck.inner_mut().push_tail()
        {
            // Everything staged goes out now: a kill loses at most this long's output.
            return Err(self.write_failed(source));
        }
        let recorded = journal.write_up_to(ck.inner().on_os());
        recorded.map_err(|e| self.output_failed(e))
    }

    /// Writes `footer` key/value metadata and the footer, syncs, and renames into place.
    /// Returns the final file size.
    pub fn finish(mut self, footer: &[(String, String)]) -> Result<u64, ArchiveError> {
        let mut writer = self.writer.take().expect("finish twice");
        self.stop_flusher();
        self.check_syncs()?;
        let mut metadata = Metadata::new();
        for (k, v) in footer {
            metadata.insert(k.clone(), v.clone());
        }
        metadata.insert(
            FOOTER_BATCH_CRC32.to_string(),
            batch_crcs_to_json(&self.crcs),
        );
        let ck = writer.get_mut();
        let ended = write_footer(ck, &self.schema, &self.blocks, &metadata);
        let direct = ck.inner.take().expect("the file is open until finish");
        drop(writer);
        ended.map_err(|e| self.write_failed(e))?;
        let file = direct.into_file().map_err(|e| self.write_failed(e))?;
        let tmp = self.tmp.clone();
        let io = |action, source| ArchiveError::Io {
            path: tmp.clone(),
            action,
            source,
        };
        let synced = file.sync_all().map_err(|e| io("cannot sync", e));
        synced.map_err(|e| self.output_failed(e))?;
        let size = file.metadata().map(|m| m.len());
        let size = size.map_err(|e| io("cannot stat", e));
        let size = size.map_err(|e| self.output_failed(e))?;
        drop(file);
        if let Err(source) = std::fs::rename(&self.tmp, &self.path) {
            let error = ArchiveError::Io {
                path: self.path.clone(),
                action: "cannot rename into place",
                source,
            };
            return Err(self.output_failed(error));
        }
        self.renamed = true;
        // Best effort: make the rename itself durable.
        if let Some(dir) = self.path.parent().filter(|d| !d.as_os_str().is_empty())
            && let Ok(d) = File::open(dir)
        {
            let _ = d.sync_all();
        }
        if self.journal.take().is_some() {
            Journal::remove(&self.tmp);
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
        if !self.renamed && !self.keep {
            // Not finished: the run failed, with nothing worth keeping; leave nothing behind.
            drop(self.writer.take());
            let _ = std::fs::remove_file(&self.tmp);
            if self.journal.take().is_some() {
                Journal::remove(&self.tmp);
            }
        }
    }
}
