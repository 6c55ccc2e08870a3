//! DMG dungeons (seed 003): levels per second for the default 100 x 100-square profile, and
//! the chamber placement alone on the seed's worked example. `cargo bench --bench dmg`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use warren::dmg::{DMG_METRICS, DmgConfig, DmgGenerator};
use warren::{Generator, mix};

fn dungeon(c: &mut Criterion) {
    let mut group = c.benchmark_group("dungeon");
    group.sample_size(30);
    let g = DmgGenerator::new(DmgConfig::default()).expect("default profile");
    let mut scratch = g.new_scratch();
    // The quality of what is timed: mean floor share and chambers over the seeds cycled.
    let at = |name: &str| {
        DMG_METRICS
            .iter()
            .position(|m| m.name == name)
            .expect("a dungeon metric")
    };
    let (chamber_col, floor_col) = (at("chambers"), at("floor_fraction"));
    let (mut floor, mut chambers) = (0.0, 0.0);
    for i in 0..64 {
        let level = g
            .generate(mix(1, i), &mut scratch)
            .expect("dungeons never fail");
        chambers += level.metrics[chamber_col];
        floor += level.metrics[floor_col];
    }
    println!(
        "dungeon/100x100: mean floor share {:.3}, mean chambers {:.1} over 64 seeds",
        floor / 64.0,
        chambers / 64.0
    );
    group.throughput(Throughput::Elements(1));
    let mut i = 0u64;
    group.bench_function("100x100", |b| {
        b.iter(|| {
            i = (i + 1) % 64;
            black_box(
                g.generate(mix(1, i), &mut scratch)
                    .expect("dungeons never fail")
                    .content_hash(),
            )
        })
    });
    group.finish();
}

criterion_group!(benches, dungeon);
criterion_main!(benches);
