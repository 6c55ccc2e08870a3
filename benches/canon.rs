//! Canonical forms of labelled graphs (issue 47): grammar level graphs with their vertex tags and
//! edge flags as labels, sparse random graphs of 20-60 vertices (few symmetries), and the
//! symmetric families the automorphism pruning is for (complete graph, cycle, grid, hypercube,
//! unions of equal parts, Petersen and Paley graphs, random regular graphs).
//! `cargo bench --bench canon`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use warren::{
    CanonScratch, Generator, GrammarConfig, GrammarGenerator, WarrenRng, canonical_hash, mix,
};

/// Fixed seed of the random graphs.
const SEED: u64 = 47;

/// A bench input: vertex labels and edges.
struct Graph {
    name: String,
    labels: Vec<u64>,
    edges: Vec<(u32, u32, u64)>,
}

fn unlabelled(name: &str, n: usize, edges: Vec<(u32, u32)>) -> Graph {
    Graph {
        name: name.to_string(),
        labels: vec![0; n],
        edges: edges.into_iter().map(|(u, v)| (u, v, 0)).collect(),
    }
}

fn complete(n: u32) -> Vec<(u32, u32)> {
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect()
}

fn cycle(n: u32) -> Vec<(u32, u32)> {
    (0..n).map(|i| (i, (i + 1) % n)).collect()
}

fn grid(w: u32, h: u32) -> Vec<(u32, u32)> {
    let right = (0..h).flat_map(|y| (0..w - 1).map(move |x| (y * w + x, y * w + x + 1)));
    let down = (0..h - 1).flat_map(|y| (0..w).map(move |x| (y * w + x, y * w + x + w)));
    right.chain(down).collect()
}

fn hypercube(d: u32) -> Vec<(u32, u32)> {
    (0..1u32 << d)
        .flat_map(|v| (0..d).map(move |b| (v, v ^ 1 << b)))
        .filter(|&(u, v)| u < v)
        .collect()
}

fn copies(k: u32, n: u32, edges: &[(u32, u32)]) -> Vec<(u32, u32)> {
    (0..k)
        .flat_map(|c| edges.iter().map(move |&(u, v)| (u + c * n, v + c * n)))
        .collect()
}

fn petersen() -> Vec<(u32, u32)> {
    let outer = (0..5).map(|i| (i, (i + 1) % 5));
    let spokes = (0..5).map(|i| (i, i + 5));
    let inner = (0..5).map(|i| (i + 5, (i + 2) % 5 + 5));
    outer.chain(spokes).chain(inner).collect()
}

fn paley(q: u32) -> Vec<(u32, u32)> {
    let mut square = vec![false; q as usize];
    for x in 1..q {
        square[(x * x % q) as usize] = true;
    }
    complete(q)
        .into_iter()
        .filter(|&(i, j)| square[((j - i) % q) as usize])
        .collect()
}

/// A random `d`-regular simple graph (pairing model, retried until simple).
fn random_regular(n: u32, d: u32, rng: &mut WarrenRng) -> Vec<(u32, u32)> {
    loop {
        let mut points: Vec<u32> = (0..n * d).map(|p| p / d).collect();
        rng.shuffle(&mut points);
        let mut edges: Vec<(u32, u32)> = points
            .chunks_exact(2)
            .map(|p| (p[0].min(p[1]), p[0].max(p[1])))
            .collect();
        edges.sort_unstable();
        let simple = edges.windows(2).all(|w| w[0] != w[1]) && edges.iter().all(|e| e.0 != e.1);
        if simple {
            return edges;
        }
    }
}

/// A connected sparse random graph: a random tree plus `extra` random edges, shuffled ids.
fn sparse_random(n: u32, extra: u32, rng: &mut WarrenRng) -> Vec<(u32, u32)> {
    let mut edges: Vec<(u32, u32)> = (1..n).map(|v| (rng.below(v), v)).collect();
    for _ in 0..extra {
        let (u, v) = (rng.below(n), rng.below(n));
        if u != v && !edges.contains(&(u.min(v), u.max(v))) {
            edges.push((u.min(v), u.max(v)));
        }
    }
    edges
}

fn symmetric_families() -> Vec<Graph> {
    let mut rng = WarrenRng::new(SEED);
    vec![
        unlabelled("K64", 64, complete(64)),
        unlabelled("C64", 64, cycle(64)),
        unlabelled("grid-8x8", 64, grid(8, 8)),
        unlabelled("Q6", 64, hypercube(6)),
        unlabelled("16xK4", 64, copies(16, 4, &complete(4))),
        unlabelled("8xC8", 64, copies(8, 8, &cycle(8))),
        unlabelled("21xC3", 63, copies(21, 3, &cycle(3))),
        unlabelled("Petersen", 10, petersen()),
        unlabelled("6xPetersen", 60, copies(6, 10, &petersen())),
        unlabelled("Paley-61", 61, paley(61)),
        unlabelled("3-regular-64", 64, random_regular(64, 3, &mut rng)),
        unlabelled("4-regular-64", 64, random_regular(64, 4, &mut rng)),
    ]
}

/// Level graphs of the grammar kind's default profile: vertex tags and edge flags as labels.
fn level_graphs(count: u64) -> Vec<Graph> {
    let grammar = GrammarGenerator::new(GrammarConfig::default()).expect("the default profile");
    let mut scratch = grammar.new_scratch();
    (0..count)
        .filter_map(|i| {
            let level = grammar.generate(mix(SEED, i), &mut scratch).ok()?;
            let g = level.graph?;
            let edges = (0..g.src.len())
                .map(|e| (g.src[e], g.dst[e], u64::from(g.flags[e])))
                .collect();
            let labels = (0..g.x.len())
                .map(|v| g.tag.get(v).map_or(0, |&t| u64::from(t)))
                .collect();
            Some(Graph {
                name: String::new(),
                labels,
                edges,
            })
        })
        .collect()
}

/// Mean search nodes and automorphisms over `graphs`, printed beside the timings.
fn describe(group: &str, name: &str, graphs: &[Graph], s: &mut CanonScratch) {
    let (mut nodes, mut autos, mut n, mut m) = (0, 0, 0, 0);
    for g in graphs {
        canonical_hash(g.labels.len(), &g.labels, &g.edges, s).expect("valid graph");
        nodes += s.nodes();
        autos += s.automorphisms();
        n += g.labels.len();
        m += g.edges.len();
    }
    let k = graphs.len() as f64;
    println!(
        "{group}/{name}: mean {:.1} vertices, {:.1} edges, {:.1} search nodes, {:.1} automorphisms",
        n as f64 / k,
        m as f64 / k,
        nodes as f64 / k,
        autos as f64 / k
    );
}

/// Times the canonical hash of each graph of `graphs` in turn.
fn bench_cycle(c: &mut Criterion, group: &str, name: &str, graphs: &[Graph]) {
    let mut s = CanonScratch::default();
    describe(group, name, graphs, &mut s);
    let mut group = c.benchmark_group(group);
    group.throughput(Throughput::Elements(1));
    let mut i = 0;
    group.bench_function(name, |b| {
        b.iter(|| {
            i = (i + 1) % graphs.len();
            let g = &graphs[i];
            black_box(canonical_hash(g.labels.len(), &g.labels, &g.edges, &mut s).expect("valid"))
        })
    });
    group.finish();
}

fn typical(c: &mut Criterion) {
    let levels = level_graphs(64);
    bench_cycle(c, "canon-level", "grammar-default", &levels);
    let stripped: Vec<Graph> = levels
        .iter()
        .map(|g| Graph {
            name: String::new(),
            labels: vec![0; g.labels.len()],
            edges: g.edges.iter().map(|&(u, v, _)| (u, v, 0)).collect(),
        })
        .collect();
    bench_cycle(c, "canon-level", "grammar-unlabelled", &stripped);
    let mut rng = WarrenRng::new(SEED);
    for n in [20, 40, 60] {
        let graphs: Vec<Graph> = (0..64)
            .map(|_| unlabelled("", n as usize, sparse_random(n, n / 3, &mut rng)))
            .collect();
        bench_cycle(c, "canon-sparse", &format!("tree+{}-n{n}", n / 3), &graphs);
    }
}

fn symmetric(c: &mut Criterion) {
    for g in symmetric_families() {
        let name = g.name.clone();
        bench_cycle(c, "canon-symmetric", &name, std::slice::from_ref(&g));
    }
}

criterion_group!(benches, typical, symmetric);
criterion_main!(benches);
