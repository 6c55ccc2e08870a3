//! Tests of `maze::algorithms`: every algorithm draws spanning trees on every shape it takes (and
//! the fast path gives the general path's levels for them); Wilson and Aldous-Broder draw every
//! spanning tree of a 3 x 3 lattice equally often (a chi-square test over its 192 trees) and
//! the depth-first search, as it must, does not; bad combinations are refused naming the key.

use super::*;
use crate::core::generator::Generator;
use crate::core::rng::{WarrenRng, mix};
use crate::maze::MazeGenerator;
use crate::maze::algorithms::bits::{PICK, REJECT};
use crate::maze::config::{MazeConfig, Topology as Kind, Weighting};
use crate::maze::spanning::Tree;
use crate::maze::topology::Lattice;
use crate::maze::topology::Topology;

/// Spanning-tree check: `rooms - 1` passages, every room reached from the first over them.
fn assert_spanning<T: Topology>(topo: &T, rooms: usize, tree: &Tree, what: &str) {
    let passages = tree.passage.iter().filter(|&&p| p != 0).count();
    assert_eq!(passages, rooms.saturating_sub(1), "{what}: passages");
    let n = topo.slot_count();
    let Some(start) = (0..n as u32).find(|&v| topo.is_room(v)) else {
        return;
    };
    let mut seen = vec![false; n];
    let mut stack = vec![start];
    seen[start as usize] = true;
    let mut reached = 1;
    while let Some(v) = stack.pop() {
        topo.for_each_neighbour(v, |u, e| {
            if tree.is_passage(e) && !seen[u as usize] {
                seen[u as usize] = true;
                reached += 1;
                stack.push(u);
            }
        });
    }
    assert_eq!(reached, rooms, "{what}: connected");
}

#[test]
fn every_algorithm_draws_spanning_trees_on_every_lattice() {
    let mut s = AlgoScratch::default();
    let mut tree = Tree::default();
    for (w, h) in [
        (1, 1),
        (1, 7),
        (7, 1),
        (2, 2),
        (3, 3),
        (7, 5),
        (13, 10),
        (4, 17),
        (32, 32),
    ] {
        let lattice = Lattice::new(w, h, None);
        for alg in Algorithm::ALL.into_iter().skip(1) {
            for i in 0..20 {
                let mut rng = WarrenRng::new(mix(0xA160, i));
                let p = AlgoParams {
                    width: w,
                    height: h,
                    newest: 0.5,
                };
                let rooms = (w * h) as usize;
                grow_tree(alg, &lattice, None, rooms, p, &mut rng, &mut s, &mut tree);
                assert_spanning(&lattice, rooms, &tree, &format!("{alg:?} {w}x{h}"));
            }
        }
    }
}

#[test]
fn graph_algorithms_draw_spanning_trees_with_holes_and_on_delaunay_rooms() {
    for alg in Algorithm::ALL.into_iter().filter(|a| !a.lattice_only()) {
        for (topology, holes) in [(Kind::Lattice, 0.3), (Kind::Delaunay, 0.0)] {
            let cfg = MazeConfig {
                topology,
                width: 12,
                height: 10,
                holes,
                algorithm: alg,
                ..Default::default()
            };
            let g = MazeGenerator::new(cfg).unwrap();
            let mut s = g.new_scratch();
            for i in 0..10 {
                let seed = mix(0xD1, i);
                let Ok(level) = g.generate(seed, &mut s) else {
                    continue;
                };
                let record = crate::core::generator::LevelRecord {
                    index: i,
                    seed,
                    level,
                };
                g.verify(&record)
                    .unwrap_or_else(|v| panic!("{alg:?} {topology:?}: {}", v.0));
            }
        }
    }
}

#[test]
fn the_fast_path_gives_the_general_paths_levels_for_every_algorithm() {
    for alg in Algorithm::ALL {
        for (w, h, merge_dead_ends) in [(9, 7, true), (32, 32, false), (1, 5, true)] {
            let cfg = MazeConfig {
                width: w,
                height: h,
                merge_dead_ends,
                algorithm: alg,
                ..Default::default()
            };
            let fast = MazeGenerator::new(cfg.clone()).unwrap();
            let general = MazeGenerator::new(cfg).unwrap().general_path_only();
            let (mut sf, mut sg) = (fast.new_scratch(), general.new_scratch());
            for i in 0..8 {
                let seed = mix(0xFA, i);
                let a = fast.generate(seed, &mut sf).unwrap();
                let b = general.generate(seed, &mut sg).unwrap();
                assert_eq!(
                    a.content_hash(),
                    b.content_hash(),
                    "{alg:?} {w}x{h} seed {i}"
                );
                assert_eq!(a.metrics, b.metrics, "{alg:?} {w}x{h} seed {i}");
            }
        }
    }
}

/// How often each spanning tree of the 3 x 3 lattice (keyed by its passage set) comes out of
/// `samples` runs of `alg`.
fn tree_counts(alg: Algorithm, samples: u64) -> std::collections::HashMap<u16, u64> {
    tree_counts_of(alg as u64, samples, |lattice, rng, s, tree| {
        let p = AlgoParams {
            width: 3,
            height: 3,
            newest: 0.5,
        };
        grow_tree(alg, lattice, None, 9, p, rng, s, tree);
    })
}

/// How often each spanning tree of the 3 x 3 lattice comes out of `samples` runs of `draw`.
fn tree_counts_of(
    salt: u64,
    samples: u64,
    mut draw: impl FnMut(&Lattice, &mut WarrenRng, &mut AlgoScratch, &mut Tree),
) -> std::collections::HashMap<u16, u64> {
    let lattice = Lattice::new(3, 3, None);
    let (mut s, mut tree) = (AlgoScratch::default(), Tree::default());
    let mut counts = std::collections::HashMap::new();
    let mut rng = WarrenRng::new(0x0_5EED_u64 ^ salt);
    for _ in 0..samples {
        draw(&lattice, &mut rng, &mut s, &mut tree);
        let key = tree
            .passage
            .iter()
            .enumerate()
            .fold(0u16, |k, (e, &on)| k | (u16::from(on != 0) << e));
        *counts.entry(key).or_insert(0) += 1;
    }
    counts
}

/// Pearson's chi-square statistic of `counts` against all 192 trees equally likely.
fn chi_square(counts: &std::collections::HashMap<u16, u64>, samples: u64) -> f64 {
    let expected = samples as f64 / 192.0;
    let seen: f64 = counts
        .values()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum();
    // Trees never drawn count (0 - expected)^2 / expected each.
    seen + (192 - counts.len()) as f64 * expected
}

/// The 0.999 quantile of chi-square with 191 degrees of freedom (Wilson-Hilferty: 257.2).
const CHI2_191_P999: f64 = 257.2;

#[test]
fn wilson_and_aldous_broder_draw_uniform_spanning_trees_and_dfs_does_not() {
    let samples = 192 * 150;
    for alg in [Algorithm::Wilson, Algorithm::AldousBroder] {
        let counts = tree_counts(alg, samples);
        assert_eq!(
            counts.len(),
            192,
            "{alg:?} draws every spanning tree of 3 x 3"
        );
        let chi2 = chi_square(&counts, samples);
        eprintln!("{alg:?}: chi-square {chi2:.1} over 192 trees");
        assert!(chi2 < CHI2_191_P999, "{alg:?}: chi-square {chi2:.1}");
    }
    for alg in [Algorithm::Dfs, Algorithm::BinaryTree] {
        let counts = tree_counts(alg, samples);
        let chi2 = chi_square(&counts, samples);
        eprintln!(
            "{alg:?}: chi-square {chi2:.1}, {} of 192 trees drawn",
            counts.len()
        );
        assert!(
            chi2 > CHI2_191_P999,
            "{alg:?}: chi-square {chi2:.1} looks uniform"
        );
    }
}

#[test]
fn bad_combinations_are_refused_naming_the_key() {
    let err = |cfg: MazeConfig| MazeGenerator::new(cfg).unwrap_err().to_string();
    let e = err(MazeConfig {
        algorithm: Algorithm::Eller,
        holes: 0.2,
        ..Default::default()
    });
    assert!(e.contains("maze.algorithm") && e.contains("eller"), "{e}");
    let e = err(MazeConfig {
        algorithm: Algorithm::Sidewinder,
        topology: Kind::Delaunay,
        ..Default::default()
    });
    assert!(e.contains("maze.algorithm"), "{e}");
    let e = err(MazeConfig {
        algorithm: Algorithm::Dfs,
        weighting: Weighting::Biased,
        ..Default::default()
    });
    assert!(e.contains("maze.weighting") && e.contains("dfs"), "{e}");
    let e = err(MazeConfig {
        algorithm: Algorithm::GrowingTree,
        growing_tree_newest: 1.5,
        ..Default::default()
    });
    assert!(e.contains("maze.growing_tree_newest"), "{e}");
}

/// The two-bit pick gives every set bit of a lattice mask equally many of the entries it does
/// not reject, and only the fourth entry of a three-bit mask rejects.
#[test]
fn the_two_bit_pick_is_uniform_over_the_set_bits() {
    for m in 1u16..16 {
        let entries = &PICK[usize::from(m) * 4..usize::from(m) * 4 + 4];
        let rejects = entries.iter().filter(|&&e| e == REJECT).count();
        assert_eq!(rejects, usize::from(m.count_ones() == 3), "mask {m:04b}");
        let per_bit = (4 - rejects) / m.count_ones() as usize;
        for bit in 0..4u8 {
            let hits = entries.iter().filter(|&&e| e == bit).count();
            let want = if m >> bit & 1 == 1 { per_bit } else { 0 };
            assert_eq!(hits, want, "mask {m:04b}, bit {bit}");
        }
    }
}

/// A jump of `L` steps through the tree's inside lands where `L` lazy steps (a step towards the
/// edge stays put) land, equally often, from every room of lattices of every size it jumps on:
/// all 4^L draws are counted both ways.
#[test]
fn a_jump_is_as_many_lazy_steps() {
    for l in 1..=4usize {
        for (w, h) in [(l, l), (l + 1, l + 3), (l + 4, l + 2), (9, 7)] {
            let (w, h) = (w as i32, h as i32);
            for (x, y) in (0..h).flat_map(|y| (0..w).map(move |x| (x, y))) {
                let (mut jumped, mut stepped) =
                    (vec![0u32; (w * h) as usize], vec![0; (w * h) as usize]);
                for r in 0..1usize << (2 * l) {
                    let (dx, dy) = walk::JUMPS[l - 1][r];
                    let (jx, jy) = (
                        walk::fold(x + i32::from(dx), w),
                        walk::fold(y + i32::from(dy), h),
                    );
                    jumped[(jy * w + jx) as usize] += 1;
                    let (mut sx, mut sy) = (x, y);
                    for j in 0..l {
                        let (dx, dy) = walk::STEPS[(r >> (2 * j)) & 3];
                        (sx, sy) = ((sx + dx).clamp(0, w - 1), (sy + dy).clamp(0, h - 1));
                    }
                    stepped[(sy * w + sx) as usize] += 1;
                }
                assert_eq!(jumped, stepped, "L = {l}, {w} x {h}, from ({x}, {y})");
            }
        }
    }
}

/// Every passage's probability in a uniform spanning tree is the effective resistance between
/// its ends (Kirchhoff), from the grounded Laplacian's inverse. Per edge of `w x h`, in the
/// lattice's edge order.
fn passage_probabilities(w: u32, h: u32) -> Vec<f64> {
    let lattice = Lattice::new(w, h, None);
    let n = (w * h) as usize;
    let mut edges = Vec::new();
    lattice.for_each_edge(|l| edges.push(l));
    // The Laplacian without room 0's row and column, inverted by Gauss-Jordan.
    let m = n - 1;
    let mut a = vec![0.0f64; m * 2 * m];
    for l in &edges {
        for (p, q) in [(l.a as usize, l.b as usize), (l.b as usize, l.a as usize)] {
            if p > 0 {
                a[(p - 1) * 2 * m + p - 1] += 1.0;
                if q > 0 {
                    a[(p - 1) * 2 * m + q - 1] -= 1.0;
                }
            }
        }
    }
    for i in 0..m {
        a[i * 2 * m + m + i] = 1.0;
    }
    for c in 0..m {
        let pivot = a[c * 2 * m + c];
        for j in 0..2 * m {
            a[c * 2 * m + j] /= pivot;
        }
        for r in (0..m).filter(|&r| r != c) {
            let f = a[r * 2 * m + c];
            for j in 0..2 * m {
                a[r * 2 * m + j] -= f * a[c * 2 * m + j];
            }
        }
    }
    let g = |p: usize, q: usize| {
        if p == 0 || q == 0 {
            0.0
        } else {
            a[(p - 1) * 2 * m + m + q - 1]
        }
    };
    let mut prob = vec![0.0; edges.len()];
    for l in &edges {
        let (p, q) = (l.a as usize, l.b as usize);
        prob[l.edge as usize] = g(p, p) + g(q, q) - 2.0 * g(p, q);
    }
    prob
}

/// Aldous-Broder with its jumps drawn where they happen (2 steps on 5 x 5, 28 jumps a tree; 4 on
/// 9 x 9, 44 a tree; on 3 x 3 they never happen): every passage is open as often as in a
/// uniform spanning tree, within 5 standard deviations. This checks the whole walk; what a jump
/// lands on is proved exactly by `a_jump_is_as_many_lazy_steps` (a jump clamped at the edge
/// instead of folded passes here: its bias is below what these samples resolve).
#[test]
fn jumping_aldous_broder_opens_every_passage_as_often_as_a_uniform_tree() {
    fn check(
        w: u32,
        h: u32,
        samples: u32,
        draw: impl Fn(&Lattice, u32, &mut WarrenRng, &mut AlgoScratch, &mut Tree),
    ) {
        let lattice = Lattice::new(w, h, None);
        let want = passage_probabilities(w, h);
        let (mut s, mut tree) = (AlgoScratch::default(), Tree::default());
        let mut rng = WarrenRng::new(mix(0xAB, u64::from(w)));
        let mut open = vec![0u32; want.len()];
        for _ in 0..samples {
            tree.reset((w * h) as usize, want.len());
            let start = rng.below(w * h);
            draw(&lattice, start, &mut rng, &mut s, &mut tree);
            for (e, &p) in tree.passage.iter().enumerate() {
                open[e] += u32::from(p);
            }
        }
        let total: f64 = want.iter().sum();
        assert!(
            (total - f64::from(w * h - 1)).abs() < 1e-6,
            "Kirchhoff: {total}"
        );
        for (e, (&got, &p)) in open.iter().zip(&want).enumerate() {
            let sd = (f64::from(samples) * p * (1.0 - p)).sqrt();
            let z = (f64::from(got) - f64::from(samples) * p) / sd;
            assert!(
                z.abs() < 5.0,
                "{w} x {h} edge {e}: {got} of {samples}, want p = {p:.4} (z = {z:.1})"
            );
        }
    }
    check(5, 5, 40_000, |l, v, rng, s, tree| {
        walk::aldous_broder_jumping::<_, 2>(l, (5, 5), v, rng, &mut s.deep, tree);
    });
    check(9, 9, 8_000, |l, v, rng, s, tree| {
        walk::aldous_broder_jumping::<_, 4>(l, (9, 9), v, rng, &mut s.deep, tree);
    });
}
