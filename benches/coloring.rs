//! GraphColoring puzzles (seed 002): puzzles per second for each kind at the default size
//! (a 6 x 5 grid of points, 30 vertices), the chromatic profile (k = 4 proven exact), and the
//! level reader, writer and evaluator over the corpus. `cargo bench --bench coloring`.

use std::hint::black_box;
use std::path::Path;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use warren::coloring::puzzle::{ColoringConfig, PuzzleKind, PuzzleScratch, build_puzzle};
use warren::levelxml::{EvalOptions, evaluate, parse_level, write_level};
use warren::mix;

fn profiles() -> Vec<(&'static str, ColoringConfig)> {
    let kind = |puzzle| ColoringConfig {
        puzzle,
        ..ColoringConfig::default()
    };
    vec![
        ("vertex", kind(PuzzleKind::Vertex)),
        (
            "vertex-chromatic",
            ColoringConfig {
                chromatic: true,
                ..ColoringConfig::default()
            },
        ),
        ("edge", kind(PuzzleKind::Edge)),
        ("euler-cycle", kind(PuzzleKind::EulerCycle)),
        ("euler-path", kind(PuzzleKind::EulerPath)),
    ]
}

fn puzzles(c: &mut Criterion) {
    let mut group = c.benchmark_group("coloring");
    group.sample_size(20);
    group.throughput(Throughput::Elements(1));
    let mut scratch = PuzzleScratch::default();
    for (name, cfg) in profiles() {
        cfg.validate().expect("bench profiles are valid");
        // What is timed: mean attempts, vertices, edges and solver nodes over the seeds cycled.
        let (mut attempts, mut v, mut e, mut nodes, mut proof) = (0u64, 0u64, 0u64, 0u64, 0u64);
        for i in 0..64 {
            let p = build_puzzle(&cfg, mix(2, i), &mut scratch).expect("default puzzles build");
            attempts += u64::from(p.metrics.attempts);
            v += u64::from(p.metrics.vertices);
            e += u64::from(p.metrics.edges);
            nodes += p.metrics.solver_nodes;
            proof += p.metrics.proof_nodes;
        }
        println!(
            "coloring/{name}: mean over 64 seeds: {:.2} attempts, {:.1} vertices, {:.1} edges, \
             {:.1} solver nodes, {:.1} proof nodes",
            attempts as f64 / 64.0,
            v as f64 / 64.0,
            e as f64 / 64.0,
            nodes as f64 / 64.0,
            proof as f64 / 64.0
        );
        let mut i = 0u64;
        group.bench_function(name, |b| {
            b.iter(|| {
                i = (i + 1) % 64;
                black_box(
                    build_puzzle(&cfg, mix(2, i), &mut scratch)
                        .expect("default puzzles build")
                        .xml
                        .len(),
                )
            })
        });
    }
    group.finish();
}

fn corpus(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/graphcoloring-levels");
    if !root.is_dir() {
        eprintln!(
            "levelxml corpus benches skipped: no corpus at {}",
            root.display()
        );
        return;
    }
    let mut texts = Vec::new();
    for cat in std::fs::read_dir(&root).expect("the corpus folder") {
        let cat = cat.expect("a corpus entry").path();
        if cat.is_dir() {
            for f in std::fs::read_dir(&cat).expect("a category folder") {
                let f = f.expect("a level").path();
                texts.push(std::fs::read_to_string(&f).expect("a level file"));
            }
        }
    }
    let bytes: usize = texts.iter().map(String::len).sum();
    let docs: Vec<_> = texts
        .iter()
        .map(|t| parse_level(t, "corpus").expect("corpus levels parse").doc)
        .collect();
    let mut group = c.benchmark_group("levelxml");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("parse-corpus", |b| {
        b.iter(|| {
            for t in &texts {
                black_box(parse_level(t, "corpus").expect("parses"));
            }
        })
    });
    group.bench_function("write-corpus", |b| {
        b.iter(|| {
            for d in &docs {
                black_box(write_level(d));
            }
        })
    });
    group.throughput(Throughput::Elements(docs.len() as u64));
    group.bench_function("evaluate-corpus", |b| {
        b.iter(|| {
            for d in &docs {
                black_box(evaluate(d, &EvalOptions::default()).expect("evaluates"));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, puzzles, corpus);
criterion_main!(benches);
