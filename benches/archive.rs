//! Archive throughput: turning levels into an Arrow record batch, and writing that batch to disk.
//!
//! Group `archive`, throughput in bytes of the record batch (the sum of its Arrow buffer lengths),
//! over one chunk of 2048 lattice mazes of 32x32 rooms, `mix(SEED_1, 0..2048)`:
//!
//! - `chunk_build`: pushing the 2048 levels into a reused [`ChunkBuilder`] and finishing the batch.
//!   The levels are generated once, outside the timed loop, and held as owned copies.
//! - `write`: creating an [`ArchiveWriter`] in a fresh folder under `std::env::temp_dir()`,
//!   writing the pre-built batch and finishing (footer, fsync, rename). Removing the file is not
//!   timed.
//! - `write_stream`: the same with the batch written 16 times into one archive (about 140 MB), the
//!   writer's cost per MB on a long run; `write_stream_cpu` times the same in CPU time of the
//!   writing thread (Linux), what the writer takes from the generating cores whatever the disk.
//!
//! Run with `cargo bench --bench archive`; for a quick pass add
//! `-- --warm-up-time 1 --measurement-time 3`.

use std::collections::HashMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use arrow_array::{Array, RecordBatch};
use arrow_data::ArrayData;
use arrow_schema::SchemaRef;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use warren::archive::{ArchiveWriter, ChunkBuilder, level_schema};
use warren::{Generator, Grid, Level, MazeConfig, MazeGenerator, mix};

/// The fixed master seed of every bench level.
const SEED_1: u64 = 0x5eed_0001_cafe_f00d;

/// Levels per chunk, the batch engine's default `chunk_size`.
const CHUNK_LEVELS: u64 = 2048;

/// Maze side in rooms (the raster is 65x65 cells).
const SIDE: u32 = 32;

/// One level copied out of the generator's scratch, so many can be held at once.
struct OwnedLevel {
    index: u64,
    seed: u64,
    grid: Grid,
    metrics: Vec<f64>,
}

impl OwnedLevel {
    fn view(&self) -> Level<'_> {
        Level {
            grid: Some(self.grid.view()),
            graph: None,
            metrics: &self.metrics,
            ..Level::default()
        }
    }
}

/// The bench chunk's generator, schema and levels.
struct Fixture {
    generator: MazeGenerator,
    schema: SchemaRef,
    levels: Vec<OwnedLevel>,
}

impl Fixture {
    fn new() -> Self {
        let cfg = MazeConfig {
            width: SIDE,
            height: SIDE,
            ..Default::default()
        };
        let generator = MazeGenerator::new(cfg).expect("bench maze config is valid");
        let schema = Arc::new(level_schema(&generator.columns(), HashMap::new()));
        let mut scratch = generator.new_scratch();
        let levels = (0..CHUNK_LEVELS)
            .map(|index| {
                let seed = mix(SEED_1, index);
                let level = generator
                    .generate(seed, &mut scratch)
                    .expect("bench maze generates");
                let grid = level.grid.expect("lattice mazes have a grid");
                OwnedLevel {
                    index,
                    seed,
                    grid: Grid {
                        width: grid.width,
                        height: grid.height,
                        cells: grid.cells.to_vec(),
                    },
                    metrics: level.metrics.to_vec(),
                }
            })
            .collect();
        Self {
            generator,
            schema,
            levels,
        }
    }

    fn builder(&self) -> ChunkBuilder {
        ChunkBuilder::new(
            self.schema.clone(),
            self.generator.columns(),
            self.levels.len(),
        )
    }

    /// Pushes every level into `builder` and finishes the batch.
    fn build(&self, builder: &mut ChunkBuilder) -> RecordBatch {
        for level in &self.levels {
            builder.push(level.index, level.seed, &level.view());
        }
        builder.finish().expect("bench chunk matches its schema")
    }
}

/// Bytes of data in `batch`: the lengths of its Arrow buffers (nested ones included, such as a
/// tensor grid's cells), without the spare capacity that `RecordBatch::get_array_memory_size`
/// also counts.
fn batch_bytes(batch: &RecordBatch) -> u64 {
    fn data_bytes(data: &ArrayData) -> usize {
        let own: usize = data.buffers().iter().map(|b| b.len()).sum();
        let nulls = data.nulls().map_or(0, |n| n.buffer().len());
        own + nulls + data.child_data().iter().map(data_bytes).sum::<usize>()
    }
    batch
        .columns()
        .iter()
        .map(|c| data_bytes(&c.to_data()) as u64)
        .sum()
}

/// A folder for this process's bench archives, removed when dropped.
struct TempFolder(PathBuf);

impl TempFolder {
    fn new() -> Self {
        let dir = std::env::temp_dir().join(format!("warren-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp folder is writable");
        Self(dir)
    }
}

impl Drop for TempFolder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn archive(c: &mut Criterion) {
    let fixture = Fixture::new();
    let mut builder = fixture.builder();
    let batch = fixture.build(&mut builder);
    let bytes = batch_bytes(&batch);

    let mut group = c.benchmark_group("archive");
    group.throughput(Throughput::Bytes(bytes));

    group.bench_function("chunk_build", |b| {
        b.iter(|| fixture.build(&mut builder));
    });

    let folder = TempFolder::new();
    let path = folder.0.join("levels.arrow");
    // Times `batches` copies of the batch written into one new archive (created, synced and
    // renamed), with `clock` (wall or thread CPU time); removing the file is not timed.
    let write_archive = |batches: u64, clock: fn() -> Duration, iters: u64| {
        let mut timed = Duration::ZERO;
        for _ in 0..iters {
            let start = clock();
            let mut writer =
                ArchiveWriter::create(&path, &fixture.schema).expect("archive created");
            for _ in 0..batches {
                writer.write(&batch).expect("batch written");
            }
            let size = writer.finish(&[]).expect("archive finished");
            timed += clock() - start;
            black_box(size);
            std::fs::remove_file(&path).expect("bench archive removed");
        }
        timed
    };
    group.bench_function("write", |b| {
        b.iter_custom(|iters| write_archive(1, wall_time, iters));
    });

    // The writer's cost per MB on a long run: one archive of STREAM_BATCHES batches, so the
    // fixed cost of creating, syncing and renaming the file is spread over 140 MB.
    group.throughput(Throughput::Bytes(bytes * STREAM_BATCHES));
    group.bench_function("write_stream", |b| {
        b.iter_custom(|iters| write_archive(STREAM_BATCHES, wall_time, iters));
    });

    // The same run timed in CPU time of the writing thread (Linux), not wall time: what the
    // writer takes from the cores that generate levels, per MB, whatever the disk's speed.
    #[cfg(target_os = "linux")]
    group.bench_function("write_stream_cpu", |b| {
        b.iter_custom(|iters| write_archive(STREAM_BATCHES, thread_cpu_time, iters));
    });
    group.finish();
}

/// Time since a fixed moment of this process (differences of it are wall time).
fn wall_time() -> Duration {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    START.get_or_init(Instant::now).elapsed()
}

/// CPU time this thread has used (user and system).
#[cfg(target_os = "linux")]
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the call.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0;
    assert!(ok, "the thread CPU clock is readable");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Batches in one `write_stream` archive.
const STREAM_BATCHES: u64 = 16;

criterion_group! {
    name = benches;
    // NOTE: set on the runner, not the group, so `--sample-size`/`--measurement-time` on the
    // command line still override them (group settings would win over the command line).
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(5));
    targets = archive
}
criterion_main!(benches);
