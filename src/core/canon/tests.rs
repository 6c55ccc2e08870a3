//! Tests of the canonical form on small graphs against brute force: every graph on up to 6
//! vertices (7 with `--ignored`), a sample of 7-vertex graphs, every small graph with two vertex
//! labels or two edge labels, random multigraphs with loops, and the refusal of bad input.
//!
//! Two facts prove "same certificate exactly when isomorphic" on a set of graphs: each
//! certificate is its graph relabelled by a permutation ([`assert_is_relabelling`]), and the
//! certificates split the graphs into the same classes as the brute-force orbits of all `n!`
//! permutations ([`assert_same_partition`]).

use std::collections::HashMap;

use super::*;
use crate::core::rng::WarrenRng;

/// Fixed seed of every random choice in these tests.
const SEED: u64 = 0x0043_414e_4f4e;

/// Isomorphism classes of graphs on n = 0..=7 vertices (OEIS A000088).
const CLASSES: [usize; 8] = [1, 1, 2, 4, 11, 34, 156, 1044];

type Edges = Vec<(u32, u32, u64)>;

/// The vertex pairs `i < j` of `n` vertices; bit (or digit) `k` of a graph code is pair `k`.
fn pairs(n: usize) -> Vec<(u32, u32)> {
    let n = n as u32;
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .collect()
}

/// Every permutation of `0..n`, in lexicographic order.
fn permutations(n: usize) -> Vec<Vec<u32>> {
    let mut perm: Vec<u32> = (0..n as u32).collect();
    let mut all = vec![perm.clone()];
    loop {
        let Some(i) = (1..n).rev().find(|&i| perm[i - 1] < perm[i]) else {
            return all;
        };
        let j = (i..n).rev().find(|&j| perm[j] > perm[i - 1]).unwrap();
        perm.swap(i - 1, j);
        perm[i..].reverse();
        all.push(perm.clone());
    }
}

/// For each permutation: the pair index each pair index goes to.
fn pair_maps(n: usize, perms: &[Vec<u32>]) -> Vec<Vec<u32>> {
    let pairs = pairs(n);
    let index: HashMap<(u32, u32), u32> = pairs
        .iter()
        .enumerate()
        .map(|(k, &p)| (p, k as u32))
        .collect();
    perms
        .iter()
        .map(|perm| {
            pairs
                .iter()
                .map(|&(i, j)| {
                    let (a, b) = (perm[i as usize], perm[j as usize]);
                    index[&(a.min(b), a.max(b))]
                })
                .collect()
        })
        .collect()
}

/// The image of an edge mask under a pair map.
fn map_mask(map: &[u32], mask: u32) -> u32 {
    (0..map.len())
        .filter(|&k| mask >> k & 1 == 1)
        .fold(0, |acc, k| acc | 1 << map[k])
}

fn edges_of_mask(mask: u32, pairs: &[(u32, u32)]) -> Edges {
    (0..pairs.len())
        .filter(|&k| mask >> k & 1 == 1)
        .map(|k| (pairs[k].0, pairs[k].1, 0))
        .collect()
}

/// Asserts that `c.order` is a permutation and `c.certificate` is the input relabelled by it,
/// written as documented.
fn assert_is_relabelling(n: usize, labels: &[u64], edges: &[(u32, u32, u64)], c: &Canonical) {
    let mut seen = vec![false; n];
    for &p in &c.order {
        assert!((p as usize) < n && !seen[p as usize], "order {:?}", c.order);
        seen[p as usize] = true;
    }
    assert_eq!(c.certificate, encode(n, labels, edges, &c.order));
}

/// The graph relabelled by `order`, in the certificate's layout.
fn encode(n: usize, labels: &[u64], edges: &[(u32, u32, u64)], order: &[u32]) -> Vec<u64> {
    let mut by_position = vec![0; n];
    for v in 0..n {
        by_position[order[v] as usize] = labels[v];
    }
    let mut relabelled: Edges = edges
        .iter()
        .map(|&(u, v, l)| {
            let (a, b) = (order[u as usize], order[v as usize]);
            (a.min(b), a.max(b), l)
        })
        .collect();
    relabelled.sort_unstable();
    let mut words = vec![n as u64, edges.len() as u64];
    words.extend(by_position);
    for (a, b, l) in relabelled {
        words.extend([u64::from(a) << 32 | u64::from(b), l]);
    }
    words
}

/// Asserts that two classifications of the same items are the same partition.
fn assert_same_partition(by_certificate: &[u32], by_brute_force: &[u32]) {
    let mut forward = HashMap::new();
    let mut backward = HashMap::new();
    for (item, (&a, &b)) in by_certificate.iter().zip(by_brute_force).enumerate() {
        assert_eq!(
            *forward.entry(a).or_insert(b),
            b,
            "item {item}: one certificate, two classes"
        );
        assert_eq!(
            *backward.entry(b).or_insert(a),
            a,
            "item {item}: one class, two certificates"
        );
    }
}

/// Numbers certificates in order of first appearance.
#[derive(Default)]
struct CertificateIds(HashMap<Vec<u64>, u32>);

impl CertificateIds {
    fn id(&mut self, certificate: Vec<u64>) -> u32 {
        let next = self.0.len() as u32;
        *self.0.entry(certificate).or_insert(next)
    }
}

/// Class ids of the codes `0..count` as orbits of a group given by all its elements: `image(g,
/// code)` is the code `g` maps `code` to.
fn orbits(count: usize, group: usize, image: impl Fn(usize, u32) -> u32) -> Vec<u32> {
    let mut class = vec![u32::MAX; count];
    let mut next = 0;
    for code in 0..count as u32 {
        if class[code as usize] == u32::MAX {
            for g in 0..group {
                class[image(g, code) as usize] = next;
            }
            next += 1;
        }
    }
    class
}

/// Checks every graph on `n` unlabelled vertices: relabelling, class count, brute-force classes.
fn check_every_graph(n: usize) {
    let pairs = pairs(n);
    let labels = vec![0; n];
    let mut s = CanonScratch::default();
    let mut ids = CertificateIds::default();
    let by_certificate: Vec<u32> = (0..1u32 << pairs.len())
        .map(|mask| {
            let edges = edges_of_mask(mask, &pairs);
            let c = canonical_form(n, &labels, &edges, &mut s).expect("valid graph");
            assert_is_relabelling(n, &labels, &edges, &c);
            ids.id(c.certificate)
        })
        .collect();
    assert_eq!(ids.0.len(), CLASSES[n], "classes of {n}-vertex graphs");
    let maps = pair_maps(n, &permutations(n));
    let brute = orbits(1 << pairs.len(), maps.len(), |g, mask| {
        map_mask(&maps[g], mask)
    });
    assert_same_partition(&by_certificate, &brute);
}

#[test]
fn every_graph_up_to_six_vertices_matches_brute_force() {
    for n in 0..=6 {
        check_every_graph(n);
    }
}

#[test]
#[ignore = "2,097,152 graphs, slow in debug: cargo test --release --lib canon -- --ignored"]
fn every_graph_on_seven_vertices_matches_brute_force() {
    check_every_graph(7);
}

/// The smallest image of a 21-bit mask of 7 vertices under all 5040 permutations, with each
/// permutation's pair map cut into three 7-bit lookup tables.
struct SevenVertexMinimum(Vec<[u32; 128]>);

impl SevenVertexMinimum {
    fn new(maps: &[Vec<u32>]) -> Self {
        let tables = maps
            .iter()
            .flat_map(|map| {
                (0..3).map(move |chunk| {
                    std::array::from_fn(|x| map_mask(map, (x as u32) << (7 * chunk)))
                })
            })
            .collect();
        Self(tables)
    }

    fn of(&self, mask: u32) -> u32 {
        let (a, b, c) = (mask & 127, mask >> 7 & 127, mask >> 14);
        self.0
            .chunks_exact(3)
            .map(|t| t[0][a as usize] | t[1][b as usize] | t[2][c as usize])
            .min()
            .unwrap()
    }
}

#[test]
fn sampled_seven_vertex_graphs_match_brute_force() {
    let pairs = pairs(7);
    let maps = pair_maps(7, &permutations(7));
    let minimum = SevenVertexMinimum::new(&maps);
    let (labels, mut s, mut ids) = (
        vec![0; 7],
        CanonScratch::default(),
        CertificateIds::default(),
    );
    let mut rng = WarrenRng::new(SEED);
    let (mut by_certificate, mut by_brute_force) = (Vec::new(), Vec::new());
    for _ in 0..1500 {
        let mask = rng.below(1 << 21);
        let renumbered = map_mask(&maps[rng.below(5040) as usize], mask);
        for mask in [mask, renumbered] {
            let edges = edges_of_mask(mask, &pairs);
            let c = canonical_form(7, &labels, &edges, &mut s).expect("valid graph");
            assert_is_relabelling(7, &labels, &edges, &c);
            by_certificate.push(ids.id(c.certificate));
            by_brute_force.push(minimum.of(mask));
        }
    }
    assert_same_partition(&by_certificate, &by_brute_force);
}

#[test]
fn every_graph_with_two_vertex_labels_up_to_five_vertices_matches_brute_force() {
    for n in 1..=5 {
        let pairs = pairs(n);
        let m = pairs.len();
        let perms = permutations(n);
        let maps = pair_maps(n, &perms);
        let (mut s, mut ids) = (CanonScratch::default(), CertificateIds::default());
        // Code: the label bits of the vertices above the edge mask.
        let by_certificate: Vec<u32> = (0..1u32 << (n + m))
            .map(|code| {
                let labels: Vec<u64> = (0..n).map(|v| u64::from(code >> (m + v) & 1)).collect();
                let edges = edges_of_mask(code & ((1 << m) - 1), &pairs);
                let c = canonical_form(n, &labels, &edges, &mut s).expect("valid graph");
                assert_is_relabelling(n, &labels, &edges, &c);
                ids.id(c.certificate)
            })
            .collect();
        let brute = orbits(1 << (n + m), perms.len(), |g, code| {
            let labels = (0..n)
                .filter(|&v| code >> (m + v) & 1 == 1)
                .fold(0, |acc, v| acc | 1 << perms[g][v]);
            labels << m | map_mask(&maps[g], code & ((1 << m) - 1))
        });
        assert_same_partition(&by_certificate, &brute);
    }
}

/// Edge label of digit `d` (1 or 2) of an edge-labelled code: far apart, to use all 64 bits.
fn edge_label(d: u32) -> u64 {
    if d == 1 { 7 } else { 1 << 40 }
}

#[test]
fn every_graph_with_two_edge_labels_up_to_five_vertices_matches_brute_force() {
    for n in 1..=5 {
        let pairs = pairs(n);
        let m = pairs.len();
        let maps = pair_maps(n, &permutations(n));
        let digits = |code: u32| (0..m).map(move |k| code / 3u32.pow(k as u32) % 3);
        let (labels, mut s, mut ids) = (
            vec![0; n],
            CanonScratch::default(),
            CertificateIds::default(),
        );
        let count = 3u32.pow(m as u32);
        let by_certificate: Vec<u32> = (0..count)
            .map(|code| {
                let edges: Edges = digits(code)
                    .zip(&pairs)
                    .filter(|(d, _)| *d > 0)
                    .map(|(d, &(u, v))| (v, u, edge_label(d)))
                    .collect();
                let c = canonical_form(n, &labels, &edges, &mut s).expect("valid graph");
                assert_is_relabelling(n, &labels, &edges, &c);
                ids.id(c.certificate)
            })
            .collect();
        let brute = orbits(count as usize, maps.len(), |g, code| {
            digits(code)
                .enumerate()
                .map(|(k, d)| d * 3u32.pow(maps[g][k]))
                .sum()
        });
        assert_same_partition(&by_certificate, &brute);
    }
}

/// A random multigraph: labels in 0..2, edges with repeats and loops, labels in 0..2.
fn random_multigraph(rng: &mut WarrenRng) -> (usize, Vec<u64>, Edges) {
    let n = 1 + rng.below(5) as usize;
    let labels = (0..n).map(|_| u64::from(rng.below(2))).collect();
    let edges = (0..rng.below(7))
        .map(|_| {
            let (u, v) = (rng.below(n as u32), rng.below(n as u32));
            (u, v, u64::from(rng.below(2)))
        })
        .collect();
    (n, labels, edges)
}

/// The graph renumbered by `perm` (vertex `v` becomes `perm[v]`), edges shuffled and flipped.
pub(super) fn renumber(
    labels: &[u64],
    edges: &[(u32, u32, u64)],
    perm: &[u32],
    rng: &mut WarrenRng,
) -> (Vec<u64>, Edges) {
    let mut new_labels = vec![0; labels.len()];
    for (v, &l) in labels.iter().enumerate() {
        new_labels[perm[v] as usize] = l;
    }
    let mut new_edges: Edges = edges
        .iter()
        .map(|&(u, v, l)| {
            let (a, b) = (perm[u as usize], perm[v as usize]);
            if rng.chance(0.5) {
                (a, b, l)
            } else {
                (b, a, l)
            }
        })
        .collect();
    rng.shuffle(&mut new_edges);
    (new_labels, new_edges)
}

#[test]
fn random_multigraphs_with_loops_match_brute_force() {
    let mut rng = WarrenRng::new(SEED ^ 1);
    let (mut s, mut ids) = (CanonScratch::default(), CertificateIds::default());
    let mut brute_ids = CertificateIds::default();
    let (mut by_certificate, mut by_brute_force) = (Vec::new(), Vec::new());
    for _ in 0..400 {
        let (n, labels, edges) = random_multigraph(&mut rng);
        let perms = permutations(n);
        let perm = &perms[rng.below(perms.len() as u32) as usize];
        let (labels2, edges2) = renumber(&labels, &edges, perm, &mut rng);
        for (labels, edges) in [(&labels, &edges), (&labels2, &edges2)] {
            let c = canonical_form(n, labels, edges, &mut s).expect("valid graph");
            assert_is_relabelling(n, labels, edges, &c);
            by_certificate.push(ids.id(c.certificate));
            let brute = perms
                .iter()
                .map(|p| encode(n, labels, edges, p))
                .min()
                .unwrap();
            by_brute_force.push(brute_ids.id(brute));
        }
    }
    assert_same_partition(&by_certificate, &by_brute_force);
    assert!(
        ids.0.len() > 100,
        "{} classes: too few to mean much",
        ids.0.len()
    );
}

#[test]
fn bad_input_is_refused_not_panicked() {
    let mut s = CanonScratch::default();
    assert_eq!(
        canonical_form(3, &[0, 0], &[], &mut s),
        Err(CanonError::LabelCount { n: 3, labels: 2 })
    );
    let out_of_range = CanonError::VertexOutOfRange {
        index: 1,
        u: 1,
        v: 3,
        n: 3,
    };
    assert_eq!(
        canonical_hash(3, &[0; 3], &[(0, 1, 0), (1, 3, 0)], &mut s),
        Err(out_of_range)
    );
    assert!(matches!(
        canonical_form(0, &[], &[(0, 0, 0)], &mut s),
        Err(CanonError::VertexOutOfRange { .. })
    ));
    assert!(matches!(
        canonical_form(2, &[0; 2], &[(u32::MAX, 0, 0)], &mut s),
        Err(CanonError::VertexOutOfRange { .. })
    ));
    assert_eq!(
        canonical_hash(MAX_VERTICES + 1, &[], &[], &mut s),
        Err(CanonError::TooLarge {
            n: MAX_VERTICES + 1,
            m: 0
        })
    );
    // The scratch still works after refusals.
    let c = canonical_form(2, &[5, 5], &[(1, 0, 9)], &mut s).expect("valid graph");
    assert_eq!(c.certificate, vec![2, 1, 5, 5, 1, 9]);
}

#[test]
fn the_empty_graph_and_a_single_vertex_have_forms() {
    let mut s = CanonScratch::default();
    let empty = canonical_form(0, &[], &[], &mut s).expect("valid graph");
    assert_eq!((empty.order, empty.certificate), (vec![], vec![0, 0]));
    let one = canonical_form(1, &[3], &[(0, 0, 4), (0, 0, 4)], &mut s).expect("valid graph");
    assert_eq!(
        (one.order, one.certificate),
        (vec![0], vec![1, 2, 3, 0, 4, 0, 4])
    );
}

/// The Petersen graph, a labelled path with a double edge and a loop, and the empty graph:
/// their hashes pin the canonical form, which datasets store. Re-mint only with a written reason
/// (a change of the refinement, its trace or the leaf order changes every form).
#[test]
fn golden_hashes_pin_the_canonical_form() {
    let petersen: Edges = (0..5)
        .flat_map(|i| {
            [
                (i, (i + 1) % 5, 0),
                (i, i + 5, 0),
                (i + 5, (i + 2) % 5 + 5, 0),
            ]
        })
        .collect();
    let path: Edges = vec![(0, 1, 1), (1, 2, 2), (2, 3, 1), (2, 3, 1), (3, 3, 9)];
    let mut s = CanonScratch::default();
    let hashes = [
        canonical_hash(10, &[0; 10], &petersen, &mut s),
        canonical_hash(4, &[1, 2, 2, 1], &path, &mut s),
        canonical_hash(0, &[], &[], &mut s),
    ];
    assert_eq!(
        hashes,
        [
            Ok(0x8cd4_9e75_7af5_a341),
            Ok(0xdd9f_c1e2_4c9e_9bf8),
            Ok(0x90c4_4809_5359_41ae)
        ]
    );
}
