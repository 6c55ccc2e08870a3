//! The batch engine (DESIGN.md, "Data flow"): workers on a rayon pool take chunks of consecutive
//! level indices, generate each level into their own scratch and build one record batch per
//! chunk; the calling thread writes chunks in index order. A window bounds the chunks in flight,
//! so memory stays flat however large `--count` is, and the content of level `i` depends only on
//! (profile, master seed, `i`), never on threads, chunking or shards.

use std::collections::{BTreeMap, HashMap};
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
    /// The thread pool could not start.
    #[error("cannot start {threads} worker threads: {message}")]
    Pool {
        /// Threads asked for.
        threads: usize,
        /// Why.
        message: String,
    },
}

/// One finished chunk on its way to the writer.
struct Chunk {
    number: u64,
    batch: Result<RecordBatch, ArrowError>,
    failures: HashMap<&'static str, u64>,
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

/// Generates this shard's levels of the run into `writer` and finishes the archive with
/// `footer` metadata plus the level and failure counts.
pub fn run<G: Generator>(
    generator: &G,
    schema: Arc<Schema>,
    opts: &BatchOptions,
    mut writer: ArchiveWriter,
    mut footer: Vec<(String, String)>,
) -> Result<BatchSummary, BatchError> {
    let started = Instant::now();
    let range = opts.shard.range(opts.count);
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
                            for index in lo..hi {
                                let seed = mix(opts.seed, index);
                                match generator.generate(seed, &mut scratch) {
                                    Ok(level) => builder.push(index, seed, &level),
                                    Err(e) => *failures.entry(e.reason).or_insert(0) += 1,
                                }
                            }
                            let chunk = Chunk {
                                number,
                                batch: builder.finish(),
                                failures,
                            };
                            if tx.send(chunk).is_err() {
                                break;
                            }
                        }
                    });
                }
            });
            drop(tx);
        });

        // The writer: this thread, in chunk order.
        let mut pending: BTreeMap<u64, Chunk> = BTreeMap::new();
        let mut expect = 0u64;
        let outcome = (|| -> Result<(), BatchError> {
            for chunk in rx.iter() {
                pending.insert(chunk.number, chunk);
                while let Some(chunk) = pending.remove(&expect) {
                    let batch = chunk.batch?;
                    if batch.num_rows() > 0 {
                        writer.write(&batch)?;
                    }
                    summary.levels += batch.num_rows() as u64;
                    for (reason, n) in chunk.failures {
                        summary.failures += n;
                        *summary
                            .failure_reasons
                            .entry(reason.to_string())
                            .or_insert(0) += n;
                    }
                    progress.advance(chunk_size.min(range.end - range.start - expect * chunk_size));
                    expect += 1;
                    window.advance();
                }
            }
            Ok(())
        })();
        if outcome.is_err() {
            abort.store(true, Ordering::Relaxed);
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

/// `{"reason": count, ...}`.
pub fn failures_json(reasons: &BTreeMap<String, u64>) -> String {
    let body: Vec<String> = reasons
        .iter()
        .map(|(k, v)| format!("{}:{v}", json_string(k)))
        .collect();
    format!("{{{}}}", body.join(","))
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
