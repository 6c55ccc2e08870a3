//! Tests of the room placement: overlap-free results on level-sized graphs, and the R-tree
//! queries against all-pairs oracles.

use super::push::{fallback_slow_path, grid_spread};
use super::*;
use crate::core::rng::WarrenRng;
use crate::layout::{LayoutGraph, LayoutParams, LayoutScratch, Repulsion, random_positions, relax};

/// `n` rooms scattered over a square of side `side`, sizes in `[lo, hi)`.
fn random_rooms(rng: &mut WarrenRng, n: usize, side: f32, lo: f32, hi: f32) -> [Vec<f32>; 4] {
    let mut draw = |a: f32, b: f32| (0..n).map(|_| a + (b - a) * rng.unit_f32()).collect();
    [draw(0.0, side), draw(0.0, side), draw(lo, hi), draw(lo, hi)]
}

/// A level-like graph: a random tree where each new vertex attaches to one of the three
/// before it, plus about `n / 4` extra edges between vertices a few ids apart.
fn level_graph(rng: &mut WarrenRng, n: u32) -> (Vec<u32>, Vec<u32>) {
    let (mut src, mut dst) = (Vec::new(), Vec::new());
    for v in 1..n {
        src.push(v - 1 - rng.below(v.min(3)));
        dst.push(v);
    }
    for _ in 0..n / 4 {
        let v = 2 + rng.below(n - 2);
        let u = v - 2 - rng.below((v - 1).min(4));
        if !src.iter().zip(&dst).any(|(&a, &b)| a == u && b == v) {
            src.push(u);
            dst.push(v);
        }
    }
    (src, dst)
}

/// Room settings with a margin of a quarter.
fn quarter_margin() -> RoomParams {
    RoomParams {
        margin: 0.25,
        ..Default::default()
    }
}

/// Solver settings sized for debug-profile tests: the push-apart finishes the job.
fn quick_params() -> LayoutParams {
    LayoutParams {
        max_iterations: 40,
        repulsion: Repulsion::Scalar,
        parallel: false,
        ..Default::default()
    }
}

fn no_edges() -> LayoutGraph<'static> {
    LayoutGraph {
        src: &[],
        dst: &[],
        length_factor: None,
    }
}

#[test]
fn rtree_overlaps_match_all_pairs() {
    let mut rng = WarrenRng::new(0x0000_2007_5eed_0001);
    for case in 0..400 {
        let n = 1 + rng.below(60) as usize;
        // Dense and sparse sets, tiny and large rooms.
        let side = [1.0, 5.0, 20.0][case % 3];
        let [x, y, w, h] = random_rooms(&mut rng, n, side, 0.0, 3.0);
        let margin = [0.0, 0.1, 1.0][case % 3];
        assert_eq!(
            overlapping_pairs(&x, &y, &w, &h),
            overlapping_pairs_brute(&x, &y, &w, &h),
            "case {case}"
        );
        assert_eq!(
            crowded_pairs(&x, &y, &w, &h, margin),
            crowded_pairs_brute(&x, &y, &w, &h, margin),
            "case {case}, margin {margin}"
        );
    }
}

#[test]
fn touching_rooms_do_not_overlap() {
    // A 3 x 3 grid of unit rooms sharing walls and corners.
    let x: Vec<f32> = (0..9).map(|i| (i % 3) as f32).collect();
    let y: Vec<f32> = (0..9).map(|i| (i / 3) as f32).collect();
    let ones = vec![1.0; 9];
    assert!(overlapping_pairs(&x, &y, &ones, &ones).is_empty());
    assert!(overlapping_pairs_brute(&x, &y, &ones, &ones).is_empty());
    // Any margin makes neighbours (and diagonal neighbours) crowded.
    assert_eq!(crowded_pairs(&x, &y, &ones, &ones, 0.01).len(), 20);
    // Zero-size rooms overlap nothing, even on the same spot.
    assert!(overlapping_pairs(&[0.0, 0.0], &[0.0, 0.0], &[0.0, 2.0], &[1.0, 0.0]).is_empty());
}

#[test]
fn corridor_test_on_hand_cases() {
    let (c, half) = ([0.0, 0.0], [1.0, 1.0]);
    // Straight through, diagonal through, and ending inside.
    assert!(segment_passes_through([-3.0, 0.0], [3.0, 0.0], c, half));
    assert!(segment_passes_through([-3.0, -3.0], [3.0, 3.0], c, half));
    assert!(segment_passes_through([-3.0, 0.5], [0.0, 0.5], c, half));
    // Along a wall, through a corner, short of the room, beside it.
    assert!(!segment_passes_through([-3.0, 1.0], [3.0, 1.0], c, half));
    assert!(!segment_passes_through([0.0, 2.0], [2.0, 0.0], c, half));
    assert!(!segment_passes_through([-3.0, 0.0], [-1.0, 0.0], c, half));
    assert!(!segment_passes_through([-3.0, 2.0], [3.0, 1.5], c, half));
    // A point segment counts only strictly inside; a zero-width room never.
    assert!(segment_passes_through([0.2, 0.2], [0.2, 0.2], c, half));
    assert!(!segment_passes_through(
        [-3.0, 0.0],
        [3.0, 0.0],
        c,
        [0.0, 1.0]
    ));
}

#[test]
fn rtree_corridors_match_brute_force() {
    let mut rng = WarrenRng::new(0x0000_2007_5eed_0002);
    let mut hits = 0;
    for case in 0..300 {
        let n = 2 + rng.below(50);
        let [x, y, w, h] = random_rooms(&mut rng, n as usize, 12.0, 0.0, 2.5);
        let (src, dst) = level_graph(&mut rng, n.max(3));
        let (src, dst): (Vec<u32>, Vec<u32>) =
            src.iter().zip(&dst).filter(|&(_, &b)| b < n).unzip();
        let fast = corridors_through_rooms(&x, &y, &w, &h, &src, &dst);
        assert_eq!(
            fast,
            corridors_through_rooms_brute(&x, &y, &w, &h, &src, &dst),
            "case {case}"
        );
        hits += fast.len();
    }
    assert!(hits > 100, "the cases should exercise hits ({hits})");
}

/// Places rooms and checks the guarantee with the brute-force oracle.
fn place_and_check(
    graph: &LayoutGraph<'_>,
    x: &mut [f32],
    y: &mut [f32],
    w: &[f32],
    h: &[f32],
    rooms: &RoomParams,
) -> Placement {
    let mut scratch = LayoutScratch::default();
    let placement = place_rooms(graph, x, y, w, h, &quick_params(), rooms, &mut scratch);
    let left = overlapping_pairs_brute(x, y, w, h);
    assert!(left.is_empty(), "{placement:?}: overlaps {left:?}");
    assert!(x.iter().chain(y.iter()).all(|v| v.is_finite()));
    placement
}

#[test]
fn coincident_centres_are_separated() {
    for push_rounds in [0, 1, 64] {
        let n = 12;
        let (mut x, mut y) = (vec![3.0; n], vec![-2.0; n]);
        let (w, h) = (vec![1.5; n], vec![0.5; n]);
        let rooms = RoomParams {
            push_rounds,
            ..Default::default()
        };
        let p = place_and_check(&no_edges(), &mut x, &mut y, &w, &h, &rooms);
        assert_eq!(p.overlaps_after_relax as usize, n * (n - 1) / 2, "{p:?}");
        if push_rounds == 0 {
            assert_ne!(p.fallback, Fallback::None, "{p:?}");
        }
        // With margin as well.
        assert!(
            crowded_pairs_brute(&x, &y, &w, &h, rooms.margin).is_empty(),
            "{p:?}"
        );
    }
}

#[test]
fn zero_size_rooms_without_margin_stay_finite() {
    let (src, dst) = ([0u32, 1], [1u32, 2]);
    let graph = LayoutGraph {
        src: &src,
        dst: &dst,
        length_factor: None,
    };
    let (mut x, mut y) = (vec![0.0, 0.5, 0.5], vec![0.0, 0.0, 0.0]);
    let (w, h) = ([0.0, 0.0, 2.0], [0.0, 1.0, 0.0]);
    let rooms = RoomParams {
        margin: 0.0,
        ..Default::default()
    };
    let p = place_and_check(&graph, &mut x, &mut y, &w, &h, &rooms);
    assert_eq!(p.fallback, Fallback::None, "{p:?}");
}

#[test]
fn a_single_room_stays_put() {
    let (mut x, mut y) = (vec![1.5], vec![-4.0]);
    let p = place_and_check(
        &no_edges(),
        &mut x,
        &mut y,
        &[3.0],
        &[2.0],
        &RoomParams::default(),
    );
    assert_eq!((x[0], y[0]), (1.5, -4.0));
    assert_eq!((p.overlaps_after_relax, p.push_rounds_used), (0, 0));
    assert_eq!((p.fallback, p.corridors_through_rooms), (Fallback::None, 0));
    // No rooms at all.
    let p = place_and_check(
        &no_edges(),
        &mut [],
        &mut [],
        &[],
        &[],
        &RoomParams::default(),
    );
    assert_eq!(p.fallback, Fallback::None);
}

#[test]
fn rooms_of_very_different_sizes() {
    let mut rng = WarrenRng::new(0x0000_2007_5eed_0003);
    for case in 0..50 {
        let n = 6 + rng.below(20);
        let (src, dst) = level_graph(&mut rng, n);
        let graph = LayoutGraph {
            src: &src,
            dst: &dst,
            length_factor: None,
        };
        let (mut x, mut y) = (Vec::new(), Vec::new());
        random_positions(n as usize, 1.0, case, &mut x, &mut y);
        // Corridor-sized cells next to halls a hundred times larger.
        let mut size = |_| {
            if rng.below(4) == 0 {
                20.0 + 30.0 * rng.unit_f32()
            } else {
                0.2
            }
        };
        let w: Vec<f32> = (0..n).map(&mut size).collect();
        let h: Vec<f32> = (0..n).map(&mut size).collect();
        place_and_check(&graph, &mut x, &mut y, &w, &h, &RoomParams::default());
    }
}

#[test]
fn every_fallback_ends_without_overlap() {
    let mut rng = WarrenRng::new(0x0000_2007_5eed_0004);
    let mut scaled = 0;
    for case in 0..100 {
        let n = 2 + rng.below(40) as usize;
        let [mut x, mut y, w, h] = random_rooms(&mut rng, n, 2.0, 0.0, 3.0);
        // Straight to the fallback.
        let (mut sx, mut sy) = (x.clone(), y.clone());
        let mut pairs = crowded_pairs(&sx, &sy, &w, &h, 0.25);
        if !pairs.is_empty() {
            scaled += u32::from(
                fallback_slow_path(&mut sx, &mut sy, &w, &h, &quarter_margin(), &mut pairs)
                    == Fallback::Scaled,
            );
            assert!(
                overlapping_pairs_brute(&sx, &sy, &w, &h).is_empty(),
                "case {case}"
            );
        }
        // The last resort alone, even with many equal coordinates.
        if case % 2 == 0 {
            x.iter_mut().for_each(|v| *v = v.round());
        }
        grid_spread(&mut x, &mut y, &w, &h, 0.0);
        assert!(
            overlapping_pairs_brute(&x, &y, &w, &h).is_empty(),
            "case {case}"
        );
    }
    assert!(
        scaled > 50,
        "the scaling fallback should do most of the work ({scaled})"
    );
}

#[test]
fn nearly_coincident_centres_do_not_blow_the_layout_up() {
    // Two rooms a hundred-thousandth apart would need a scale factor near 10^5: the
    // fallback scales by 64 and pushes the pair apart instead.
    let (mut x, mut y) = (vec![0.0, 1e-5, 3.0, 0.0], vec![0.0, 1e-5, 0.0, 3.0]);
    let (w, h) = (vec![2.0; 4], vec![2.0; 4]);
    let mut pairs = crowded_pairs(&x, &y, &w, &h, 0.25);
    assert_eq!(pairs, vec![(0, 1)]);
    let fallback = fallback_slow_path(&mut x, &mut y, &w, &h, &quarter_margin(), &mut pairs);
    assert_eq!(fallback, Fallback::Scaled);
    assert!(overlapping_pairs_brute(&x, &y, &w, &h).is_empty());
    let extent = x.iter().chain(&y).fold(0.0f32, |m, v| m.max(v.abs()));
    assert!(extent <= 64.0 * 3.0, "{x:?} {y:?}");
}

#[test]
fn placement_is_deterministic() {
    let run = || {
        let mut rng = WarrenRng::new(0x0000_2007_5eed_0005);
        let (src, dst) = level_graph(&mut rng, 30);
        let graph = LayoutGraph {
            src: &src,
            dst: &dst,
            length_factor: None,
        };
        let [mut x, mut y, w, h] = random_rooms(&mut rng, 30, 5.0, 0.5, 3.0);
        place_and_check(&graph, &mut x, &mut y, &w, &h, &RoomParams::default());
        (x, y)
    };
    let (a, b) = (run(), run());
    assert!(
        a.0.iter()
            .zip(&b.0)
            .all(|(p, q)| p.to_bits() == q.to_bits())
    );
    assert!(
        a.1.iter()
            .zip(&b.1)
            .all(|(p, q)| p.to_bits() == q.to_bits())
    );
}

/// The acceptance test: 10,000 level-like graphs of 5 to 40 vertices with random room
/// sizes, laid out, then placed; the oracle finds no overlap in any of them.
#[test]
fn ten_thousand_level_graphs_end_without_overlap() {
    let mut rng = WarrenRng::new(0x0000_2007_5eed_0006);
    let (mut scratch, params, rooms) = (
        LayoutScratch::default(),
        quick_params(),
        RoomParams::default(),
    );
    let (mut pushed, mut rounds, mut max_rounds, mut overlapped) = (0u32, 0u64, 0u32, 0u32);
    let (mut scaled, mut grid, mut corridors, mut edges) = (0u32, 0u32, 0u64, 0u64);
    let (mut x, mut y, mut spaced) = (Vec::new(), Vec::new(), 0u32);
    let graphs = 10_000;
    for seed in 0..graphs {
        let n = 5 + rng.below(36);
        let (src, dst) = level_graph(&mut rng, n);
        let graph = LayoutGraph {
            src: &src,
            dst: &dst,
            length_factor: None,
        };
        random_positions(n as usize, params.length, seed, &mut x, &mut y);
        relax(&graph, &mut x, &mut y, &params, &mut scratch);
        let mut size = || 0.4 + 2.6 * rng.unit_f32();
        let w: Vec<f32> = (0..n).map(|_| size()).collect();
        let h: Vec<f32> = (0..n).map(|_| size()).collect();
        let p = place_rooms(
            &graph,
            &mut x,
            &mut y,
            &w,
            &h,
            &params,
            &rooms,
            &mut scratch,
        );
        let left = overlapping_pairs_brute(&x, &y, &w, &h);
        assert!(left.is_empty(), "graph {seed}: {p:?}, overlaps {left:?}");
        spaced += u32::from(crowded_pairs_brute(&x, &y, &w, &h, rooms.margin).is_empty());
        pushed += u32::from(p.push_rounds_used > 0);
        overlapped += u32::from(p.overlaps_after_relax > 0);
        rounds += u64::from(p.push_rounds_used);
        max_rounds = max_rounds.max(p.push_rounds_used);
        scaled += u32::from(p.fallback == Fallback::Scaled);
        grid += u32::from(p.fallback == Fallback::Grid);
        corridors += u64::from(p.corridors_through_rooms);
        edges += src.len() as u64;
    }
    println!(
        "{graphs} graphs: {overlapped} overlapping after relax, {pushed} pushed \
         ({rounds} rounds, at most {max_rounds}), {scaled} scaled, {grid} grid, {spaced} keep the margin; \
         {:.3} corridors through rooms per graph ({:.4} per edge)",
        corridors as f64 / f64::from(graphs as u32),
        corridors as f64 / edges as f64,
    );
}
