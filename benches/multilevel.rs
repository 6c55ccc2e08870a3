//! Multilevel layout speed, stage by stage (STYLE 19: the benches time each stage alone),
//! criterion. Graphs are `warren::layout::level_like_graph` of fixed seeds. Groups:
//! - `multilevel/coarsen`: one coarsening step ([`MatchingMerger`]) at 10^4, 10^5, 10^6
//!   vertices;
//! - `multilevel/refine`: one refinement level ([`ForceRefiner`], 15 iterations, tolerance 0,
//!   one thread) of the finest level from its multilevel layout, at 10^4 and 10^5;
//! - `multilevel/repulsion`: the Barnes-Hut repulsion kernel of the refinement (tree build and
//!   walk, theta 1.0) at 10^4, 10^5, 10^6 vertices, one thread and on every core;
//! - `multilevel/full`: a whole multilevel layout, one thread, at 10^3 and 10^4.
//!
//! Run with `cargo bench --bench multilevel`; add `-- --warm-up-time 1 --measurement-time 3`
//! for a quick pass, and a filter such as `-- repulsion`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use warren::layout::barnes_hut::QuadTree;
use warren::layout::multilevel::coarsen::MatchingMerger;
use warren::layout::multilevel::refine::ForceRefiner;
use warren::layout::multilevel::{
    Level, LevelLayout, LevelPlan, Merger, MultilevelParams, RefineScratch, layout_multilevel,
};
use warren::layout::{LayoutGraph, level_like_graph};

/// The level-like graph of `n` vertices as the finest level (unit lengths and masses).
fn finest(n: usize) -> Level {
    let (src, dst) = level_like_graph(n, 7);
    let m = src.len();
    Level {
        src,
        dst,
        length: vec![1.0; m],
        mass: vec![1.0; n],
        radius: vec![0.0; n],
    }
}

/// The one-thread multilevel layout of `level`.
fn laid_out(level: &Level) -> (Vec<f32>, Vec<f32>) {
    let graph = LayoutGraph {
        src: &level.src,
        dst: &level.dst,
        length_factor: None,
    };
    let params = MultilevelParams {
        parallel: false,
        ..Default::default()
    };
    let (mut x, mut y) = (Vec::new(), Vec::new());
    layout_multilevel(level.mass.len(), &graph, &params, 1, &mut x, &mut y);
    (x, y)
}

fn coarsen(c: &mut Criterion) {
    let mut group = c.benchmark_group("multilevel/coarsen");
    group.sample_size(10);
    for n in [10_000, 100_000, 1_000_000] {
        let level = finest(n);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| black_box(MatchingMerger.coarsen(&level, 3).1.len()))
        });
    }
    group.finish();
}

fn refine(c: &mut Criterion) {
    let mut group = c.benchmark_group("multilevel/refine");
    group.sample_size(10);
    let refiner = ForceRefiner {
        parallel: false,
        ..Default::default()
    };
    let plan = LevelPlan {
        iterations: 15,
        temperature: 1.0,
        tolerance: 0.0,
    };
    for n in [10_000, 100_000] {
        let level = finest(n);
        let (x0, y0) = laid_out(&level);
        let mut scratch = RefineScratch::default();
        let (mut x, mut y) = (x0.clone(), y0.clone());
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                x.copy_from_slice(&x0);
                y.copy_from_slice(&y0);
                black_box(refiner.refine(&level, &mut x, &mut y, plan, &mut scratch))
            })
        });
    }
    group.finish();
}

fn repulsion(c: &mut Criterion) {
    let mut group = c.benchmark_group("multilevel/repulsion");
    group.sample_size(10);
    for n in [10_000, 100_000, 1_000_000] {
        let (x, y) = laid_out(&finest(n));
        let (mut fx, mut fy) = (vec![0.0f32; n], vec![0.0f32; n]);
        let mut tree = QuadTree::default();
        group.throughput(Throughput::Elements(n as u64));
        for (name, parallel) in [("one-thread", false), ("every-core", true)] {
            group.bench_function(BenchmarkId::new(name, n), |b| {
                b.iter(|| {
                    fx.fill(0.0);
                    fy.fill(0.0);
                    tree.build(&x, &y);
                    tree.repulsion_inverse(&mut fx, &mut fy, 0.3, 1.0, parallel);
                    black_box(fx[0])
                })
            });
        }
    }
    group.finish();
}

fn full(c: &mut Criterion) {
    let mut group = c.benchmark_group("multilevel/full");
    group.sample_size(10);
    for n in [1_000, 10_000] {
        let level = finest(n);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| black_box(laid_out(&level).0[0]))
        });
    }
    group.finish();
}

criterion_group!(benches, coarsen, refine, repulsion, full);
criterion_main!(benches);
