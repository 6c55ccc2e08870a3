//! Tests of neighbourhood preservation: drawings that keep every neighbourhood score 1, a
//! shuffled one scores low, ties go to the smaller index, the R-tree answer equals an all-pairs
//! oracle, and sampling is seeded, exact when it covers every vertex and thread-count free.

use super::*;
use crate::core::rng::WarrenRng;

/// The path `0-1-...-(n-1)`.
fn path(n: u32) -> (Vec<u32>, Vec<u32>) {
    ((0..n - 1).collect(), (1..n).collect())
}

/// The `side` x `side` grid graph, vertex `r * side + c` drawn at `(c, r)`.
fn grid(side: u32) -> (Vec<u32>, Vec<u32>, Vec<f32>, Vec<f32>) {
    let (mut src, mut dst) = (Vec::new(), Vec::new());
    for r in 0..side {
        for c in 0..side {
            let v = r * side + c;
            if c + 1 < side {
                src.push(v);
                dst.push(v + 1);
            }
            if r + 1 < side {
                src.push(v);
                dst.push(v + side);
            }
        }
    }
    let x = (0..side * side).map(|v| (v % side) as f32).collect();
    let y = (0..side * side).map(|v| (v / side) as f32).collect();
    (src, dst, x, y)
}

/// `NP(v)` by sorting every other vertex by (distance, index): the oracle.
fn brute(x: &[f32], y: &[f32], src: &[u32], dst: &[u32]) -> f64 {
    let n = x.len();
    let mut sets = vec![Vec::new(); n];
    for (&a, &b) in src.iter().zip(dst) {
        if a != b {
            sets[a as usize].push(b);
            sets[b as usize].push(a);
        }
    }
    let (mut sum, mut count) = (0.0, 0);
    for v in 0..n {
        sets[v].sort_unstable();
        sets[v].dedup();
        let k = sets[v].len();
        if k == 0 {
            continue;
        }
        let d2 = |u: usize| {
            let (dx, dy) = (x[u] - x[v], y[u] - y[v]);
            dx * dx + dy * dy
        };
        let mut others: Vec<usize> = (0..n).filter(|&u| u != v).collect();
        others.sort_by(|&a, &b| d2(a).total_cmp(&d2(b)).then(a.cmp(&b)));
        let shared = others[..k]
            .iter()
            .filter(|&&u| sets[v].contains(&(u as u32)))
            .count();
        sum += shared as f64 / (2 * k - shared) as f64;
        count += 1;
    }
    if count == 0 { 0.0 } else { sum / count as f64 }
}

#[test]
fn a_straight_path_keeps_every_neighbourhood_ends_included() {
    let (src, dst) = path(30);
    let x: Vec<f32> = (0..30).map(|i| i as f32 * 2.5).collect();
    let y = vec![1.0f32; 30];
    assert_eq!(neighbourhood_preservation(&x, &y, &src, &dst), 1.0);
}

#[test]
fn a_grid_drawn_as_a_grid_keeps_every_neighbourhood() {
    let (src, dst, x, y) = grid(12);
    assert_eq!(neighbourhood_preservation(&x, &y, &src, &dst), 1.0);
}

#[test]
fn a_shuffled_drawing_keeps_few_neighbourhoods() {
    let (src, dst, x, y) = grid(20);
    let mut rng = WarrenRng::new(3);
    let mut order: Vec<usize> = (0..x.len()).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i as u32 + 1) as usize);
    }
    let sx: Vec<f32> = order.iter().map(|&i| x[i]).collect();
    let sy: Vec<f32> = order.iter().map(|&i| y[i]).collect();
    let np = neighbourhood_preservation(&sx, &sy, &src, &dst);
    assert!(np < 0.1, "{np}");
}

#[test]
fn equal_distances_go_to_the_smaller_index() {
    // Vertex 1 at the origin, 0 and 2 one unit either side; 1's one neighbour is 2, and its one
    // nearest vertex is 0 (the smaller index of the tie): NP(1) = 0. Vertex 3, far away, is
    // 0's only neighbour.
    let (x, y) = (vec![-1.0, 0.0, 1.0, 50.0], vec![0.0; 4]);
    let (src, dst) = (vec![1, 0], vec![2, 3]);
    // NP: 0 -> 0 (nearest 1), 1 -> 0 (nearest 0), 2 -> 1 (nearest 1), 3 -> 0 (nearest 2).
    assert_eq!(neighbourhood_preservation(&x, &y, &src, &dst), 0.25);
    assert_eq!(brute(&x, &y, &src, &dst), 0.25);
    // With the neighbour 0 instead, the tie goes its way.
    let (src, dst) = (vec![1, 2], vec![0, 3]);
    assert_eq!(neighbourhood_preservation(&x, &y, &src, &dst), 0.75);
}

#[test]
fn repeated_edges_and_self_loops_do_not_count_toward_the_degree() {
    let (x, y) = (vec![0.0, 1.0, 2.0], vec![0.0; 3]);
    let (src, dst) = (vec![0, 1, 0, 1, 2], vec![1, 0, 1, 2, 2]);
    assert_eq!(neighbourhood_preservation(&x, &y, &src, &dst), 1.0);
    assert_eq!(neighbourhood_preservation(&x, &y, &[], &[]), 0.0);
}

#[test]
fn the_tree_agrees_with_the_all_pairs_oracle_on_random_graphs() {
    for seed in 0..12u64 {
        let mut rng = WarrenRng::new(seed);
        let n = 2 + rng.below(80);
        let m = rng.below(3 * n) as usize;
        let src: Vec<u32> = (0..m).map(|_| rng.below(n)).collect();
        let dst: Vec<u32> = (0..m).map(|_| rng.below(n)).collect();
        // Few distinct coordinates: many vertices share a point or an exact distance.
        let side = 1 + rng.below(6);
        let x: Vec<f32> = (0..n).map(|_| rng.below(side) as f32 * 0.5).collect();
        let y: Vec<f32> = (0..n).map(|_| rng.below(side) as f32).collect();
        let fast = neighbourhood_preservation(&x, &y, &src, &dst);
        let oracle = brute(&x, &y, &src, &dst);
        assert!(
            (fast - oracle).abs() < 1e-12,
            "seed {seed}: {fast} {oracle}"
        );
    }
}

#[test]
fn a_sample_of_every_vertex_is_the_exact_figure_and_a_smaller_one_is_seeded() {
    let (src, dst, x, y) = grid(30);
    let mut rng = WarrenRng::new(9);
    let x: Vec<f32> = x.iter().map(|v| v + rng.below(100) as f32 * 0.01).collect();
    let exact = neighbourhood_preservation(&x, &y, &src, &dst);
    for sample in [900, 5000] {
        let all = neighbourhood_preservation_sampled(&x, &y, &src, &dst, sample, 4);
        assert_eq!(all.to_bits(), exact.to_bits(), "{sample}");
    }
    let some = neighbourhood_preservation_sampled(&x, &y, &src, &dst, 300, 4);
    assert_eq!(
        some.to_bits(),
        neighbourhood_preservation_sampled(&x, &y, &src, &dst, 300, 4).to_bits()
    );
    assert!((some - exact).abs() < 0.1, "{some} {exact}");
    let auto = neighbourhood_auto(&x, &y, &src, &dst, 4);
    assert_eq!(
        auto,
        Neighbourhood {
            mean: exact,
            sampled: false
        }
    );
}

#[test]
fn the_thread_count_does_not_change_the_figure() {
    let n = 5000u32;
    let (src, dst) = path(n);
    let x: Vec<f32> = (0..n).map(|i| ((i * 7919) % 1013) as f32).collect();
    let y: Vec<f32> = (0..n).map(|i| ((i * 104_729) % 997) as f32).collect();
    let with = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| neighbourhood_preservation_sampled(&x, &y, &src, &dst, 3000, 7))
    };
    let (one, two, three) = (with(1), with(2), with(3));
    assert_eq!(one.to_bits(), two.to_bits(), "{one} {two}");
    assert_eq!(one.to_bits(), three.to_bits(), "{one} {three}");
}
