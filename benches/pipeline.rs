//! End to end, every generator kind: levels per second from seeds to a finished archive on disk
//! (all workers, the batch engine, the archive writer), with each kind's built-in profile. One
//! place where a regression anywhere in the pipeline shows. `cargo bench --bench pipeline`.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use warren::Generator;
use warren::archive::{ArchiveWriter, RunMeta, level_schema};
use warren::batch::{BatchOptions, resolve_threads, run};
use warren::profile::{GeneratorTask, KINDS, Profile};

/// Levels per timed run: enough for several record batches where levels are cheap.
fn levels_of(kind: &str) -> u64 {
    match kind {
        "maze" => 8192,
        "dmg" => 2048,
        "grammar" => 128,
        _ => 512,
    }
}

/// Levels per record batch: eight batches per worker, at least 16 levels and at most the
/// engine's default of 2,048. (These runs are short, so a run's fixed costs weigh more than its
/// tail; `warren bench`'s longer passes cut finer.)
fn chunk_size(count: u64, workers: usize) -> usize {
    (count / (8 * workers.max(1) as u64)).clamp(16, 2048) as usize
}

struct Pipeline<'a, 'c> {
    c: &'a mut Criterion,
    toml: String,
    dir: &'a Path,
    _marker: std::marker::PhantomData<&'c ()>,
}

impl GeneratorTask for Pipeline<'_, '_> {
    type Output = ();

    fn run<G: Generator>(self, g: &G) {
        let kind = g.kind();
        let count = levels_of(kind);
        let path: PathBuf = self.dir.join(format!("{kind}.arrow"));
        let metadata = RunMeta::new(g, &self.toml, 1).to_metadata();
        let schema = Arc::new(level_schema(&g.columns(), metadata));
        let workers = resolve_threads(0);
        let opts = BatchOptions {
            count,
            seed: 1,
            chunk_size: chunk_size(count, workers),
            ..BatchOptions::default()
        };
        let mut group = self.c.benchmark_group("pipeline");
        group.sample_size(10);
        group.throughput(Throughput::Elements(count));
        group.bench_function(BenchmarkId::from_parameter(kind), |b| {
            b.iter(|| {
                let writer = ArchiveWriter::create(&path, &schema).expect("archive");
                let summary = run(g, schema.clone(), &opts, writer, Vec::new()).expect("run");
                black_box(summary.bytes)
            })
        });
        group.finish();
        let _ = std::fs::remove_file(&path);
    }
}

fn pipeline(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("warren-pipeline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp folder");
    for kind in KINDS {
        let profile = Profile::builtin(kind).expect("built-in profile");
        let task = Pipeline {
            c: &mut *c,
            toml: profile.to_toml(),
            dir: &dir,
            _marker: std::marker::PhantomData,
        };
        profile.with_generator(task).expect("built-in generator");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, pipeline);
criterion_main!(benches);
