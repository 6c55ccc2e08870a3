//! Tests of `fast.rs`.

use super::*;
use crate::core::generator::Generator;
use crate::core::rng::mix;
use crate::maze::{Gradient, MazeGenerator};

/// The fast path against the general path (its oracle): same grid, same metrics, bit for bit.
fn assert_same(cfg: MazeConfig, seeds: u64) {
    let fast = MazeGenerator::new(cfg.clone()).unwrap();
    assert!(fast.plan.is_some(), "the fast path must take {cfg:?}");
    let general = MazeGenerator::new(cfg.clone()).unwrap().general_path_only();
    let (mut sf, mut sg) = (fast.new_scratch(), general.new_scratch());
    for i in 0..seeds {
        let seed = mix(0xFA57, i);
        let a = fast.generate(seed, &mut sf).unwrap();
        let b = general.generate(seed, &mut sg).unwrap();
        let (ga, gb) = (a.grid.unwrap(), b.grid.unwrap());
        assert_eq!((ga.width, ga.height), (gb.width, gb.height));
        assert!(ga.cells == gb.cells, "grids differ: {cfg:?} seed {seed}");
        let (ma, mb): (Vec<u64>, Vec<u64>) = (
            a.metrics.iter().map(|m| m.to_bits()).collect(),
            b.metrics.iter().map(|m| m.to_bits()).collect(),
        );
        assert_eq!(ma, mb, "metrics differ: {cfg:?} seed {seed}");
        assert_eq!(a.content_hash(), b.content_hash());
    }
}

#[test]
fn matches_the_general_path_on_every_shape() {
    for (w, h) in [
        (1, 1),
        (1, 2),
        (2, 1),
        (1, 9),
        (9, 1),
        (2, 2),
        (3, 5),
        (8, 8),
        (31, 33),
        (32, 32),
        (64, 64),
        (65, 3),
        (3, 70),
    ] {
        for merge_dead_ends in [true, false] {
            let cfg = MazeConfig {
                width: w,
                height: h,
                merge_dead_ends,
                ..Default::default()
            };
            assert_same(cfg, if w * h > 1000 { 12 } else { 40 });
        }
    }
}

#[test]
fn matches_the_general_path_for_every_weighting() {
    for weighting in [Weighting::Biased, Weighting::Gradient] {
        for gradient in [Gradient::X, Gradient::XMinusY, Gradient::Radial] {
            let cfg = MazeConfig {
                width: 20,
                height: 13,
                weighting,
                gradient,
                ..Default::default()
            };
            assert_same(cfg, 10);
        }
    }
}

#[test]
fn matches_the_general_path_at_the_largest_size() {
    // 255 x 257 = 65,535 rooms: room ids use the whole u16 range but DUMMY.
    let cfg = MazeConfig {
        width: 255,
        height: 257,
        ..Default::default()
    };
    assert_same(cfg, 1);
    assert!(LatticePlan::new(255, 257).unwrap().is_narrow());
    assert!(!LatticePlan::new(256, 256).unwrap().is_narrow());
}

/// The `u32` path (above 65,535 rooms) against the general path: just above the `u16` limit,
/// widths that are and are not a multiple of the bitset word, long thin lattices, merged and
/// not.
#[test]
fn wide_ids_match_the_general_path() {
    for (w, h) in [(256, 256), (257, 256), (300, 250), (1000, 66), (66, 1000)] {
        for merge_dead_ends in [true, false] {
            let cfg = MazeConfig {
                width: w,
                height: h,
                merge_dead_ends,
                ..Default::default()
            };
            assert!(!LatticePlan::new(w, h).unwrap().is_narrow());
            assert_same(cfg, 2);
        }
    }
}

/// Every algorithm's tree, merged and not, through the `u32` path's merge, metrics and grid.
#[test]
fn wide_ids_match_the_general_path_for_every_algorithm() {
    for algorithm in crate::maze::MazeAlgorithm::ALL {
        for merge_dead_ends in [true, false] {
            let cfg = MazeConfig {
                width: 300,
                height: 250,
                algorithm,
                merge_dead_ends,
                ..Default::default()
            };
            assert_same(cfg, 1);
        }
    }
}

/// The weighted edge orders, packed for the `u32` path.
#[test]
fn wide_ids_match_the_general_path_for_every_weighting() {
    for (weighting, gradient) in [
        (Weighting::Biased, Gradient::X),
        (Weighting::Gradient, Gradient::Radial),
    ] {
        let cfg = MazeConfig {
            width: 270,
            height: 251,
            weighting,
            gradient,
            ..Default::default()
        };
        assert_same(cfg, 1);
    }
}

/// `grid_only` on the `u32` path draws the cells `generate` draws.
#[test]
fn wide_ids_grid_only_is_generate_s_grid() {
    for merge_dead_ends in [true, false] {
        let g = MazeGenerator::new(MazeConfig {
            width: 300,
            height: 250,
            merge_dead_ends,
            ..Default::default()
        })
        .unwrap();
        let (mut a, mut b) = (g.new_scratch(), g.new_scratch());
        for i in 0..2 {
            let seed = mix(0x6_01D, i);
            let full = g.generate(seed, &mut a).unwrap();
            let (grid, _) = g.grid_only(seed, &mut b).unwrap();
            assert!(grid.cells == full.grid.unwrap().cells, "seed {i}");
        }
    }
}

/// The acceptance size, 801 x 801 (641,601 rooms), against the general path: too slow for the
/// debug suite, run it with `cargo test --release --lib wide_ids_at_801 -- --ignored`.
#[test]
#[ignore = "slow in debug builds; run in release"]
fn wide_ids_at_801_match_the_general_path() {
    for merge_dead_ends in [true, false] {
        let cfg = MazeConfig {
            width: 801,
            height: 801,
            merge_dead_ends,
            ..Default::default()
        };
        assert_same(cfg, 3);
    }
}
