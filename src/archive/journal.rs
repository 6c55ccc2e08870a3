//! The progress record of a run that can be resumed (`warren generate --resume`).
//!
//! Beside `FILE.tmp` a resumable writer keeps `FILE.tmp.progress`, a text file of lines. The
//! first names the run's shape: the bytes the archive starts with (magic and schema message,
//! whose metadata holds the version, profile, files, seed, count, shard and selection) by their
//! length and CRC-32, the chunk size and the compression. Then one line per chunk of levels
//! written, in order: where its record batches lie in `FILE.tmp` (offset, metadata and body
//! lengths, CRC-32 of the bytes), the file offset after them, the run's counts after it (levels
//! kept, failures by reason, what a selection scanned) and how far the file is known to be
//! durable. Every line ends in its own CRC-32, so a torn or damaged line ends the record there.
//!
//! A chunk's line is written only once its bytes have left the writer's 4 MiB stage for the
//! operating system, and at the end of a chunk what is staged goes out (at most every
//! [`PROGRESS_EVERY`]), so a process killed outright (`SIGKILL`, a preempted node) loses at most
//! the chunks still being generated or waiting for an earlier one, and the one being written. Every
//! [`FLUSH_EVERY`](crate::archive::writer::FLUSH_EVERY) bytes a background thread syncs the
//! archive and then the record notes how far it is durable, which bounds what a power loss can
//! take. [`plan_resume`] keeps the longest run of recorded chunks whose bytes are all present
//! and, past the last durable point, match their CRC-32; everything after them is cut and made
//! again.

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use arrow_array::RecordBatch;
use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use arrow_ipc::Block;
use arrow_schema::Schema;
use serde::{Deserialize, Serialize};

use crate::archive::Archive;
use crate::archive::error::ArchiveError;
use crate::archive::format::{Compression, header_bytes};
use crate::core::output::temp_path;

/// The format of the progress record.
const PROGRESS_FORMAT: u32 = 1;

/// The progress record of the temporary file `tmp`: `FILE.tmp.progress`.
pub fn progress_path(tmp: &Path) -> PathBuf {
    let mut name = tmp.as_os_str().to_owned();
    name.push(".progress");
    PathBuf::from(name)
}

/// What, beside the archive's header, makes two runs of one output the same run: the levels per
/// record batch of a `generate`, or the input batches of a `merge`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ResumeKey {
    /// Levels per chunk (`generate --chunk-size`); 0 for a merge.
    pub chunk_size: u64,
    /// For a merge: a CRC-32 over every shard's batch checksums, in merge order; 0 otherwise.
    pub inputs: u32,
}

/// The first line: what run the record and its file belong to.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JournalHeader {
    warren_progress: u32,
    chunk_size: u64,
    #[serde(default)]
    inputs: u32,
    compression: String,
    header_bytes: u64,
    header_crc32: u32,
}

impl JournalHeader {
    /// The header of a run whose archive starts with `header`.
    pub(crate) fn new(header: &[u8], key: &ResumeKey, compression: Compression) -> Self {
        Self {
            warren_progress: PROGRESS_FORMAT,
            chunk_size: key.chunk_size,
            inputs: key.inputs,
            compression: compression.name().to_string(),
            header_bytes: header.len() as u64,
            header_crc32: crc32fast::hash(header),
        }
    }
}

/// The run's counts after a chunk: what a resumed run starts from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Chunks done: the next chunk to make.
    pub chunks: u64,
    /// Levels kept.
    pub kept: u64,
    /// Failed seeds by reason.
    pub failures: BTreeMap<String, u64>,
    /// With a selection: the scan (first index, one past the last, duplicates, filtered out).
    pub scanned: [u64; 4],
    /// A whole run with a selection has kept all it asked for.
    pub done: bool,
}

/// One chunk's line.
#[derive(Debug, Serialize, Deserialize)]
struct Line {
    /// The file offset after the chunk's batches.
    end: u64,
    /// Bytes of the file known to be on the device when the line was written.
    synced: u64,
    /// Each batch: offset, metadata length, body length, CRC-32.
    blocks: Vec<[u64; 4]>,
    state: Checkpoint,
}

/// `json` followed by its CRC-32 and a newline.
fn seal(json: &str) -> String {
    format!("{json}\t{:08x}\n", crc32fast::hash(json.as_bytes()))
}

/// The JSON of a sealed `line` (without its newline), or `None` when the seal does not match.
fn unseal(line: &str) -> Option<&str> {
    let (json, crc) = line.rsplit_once('\t')?;
    (u32::from_str_radix(crc, 16).ok()? == crc32fast::hash(json.as_bytes())).then_some(json)
}

/// The open progress record of a run being written.
pub struct Journal {
    file: File,
    path: PathBuf,
    /// Lines of chunks whose bytes are still staged.
    pending: VecDeque<Line>,
    /// How far the archive is known to be durable (the flusher raises it).
    synced: Arc<AtomicU64>,
    /// When the writer's stage last went out because of the record.
    pushed: Instant,
    /// The counts in the last line that reached the file (`None`: no chunk's line has yet).
    last: Option<Checkpoint>,
}

/// How often, at most, a resumable writer sends what it has staged to the operating system at
/// the end of a chunk (its partial last block written ahead), so that the chunk's line can be
/// written at once: a kill then loses the chunks in flight and no finished one. The bound keeps
/// tiny chunks (`--chunk-size 1`) from costing a device write each.
pub const PROGRESS_EVERY: Duration = Duration::from_millis(10);

impl Journal {
    /// Starts the record of `tmp` (replacing any earlier one) with `header`.
    pub(crate) fn create(tmp: &Path, header: &JournalHeader) -> std::io::Result<Self> {
        let path = progress_path(tmp);
        let mut file = File::create(&path)?;
        let json = serde_json::to_string(header).map_err(std::io::Error::other)?;
        file.write_all(seal(&json).as_bytes())?;
        Ok(Self {
            file,
            path,
            pending: VecDeque::new(),
            synced: Arc::default(),
            pushed: Instant::now(),
            last: None,
        })
    }

    /// Reopens the record of `tmp`, cut to its first `len` bytes (the lines kept, the last with
    /// the counts `last`), with the archive durable up to `synced`.
    pub(crate) fn reopen(
        tmp: &Path,
        len: u64,
        synced: u64,
        last: Option<Checkpoint>,
    ) -> std::io::Result<Self> {
        let path = progress_path(tmp);
        let mut file = OpenOptions::new().write(true).open(&path)?;
        file.set_len(len)?;
        file.seek(SeekFrom::End(0))?;
        Ok(Self {
            file,
            path,
            pending: VecDeque::new(),
            synced: Arc::new(AtomicU64::new(synced)),
            pushed: Instant::now(),
            last,
        })
    }

    /// Whether [`PROGRESS_EVERY`] has passed since the stage last went out for the record
    /// (and if so, restarts the clock).
    pub(crate) fn due(&mut self) -> bool {
        let due = self.pushed.elapsed() >= PROGRESS_EVERY;
        if due {
            self.pushed = Instant::now();
        }
        due
    }

    /// The durable mark the flusher raises.
    pub(crate) fn synced(&self) -> Arc<AtomicU64> {
        self.synced.clone()
    }

    /// Queues the line of a chunk whose batches (`blocks`, checksums `crcs`) end at `end`.
    pub(crate) fn record(&mut self, end: u64, blocks: &[Block], crcs: &[u32], state: &Checkpoint) {
        let line = Line {
            end,
            synced: 0,
            blocks: blocks
                .iter()
                .zip(crcs)
                .map(|(b, &crc)| {
                    [
                        b.offset() as u64,
                        b.metaDataLength() as u64,
                        b.bodyLength() as u64,
                        u64::from(crc),
                    ]
                })
                .collect(),
            state: state.clone(),
        };
        self.pending.push_back(line);
    }

    /// Writes the queued lines of chunks wholly within the first `written` bytes of the file.
    pub(crate) fn write_up_to(&mut self, written: u64) -> Result<(), ArchiveError> {
        self.write_lines(written)
            .map_err(|source| ArchiveError::Io {
                path: self.path.clone(),
                action: "cannot write",
                source,
            })
    }

    fn write_lines(&mut self, written: u64) -> std::io::Result<()> {
        let synced = self.synced.load(Ordering::Acquire);
        let mut out = String::new();
        let mut last = None;
        while let Some(mut line) = self.pending.pop_front() {
            if line.end > written {
                self.pending.push_front(line);
                break;
            }
            line.synced = synced;
            let json = serde_json::to_string(&line).map_err(std::io::Error::other)?;
            out.push_str(&seal(&json));
            last = Some(line.state);
        }
        if !out.is_empty() {
            // One write per chunk at most: the line reaches the operating system now. A write
            // that fails partway (a full disk) leaves a torn last line, which has no newline
            // and no valid seal, so a resume ignores it and the lines before it stand.
            #[cfg(test)]
            {
                let at = self.file.stream_position()?;
                let room = crate::archive::full_disk::RECORD.with(std::cell::Cell::get);
                crate::archive::full_disk::write_all(&mut self.file, out.as_bytes(), at, room, 1)?;
            }
            #[cfg(not(test))]
            self.file.write_all(out.as_bytes())?;
            self.last = last;
        }
        Ok(())
    }

    /// The run's counts in the last chunk line that reached the file: what a resume would go
    /// on from (`None` when no chunk's line has yet).
    pub(crate) fn last_recorded(&self) -> Option<&Checkpoint> {
        self.last.as_ref()
    }

    /// Removes the record of `tmp` (the run finished, or failed with nothing worth keeping).
    pub(crate) fn remove(tmp: &Path) {
        let _ = std::fs::remove_file(progress_path(tmp));
    }
}

/// What a resumed writer goes on from: the kept part of a killed run's file.
#[derive(Debug)]
pub struct Recovered {
    /// Bytes of `FILE.tmp` kept.
    pub(crate) len: u64,
    /// Bytes of its header (magic and schema).
    pub(crate) header_len: u64,
    pub(crate) blocks: Vec<Block>,
    pub(crate) crcs: Vec<u32>,
    /// Bytes of the progress record kept.
    pub(crate) journal_len: u64,
    pub(crate) synced: u64,
    /// The counts after the last chunk kept (`None`: no chunk was).
    pub checkpoint: Option<Checkpoint>,
    /// Bytes after the last chunk kept, cut off (a torn tail, unrecorded or damaged chunks).
    pub dropped_bytes: u64,
    /// Recorded chunks dropped because their bytes were missing or failed their checksum.
    pub dropped_chunks: u64,
    /// Bytes read back to check their checksums.
    pub checked_bytes: u64,
}

impl Recovered {
    /// Bytes of `FILE.tmp` kept.
    pub fn len_bytes(&self) -> u64 {
        self.len
    }

    /// Levels in the kept chunks.
    pub fn levels(&self) -> u64 {
        self.checkpoint.as_ref().map_or(0, |c| c.kept)
    }

    /// The kept part of `FILE.tmp` (of output `path`, whose archive has `schema`), mapped.
    /// Its batches must be gone before the writer resumes.
    fn kept_archive(&self, path: &Path, schema: &Schema) -> Result<Archive, ArchiveError> {
        // SAFETY: `FILE.tmp` is this run's; nothing writes it until the writer resumes, after
        // the callers have dropped this archive and its batches.
        unsafe {
            Archive::in_progress(
                &temp_path(path),
                Arc::new(schema.clone()),
                self.blocks.clone(),
                self.crcs.clone(),
            )
        }
    }

    /// Columns `names` of every level kept in `FILE.tmp` (of output `path`, whose archive has
    /// `schema`), copied out of the file: what a resumed `--quota` or `--max-share` run counts
    /// toward its bins and caps. Columns the archive lacks are left out.
    pub fn kept_columns(
        &self,
        path: &Path,
        schema: &Schema,
        names: &[&str],
    ) -> Result<Vec<RecordBatch>, ArchiveError> {
        let tmp = temp_path(path);
        // The columns are copied out of the mapping before this returns.
        let archive = self.kept_archive(path, schema)?;
        let mut out = Vec::with_capacity(archive.batch_count());
        for i in 0..archive.batch_count() {
            let batch = archive.batch_unchecked(i)?;
            let mut fields = Vec::new();
            let mut columns = Vec::new();
            for name in names {
                if let Ok(at) = batch.schema().index_of(name) {
                    fields.push(batch.schema().field(at).clone());
                    let copy = arrow_select::concat::concat(&[batch.column(at).as_ref()])
                        .map_err(|e| refuse(&tmp, &e.to_string()))?;
                    columns.push(copy);
                }
            }
            let projected = RecordBatch::try_new(Arc::new(Schema::new(fields)), columns)
                .map_err(|e| refuse(&tmp, &e.to_string()))?;
            out.push(projected);
        }
        Ok(out)
    }

    /// The `key` column (`layout_hash`, or `canonical_hash`) of every level kept in `FILE.tmp`
    /// (of output `path`, whose archive has `schema`): what a resumed `--unique` run has seen.
    /// Maps the file and reads only that column (structure is validated; the checksums were
    /// checked as far as they need be).
    pub fn layout_hashes(
        &self,
        path: &Path,
        schema: &Schema,
        key: &str,
    ) -> Result<HashSet<u64>, ArchiveError> {
        let tmp = temp_path(path);
        let archive = self.kept_archive(path, schema)?;
        let mut seen = HashSet::with_capacity(self.levels() as usize);
        for i in 0..archive.batch_count() {
            let batch = archive.batch_unchecked(i)?;
            let hashes = batch
                .column_by_name(key)
                .and_then(|c| c.as_primitive_opt::<UInt64Type>())
                .ok_or_else(|| refuse(&tmp, &format!("it has no {key} column")))?;
            seen.extend(hashes.values().iter().copied());
        }
        Ok(seen)
    }
}

/// What `--resume` finds for an output.
#[derive(Debug)]
pub enum ResumePlan {
    /// Nothing of this run to go on from (no `FILE.tmp`, or one holding no level yet): start,
    /// with a note on what was found, if anything.
    Start(Option<String>),
    /// `FILE` is already the finished archive of this run.
    Complete,
    /// Go on from the kept part of `FILE.tmp`.
    Continue(Recovered),
}

/// How this run (`ours`) differs from the run whose archive has schema `theirs`, in words,
/// by the first run key (`warren.*` metadata) that differs; `None` when none does.
fn difference(theirs: &Schema, ours: &Schema) -> Option<String> {
    const KEYS: [(&str, &str); 8] = [
        ("warren.version", "warren version"),
        ("warren.format", "archive format"),
        ("warren.generator", "kind"),
        ("warren.master_seed", "seed"),
        ("warren.shard", "count or shard"),
        ("warren.profile", "profile"),
        ("warren.files", "profile's files"),
        (
            "warren.selection",
            "selection (--unique, --where, --max-tries)",
        ),
    ];
    let (a, b) = (theirs.metadata(), ours.metadata());
    for (key, what) in KEYS {
        let (x, y) = (a.get(key), b.get(key));
        if x != y {
            let show = |v: Option<&String>| match v {
                Some(v) if v.len() <= 60 && !v.contains('\n') => v.clone(),
                Some(_) => "another".to_string(),
                None => "none".to_string(),
            };
            if key == "warren.shard"
                && let Some(words) = shard_difference(x, y)
            {
                return Some(words);
            }
            return Some(if key == "warren.profile" || key == "warren.files" {
                format!("another run's: its {what} differs")
            } else {
                format!(
                    "another run's: its {what} is {}, this run's {}",
                    show(x),
                    show(y)
                )
            });
        }
    }
    (a != b || theirs.fields() != ours.fields()).then(|| "its columns or metadata differ".into())
}

/// Two shard records (`warren.shard`) in words: the run's count, or the shard, that differs.
fn shard_difference(theirs: Option<&String>, ours: Option<&String>) -> Option<String> {
    let parse = |v: Option<&String>| -> Option<serde_json::Value> { serde_json::from_str(v?).ok() };
    let (a, b) = (parse(theirs)?, parse(ours)?);
    let shard = |v: &serde_json::Value| format!("{}/{}", v["index"], v["count"]);
    Some(if a["total"] != b["total"] {
        format!(
            "another run's: its count is {}, this run's {}",
            a["total"], b["total"]
        )
    } else {
        format!(
            "another run's: its shard is {}, this run's {}",
            shard(&a),
            shard(&b)
        )
    })
}

/// The one-line refusal of `path` (`FILE.tmp` or `FILE`), for the reason `why`.
fn refuse(path: &Path, why: &str) -> ArchiveError {
    ArchiveError::Resume {
        path: path.to_path_buf(),
        reason: format!(
            "{why}: not resumed, nothing changed (remove it, or run without --resume to start \
             over)"
        ),
    }
}

/// Where the schema message of an archive's first `bytes` starts and how long its metadata is
/// (`None` when they do not start an archive).
fn schema_message(bytes: &[u8]) -> Option<(usize, usize)> {
    if bytes.get(..6)? != b"ARROW1" {
        return None;
    }
    // The magic is padded with zeros to the writer's alignment (8 or 64 bytes).
    let at = 6 + bytes.get(6..)?.iter().take_while(|&&b| b == 0).count();
    if bytes.get(at..at + 4)? != [0xFF; 4] {
        return None;
    }
    let len = i32::from_le_bytes(bytes.get(at + 4..at + 8)?.try_into().ok()?);
    Some((at, usize::try_from(len).ok()?))
}

/// The header of a file `file_len` bytes long: as long as its own schema message says (at most
/// 64 MiB and the file), or `expected` bytes when it does not start an archive.
fn read_header(file: &mut File, file_len: u64, expected: u64) -> std::io::Result<Vec<u8>> {
    let mut first = Vec::new();
    file.take(file_len.min(4096)).read_to_end(&mut first)?;
    let want = schema_message(&first)
        .map_or(expected, |(at, len)| (at + 8 + len) as u64)
        .min(file_len)
        .min(64 << 20);
    file.seek(SeekFrom::Start(0))?;
    let mut head = Vec::with_capacity(want as usize);
    file.take(want).read_to_end(&mut head)?;
    Ok(head)
}

/// The schema in the header bytes of a file (`None` when they do not hold one).
fn schema_of_header(bytes: &[u8]) -> Option<Schema> {
    let (at, len) = schema_message(bytes)?;
    let meta = bytes.get(at + 8..at + 8 + len)?;
    let message = arrow_ipc::root_as_message(meta).ok()?;
    arrow_ipc::convert::try_fb_to_schema(message.header_as_schema()?).ok()
}

/// Decides what `warren generate --resume` (or `merge --resume`) does for output `path`, whose
/// run writes archives of `schema` (its metadata is the run key) with `compression`, in the
/// chunks `key` describes. Reads, never writes: a refusal changes nothing.
///
/// # Errors
/// One line: `FILE.tmp` or `FILE` belongs to another run (saying what differs), or cannot be
/// read.
pub fn plan_resume(
    path: &Path,
    schema: &Schema,
    compression: Compression,
    key: &ResumeKey,
) -> Result<ResumePlan, ArchiveError> {
    let tmp = temp_path(path);
    let io = |p: &Path, action, source| ArchiveError::Io {
        path: p.to_path_buf(),
        action,
        source,
    };
    let expected = header_bytes(path, schema, compression)?;
    let mut file = match File::open(&tmp) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return finished(path, schema),
        Err(e) => return Err(io(&tmp, "cannot open", e)),
    };
    let file_len = file
        .metadata()
        .map_err(|e| io(&tmp, "cannot stat", e))?
        .len();
    let head = read_header(&mut file, file_len, expected.len() as u64)
        .map_err(|e| io(&tmp, "cannot read", e))?;
    if head != expected {
        if expected.starts_with(&head) {
            return Ok(ResumePlan::Start(Some(format!(
                "{} holds no level yet",
                tmp.display()
            ))));
        }
        return Err(match schema_of_header(&head) {
            Some(theirs) => refuse(
                &tmp,
                &difference(&theirs, schema)
                    .unwrap_or_else(|| "another run's: its header differs".into()),
            ),
            None => refuse(&tmp, "not the start of a warren archive"),
        });
    }
    let ours = JournalHeader::new(&expected, key, compression);
    let progress = progress_path(&tmp);
    let lines = match File::open(&progress) {
        Ok(f) => read_lines(f).map_err(|e| io(&progress, "cannot read", e))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(io(&progress, "cannot open", e)),
    };
    let theirs = lines
        .first()
        .and_then(|(l, _)| unseal(l))
        .and_then(|j| serde_json::from_str::<JournalHeader>(j).ok());
    let Some(theirs) = theirs.filter(|t| t.warren_progress == PROGRESS_FORMAT) else {
        return Ok(ResumePlan::Start(Some(format!(
            "{} has no readable progress record ({}): made again from the start",
            tmp.display(),
            progress.display()
        ))));
    };
    if theirs.chunk_size != ours.chunk_size {
        let why = format!(
            "written with --chunk-size {}, this run's is {}",
            theirs.chunk_size, ours.chunk_size
        );
        return Err(refuse(&tmp, &why));
    }
    if theirs.inputs != ours.inputs {
        let why = "a merge of other shard files (their record batches differ)";
        return Err(refuse(&tmp, why));
    }
    if theirs.compression != ours.compression {
        let why = format!(
            "written with --compression {}, this run's is {}",
            theirs.compression, ours.compression
        );
        return Err(refuse(&tmp, &why));
    }
    let (mut recovered, kept) = keep_chunks(&lines[1..], &mut file, &expected, file_len)
        .map_err(|e| io(&tmp, "cannot read", e))?;
    recovered.journal_len = lines[..1 + kept].iter().map(|(_, n)| n).sum();
    Ok(ResumePlan::Continue(recovered))
}

/// `FILE` when there is no `FILE.tmp`: the finished archive of this run, another run's, or
/// nothing yet.
fn finished(path: &Path, schema: &Schema) -> Result<ResumePlan, ArchiveError> {
    if !path.exists() {
        return Ok(ResumePlan::Start(None));
    }
    let archive = crate::archive::Archive::open(path)
        .map_err(|e| refuse(path, &format!("not a finished archive ({e})")))?;
    match difference(archive.schema(), schema) {
        None => Ok(ResumePlan::Complete),
        Some(why) => Err(refuse(path, &why)),
    }
}

/// Every line of `file` with its length in bytes (a last line without its newline is torn
/// and left out).
fn read_lines(file: File) -> std::io::Result<Vec<(String, u64)>> {
    let mut reader = BufReader::new(file);
    let mut lines = Vec::new();
    loop {
        let mut buf = Vec::new();
        let n = reader.read_until(b'\n', &mut buf)?;
        if n == 0 || buf.last() != Some(&b'\n') {
            return Ok(lines);
        }
        buf.pop();
        match String::from_utf8(buf) {
            Ok(line) => lines.push((line, n as u64)),
            Err(_) => return Ok(lines),
        }
    }
}

/// Walks the chunk `lines` in order and keeps the longest run of chunks that follow on from
/// each other, lie inside the `file_len` bytes of `file` and (past the last durable mark) match
/// their checksums; returns it and the number of chunk lines kept.
fn keep_chunks(
    lines: &[(String, u64)],
    file: &mut File,
    header: &[u8],
    file_len: u64,
) -> std::io::Result<(Recovered, usize)> {
    let mut parsed = Vec::new();
    let mut end = header.len() as u64;
    for (text, _) in lines {
        let Some(line) = unseal(text).and_then(|j| serde_json::from_str::<Line>(j).ok()) else {
            break;
        };
        let mut at = end;
        let follows = line.blocks.iter().all(|&[offset, meta, body, crc]| {
            let ok = offset == at
                && (8..=i32::MAX as u64).contains(&meta)
                && body <= i64::MAX as u64
                && u32::try_from(crc).is_ok();
            at = offset.saturating_add(meta).saturating_add(body);
            ok
        });
        let next = parsed.len() as u64 + 1;
        if !follows || line.end != at || at > file_len || line.state.chunks != next {
            break;
        }
        end = at;
        parsed.push(line);
    }
    // Past the last durable mark the bytes may be torn or damaged: check them.
    let synced = parsed.iter().map(|l| l.synced).max().unwrap_or(0);
    let mut checked = 0u64;
    let mut keep = parsed.len();
    'lines: for (i, line) in parsed.iter().enumerate() {
        for &[offset, meta, body, crc] in &line.blocks {
            if offset + meta + body > synced {
                checked += meta + body;
                if crc_of(file, offset, meta + body)? != Some(crc as u32) {
                    keep = i;
                    break 'lines;
                }
            }
        }
    }
    let dropped_chunks = (parsed.len() - keep) as u64;
    parsed.truncate(keep);
    let len = parsed.last().map_or(header.len() as u64, |l| l.end);
    let mut blocks = Vec::new();
    let mut crcs = Vec::new();
    for line in &parsed {
        for &[offset, meta, body, crc] in &line.blocks {
            blocks.push(Block::new(offset as i64, meta as i32, body as i64));
            crcs.push(crc as u32);
        }
    }
    let recovered = Recovered {
        len,
        header_len: header.len() as u64,
        blocks,
        crcs,
        journal_len: 0,
        synced: synced.min(len),
        checkpoint: parsed.last().map(|l| l.state.clone()),
        dropped_bytes: file_len - len,
        dropped_chunks,
        checked_bytes: checked,
    };
    Ok((recovered, parsed.len()))
}

/// The CRC-32 of `len` bytes of `file` from `offset`; `None` when the file ends first.
fn crc_of(file: &mut File, offset: u64, len: u64) -> std::io::Result<Option<u32>> {
    file.seek(SeekFrom::Start(offset))?;
    let mut hasher = crc32fast::Hasher::new();
    let mut buf = vec![0u8; (8 << 20).min(len as usize)];
    let mut left = len;
    while left > 0 {
        let want = (buf.len() as u64).min(left) as usize;
        let n = file.read(&mut buf[..want])?;
        if n == 0 {
            return Ok(None);
        }
        hasher.update(&buf[..n]);
        left -= n as u64;
    }
    Ok(Some(hasher.finalize()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use arrow_schema::{DataType, Field};

    #[test]
    fn the_schema_of_a_header_is_read_back() {
        let mut meta = std::collections::HashMap::new();
        meta.insert("warren.master_seed".to_string(), "5".to_string());
        let schema =
            Schema::new(vec![Field::new("index", DataType::UInt64, false)]).with_metadata(meta);
        let bytes = header_bytes(Path::new("x"), &schema, Compression::None).unwrap();
        assert_eq!(schema_of_header(&bytes), Some(schema));
    }
}
