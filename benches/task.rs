//! Reasoning tasks (issue 46): items per second on one thread for reasoning-gym's default `maze`
//! spec, its top curriculum band, `maze-path` with a tenth infeasible, `graph-color` at 20-25
//! vertices with the chromatic number (3, reasoning-gym's default, and 4) proven, the
//! `coloring-puzzle` edge puzzles, and the scorers' answers per second.
//! `cargo bench --bench task`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use warren::mix;
use warren::task::{TaskConfig, TaskGenerator, TaskName, score};

fn specs() -> Vec<(&'static str, TaskConfig)> {
    let maze = TaskConfig::default();
    let top = TaskConfig {
        min_rows: 50,
        max_rows: 100,
        min_cols: 50,
        max_cols: 100,
        min_dist: Some(15),
        max_dist: Some(20),
        ..TaskConfig::default()
    };
    let path = TaskConfig {
        task: TaskName::MazePath,
        infeasible_share: 0.1,
        ..TaskConfig::default()
    };
    let color = TaskConfig {
        task: TaskName::GraphColor,
        min_vertices: 20,
        max_vertices: 25,
        ..TaskConfig::default()
    };
    let color4 = TaskConfig {
        colors: 4,
        ..color.clone()
    };
    let puzzle = TaskConfig {
        task: TaskName::ColoringPuzzle,
        ..TaskConfig::default()
    };
    vec![
        ("maze-steps-default", maze),
        ("maze-steps-top-band", top),
        ("maze-path-infeasible-0.1", path),
        ("graph-color-20-25", color),
        ("graph-color-20-25-k4", color4),
        ("coloring-puzzle-edge", puzzle),
    ]
}

fn items(c: &mut Criterion) {
    let mut group = c.benchmark_group("task");
    group.sample_size(20);
    group.throughput(Throughput::Elements(1));
    for (name, cfg) in specs() {
        let g = TaskGenerator::new(cfg).expect("bench specs are valid");
        let mut s = warren::Generator::new_scratch(&g);
        let mut i = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                i += 1;
                black_box(g.item(i, mix(1, i), &mut s).is_ok())
            })
        });
    }
    group.finish();
}

fn scoring(c: &mut Criterion) {
    let mut group = c.benchmark_group("task-score");
    group.throughput(Throughput::Elements(1024));
    for (name, cfg) in specs() {
        let g = TaskGenerator::new(cfg).expect("bench specs are valid");
        let mut s = warren::Generator::new_scratch(&g);
        let mut pairs = Vec::new();
        for i in 0..1024 {
            if g.item(i, mix(2, i), &mut s).is_ok() {
                pairs.push((s.item.answer.clone(), s.item.ground_truth.clone()));
            }
        }
        group.bench_function(name, |b| {
            b.iter(|| pairs.iter().map(|(a, t)| score(a, t)).sum::<f64>())
        });
    }
    group.finish();
}

criterion_group!(benches, items, scoring);
criterion_main!(benches);
