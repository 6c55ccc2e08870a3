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
    assert!(LatticePlan::new(256, 256).is_none());
}

#[test]
fn spread_bytes_moves_each_byte_to_its_lane() {
    assert_eq!(spread_bytes(0x0403_0201), 0x0004_0003_0002_0001);
    assert_eq!(spread_bytes(0xFF00_00FF), 0x00FF_0000_0000_00FF);
}

#[test]
fn gather_packs_byte_flags() {
    assert_eq!(gather(0x0100_0000_0000_0001), 0b1000_0001);
    assert_eq!(gather(0xFEFE_FEFE_FEFE_FEFE), 0);
    assert_eq!(gather(u64::MAX), 0xFF);
}

#[test]
fn shifted_reads_across_words() {
    let set = [0x8000_0000_0000_0001u64, 0x1];
    let shifted = |set: &[u64], i, by| Shift::new(by).read(set, i);
    assert_eq!(shifted(&set, 0, 1), 0xC000_0000_0000_0000);
    assert_eq!(shifted(&set, 1, -1), 0x3);
    assert_eq!(shifted(&set, 0, -1), 0x2);
    assert_eq!(shifted(&set, 1, 64), 0);
    assert_eq!(shifted(&set, 0, 64), 0x1);
    assert_eq!(shifted(&set, 1, -64), 0x8000_0000_0000_0001);
    assert_eq!(shifted(&set, 0, -64), 0);
    assert_eq!(shifted(&set, 0, -65), 0);
}
