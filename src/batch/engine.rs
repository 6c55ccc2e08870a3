//! The batch engine (DESIGN.md, "Data flow"): workers on a rayon pool take chunks of consecutive
//! level indices, generate each level into their own scratch and build one record batch per
//! chunk; the calling thread writes chunks in index order. A window bounds the chunks in flight,
//! so memory stays flat however large `--count` is, and the content of level `i` depends only on
//! (profile, master seed, `i`), never on threads, chunking or shards.

use std::collections::{BTreeMap, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use arrow_array::RecordBatch;
use arrow_schema::{ArrowError, Schema};

use crate::archive::{ArchiveError, ArchiveWriter, ChunkBuilder};
use crate::batch::progress::Progress;
use crate::batch::shard::Shard;
use crate::core::generator::Generator;
use crate::core::rng::mix;

/// How to run a batch.
#[derive(Clone, Debug)]
pub struct BatchOptions {
    /// Levels in the whole run (all shards together).
    pub count: u64,
    /// The master seed.
    pub seed: u64,
    /// Worker threads (0: all cores).
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

/// Generates levels `lo..hi` into record batches.
fn build_chunk<G: Generator>(
    generator: &G,
    scratch: &mut G::Scratch,
    builder: &mut ChunkBuilder,
    master_seed: u64,
    lo: u64,
    hi: u64,
    failures: &mut HashMap<&'static str, u64>,
) -> Result<Vec<RecordBatch>, ArrowError> {
    let mut batches = Vec::with_capacity(1);
    for index in lo..hi {
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

/// The schema metadata of a run's archive: [`crate::batch::bench::archive_metadata`] (version,
/// generator, profile, master seed, legends), the shard record of `shard` of `count` levels,
/// and the files the generator just built on this thread read (`warren.files`). `warren generate` and the Python package write exactly this.
pub fn run_metadata<G: Generator>(
    generator: &G,
    profile_toml: &str,
    seed: u64,
    shard: Shard,
    count: u64,
) -> HashMap<String, String> {
    let mut metadata = crate::batch::bench::archive_metadata(generator, profile_toml, seed);
    metadata.insert(
        crate::archive::META_SHARD.to_string(),
        crate::batch::ShardMeta::new(shard, count).to_string(),
    );
    let files = crate::core::files::last_built();
    if !files.is_empty() {
        metadata.insert(
            crate::archive::META_FILES.to_string(),
            serde_json::to_string(&files).expect("strings serialise"),
        );
    }
    metadata
}

/// The files of a `warren.files` metadata `record`: `Ok(None)` when there is no record
/// (the profile named no files, or an archive from before the record existed).
///
/// # Errors
/// A record that is not a JSON object of strings.
pub fn stored_files(record: Option<&str>) -> Result<Option<crate::core::files::Files>, String> {
    record
        .map(|json| {
            serde_json::from_str(json).map_err(|e| {
                format!(
                    "{} is not a JSON object of file contents: {e}",
                    crate::archive::META_FILES
                )
            })
        })
        .transpose()
}

/// Generates this shard's levels of the run into `writer` (an archive, or any [`BatchSink`])
/// and finishes it with `footer` metadata plus the level and failure counts.
pub fn run<G: Generator, S: BatchSink>(
    generator: &G,
    schema: Arc<Schema>,
    opts: &BatchOptions,
    mut writer: S,
    mut footer: Vec<(String, String)>,
) -> Result<BatchSummary, BatchError> {
    let started = Instant::now();
    let range = opts.shard.range(opts.count);
    let range = opts.start + range.start..opts.start + range.end;
    let chunk_size = opts.chunk_size.max(1) as u64;
    let chunks = (range.end - range.start).div_ceil(chunk_size);
    let threads = if opts.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        opts.threads
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("warren-worker-{i}"))
        .build()
        .map_err(|e| BatchError::Pool {
            threads,
            message: e.to_string(),
        })?;
    // PERF: two chunks per worker in flight keeps every core busy while the writer drains,
    // and bounds memory to (2 * threads + 2) chunks.
    let window = Window {
        written: Mutex::new(0),
        advanced: Condvar::new(),
        size: 2 * threads as u64 + 2,
    };
    let next = AtomicU64::new(0);
    let abort = AtomicBool::new(false);
    let (tx, rx) = sync_channel::<Chunk>(window.size as usize);
    let columns = generator.columns();
    let progress = Progress::new(range.end - range.start, opts.progress);
    let mut summary = BatchSummary::default();

    let result = std::thread::scope(|scope| {
        let (window, next, abort, schema) = (&window, &next, &abort, &schema);
        scope.spawn(move || {
            pool.scope(|s| {
                for _ in 0..threads {
                    let tx = tx.clone();
                    s.spawn(move |_| {
                        let mut scratch = generator.new_scratch();
                        let mut builder =
                            ChunkBuilder::new(schema.clone(), columns, chunk_size as usize);
                        loop {
                            let number = next.fetch_add(1, Ordering::Relaxed);
                            if number >= chunks || !window.wait_for(number, abort) {
                                break;
                            }
                            let lo = range.start + number * chunk_size;
                            let hi = (lo + chunk_size).min(range.end);
                            let mut failures = HashMap::new();
                            // A panic must not leave the writer waiting for this chunk forever:
                            // it travels to the writer as an error and stops the run.
                            let built = catch_unwind(AssertUnwindSafe(|| {
                                build_chunk(
                                    generator,
                                    &mut scratch,
                                    &mut builder,
                                    opts.seed,
                                    lo,
                                    hi,
                                    &mut failures,
                                )
                            }));
                            let (batches, panicked) = match built {
                                Ok(b) => (b.map_err(BatchError::from), false),
                                Err(payload) => {
                                    let message = panic_message(payload.as_ref());
                                    (
                                        Err(BatchError::Panic {
                                            first: lo,
                                            end: hi,
                                            message,
                                        }),
                                        true,
                                    )
                                }
                            };
                            let chunk = Chunk {
                                number,
                                batches,
                                failures,
                            };
                            if tx.send(chunk).is_err() || panicked {
                                break;
                            }
                        }
                    });
                }
            });
            drop(tx);
        });

        // The writer: this thread, in chunk order.
        let outcome = write_in_order(rx.iter(), &mut writer, &mut summary, window, |expect| {
            progress.advance(chunk_size.min(range.end - range.start - expect * chunk_size))
        });
        if outcome.is_err() {
            // Set under the window's lock, so a worker cannot test the flag, miss this
            // notification and sleep forever.
            {
                let _written = window.written.lock().expect("window lock");
                abort.store(true, Ordering::Relaxed);
            }
            window.advanced.notify_all();
            drop(rx);
        }
        outcome
    });
    progress.finish();
    result?;
    footer.push((
        crate::archive::FOOTER_LEVELS.to_string(),
        summary.levels.to_string(),
    ));
    footer.push((
        crate::archive::FOOTER_FAILURES.to_string(),
        failures_json(&summary.failure_reasons),
    ));
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

/// `{"reason": count, ...}`.
pub fn failures_json(reasons: &BTreeMap<String, u64>) -> String {
    let body: Vec<String> = reasons
        .iter()
        .map(|(k, v)| format!("{}:{v}", json_string(k)))
        .collect();
    format!("{{{}}}", body.join(","))
}

/// The failed seeds an archive's footer counts, reason -> count (none when the footer has no
/// failure record).
///
/// # Errors
/// A record that is not a JSON object of counts.
pub fn footer_failures(archive: &crate::archive::Archive) -> Result<BTreeMap<String, u64>, String> {
    match archive
        .footer_metadata()
        .get(crate::archive::FOOTER_FAILURES)
    {
        None => Ok(BTreeMap::new()),
        Some(json) => serde_json::from_str(json).map_err(|e| {
            format!(
                "{}: footer {} `{json}` is not a JSON object of counts: {e}",
                archive.path().display(),
                crate::archive::FOOTER_FAILURES
            )
        }),
    }
}

/// A JSON array of strings.
pub fn json_array(items: &[String]) -> String {
    let body: Vec<String> = items.iter().map(|s| json_string(s)).collect();
    format!("[{}]", body.join(","))
}

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
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
                layout_hash: seed,
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
