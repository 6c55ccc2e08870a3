//! Tests of the canonical form on 64-vertex graphs: random graphs of several densities and
//! label counts and the symmetric families (complete graph, cycle, grid, hypercube, unions of
//! equal parts, Petersen and Paley graphs, random regular graphs) must keep their certificate and
//! hash under random renumbering and change it when one edge moves.

use super::tests::renumber;
use super::*;
use crate::core::rng::WarrenRng;

/// Fixed seed of every random choice in these tests.
const SEED: u64 = 0x4641_4d49_4c59;

type Edges = Vec<(u32, u32, u64)>;

/// A test graph: vertex labels (one per vertex) and edges.
struct Graph {
    name: String,
    labels: Vec<u64>,
    edges: Edges,
}

impl Graph {
    fn unlabelled(name: &str, n: usize, edges: Vec<(u32, u32)>) -> Self {
        Self {
            name: name.to_string(),
            labels: vec![0; n],
            edges: edges.into_iter().map(|(u, v)| (u, v, 0)).collect(),
        }
    }

    fn n(&self) -> usize {
        self.labels.len()
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
    let mut edges = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let v = y * w + x;
            if x + 1 < w {
                edges.push((v, v + 1));
            }
            if y + 1 < h {
                edges.push((v, v + w));
            }
        }
    }
    edges
}

fn hypercube(d: u32) -> Vec<(u32, u32)> {
    (0..1u32 << d)
        .flat_map(|v| (0..d).map(move |b| (v, v ^ 1 << b)))
        .filter(|&(u, v)| u < v)
        .collect()
}

/// `k` disjoint copies of a graph on `n` vertices.
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

/// The Paley graph of a prime `q = 1 (mod 4)`: `i ~ j` when `i - j` is a nonzero square.
fn paley(q: u32) -> Vec<(u32, u32)> {
    let squares: Vec<bool> = {
        let mut s = vec![false; q as usize];
        for x in 1..q {
            s[(x * x % q) as usize] = true;
        }
        s
    };
    complete(q)
        .into_iter()
        .filter(|&(i, j)| squares[((j - i) % q) as usize])
        .collect()
}

/// A random `d`-regular simple graph on `n` vertices (pairing model, retried until simple).
fn random_regular(n: u32, d: u32, rng: &mut WarrenRng) -> Vec<(u32, u32)> {
    'retry: loop {
        let mut points: Vec<u32> = (0..n * d).map(|p| p / d).collect();
        rng.shuffle(&mut points);
        let mut edges: Vec<(u32, u32)> = points
            .chunks_exact(2)
            .map(|p| (p[0].min(p[1]), p[0].max(p[1])))
            .collect();
        edges.sort_unstable();
        for i in 0..edges.len() {
            if edges[i].0 == edges[i].1 || (i > 0 && edges[i] == edges[i - 1]) {
                continue 'retry;
            }
        }
        return edges;
    }
}

/// A G(n, p) graph with `vertex_labels` and `edge_labels` label values.
fn random_graph(
    n: u32,
    p: f64,
    vertex_labels: u32,
    edge_labels: u32,
    rng: &mut WarrenRng,
) -> Graph {
    let labels = (0..n)
        .map(|_| u64::from(rng.below(vertex_labels)))
        .collect();
    let edges = complete(n)
        .into_iter()
        .filter_map(|(u, v)| {
            let label = u64::from(rng.below(edge_labels)) * 1000;
            rng.chance(p).then_some((u, v, label))
        })
        .collect();
    Graph {
        name: format!("G({n}, {p}) with {vertex_labels} x {edge_labels} labels"),
        labels,
        edges,
    }
}

/// The symmetric families of the brief, each about 64 vertices.
fn symmetric_families(rng: &mut WarrenRng) -> Vec<Graph> {
    vec![
        Graph::unlabelled("K64", 64, complete(64)),
        Graph::unlabelled("C64", 64, cycle(64)),
        Graph::unlabelled("grid 8x8", 64, grid(8, 8)),
        Graph::unlabelled("Q6", 64, hypercube(6)),
        Graph::unlabelled("16 x K4", 64, copies(16, 4, &complete(4))),
        Graph::unlabelled("21 x C3", 63, copies(21, 3, &cycle(3))),
        Graph::unlabelled("8 x C8", 64, copies(8, 8, &cycle(8))),
        Graph::unlabelled("6 x Petersen", 60, copies(6, 10, &petersen())),
        Graph::unlabelled("Petersen", 10, petersen()),
        Graph::unlabelled("Paley 61", 61, paley(61)),
        Graph::unlabelled("3-regular 64", 64, random_regular(64, 3, rng)),
        Graph::unlabelled("4-regular 64", 64, random_regular(64, 4, rng)),
    ]
}

/// Random 64-vertex graphs of several densities and label counts.
fn random_graphs(rng: &mut WarrenRng) -> Vec<Graph> {
    let mut graphs = Vec::new();
    for (p, vertex_labels, edge_labels) in [
        (0.05, 1, 1),
        (0.1, 1, 1),
        (0.1, 3, 1),
        (0.1, 1, 3),
        (0.3, 2, 2),
        (0.5, 1, 1),
        (0.9, 4, 1),
    ] {
        graphs.push(random_graph(64, p, vertex_labels, edge_labels, rng));
    }
    graphs
}

/// The graph with one edge moved to a pair it did not join, when the multiset of (vertex
/// label, degree) then differs, which proves the two graphs non-isomorphic.
fn move_one_edge(g: &Graph, rng: &mut WarrenRng) -> Option<Edges> {
    let n = g.n() as u32;
    let degree_profile = |edges: &Edges| {
        let mut degree = vec![0u32; n as usize];
        for &(u, v, _) in edges {
            degree[u as usize] += 1;
            degree[v as usize] += 1;
        }
        let mut profile: Vec<(u64, u32)> = g.labels.iter().copied().zip(degree).collect();
        profile.sort_unstable();
        profile
    };
    let before = degree_profile(&g.edges);
    for _ in 0..200 {
        let i = rng.below(g.edges.len() as u32) as usize;
        let (u, _, label) = g.edges[i];
        let w = rng.below(n);
        let joined = g
            .edges
            .iter()
            .any(|&(a, b, _)| (a, b) == (u, w) || (a, b) == (w, u));
        if w == u || joined {
            continue;
        }
        let mut moved = g.edges.clone();
        moved[i] = (u, w, label);
        if degree_profile(&moved) != before {
            return Some(moved);
        }
    }
    None
}

/// Checks `renumberings` random renumberings of `g` and one moved edge; returns how many
/// renumberings were checked.
fn check_graph(g: &Graph, renumberings: usize, rng: &mut WarrenRng, s: &mut CanonScratch) -> usize {
    let n = g.n();
    let c = canonical_form(n, &g.labels, &g.edges, s).expect("valid graph");
    let hash = canonical_hash(n, &g.labels, &g.edges, s).expect("valid graph");
    let mut perm: Vec<u32> = (0..n as u32).collect();
    for i in 0..renumberings {
        rng.shuffle(&mut perm);
        let (labels, edges) = renumber(&g.labels, &g.edges, &perm, rng);
        let c2 = canonical_form(n, &labels, &edges, s).expect("valid graph");
        assert_eq!(c2.certificate, c.certificate, "{}: renumbered", g.name);
        // The hash is a function of the certificate: every fourth renumbering checks its path.
        if i % 4 == 0 {
            let hash2 = canonical_hash(n, &labels, &edges, s).expect("valid graph");
            assert_eq!(hash2, hash, "{}: renumbered hash", g.name);
        }
    }
    // Complete graphs have no free pair: one edge fewer instead.
    let mut changed = move_one_edge(g, rng).unwrap_or_else(|| g.edges[1..].to_vec());
    rng.shuffle(&mut changed);
    let c3 = canonical_form(n, &g.labels, &changed, s).expect("valid graph");
    assert_ne!(c3.certificate, c.certificate, "{}: one edge moved", g.name);
    assert_ne!(
        canonical_hash(n, &g.labels, &changed, s),
        Ok(hash),
        "{}",
        g.name
    );
    renumberings
}

#[test]
fn ten_thousand_renumbered_64_vertex_graphs_keep_their_form() {
    let mut rng = WarrenRng::new(SEED);
    let mut s = CanonScratch::default();
    let mut checked = 0;
    // NOTE: K64 takes about 40 ms a form in the debug profile: the symmetric families get 20
    // renumberings each, the cheap sparse graphs the rest.
    for g in symmetric_families(&mut rng) {
        checked += check_graph(&g, 20, &mut rng, &mut s);
    }
    for g in random_graphs(&mut rng) {
        checked += check_graph(&g, 100, &mut rng, &mut s);
    }
    // Many more sparse level-like graphs, each renumbered a few times.
    while checked < 10_000 {
        let g = random_graph(64, 0.06, 3, 2, &mut rng);
        checked += check_graph(&g, 10, &mut rng, &mut s);
    }
}
