//! Force layout speed (seed 000's slowest part), criterion.
//!
//! Graphs are level-like and fixed by seed: a random tree in which each new vertex attaches to
//! one of the few most recent ones, plus about n/4 extra edges between vertices close in that
//! order. Groups:
//! - `layout/full`: a whole layout (300 iterations, tolerance 0 so every iteration runs) for
//!   n = 20, 50, 200, one thread;
//! - `layout/iteration`: one iteration (forces and move) for n = 20 ... 100,000 with the kernel
//!   `Auto` picks, one thread (and at 10,000 once more with theta 0.9, d3-force's default);
//! - `layout/kernel`: the repulsion alone, scalar against SIMD exact (n = 50, 200, 1,000) and
//!   SIMD exact against Barnes-Hut (n = 1,000, 2,000, 5,000, 10,000): where the crossover lies;
//! - `layout/tree_build`: the Barnes-Hut quadtree build alone, serial against parallel (the
//!   same tree), for n = 10,000, 100,000 and 1,000,000 random points, on rayon's threads.
//!
//! Every layout's crossings are printed next to its time (`crossings after 300 iterations`).
//! Run with `cargo bench --bench layout`; add `-- --warm-up-time 1 --measurement-time 3` for a
//! quick pass, and a filter such as `-- kernel`.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use warren::layout::{self, LayoutGraph, LayoutParams, LayoutScratch, Repulsion, forces, quality};

fn start(n: usize, seed: u64) -> (Vec<f32>, Vec<f32>) {
    let (mut x, mut y) = (Vec::new(), Vec::new());
    layout::random_positions(n, 1.0, seed, &mut x, &mut y);
    (x, y)
}

fn one_thread() -> LayoutParams {
    LayoutParams {
        parallel: false,
        tolerance: 0.0,
        ..Default::default()
    }
}

fn full(c: &mut Criterion) {
    let mut group = c.benchmark_group("layout/full");
    group.sample_size(20);
    for n in [20usize, 50, 200] {
        let (src, dst) = layout::level_like_graph(n, n as u64);
        let graph = LayoutGraph {
            src: &src,
            dst: &dst,
            length_factor: None,
        };
        let params = LayoutParams {
            max_iterations: 300,
            ..one_thread()
        };
        let mut scratch = LayoutScratch::default();
        // The quality of what is being timed.
        let (mut x, mut y) = start(n, 1);
        layout::relax(&graph, &mut x, &mut y, &params, &mut scratch);
        let q = quality::measure(&x, &y, &src, &dst, None);
        println!(
            "layout/full/{n}: crossings after 300 iterations {}, edge length cv {:.3}",
            q.crossings, q.length_cv
        );
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                let (mut x, mut y) = start(n, 1);
                layout::relax(&graph, &mut x, &mut y, &params, &mut scratch);
                black_box((x, y))
            })
        });
    }
    group.finish();
}

fn iteration(c: &mut Criterion) {
    let mut group = c.benchmark_group("layout/iteration");
    group.sample_size(10);
    for n in [20usize, 50, 200, 1_000, 10_000, 100_000] {
        let (src, dst) = layout::level_like_graph(n, n as u64);
        let graph = LayoutGraph {
            src: &src,
            dst: &dst,
            length_factor: None,
        };
        let params = LayoutParams {
            max_iterations: 1,
            ..one_thread()
        };
        let mut scratch = LayoutScratch::default();
        // Time a settled-looking state: 30 iterations in, the usual working regime.
        let (mut x, mut y) = start(n, 1);
        let warm = LayoutParams {
            max_iterations: 30,
            ..params.clone()
        };
        layout::relax(&graph, &mut x, &mut y, &warm, &mut scratch);
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(BenchmarkId::from_parameter(n), |b| {
            b.iter(|| {
                layout::relax(&graph, &mut x, &mut y, &params, &mut scratch);
            })
        });
        if n == 10_000 {
            // The default opening angle is 0.9 (d3-force's too); the stricter 0.5 for
            // comparison.
            let narrow = LayoutParams {
                theta: 0.5,
                ..params.clone()
            };
            group.bench_function(BenchmarkId::new("theta-0.5", n), |b| {
                b.iter(|| {
                    layout::relax(&graph, &mut x, &mut y, &narrow, &mut scratch);
                })
            });
        }
    }
    group.finish();
}

fn kernel(c: &mut Criterion) {
    let mut group = c.benchmark_group("layout/kernel");
    group.sample_size(10);
    use Repulsion::{BarnesHut, Scalar, Simd};
    let cases: [(usize, &[Repulsion]); 8] = [
        (50, &[Scalar, Simd]),
        (200, &[Scalar, Simd]),
        (500, &[Simd, BarnesHut]),
        (700, &[Simd, BarnesHut]),
        (1_000, &[Scalar, Simd, BarnesHut]),
        (2_000, &[Simd, BarnesHut]),
        (5_000, &[Simd, BarnesHut]),
        (10_000, &[Simd, BarnesHut]),
    ];
    for (n, kernels) in cases {
        let (x, y) = start(n, 3);
        let (mut fx, mut fy) = (vec![0.0f32; n], vec![0.0f32; n]);
        let mut tree = layout::barnes_hut::QuadTree::default();
        for &k in kernels {
            let p = LayoutParams {
                repulsion: k,
                ..one_thread()
            };
            let id = BenchmarkId::new(format!("{k:?}"), n);
            group.bench_function(id, |b| {
                b.iter(|| {
                    fx.fill(0.0);
                    fy.fill(0.0);
                    match k {
                        Repulsion::Scalar => forces::repulsion_scalar(&x, &y, &mut fx, &mut fy, &p),
                        Repulsion::BarnesHut => {
                            tree.build(&x, &y);
                            tree.repulsion(&x, &y, &mut fx, &mut fy, &p, false);
                        }
                        _ => forces::repulsion_simd(&x, &y, &mut fx, &mut fy, &p, false),
                    }
                    black_box(fx[0])
                })
            });
        }
    }
    group.finish();
}

fn tree_build(c: &mut Criterion) {
    let mut group = c.benchmark_group("layout/tree_build");
    group.sample_size(10);
    for n in [10_000usize, 100_000, 1_000_000] {
        let (x, y) = start(n, 5);
        let mut tree = layout::barnes_hut::QuadTree::default();
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function(BenchmarkId::new("serial", n), |b| {
            b.iter(|| tree.build(black_box(&x), black_box(&y)))
        });
        group.bench_function(BenchmarkId::new("parallel", n), |b| {
            b.iter(|| tree.build_parallel(black_box(&x), black_box(&y)))
        });
    }
    group.finish();
}

criterion_group!(benches, full, iteration, kernel, tree_build);
criterion_main!(benches);
