//! Tests of `planar.rs`.

use std::collections::HashSet;

use super::*;
use crate::core::rng::WarrenRng;

/// Fixed seed for every random graph in these tests.
const SEED: u64 = 0x504c_414e_4152;

type Edges = Vec<(u32, u32)>;

fn planar(n: usize, edges: &[(u32, u32)]) -> bool {
    let (src, dst): (Vec<u32>, Vec<u32>) = edges.iter().copied().unzip();
    is_planar(n, &src, &dst)
}

/// The LR test alone, without the fast paths, so that small and dense graphs exercise it.
fn planar_by_lr_only(scratch: &mut PlanarityScratch, n: usize, edges: &[(u32, u32)]) -> bool {
    let (src, dst): (Vec<u32>, Vec<u32>) = edges.iter().copied().unzip();
    scratch.load_simple_edges(n, &src, &dst);
    scratch.left_right_test(n)
}

// The Wagner oracle. Wagner: a graph is planar iff it has neither K5 nor K3,3 as a minor.
// Every minor of G is a subgraph of a contraction of G (deleting and contracting commute),
// so G is non-planar iff some contraction of G contains K5 or K3,3 as a subgraph. The search
// below tries every sequence of edge contractions, memoised on the adjacency matrix.

/// Adjacency of a graph on at most 8 vertices: bit `w` of `adj[v]` is the edge `vw`.
type Adjacency = [u8; 8];

fn oracle_is_planar(edges: &[(u32, u32)]) -> bool {
    let mut adj = [0u8; 8];
    for &(a, b) in edges {
        if a != b {
            adj[a as usize] |= 1 << b;
            adj[b as usize] |= 1 << a;
        }
    }
    !has_kuratowski_minor(adj, &mut HashSet::new())
}

fn has_kuratowski_minor(adj: Adjacency, seen: &mut HashSet<u64>) -> bool {
    if !seen.insert(u64::from_le_bytes(adj)) {
        return false;
    }
    if has_kuratowski_subgraph(&adj) {
        return true;
    }
    let edges = adj.iter().map(|r| r.count_ones()).sum::<u32>() / 2;
    // Contraction never adds edges, and K3,3 has nine.
    if edges < 9 {
        return false;
    }
    (0..8).any(|u| {
        (u + 1..8).any(|v| adj[u] >> v & 1 == 1 && has_kuratowski_minor(contract(adj, u, v), seen))
    })
}

/// Merges vertex `v` into `u` (they are adjacent), dropping the loop and parallel edges.
fn contract(mut adj: Adjacency, u: usize, v: usize) -> Adjacency {
    let moved = adj[v] & !(1 << u);
    adj[v] = 0;
    for (w, row) in adj.iter_mut().enumerate() {
        if *row >> v & 1 == 1 {
            *row &= !(1 << v);
            if w != u {
                *row |= 1 << u;
            }
        }
    }
    adj[u] |= moved;
    adj
}

fn has_kuratowski_subgraph(adj: &Adjacency) -> bool {
    let with_degree = |d: u32| {
        (0..8)
            .filter(|&v| adj[v].count_ones() >= d)
            .fold(0u8, |m, v| m | 1 << v)
    };
    let (k5_candidates, k33_candidates) = (with_degree(4), with_degree(3));
    let members = |mask: u8| (0..8).filter(move |&v| mask >> v & 1 == 1);
    (0..=255u8).any(|mask| match mask.count_ones() {
        5 if mask & !k5_candidates == 0 => members(mask).all(|v| adj[v] & mask == mask & !(1 << v)),
        6 if mask & !k33_candidates == 0 => {
            let lowest = mask & mask.wrapping_neg();
            submasks(mask).any(|side| {
                let other = mask ^ side;
                side & lowest != 0
                    && side.count_ones() == 3
                    && members(side).all(|a| adj[a] & other == other)
                    && members(other).all(|b| adj[b] & side == side)
            })
        }
        _ => false,
    })
}

fn submasks(mask: u8) -> impl Iterator<Item = u8> {
    let mut next = Some(mask);
    std::iter::from_fn(move || {
        let s = next?;
        next = (s != 0).then(|| (s - 1) & mask);
        Some(s)
    })
}

// Graph families.

fn complete(k: u32) -> Edges {
    (0..k)
        .flat_map(|a| (a + 1..k).map(move |b| (a, b)))
        .collect()
}

fn complete_bipartite(a: u32, b: u32) -> Edges {
    (0..a)
        .flat_map(|i| (a..a + b).map(move |j| (i, j)))
        .collect()
}

fn cycle(k: u32) -> Edges {
    (0..k).map(|i| (i, (i + 1) % k)).collect()
}

/// Replaces every edge by a path through `times` new vertices.
fn subdivide(n: usize, edges: &[(u32, u32)], times: u32) -> (usize, Edges) {
    let mut next = n as u32;
    let mut out = Vec::new();
    for &(a, b) in edges {
        let mut prev = a;
        for _ in 0..times {
            out.push((prev, next));
            prev = next;
            next += 1;
        }
        out.push((prev, b));
    }
    (next as usize, out)
}

fn petersen() -> Edges {
    (0..5)
        .flat_map(|i| [(i, (i + 1) % 5), (i, i + 5), (i + 5, 5 + (i + 2) % 5)])
        .collect()
}

/// Hub 0 and a rim of `k` vertices.
fn wheel(k: u32) -> Edges {
    (1..=k).flat_map(|i| [(0, i), (i, i % k + 1)]).collect()
}

fn grid(w: u32, h: u32) -> Edges {
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

/// A `w` x `h` grid with one random diagonal in every cell: a triangulated disk.
fn triangulated_grid(w: u32, h: u32, rng: &mut WarrenRng) -> Edges {
    let mut edges = grid(w, h);
    for y in 0..h - 1 {
        for x in 0..w - 1 {
            let v = y * w + x;
            edges.push(if rng.chance(0.5) {
                (v, v + w + 1)
            } else {
                (v + 1, v + w)
            });
        }
    }
    edges
}

/// [`triangulated_grid`] plus an apex joined to every boundary vertex: maximal planar
/// (every face a triangle, `m = 3n - 6`). The apex is vertex `w * h`.
fn apex_triangulated_grid(w: u32, h: u32, rng: &mut WarrenRng) -> Edges {
    let mut edges = triangulated_grid(w, h, rng);
    let apex = w * h;
    for y in 0..h {
        for x in 0..w {
            if x == 0 || y == 0 || x == w - 1 || y == h - 1 {
                edges.push((apex, y * w + x));
            }
        }
    }
    edges
}

/// A random stacked triangulation: start from a triangle, repeatedly put a new vertex in a
/// random face and join it to the face's corners. Maximal planar; deep and irregular.
fn stacked_triangulation(n: u32, rng: &mut WarrenRng) -> Edges {
    let mut edges = cycle(3);
    let mut faces = vec![[0, 1, 2], [0, 1, 2]];
    for v in 3..n {
        let f = rng.below(faces.len() as u32) as usize;
        let [a, b, c] = faces[f];
        edges.extend([(a, v), (b, v), (c, v)]);
        faces[f] = [a, b, v];
        faces.extend([[b, c, v], [a, c, v]]);
    }
    edges
}

fn random_graph(n: u32, density: f64, rng: &mut WarrenRng) -> Edges {
    complete(n)
        .into_iter()
        .filter(|_| rng.chance(density))
        .collect()
}

/// The same graph under a random vertex permutation, edge order and edge direction.
fn relabel(n: usize, edges: &[(u32, u32)], rng: &mut WarrenRng) -> Edges {
    let mut perm: Vec<u32> = (0..n as u32).collect();
    rng.shuffle(&mut perm);
    let mut out: Edges = edges
        .iter()
        .map(|&(a, b)| {
            let (a, b) = (perm[a as usize], perm[b as usize]);
            if rng.chance(0.5) { (a, b) } else { (b, a) }
        })
        .collect();
    rng.shuffle(&mut out);
    out
}

fn shifted(edges: &[(u32, u32)], by: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
    edges.iter().map(move |&(a, b)| (a + by, b + by))
}

/// Asserts that `is_planar`, the LR test without fast paths and the expectation agree.
fn check(scratch: &mut PlanarityScratch, n: usize, edges: &[(u32, u32)], expected: bool) {
    assert_eq!(
        planar(n, edges),
        expected,
        "is_planar on {n} vertices: {edges:?}"
    );
    assert_eq!(
        planar_by_lr_only(scratch, n, edges),
        expected,
        "LR only: {edges:?}"
    );
}

#[test]
fn oracle_knows_the_kuratowski_graphs() {
    assert!(!oracle_is_planar(&complete(5)));
    assert!(!oracle_is_planar(&complete_bipartite(3, 3)));
    assert!(oracle_is_planar(&complete(5)[1..]));
    assert!(oracle_is_planar(&complete_bipartite(3, 3)[1..]));
    assert!(oracle_is_planar(&complete_bipartite(2, 6)));
    // K5 and K3,3 only as minors: one edge of each subdivided by a new vertex.
    let k5_subdivided: Edges = complete(5)[1..]
        .iter()
        .copied()
        .chain([(0, 5), (5, 1)])
        .collect();
    assert!(!oracle_is_planar(&k5_subdivided));
    let k33_subdivided: Edges = complete_bipartite(3, 3)[1..]
        .iter()
        .copied()
        .chain([(0, 6), (6, 3)])
        .collect();
    assert!(!oracle_is_planar(&k33_subdivided));
}

#[test]
fn agrees_with_the_oracle_on_every_graph_up_to_six_vertices() {
    let mut scratch = PlanarityScratch::default();
    for n in [5u32, 6] {
        let pairs = complete(n);
        for subset in 0u32..1 << pairs.len() {
            let edges: Edges = (0..pairs.len())
                .filter(|&i| subset >> i & 1 == 1)
                .map(|i| pairs[i])
                .collect();
            check(&mut scratch, n as usize, &edges, oracle_is_planar(&edges));
        }
    }
}

#[test]
fn agrees_with_the_oracle_on_random_graphs_of_seven_and_eight_vertices() {
    let mut rng = WarrenRng::new(SEED);
    let mut scratch = PlanarityScratch::default();
    let mut planar_count = [0usize; 2];
    for n in [7u32, 8] {
        for density in [0.35, 0.45, 0.55, 0.65, 0.8] {
            for _ in 0..300 {
                let edges = random_graph(n, density, &mut rng);
                let expected = oracle_is_planar(&edges);
                planar_count[usize::from(expected)] += 1;
                check(&mut scratch, n as usize, &edges, expected);
            }
        }
    }
    assert!(
        planar_count.iter().all(|&c| c > 500),
        "both answers well covered: {planar_count:?}"
    );
}

#[test]
fn kuratowski_graphs_and_their_subdivisions_are_not_planar() {
    let mut scratch = PlanarityScratch::default();
    check(&mut scratch, 5, &complete(5), false);
    check(&mut scratch, 6, &complete_bipartite(3, 3), false);
    for times in 1..=3 {
        let (n, edges) = subdivide(5, &complete(5), times);
        check(&mut scratch, n, &edges, false);
        let (n, edges) = subdivide(6, &complete_bipartite(3, 3), times);
        check(&mut scratch, n, &edges, false);
    }
    // One edge short of each, subdivided or not, is planar.
    check(&mut scratch, 5, &complete(5)[1..], true);
    check(&mut scratch, 6, &complete_bipartite(3, 3)[1..], true);
    let (n, edges) = subdivide(5, &complete(5)[1..], 2);
    check(&mut scratch, n, &edges, true);
}

#[test]
fn petersen_graph_is_not_planar() {
    let mut scratch = PlanarityScratch::default();
    check(&mut scratch, 10, &petersen(), false);
    // Still non-planar without a vertex (it keeps a K3,3 subdivision).
    let without_9: Edges = petersen()
        .into_iter()
        .filter(|&(a, b)| a != 9 && b != 9)
        .collect();
    check(&mut scratch, 10, &without_9, false);
}

#[test]
fn planar_families_are_planar() {
    let mut scratch = PlanarityScratch::default();
    check(&mut scratch, 4, &complete(4), true);
    check(&mut scratch, 9, &complete_bipartite(2, 7), true);
    for k in 3..=30 {
        check(&mut scratch, k as usize + 1, &wheel(k), true);
    }
    check(&mut scratch, 100, &grid(10, 10), true);
    check(&mut scratch, 50, &cycle(50), true);
    // The octahedron K2,2,2: maximal planar, m = 3n - 6 exactly.
    let octahedron: Edges = complete(6)
        .into_iter()
        .filter(|&(a, b)| b != a + 3)
        .collect();
    check(&mut scratch, 6, &octahedron, true);
}

#[test]
fn large_triangulation_is_planar_until_an_edge_must_cross() {
    let mut rng = WarrenRng::new(SEED);
    let mut scratch = PlanarityScratch::default();
    let (w, h) = (40u32, 50u32);
    let n = (w * h + 1) as usize;
    let maximal = apex_triangulated_grid(w, h, &mut rng);
    assert_eq!(maximal.len(), 3 * n - 6, "every face a triangle");
    check(&mut scratch, n, &maximal, true);

    // Any new edge in a maximal planar graph breaks Euler's bound.
    let (u, v) = (5 * w + 5, 44 * w + 34);
    let mut crossed = maximal.clone();
    crossed.push((u, v));
    check(&mut scratch, n, &crossed, false);

    // Trading a middle edge for the long one keeps m = 3n - 6, so only the LR test can
    // answer. It is still non-planar: without its middle edge the triangulation stays
    // 3-connected (no separating triangle passes near the middle), so by Whitney it has
    // one embedding, in which u and v share no face.
    let middle = 25 * w + 20;
    let traded: Edges = maximal
        .iter()
        .copied()
        .filter(|&e| e != (middle, middle + 1))
        .chain([(u, v)])
        .collect();
    assert_eq!(traded.len(), 3 * n - 6);
    check(&mut scratch, n, &traded, false);

    // Without the apex, a long edge between two boundary vertices runs through the outer
    // face: still planar.
    let mut disk = triangulated_grid(w, h, &mut rng);
    disk.push((0, w * h - 1));
    check(&mut scratch, n - 1, &disk, true);
}

#[test]
fn random_maximal_planar_graphs_subgraphs_and_one_edge_more() {
    let mut rng = WarrenRng::new(SEED ^ 1);
    let mut scratch = PlanarityScratch::default();
    for n in [10u32, 40, 200, 1000] {
        for _ in 0..4 {
            let maximal = stacked_triangulation(n, &mut rng);
            let adjacent: HashSet<(u32, u32)> = maximal
                .iter()
                .flat_map(|&(a, b)| [(a, b), (b, a)])
                .collect();
            check(
                &mut scratch,
                n as usize,
                &relabel(n as usize, &maximal, &mut rng),
                true,
            );
            let sparse: Edges = maximal
                .iter()
                .copied()
                .filter(|_| rng.chance(0.6))
                .collect();
            check(
                &mut scratch,
                n as usize,
                &relabel(n as usize, &sparse, &mut rng),
                true,
            );
            let extra = loop {
                let (a, b) = (rng.below(n), rng.below(n));
                if a != b && !adjacent.contains(&(a, b)) {
                    break (a, b);
                }
            };
            let mut more = maximal.clone();
            more.push(extra);
            check(
                &mut scratch,
                n as usize,
                &relabel(n as usize, &more, &mut rng),
                false,
            );
        }
    }
}

#[test]
fn disconnected_graphs_are_planar_iff_every_component_is() {
    let mut scratch = PlanarityScratch::default();
    // A 10 x 10 grid, a wheel on 101..=121, K4 on 122..=125, isolated vertices up to 139.
    let planar_parts: Edges = grid(10, 10)
        .into_iter()
        .chain(shifted(&wheel(20), 101))
        .chain(shifted(&complete(4), 122))
        .collect();
    check(&mut scratch, 140, &planar_parts, true);
    let with_k33: Edges = planar_parts
        .iter()
        .copied()
        .chain(shifted(&complete_bipartite(3, 3), 130))
        .collect();
    check(&mut scratch, 140, &with_k33, false);
    let mut rng = WarrenRng::new(SEED ^ 2);
    check(&mut scratch, 140, &relabel(140, &with_k33, &mut rng), false);
    check(
        &mut scratch,
        140,
        &relabel(140, &planar_parts, &mut rng),
        true,
    );
    // Ten disjoint K5-minus-an-edge: planar, though m > 8 and far from any one vertex.
    let many: Edges = (0..10)
        .flat_map(|i| shifted(&complete(5)[1..], 5 * i).collect::<Vec<_>>())
        .collect();
    check(&mut scratch, 50, &many, true);
}

#[test]
fn parallel_edges_and_loops_are_ignored() {
    let mut scratch = PlanarityScratch::default();
    // K4 five times over with loops everywhere: 34 edges on 4 vertices, still planar.
    let mut k4: Edges = complete(4).repeat(5);
    k4.extend((0..4).map(|v| (v, v)));
    assert!(planar(4, &k4));
    // A wheel with every spoke doubled (reversed) and loops: raw m > 3n - 6, planar.
    let mut w: Edges = wheel(10);
    w.extend(wheel(10).into_iter().map(|(a, b)| (b, a)));
    w.extend((0..11).map(|v| (v, v)));
    assert!(w.len() > 3 * 11 - 6);
    check(&mut scratch, 11, &w, true);
    let mut k33 = complete_bipartite(3, 3).repeat(3);
    k33.extend([(0, 0), (5, 5)]);
    check(&mut scratch, 6, &k33, false);
    check(
        &mut scratch,
        10,
        &(0..10).map(|v| (v, v)).collect::<Edges>(),
        true,
    );
}

#[test]
fn deep_graphs_do_not_overflow_the_stack() {
    let mut scratch = PlanarityScratch::default();
    let k = 20_000u32;
    let path: Edges = (0..2 * k - 1).map(|i| (i, i + 1)).collect();
    check(&mut scratch, 2 * k as usize, &path, true);
    // The prism C_k x K2 is planar; the Moebius ladder (a 2k-cycle with its k long
    // diagonals) is not, and its DFS is 2k deep.
    let prism: Edges = cycle(k)
        .into_iter()
        .chain(shifted(&cycle(k), k))
        .chain((0..k).map(|i| (i, i + k)))
        .collect();
    check(&mut scratch, 2 * k as usize, &prism, true);
    let moebius: Edges = cycle(2 * k)
        .into_iter()
        .chain((0..k).map(|i| (i, i + k)))
        .collect();
    check(&mut scratch, 2 * k as usize, &moebius, false);
}

#[test]
fn answer_does_not_depend_on_labels_edge_order_or_scratch_reuse() {
    let mut rng = WarrenRng::new(SEED ^ 3);
    let mut reused = PlanarityScratch::default();
    let mut seen = [0usize; 2];
    for round in 0..200 {
        let n = 12 + round % 30;
        // Mean degree 2.4: near where these random graphs stop being planar.
        let edges = random_graph(n, 2.4 / f64::from(n - 1), &mut rng);
        let expected = planar(n as usize, &edges);
        seen[usize::from(expected)] += 1;
        for _ in 0..3 {
            let shuffled = relabel(n as usize, &edges, &mut rng);
            let (src, dst): (Vec<u32>, Vec<u32>) = shuffled.iter().copied().unzip();
            assert_eq!(
                is_planar_with(&mut reused, n as usize, &src, &dst),
                expected
            );
        }
    }
    assert!(
        seen.iter().all(|&c| c > 50),
        "both answers covered: {seen:?}"
    );
}

#[test]
fn degenerate_inputs() {
    assert!(is_planar(0, &[], &[]));
    assert!(is_planar(1, &[0, 0], &[0, 0]));
    assert!(is_planar(1000, &[], &[]));
    assert!(is_planar(3, &[0, 1, 2, 0], &[1, 2, 0, 1]));
}
