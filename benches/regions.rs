//! Recursive zoom regions (seed 004): levels per second and cells processed per second for the
//! default profile (16 x 16 root, Wmax = Hmax = 16, Z in 2..=4, depth 2, a 256 x 256 world),
//! seeds `mix(SEED_1, i)` cycled over 64 levels, one warm scratch (so the RegionCache is warm,
//! as in a batch).
//! `cargo bench --bench regions`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use warren::regions::REGION_METRICS;
use warren::{Generator, RegionsConfig, RegionsGenerator, mix};

/// The fixed master seed of every bench level.
const SEED_1: u64 = 0x5eed_0004_cafe_f00d;

/// Levels cycled through.
const LEVELS: u64 = 64;

fn metric(name: &str) -> usize {
    REGION_METRICS
        .iter()
        .position(|m| m.name == name)
        .expect("a regions metric")
}

fn region(c: &mut Criterion) {
    let g = RegionsGenerator::new(RegionsConfig::default()).expect("default profile");
    let mut scratch = g.new_scratch();
    let (cells_col, regions_col, overlap_col) = (
        metric("cells_processed"),
        metric("regions"),
        metric("overlap_ratio"),
    );
    let (mut cells, mut regions, mut overlap) = (0.0, 0.0, 0.0);
    for i in 0..LEVELS {
        let level = g
            .generate(mix(SEED_1, i), &mut scratch)
            .expect("levels succeed");
        cells += level.metrics[cells_col];
        regions += level.metrics[regions_col];
        overlap += level.metrics[overlap_col];
    }
    let n = LEVELS as f64;
    println!(
        "region/default: mean {:.1} regions, {:.0} cells processed, overlap ratio {:.4} over {LEVELS} seeds",
        regions / n,
        cells / n,
        overlap / n
    );

    let mut group = c.benchmark_group("region");
    group.sample_size(30);
    group.throughput(Throughput::Elements(1));
    let mut i = 0u64;
    group.bench_function("levels", |b| {
        b.iter(|| {
            i = (i + 1) % LEVELS;
            black_box(
                g.generate(mix(SEED_1, i), &mut scratch)
                    .expect("levels succeed")
                    .content_hash(),
            )
        })
    });
    // The same work counted in cells: a whole cycle of levels per iteration.
    group.throughput(Throughput::Elements(cells as u64));
    group.bench_function("cells", |b| {
        b.iter(|| {
            let mut h = 0u64;
            for i in 0..LEVELS {
                h ^= g
                    .generate(mix(SEED_1, i), &mut scratch)
                    .expect("levels succeed")
                    .content_hash();
            }
            black_box(h)
        })
    });
    group.finish();
}

criterion_group!(benches, region);
criterion_main!(benches);
