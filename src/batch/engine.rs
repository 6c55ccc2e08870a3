//! The batch engine (DESIGN.md, "Data flow"): workers on a rayon pool take chunks of consecutive
//! level indices, generate each level into their own scratch and build one record batch per
//! chunk; the calling thread writes chunks in index order. A window bounds the chunks in flight,
//! so memory stays flat however large `--count` is, and the content of level `i` depends only on
//! (profile, master seed, `i`), never on threads, chunking or shards.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{SyncSender, sync_channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use arrow_array::RecordBatch;
use arrow_schema::{ArrowError, Schema, SchemaRef};

use crate::archive::{ArchiveError, ArchiveWriter, ChunkBuilder, RunFooter};
use crate::batch::progress::Progress;
use crate::batch::shard::Shard;
use crate::core::generator::Generator;
use crate::core::rng::mix;

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
    /// Wall-clock seconds, archive included.
    pub seconds: f64,
    /// Final archive size in bytes.
    pub bytes: u64,
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
}

/// Where a run's record batches go, in index order: an archive file ([`ArchiveWriter`]), or
/// any in-process consumer (the Python package's tables and iterators).
pub trait BatchSink {
    /// Takes the next batch (never empty). An error stops the run.
    fn write(&mut self, batch: &RecordBatch) -> Result<(), BatchError>;
    /// Ends the run with its footer metadata (level and failure counts appended); returns the
    /// bytes written.
    fn finish(self, footer: &[(String, String)]) -> Result<u64, BatchError>;
}

impl BatchSink for ArchiveWriter {
    fn write(&mut self, batch: &RecordBatch) -> Result<(), BatchError> {
        Ok(ArchiveWriter::write(self, batch)?)
    }

    fn finish(self, footer: &[(String, String)]) -> Result<u64, BatchError> {
        Ok(ArchiveWriter::finish(self, footer)?)
    }
}

/// One finished chunk on its way to the writer.
struct Chunk {
    number: u64,
    batches: Result<Vec<RecordBatch>, BatchError>,
    failures: HashMap<&'static str, u64>,
}

/// Variable-length bytes (grids, list values) after which a chunk starts a new record batch:
/// Arrow's 32-bit offsets cap a column at 2 GiB, and one level stays far below the margin
/// (the largest allowed maze grid is 17 MB).
const MAX_BATCH_BYTES: usize = 1 << 30;

/// Generates the levels `levels` into record batches.
fn build_chunk<G: Generator>(
    generator: &G,
    scratch: &mut G::Scratch,
    builder: &mut ChunkBuilder,
    master_seed: u64,
    levels: Range<u64>,
    failures: &mut HashMap<&'static str, u64>,
) -> Result<Vec<RecordBatch>, ArrowError> {
    let mut batches = Vec::with_capacity(1);
    for index in levels {
        let seed = mix(master_seed, index);
        match generator.generate(seed, scratch) {
            Ok(level) => builder.push(index, seed, &level),
            Err(e) => *failures.entry(e.reason).or_insert(0) += 1,
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
    /// A window for `threads` workers.
    fn new(threads: usize) -> Self {
        // PERF: two chunks per worker in flight keeps every core busy while the writer drains,
        // and bounds memory to (2 * threads + 2) chunks.
        Self {
            written: Mutex::new(0),
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
    /// The chunks of the run `opts` describes.
    fn new(opts: &BatchOptions) -> Self {
        let range = opts.shard.range(opts.count);
        let range = opts.start + range.start..opts.start + range.end;
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
        let mut failures = HashMap::new();
        let built = catch_unwind(AssertUnwindSafe(|| {
            let levels = levels.clone();
            build_chunk(
                self.generator,
                scratch,
                builder,
                self.seed,
                levels,
                &mut failures,
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
            failures,
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
/// thread writes them into `writer` in index order, counting into `summary` and `progress`.
fn generate_in_order<G: Generator, S: BatchSink>(
    workers: &Workers<'_, G>,
    pool: &rayon::ThreadPool,
    writer: &mut S,
    summary: &mut BatchSummary,
    progress: &Progress,
) -> Result<(), BatchError> {
    let shared = Shared {
        next: AtomicU64::new(0),
        abort: AtomicBool::new(false),
        window: Window::new(workers.threads),
    };
    let (tx, rx) = sync_channel::<Chunk>(shared.window.size as usize);
    std::thread::scope(|scope| {
        let shared = &shared;
        scope.spawn(move || workers.run(pool, shared, tx));
        let outcome = write_in_order(rx.iter(), writer, summary, &shared.window, |number| {
            let levels = workers.chunking.chunk(number);
            progress.advance(levels.end - levels.start)
        });
        if outcome.is_err() {
            shared.abort();
            drop(rx);
        }
        outcome
    })
}

/// Generates this shard's levels of the run into `writer` (an archive, or any [`BatchSink`])
/// and finishes it with `footer` metadata plus the level and failure counts ([`RunFooter`]).
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
    let workers = Workers {
        generator,
        schema: &schema,
        seed: opts.seed,
        chunking: &chunking,
        threads,
    };
    let progress = Progress::new(chunking.levels(), opts.progress);
    let mut summary = BatchSummary::default();
    let outcome = generate_in_order(&workers, &pool, &mut writer, &mut summary, &progress);
    progress.finish();
    outcome?;
    let counts = RunFooter {
        levels: summary.levels,
        failures: summary.failure_reasons.clone(),
    };
    footer.extend(counts.to_metadata());
    summary.bytes = writer.finish(&footer)?;
    summary.seconds = started.elapsed().as_secs_f64();
    Ok(summary)
}

/// The ordered writer: takes chunks as workers finish them, in any order, and hands their
/// batches to `writer` in chunk order, counting levels and failures into `summary`;
/// `advanced(n)` reports chunk `n` written, and the window lets workers run on.
fn write_in_order<S: BatchSink>(
    chunks: impl Iterator<Item = Chunk>,
    writer: &mut S,
    summary: &mut BatchSummary,
    window: &Window,
    advanced: impl Fn(u64),
) -> Result<(), BatchError> {
    let mut pending: BTreeMap<u64, Chunk> = BTreeMap::new();
    let mut expect = 0u64;
    for chunk in chunks {
        pending.insert(chunk.number, chunk);
        while let Some(chunk) = pending.remove(&expect) {
            for batch in chunk.batches? {
                if batch.num_rows() > 0 {
                    writer.write(&batch)?;
                }
                summary.levels += batch.num_rows() as u64;
            }
            for (reason, n) in chunk.failures {
                summary.failures += n;
                *summary
                    .failure_reasons
                    .entry(reason.to_string())
                    .or_insert(0) += n;
            }
            advanced(expect);
            expect += 1;
            window.advance();
        }
    }
    Ok(())
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
                    reason: "deliberate",
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
