//! Maze generation throughput (seed 001): time per level for one worker, scratch reused.
//!
//! Group `maze/generate`, one element per level: lattice mazes of 16x16, 32x32 and 64x64 rooms
//! with dead-end merging on (`merge`) and off (`no-merge`) side by side, plus a 24x24 Delaunay
//! maze with merging. Each iteration generates a different level, `mix(SEED_1, i)` for a running
//! counter `i`, as the batch engine does; the scratch is created outside the timed loop.
//!
//! Group `maze/shuffle`: the edge-order shuffle of an 801 x 801 lattice maze (its 1,281,600
//! edges as 4-byte items, far larger than the cache), by `WarrenRng::shuffle` and by
//! `WarrenRng::shuffle_prefetched` (the same permutation, picks drawn ahead and prefetched).
//!
//! Run with `cargo bench --bench maze`; for a quick pass add
//! `-- --warm-up-time 1 --measurement-time 3`, and filter with e.g. `-- 32x32`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use warren::maze::MazeTopology;
use warren::{Generator, MazeConfig, MazeGenerator, WarrenRng, mix};

/// The fixed master seed of every bench level.
const SEED_1: u64 = 0x5eed_0001_cafe_f00d;

/// Lattice sides benched, each with merging on and off.
const LATTICE_SIDES: [u32; 3] = [16, 32, 64];

/// Side of the Delaunay maze (points per row and per column).
const DELAUNAY_SIDE: u32 = 24;

fn merge_label(merge: bool) -> &'static str {
    if merge { "merge" } else { "no-merge" }
}

/// Benches `cfg` under `id`: one new level per iteration, seeds `mix(SEED_1, 0..)`.
fn bench_config(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    id: &str,
    cfg: MazeConfig,
) {
    let generator = MazeGenerator::new(cfg).expect("bench maze config is valid");
    let mut scratch = generator.new_scratch();
    let mut index = 0u64;
    group.bench_function(id, |b| {
        b.iter(|| {
            let seed = mix(SEED_1, index);
            index += 1;
            let level = generator
                .generate(seed, &mut scratch)
                .expect("bench maze generates");
            black_box(&level);
            level.content_hash()
        })
    });
}

fn generate(c: &mut Criterion) {
    let mut group = c.benchmark_group("maze/generate");
    group.throughput(Throughput::Elements(1));
    for side in LATTICE_SIDES {
        for merge in [true, false] {
            let cfg = MazeConfig {
                width: side,
                height: side,
                merge_dead_ends: merge,
                topology: MazeTopology::Lattice,
                ..Default::default()
            };
            bench_config(
                &mut group,
                &format!("{side}x{side}/{}", merge_label(merge)),
                cfg,
            );
        }
    }
    let cfg = MazeConfig {
        width: DELAUNAY_SIDE,
        height: DELAUNAY_SIDE,
        merge_dead_ends: true,
        topology: MazeTopology::Delaunay,
        ..Default::default()
    };
    let id = format!("delaunay/{DELAUNAY_SIDE}x{DELAUNAY_SIDE}/merge");
    bench_config(&mut group, &id, cfg);
    group.finish();
}

/// A shuffle of `WarrenRng`'s, on the edge order's 4-byte items.
type Shuffle = fn(&mut WarrenRng, &mut [u32]);

/// Side of the lattice whose edge order `maze/shuffle` shuffles.
const SHUFFLE_SIDE: u32 = 801;

fn shuffle(c: &mut Criterion) {
    let edges = (2 * SHUFFLE_SIDE * (SHUFFLE_SIDE - 1)) as usize;
    let items: Vec<u32> = (0..edges as u32).collect();
    let mut group = c.benchmark_group("maze/shuffle");
    group.throughput(Throughput::Elements(edges as u64));
    let mut work = items.clone();
    let mut index = 0u64;
    let ways: [(&str, Shuffle); 2] = [
        ("shuffle", WarrenRng::shuffle),
        ("shuffle_prefetched", WarrenRng::shuffle_prefetched),
    ];
    for (name, way) in ways {
        group.bench_function(format!("801x801/{name}"), |b| {
            b.iter(|| {
                work.copy_from_slice(&items);
                index += 1;
                way(&mut WarrenRng::new(mix(SEED_1, index)), &mut work);
                black_box(work[0])
            })
        });
    }
    group.finish();
}

criterion_group! {
    name = benches;
    // NOTE: set on the runner, not the group, so `--sample-size`/`--measurement-time` on the
    // command line still override them (group settings would win over the command line).
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_secs(2))
        .measurement_time(Duration::from_secs(5));
    targets = generate, shuffle
}
criterion_main!(benches);
