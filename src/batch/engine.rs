//! The batch engine (DESIGN.md, "Data flow"): workers on a rayon pool take chunks of consecutive
//! level indices, generate each level into their own scratch and build one record batch per
//! chunk; the calling thread writes chunks in index order. A window bounds the chunks in flight,
//! so memory stays flat however large `--count` is, and the content of level `i` depends only on
//! (profile, master seed, `i`), never on threads, chunking or shards.

use std::collections::BTreeMap;
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{SyncSender, sync_channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use arrow_array::RecordBatch;
use arrow_schema::{ArrowError, Schema, SchemaRef};

use crate::archive::{ArchiveError, ArchiveWriter, Checkpoint, ChunkBuilder, RunFooter, Scanned};
use crate::batch::filter::Filter;
use crate::batch::progress::Progress;
use crate::batch::quota::{Gate, Gated, Shaper};
pub use crate::batch::select::Selection;
use crate::batch::select::{Keeper, Skip, unique_key};
use crate::core::generator::Generator;
use crate::core::rng::mix;
use crate::core::shard::Shard;

/// Worker threads for a `threads` setting: the number given, or for 0 every core this process
/// may use (1 where that cannot be learnt).
pub fn resolve_threads(threads: usize) -> usize {
    if threads > 0 {
        threads
    } else {
        std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
    }
}

/// How to run a batch.
#[derive(Clone, Debug)]
pub struct BatchOptions {
    /// Levels in the whole run (all shards together).
    pub count: u64,
    /// The master seed.
    pub seed: u64,
    /// Worker threads (0: all cores; see [`resolve_threads`]).
    pub threads: usize,
    /// Which part of the run this process makes.
    pub shard: Shard,
    /// The run's first index (0 for a whole run): the shard's indices are offset by it, so a
    /// run of `count` levels from `start` makes levels `start..start + count`.
    pub start: u64,
    /// Levels per record batch.
    pub chunk_size: usize,
    /// Show a progress bar (only drawn when stderr is a terminal).
    pub progress: bool,
    /// Keep only unique or filtered levels (`--unique`, `--where`); `None` keeps every level
    /// that generates.
    pub selection: Option<Selection>,
    /// Go on from this point of a killed run (`generate --resume`): its chunks before
    /// `chunks` are in the archive already, with these counts (and, with `--unique`, their
    /// hashes in the selection's `earlier`).
    pub resume: Option<Checkpoint>,
    /// With `resume` and a `--quota` or `--max-share`: the record batches the killed run kept,
    /// counted toward the bins and caps before the run goes on.
    pub kept: Vec<RecordBatch>,
}

impl Default for BatchOptions {
    fn default() -> Self {
        Self {
            count: 1000,
            seed: 0,
            threads: 0,
            shard: Shard::default(),
            start: 0,
            chunk_size: 2048,
            progress: false,
            selection: None,
            resume: None,
            kept: Vec::new(),
        }
    }
}

/// What a finished run did.
#[derive(Clone, Debug, Default)]
pub struct BatchSummary {
    /// Levels written.
    pub levels: u64,
    /// Seeds that failed.
    pub failures: u64,
    /// Failures by reason.
    pub failure_reasons: BTreeMap<String, u64>,
    /// With a selection: the indices looked at, and the levels left out there.
    pub scanned: Option<Scanned>,
    /// Wall-clock seconds, archive included.
    pub seconds: f64,
    /// Final archive size in bytes.
    pub bytes: u64,
    /// With `--quota`: per bin, its name, levels kept and target.
    pub bins: Vec<(String, u64, u64)>,
    /// With `--quota` or `--max-share`: levels left out because their bin was full or their
    /// value at its cap (counted among the filtered ones too).
    pub over_quota: u64,
}

impl BatchSummary {
    /// Levels per second.
    pub fn levels_per_second(&self) -> f64 {
        self.levels as f64 / self.seconds.max(1e-9)
    }
}

/// A batch run failed as a whole.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// Writing the archive failed.
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    /// Arrow rejected a chunk (a generator produced inconsistent columns).
    #[error("building a record batch")]
    Chunk(#[from] ArrowError),
    /// A generator panicked: a bug, reported with the chunk it happened in.
    #[error("a worker panicked while generating levels {first}..{end}: {message}")]
    Panic {
        /// First index of the chunk.
        first: u64,
        /// One past its last index.
        end: u64,
        /// The panic message.
        message: String,
    },
    /// The thread pool could not start.
    #[error("cannot start {threads} worker threads: {message}")]
    Pool {
        /// Threads asked for.
        threads: usize,
        /// Why.
        message: String,
    },
    /// The consumer of the batches stopped the run (it was dropped or interrupted).
    #[error("stopped: {0}")]
    Stopped(String),
    /// A `--quota` or `--max-share` cannot be met: which bin or cap, and the rate seen.
    #[error("{0}")]
    Unfillable(String),
    /// A selection kept too few levels within `max_tries` indices.
    #[error(
        "kept {kept} of the {wanted} levels asked for after trying {tried} seeds \
         ({failed} failed, {filtered} filtered out, {duplicates} duplicates); loosen the \
         selection or raise --max-tries"
    )]
    Exhausted {
        /// Levels kept.
        kept: u64,
        /// Levels asked for.
        wanted: u64,
        /// Indices tried.
        tried: u64,
        /// Seeds that failed to generate.
        failed: u64,
        /// Levels the filter left out.
        filtered: u64,
        /// Levels left out as duplicates.
        duplicates: u64,
    },
}

/// Where a run's record batches go, in index order: an archive file ([`ArchiveWriter`]), or
/// any in-process consumer (the Python package's tables and iterators).
pub trait BatchSink {
    /// Takes the next batch (never empty). An error stops the run.
    fn write(&mut self, batch: &RecordBatch) -> Result<(), BatchError>;
    /// Ends the run with its footer metadata (level and failure counts appended); returns the
    /// bytes written.
    fn finish(self, footer: &[(String, String)]) -> Result<u64, BatchError>;
    /// Takes the run's state after a chunk whose batches were all written (a resumable archive
    /// records it; other sinks ignore it).
    fn checkpoint(&mut self, _state: &Checkpoint) -> Result<(), BatchError> {
        Ok(())
    }
}

impl BatchSink for ArchiveWriter {
    fn write(&mut self, batch: &RecordBatch) -> Result<(), BatchError> {
        Ok(ArchiveWriter::write(self, batch)?)
    }

    fn checkpoint(&mut self, state: &Checkpoint) -> Result<(), BatchError> {
        Ok(ArchiveWriter::checkpoint(self, state)?)
    }

    fn finish(self, footer: &[(String, String)]) -> Result<u64, BatchError> {
        Ok(ArchiveWriter::finish(self, footer)?)
    }
}

impl BatchSink for crate::archive::ParquetWriter {
    fn write(&mut self, batch: &RecordBatch) -> Result<(), BatchError> {
        Ok(crate::archive::ParquetWriter::write(self, batch)?)
    }

    fn finish(self, footer: &[(String, String)]) -> Result<u64, BatchError> {
        Ok(crate::archive::ParquetWriter::finish(self, footer)?.0)
    }
}

/// One finished chunk on its way to the writer.
struct Chunk {
    number: u64,
    batches: Result<Vec<RecordBatch>, BatchError>,
    /// The levels not in `batches`, in index order.
    skipped: Vec<(u64, Skip)>,
}

/// Variable-length bytes (grids, list values) after which a chunk starts a new record batch:
/// Arrow's 32-bit offsets cap a column at 2 GiB, and one level stays far below the margin
/// (the largest allowed maze grid is 17 MB).
const MAX_BATCH_BYTES: usize = 1 << 30;

/// Generates the levels `levels` into record batches, leaving out (into `skipped`) the seeds
/// that fail and the levels `filter` does not pass.
fn build_chunk<G: Generator>(
    generator: &G,
    scratch: &mut G::Scratch,
    builder: &mut ChunkBuilder,
    (master_seed, filter, gate): (u64, Option<&Filter>, Option<&Gate>),
    levels: Range<u64>,
    skipped: &mut Vec<(u64, Skip)>,
) -> Result<Vec<RecordBatch>, ArrowError> {
    let mut batches = Vec::with_capacity(1);
    for index in levels {
        let seed = mix(master_seed, index);
        match generator.generate_at(index, seed, scratch) {
            Ok(level) if filter.is_none_or(|f| f.passes(level.metrics)) => {
                match gate.map_or(Gated::Build, |g| g.check(level.metrics)) {
                    Gated::Build => builder.push(index, seed, &level),
                    Gated::NoBin => skipped.push((index, Skip::Filtered)),
                    Gated::Full => skipped.push((index, Skip::OverQuota)),
                }
            }
            Ok(_) => skipped.push((index, Skip::Filtered)),
            Err(e) => skipped.push((index, Skip::Failed(e.reason))),
        }
        if builder.variable_bytes() >= MAX_BATCH_BYTES {
            batches.push(builder.finish()?);
        }
    }
    if builder.rows() > 0 || batches.is_empty() {
        batches.push(builder.finish()?);
    }
    Ok(batches)
}

/// Limits how far workers may run ahead of the writer.
struct Window {
    written: Mutex<u64>,
    advanced: Condvar,
    size: u64,
}

impl Window {
    /// A window for `threads` workers, from chunk `first`.
    fn new(threads: usize, first: u64) -> Self {
        // PERF: two chunks per worker in flight keeps every core busy while the writer drains,
        // and bounds memory to (2 * threads + 2) chunks.
        Self {
            written: Mutex::new(first),
            advanced: Condvar::new(),
            size: 2 * threads as u64 + 2,
        }
    }

    /// Blocks until chunk `number` fits in the window; false when the run is aborting.
    fn wait_for(&self, number: u64, abort: &AtomicBool) -> bool {
        let mut written = self.written.lock().expect("window lock");
        while number >= *written + self.size {
            if abort.load(Ordering::Relaxed) {
                return false;
            }
            written = self.advanced.wait(written).expect("window lock");
        }
        !abort.load(Ordering::Relaxed)
    }

    fn advance(&self) {
        *self.written.lock().expect("window lock") += 1;
        self.advanced.notify_all();
    }
}

/// A shard's index range cut into chunks of consecutive indices.
struct Chunking {
    range: Range<u64>,
    size: u64,
    count: u64,
}

impl Chunking {
    /// The chunks of the run `opts` describes: its shard's index range, or for a whole run
    /// with a selection every index it may try.
    fn new(opts: &BatchOptions) -> Self {
        let range = opts.shard.range(opts.count);
        let mut range = opts.start + range.start..opts.start + range.end;
        if let Some(selection) = opts.selection.as_ref().filter(|_| opts.shard.count == 1) {
            range.end = range.start.saturating_add(selection.max_tries);
        }
        let size = opts.chunk_size.max(1) as u64;
        let count = (range.end - range.start).div_ceil(size);
        Self { range, size, count }
    }

    /// The indices of chunk `number`.
    fn chunk(&self, number: u64) -> Range<u64> {
        let lo = self.range.start + number * self.size;
        lo..(lo + self.size).min(self.range.end)
    }

    /// Levels in all chunks.
    fn levels(&self) -> u64 {
        self.range.end - self.range.start
    }
}

/// What the workers share with the writer: the next chunk to claim, the window and the abort
/// flag.
struct Shared {
    next: AtomicU64,
    abort: AtomicBool,
    window: Window,
}

impl Shared {
    /// The next chunk for a worker to build, once it fits in the window; `None` when every
    /// chunk is claimed or the run is aborting.
    fn claim(&self, chunks: u64) -> Option<u64> {
        let number = self.next.fetch_add(1, Ordering::Relaxed);
        (number < chunks && self.window.wait_for(number, &self.abort)).then_some(number)
    }

    /// Stops the workers (the writer failed).
    fn abort(&self) {
        // Set under the window's lock, so a worker cannot test the flag, miss this
        // notification and sleep forever.
        {
            let _written = self.window.written.lock().expect("window lock");
            self.abort.store(true, Ordering::Relaxed);
        }
        self.window.advanced.notify_all();
    }
}

/// The workers' side of a run: what each needs to build chunks.
struct Workers<'a, G> {
    generator: &'a G,
    schema: &'a SchemaRef,
    seed: u64,
    filter: Option<&'a Filter>,
    gate: Option<Gate>,
    chunking: &'a Chunking,
    threads: usize,
}

impl<G: Generator> Workers<'_, G> {
    /// Runs `threads` workers on `pool` until every chunk is built or the run aborts; each
    /// sends its chunks down `tx`. Returns when all have stopped.
    fn run(&self, pool: &rayon::ThreadPool, shared: &Shared, tx: SyncSender<Chunk>) {
        pool.scope(|s| {
            for _ in 0..self.threads {
                let tx = tx.clone();
                s.spawn(move |_| self.work(shared, tx));
            }
        });
    }

    /// One worker: claims chunks in turn, builds each into its own scratch and builder and
    /// sends it on; stops when none is left, the run aborts, the writer is gone or a level
    /// panicked.
    fn work(&self, shared: &Shared, tx: SyncSender<Chunk>) {
        let mut scratch = self.generator.new_scratch();
        let columns = self.generator.columns();
        let mut builder =
            ChunkBuilder::new(self.schema.clone(), columns, self.chunking.size as usize);
        while let Some(number) = shared.claim(self.chunking.count) {
            let chunk = self.build(&mut scratch, &mut builder, number);
            let panicked = matches!(chunk.batches, Err(BatchError::Panic { .. }));
            if tx.send(chunk).is_err() || panicked {
                break;
            }
        }
    }

    /// Builds chunk `number`. A panic must not leave the writer waiting for this chunk forever:
    /// it becomes the chunk's error, which stops the run.
    fn build(&self, scratch: &mut G::Scratch, builder: &mut ChunkBuilder, number: u64) -> Chunk {
        let levels = self.chunking.chunk(number);
        let mut skipped = Vec::new();
        let built = catch_unwind(AssertUnwindSafe(|| {
            let levels = levels.clone();
            build_chunk(
                self.generator,
                scratch,
                builder,
                (self.seed, self.filter, self.gate.as_ref()),
                levels,
                &mut skipped,
            )
        }));
        let batches = match built {
            Ok(b) => b.map_err(BatchError::from),
            Err(payload) => Err(BatchError::Panic {
                first: levels.start,
                end: levels.end,
                message: panic_message(payload.as_ref()),
            }),
        };
        Chunk {
            number,
            batches,
            skipped,
        }
    }
}

/// A pool of `threads` named workers.
fn worker_pool(threads: usize) -> Result<rayon::ThreadPool, BatchError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("warren-worker-{i}"))
        .build()
        .map_err(|e| BatchError::Pool {
            threads,
            message: e.to_string(),
        })
}

/// The run's two sides: `workers` build chunks on `pool` (from a thread of their own) while this
/// thread writes them into `writer` in index order, keeping and counting rows with `keeper`
/// and reporting to `progress`.
fn generate_in_order<G: Generator, S: BatchSink>(
    workers: &Workers<'_, G>,
    pool: &rayon::ThreadPool,
    writer: &mut S,
    keeper: &mut Keeper,
    progress: &Progress,
    first: u64,
) -> Result<(), BatchError> {
    let shared = Shared {
        next: AtomicU64::new(first),
        abort: AtomicBool::new(false),
        window: Window::new(workers.threads, first),
    };
    let (tx, rx) = sync_channel::<Chunk>(shared.window.size as usize);
    std::thread::scope(|scope| {
        let shared = &shared;
        scope.spawn(move || workers.run(pool, shared, tx));
        let ordered = Ordered {
            chunking: workers.chunking,
            window: &shared.window,
            progress,
        };
        let outcome = ordered.write(rx.iter(), writer, keeper, first);
        // Stop the workers: the run failed, or a selection has kept all it needs.
        if outcome.is_err() || keeper.done {
            shared.abort();
            drop(rx);
        }
        outcome
    })
}

/// Generates this shard's levels of the run into `writer` (an archive, or any [`BatchSink`])
/// and finishes it with `footer` metadata plus the level and failure counts ([`RunFooter`]).
///
/// # Errors
/// The archive or a chunk failed, a level panicked, or a selection did not keep `count` levels
/// within its `max_tries` ([`BatchError::Exhausted`]; nothing is finished then).
pub fn run<G: Generator, S: BatchSink>(
    generator: &G,
    schema: Arc<Schema>,
    opts: &BatchOptions,
    mut writer: S,
    mut footer: Vec<(String, String)>,
) -> Result<BatchSummary, BatchError> {
    let started = Instant::now();
    let chunking = Chunking::new(opts);
    let threads = resolve_threads(opts.threads);
    let pool = worker_pool(threads)?;
    let selection = opts.selection.as_ref();
    let whole = opts.shard.count == 1;
    let target = (whole && selection.is_some()).then_some(opts.count);
    let seen = selection
        .filter(|s| s.unique)
        .map(|s| s.earlier.as_deref().cloned().unwrap_or_default());
    let shaper = selection
        .and_then(|s| Shaper::new(s.quota.as_ref(), &s.max_share, opts.count, s.max_tries));
    let mut keeper = Keeper::new(chunking.range.start, seen, target, selection.is_some())
        .keyed_by(unique_key(selection.is_some_and(|s| s.canonical)))
        .shaped_by(shaper);
    let first = opts.resume.as_ref().map_or(0, |c| c.chunks);
    let mut done = 0;
    if let Some(state) = &opts.resume {
        keeper.restore(state);
        keeper.restore_shape(opts.kept.iter())?;
        done = if target.is_some() {
            keeper.kept
        } else {
            chunking.levels().min(first * chunking.size)
        };
    }
    // After the resumed run's levels are counted: a bin they filled is closed to the workers.
    let workers = Workers {
        generator,
        schema: &schema,
        seed: opts.seed,
        filter: selection.and_then(|s| s.filter.as_ref()),
        gate: keeper.shaper().and_then(Shaper::gate),
        chunking: &chunking,
        threads,
    };
    let total = target.unwrap_or_else(|| chunking.levels());
    let progress = Progress::new(total, done, opts.progress);
    let outcome = generate_in_order(&workers, &pool, &mut writer, &mut keeper, &progress, first);
    progress.finish();
    outcome?;
    if let Some(line) = keeper.refusal.take() {
        return Err(BatchError::Unfillable(line));
    }
    if let Some(wanted) = target.filter(|&t| keeper.kept < t) {
        let scanned = &keeper.scanned;
        if let Some(line) = keeper
            .shaper()
            .and_then(|s| s.shortfall(scanned.end - scanned.start))
        {
            return Err(BatchError::Unfillable(line));
        }
        return Err(BatchError::Exhausted {
            kept: keeper.kept,
            wanted,
            tried: scanned.end - scanned.start,
            failed: keeper.failed(),
            filtered: scanned.filtered,
            duplicates: scanned.duplicates,
        });
    }
    let counts = RunFooter {
        levels: keeper.kept,
        failures: keeper.failures.clone(),
        scanned: keeper.scanned(),
    };
    footer.extend(counts.to_metadata());
    let (bins, over_quota) = keeper
        .shaper()
        .map_or((Vec::new(), 0), |s| (s.bins(), s.over));
    let mut summary = BatchSummary {
        bins,
        over_quota,
        levels: keeper.kept,
        failures: keeper.failed(),
        failure_reasons: keeper.failures,
        scanned: counts.scanned,
        ..BatchSummary::default()
    };
    summary.bytes = writer.finish(&footer)?;
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// The ordered writer: takes chunks as workers finish them, in any order, and hands them to
/// the sink in chunk order.
struct Ordered<'a> {
    chunking: &'a Chunking,
    window: &'a Window,
    progress: &'a Progress,
}

impl Ordered<'_> {
    /// Writes `chunks` in order into `writer`, the rows `keeper` keeps of each, until the
    /// chunks run out or the keeper is done; the window lets workers run on as chunks go out.
    fn write<S: BatchSink>(
        &self,
        chunks: impl Iterator<Item = Chunk>,
        writer: &mut S,
        keeper: &mut Keeper,
        first: u64,
    ) -> Result<(), BatchError> {
        if keeper.done {
            return Ok(());
        }
        let mut pending: BTreeMap<u64, Chunk> = BTreeMap::new();
        let mut expect = first;
        for chunk in chunks {
            pending.insert(chunk.number, chunk);
            while let Some(chunk) = pending.remove(&expect) {
                let kept_before = keeper.kept;
                let levels = self.chunking.chunk(expect);
                for batch in keeper.take(levels.clone(), chunk.batches?, &chunk.skipped)? {
                    writer.write(&batch)?;
                }
                writer.checkpoint(&keeper.checkpoint(expect + 1))?;
                self.progress.advance(if keeper.is_selecting_whole() {
                    keeper.kept - kept_before
                } else {
                    levels.end - levels.start
                });
                if keeper.done {
                    return Ok(());
                }
                expect += 1;
                self.window.advance();
            }
        }
        Ok(())
    }
}

/// The text of a panic payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::level_schema;
    use crate::core::error::{GenError, Violation};
    use crate::core::generator::{Columns, Level, LevelRecord};
    use crate::core::grid::GridView;

    /// A one-cell grid generator that panics on one index and fails on another.
    struct Faulty {
        panic_at: Option<u64>,
        fail_at: u64,
    }

    impl Generator for Faulty {
        type Scratch = [u8; 1];

        fn kind(&self) -> &'static str {
            "faulty"
        }

        fn columns(&self) -> Columns {
            Columns {
                grid: true,
                graph: false,
                tags: false,
                metrics: &[],
                ..Columns::default()
            }
        }

        fn new_scratch(&self) -> [u8; 1] {
            [1]
        }

        fn generate<'s>(&self, seed: u64, s: &'s mut [u8; 1]) -> Result<Level<'s>, GenError> {
            if self.panic_at.is_some_and(|i| seed == mix(0, i)) {
                panic!("deliberate test panic");
            }
            if seed == mix(0, self.fail_at) {
                return Err(GenError {
                    reason: "deliberate".into(),
                    detail: String::new(),
                });
            }
            let grid = GridView {
                width: 1,
                height: 1,
                cells: &s[..],
            };
            Ok(Level {
                grid: Some(grid),
                graph: None,
                metrics: &[],
                ..Level::default()
            })
        }

        fn verify(&self, _record: &LevelRecord<'_>) -> Result<(), Violation> {
            Ok(())
        }
    }

    fn run_faulty(g: &Faulty, path: &std::path::Path) -> Result<BatchSummary, BatchError> {
        let schema = Arc::new(level_schema(&g.columns(), Default::default()));
        let writer = ArchiveWriter::create(path, &schema).unwrap();
        let opts = BatchOptions {
            count: 64,
            threads: 2,
            chunk_size: 1,
            ..Default::default()
        };
        run(g, schema, &opts, writer, Vec::new())
    }

    #[test]
    fn failures_are_counted_and_skipped() {
        let dir = std::env::temp_dir().join(format!("warren-engine-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("fail.arrow");
        let summary = run_faulty(
            &Faulty {
                panic_at: None,
                fail_at: 9,
            },
            &path,
        )
        .unwrap();
        assert_eq!((summary.levels, summary.failures), (63, 1));
        assert_eq!(summary.failure_reasons.get("deliberate"), Some(&1));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Regression: a panicking worker used to leave the writer waiting for its chunk forever.
    #[test]
    fn a_worker_panic_fails_the_run_and_leaves_no_file() {
        let dir = std::env::temp_dir().join(format!("warren-engine-panic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("panic.arrow");
        let err = run_faulty(
            &Faulty {
                panic_at: Some(5),
                fail_at: 99,
            },
            &path,
        )
        .unwrap_err();
        assert!(
            matches!(
                err,
                BatchError::Panic {
                    first: 5,
                    end: 6,
                    ..
                }
            ),
            "{err}"
        );
        assert!(!path.exists());
        assert!(!crate::archive::temp_path(&path).exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
