//! Map builder speed on Edgar's published inputs with its building blocks (`edgar-paper`),
//! criterion. Groups:
//! - `map/build`: one layout (drawing, search, no raster) of the built-in graphs `edgar-fig1`,
//!   `edgar-fig8-17` and `edgar-fig8-41`, rooms touching (`none`) and with 2-tile corridors
//!   (`templates`), seeds taken in turn so the time is the mean over many seeds;
//! - `map/level`: one whole level through the generator (build, raster, metrics, columns) of
//!   `edgar-fig8-17`.
//!
//! Run with `cargo bench --bench map`; add `-- --warm-up-time 1 --measurement-time 3` for a
//! quick pass. `scripts/map_edgar.py` times whole runs of the command line against Edgar's
//! published figures.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use warren::core::generator::Generator;
use warren::floorplan::build::{BuildScratch, build};
use warren::map::{CorridorMode, MapConfig, MapGenerator};

fn generator(graph: &str, corridors: CorridorMode) -> MapGenerator {
    MapGenerator::new(MapConfig {
        graph: graph.into(),
        corridors,
        ..MapConfig::default()
    })
    .expect("built-in inputs")
}

fn bench_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("map/build");
    for graph in ["edgar-fig1", "edgar-fig8-17", "edgar-fig8-41"] {
        for (mode, corridors) in [
            ("none", CorridorMode::None),
            ("templates", CorridorMode::Templates),
        ] {
            let g = generator(graph, corridors);
            let mut scratch = BuildScratch::default();
            let mut seed = 0u64;
            group.bench_function(BenchmarkId::new(graph, mode), |b| {
                b.iter(|| {
                    seed += 1;
                    build(g.plan(), black_box(seed), &mut scratch).expect("a layout");
                    black_box(scratch.out.work)
                })
            });
        }
    }
    group.finish();
}

fn bench_level(c: &mut Criterion) {
    let mut group = c.benchmark_group("map/level");
    let g = generator("edgar-fig8-17", CorridorMode::None);
    let mut scratch = g.new_scratch();
    let mut seed = 0u64;
    group.bench_function("edgar-fig8-17", |b| {
        b.iter(|| {
            seed += 1;
            let level = g.generate(black_box(seed), &mut scratch).expect("a layout");
            black_box(level.metrics.len())
        })
    });
    group.finish();
}

criterion_group!(benches, bench_build, bench_level);
criterion_main!(benches);
