//! Normalized stress of a layout on a seeded sample of vertex pairs: how far drawn distances are
//! from graph distances, the measure graph-drawing papers compare large layouts by.
//!
//! For every sampled pair `(i, j)` with graph distance `g` (hops, or with edge weights the
//! weighted shortest-path length, [`normalized_stress_weighted`]) and drawn distance `d`, take
//! `r = d / g`. The drawing is first scaled by the `a` that minimises
//! `sum (a r - 1)^2` (the best scaling, `a = sum r / sum r^2`), and the stress is the mean of
//! `(a r - 1)^2` over the pairs: `1 - (sum r)^2 / (P sum r^2)`. It is 0 when drawn distance is
//! exactly proportional to graph distance, and below 1 always; a pair drawn on one spot counts
//! fully (`r = 0`).
//!
//! The pairs are every vertex against each of [`STRESS_SOURCES`] sources drawn from the seed
//! (all vertices for smaller graphs), so the cost is one breadth-first search per source (one
//! Dijkstra search with weights); pairs in different components are skipped. Sources run on rayon's threads; each source's sums are
//! kept apart and added in source order, so the figure does not depend on the thread count.

use rayon::prelude::*;

use crate::core::rng::WarrenRng;
use crate::layout::multilevel::coarsen::Adjacency;

/// Breadth-first sources sampled for the stress (every vertex when the graph has fewer).
pub const STRESS_SOURCES: usize = 64;

/// The normalized stress of positions `x`, `y` for the graph of `n` vertices and edges
/// `src`-`dst`, over the pairs of every vertex with [`STRESS_SOURCES`] sources drawn from
/// `seed`. 0 for a graph without connected pairs.
///
/// # Runtime
/// O(STRESS_SOURCES (n + m)); one adjacency build and a distance array per source.
pub fn normalized_stress(x: &[f32], y: &[f32], src: &[u32], dst: &[u32], seed: u64) -> f64 {
    normalized_stress_weighted(x, y, src, dst, None, seed)
}

/// [`normalized_stress`] against weighted graph distances: edge `e` is `weights[e]` long (each
/// weight positive and finite), so a drawing is scored against the lengths it was asked for.
/// `None` is [`normalized_stress`] (hops).
///
/// # Runtime
/// O(STRESS_SOURCES (n + m) log n) with weights (a binary heap per source); as
/// [`normalized_stress`] without.
pub fn normalized_stress_weighted(
    x: &[f32],
    y: &[f32],
    src: &[u32],
    dst: &[u32],
    weights: Option<&[f32]>,
    seed: u64,
) -> f64 {
    let n = x.len();
    let adj = Adjacency::from_edges(n, src, dst);
    let sources = sample_sources(n, seed);
    let sums: Vec<(f64, f64, u64)> = sources
        .par_iter()
        .map(|&s| match weights {
            Some(w) => weighted_pair_sums(&adj, w, x, y, s),
            None => pair_sums(&adj, x, y, s),
        })
        .collect();
    let (mut r1, mut r2, mut pairs) = (0.0f64, 0.0f64, 0u64);
    for (a, b, p) in sums {
        r1 += a;
        r2 += b;
        pairs += p;
    }
    if pairs == 0 || r2 == 0.0 {
        return if pairs == 0 { 0.0 } else { 1.0 };
    }
    (1.0 - r1 * r1 / (pairs as f64 * r2)).max(0.0)
}

/// [`STRESS_SOURCES`] distinct vertices drawn from `seed` (every vertex when `n` is no larger),
/// in increasing order.
fn sample_sources(n: usize, seed: u64) -> Vec<u32> {
    if n <= STRESS_SOURCES {
        return (0..n as u32).collect();
    }
    let mut rng = WarrenRng::new(seed);
    let mut picked = Vec::with_capacity(STRESS_SOURCES);
    while picked.len() < STRESS_SOURCES {
        let v = rng.below(n as u32);
        if !picked.contains(&v) {
            picked.push(v);
        }
    }
    picked.sort_unstable();
    picked
}

/// `(sum r, sum r^2, pairs)` over the vertices reachable from `s` (itself excluded).
fn pair_sums(adj: &Adjacency, x: &[f32], y: &[f32], s: u32) -> (f64, f64, u64) {
    let n = x.len();
    let mut hops = vec![u32::MAX; n];
    let mut queue = Vec::with_capacity(n);
    hops[s as usize] = 0;
    queue.push(s);
    let mut head = 0;
    let (sx, sy) = (f64::from(x[s as usize]), f64::from(y[s as usize]));
    let (mut r1, mut r2, mut pairs) = (0.0f64, 0.0f64, 0u64);
    while head < queue.len() {
        let v = queue[head];
        head += 1;
        let h = hops[v as usize];
        if h > 0 {
            let (dx, dy) = (f64::from(x[v as usize]) - sx, f64::from(y[v as usize]) - sy);
            // PERF: a square root; libm's `hypot` was a tenth of a 100,000-vertex run.
            let d = (dx * dx + dy * dy).sqrt();
            let r = d / f64::from(h);
            r1 += r;
            r2 += r * r;
            pairs += 1;
        }
        for &w in adj.neighbours(v) {
            if hops[w as usize] == u32::MAX {
                hops[w as usize] = h + 1;
                queue.push(w);
            }
        }
    }
    (r1, r2, pairs)
}

/// [`pair_sums`] with graph distances along edges of lengths `weights`, by Dijkstra's search
/// (ties settled by vertex index, so the sums are the same on every run).
fn weighted_pair_sums(
    adj: &Adjacency,
    weights: &[f32],
    x: &[f32],
    y: &[f32],
    s: u32,
) -> (f64, f64, u64) {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let n = x.len();
    let mut dist = vec![f64::INFINITY; n];
    let mut done = vec![false; n];
    // NOTE: distances are non-negative, so their bits order them as the numbers do.
    let mut heap = BinaryHeap::new();
    dist[s as usize] = 0.0;
    heap.push(Reverse((0.0f64.to_bits(), s)));
    let (sx, sy) = (f64::from(x[s as usize]), f64::from(y[s as usize]));
    let (mut r1, mut r2, mut pairs) = (0.0f64, 0.0f64, 0u64);
    while let Some(Reverse((bits, v))) = heap.pop() {
        if std::mem::replace(&mut done[v as usize], true) {
            continue;
        }
        let g = f64::from_bits(bits);
        if v != s {
            let (dx, dy) = (f64::from(x[v as usize]) - sx, f64::from(y[v as usize]) - sy);
            let r = (dx * dx + dy * dy).sqrt() / g;
            r1 += r;
            r2 += r * r;
            pairs += 1;
        }
        for i in adj.range(v) {
            let (w, e) = (adj.next[i] as usize, adj.edge[i] as usize);
            let through = g + f64::from(weights[e]);
            if through < dist[w] {
                dist[w] = through;
                heap.push(Reverse((through.to_bits(), w as u32)));
            }
        }
    }
    (r1, r2, pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_straight_path_at_any_scale_has_no_stress() {
        let n = 50u32;
        let (src, dst): (Vec<u32>, Vec<u32>) = ((0..n - 1).collect(), (1..n).collect());
        let x: Vec<f32> = (0..n).map(|i| i as f32 * 3.5).collect();
        let y = vec![2.0f32; n as usize];
        let s = normalized_stress(&x, &y, &src, &dst, 1);
        assert!(s < 1e-9, "{s}");
    }

    #[test]
    fn a_folded_path_has_more_stress_than_a_straight_one() {
        let n = 40u32;
        let (src, dst): (Vec<u32>, Vec<u32>) = ((0..n - 1).collect(), (1..n).collect());
        // Folded in two: the second half runs back beside the first.
        let x: Vec<f32> = (0..n)
            .map(|i| if i < 20 { i as f32 } else { (39 - i) as f32 })
            .collect();
        let y: Vec<f32> = (0..n).map(|i| if i < 20 { 0.0 } else { 1.0 }).collect();
        let folded = normalized_stress(&x, &y, &src, &dst, 1);
        assert!(folded > 0.1, "{folded}");
    }

    #[test]
    fn matches_the_closed_form_on_a_triangle_drawn_on_a_line() {
        // Path 0-1-2 drawn as 0, 1, 3: pairs (0,1) r=1, (0,2) r=1.5, (1,2) r=2, each twice.
        let (src, dst) = (vec![0, 1], vec![1, 2]);
        let (x, y) = (vec![0.0, 1.0, 3.0], vec![0.0; 3]);
        let r = [1.0f64, 1.5, 2.0];
        let (s1, s2): (f64, f64) = (r.iter().sum(), r.iter().map(|v| v * v).sum());
        let want = 1.0 - s1 * s1 / (3.0 * s2);
        let got = normalized_stress(&x, &y, &src, &dst, 9);
        assert!((got - want).abs() < 1e-12, "{got} {want}");
    }

    /// A scrambled drawing of the 500-vertex path: pseudo-random positions, stress well above 0.
    fn scrambled_path() -> (Vec<u32>, Vec<u32>, Vec<f32>, Vec<f32>) {
        let n = 500u32;
        let (src, dst): (Vec<u32>, Vec<u32>) = ((0..n - 1).collect(), (1..n).collect());
        let x: Vec<f32> = (0..n).map(|i| ((i * 7919) % 113) as f32).collect();
        let y: Vec<f32> = (0..n).map(|i| ((i * 104_729) % 97) as f32).collect();
        (src, dst, x, y)
    }

    #[test]
    fn scaling_and_moving_the_drawing_leave_the_stress_unchanged() {
        let (src, dst, x, y) = scrambled_path();
        let base = normalized_stress(&x, &y, &src, &dst, 5);
        assert!(base > 0.1, "{base}");
        for (scale, shift) in [(7.0f32, 0.0f32), (0.001, 0.0), (1.0, 1000.0), (7.0, -250.5)] {
            let sx: Vec<f32> = x.iter().map(|v| v * scale + shift).collect();
            let sy: Vec<f32> = y.iter().map(|v| v * scale - shift).collect();
            let moved = normalized_stress(&sx, &sy, &src, &dst, 5);
            assert!(
                (moved - base).abs() < 1e-9,
                "x{scale} +{shift}: {moved} against {base}"
            );
        }
    }

    #[test]
    fn the_thread_count_does_not_change_the_stress() {
        let (src, dst, x, y) = scrambled_path();
        let with = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| normalized_stress(&x, &y, &src, &dst, 5))
        };
        let (one, two, three) = (with(1), with(2), with(3));
        assert_eq!(one.to_bits(), two.to_bits(), "{one} {two}");
        assert_eq!(one.to_bits(), three.to_bits(), "{one} {three}");
    }

    #[test]
    fn weighted_distances_score_a_path_drawn_at_its_weights() {
        // Path 0-1-2-3 weighted 1, 3, 1, drawn straight at those lengths: no stress weighted,
        // some stress against hops.
        let (src, dst, w) = (vec![0, 1, 2], vec![1, 2, 3], vec![1.0f32, 3.0, 1.0]);
        let (x, y) = (vec![0.0, 1.0, 4.0, 5.0], vec![0.0; 4]);
        let weighted = normalized_stress_weighted(&x, &y, &src, &dst, Some(&w), 1);
        assert!(weighted < 1e-12, "{weighted}");
        assert!(normalized_stress(&x, &y, &src, &dst, 1) > 0.05);
        // Unit weights are hops.
        let ones = vec![1.0f32; 3];
        let hops = normalized_stress(&x, &y, &src, &dst, 1);
        let unit = normalized_stress_weighted(&x, &y, &src, &dst, Some(&ones), 1);
        assert!((hops - unit).abs() < 1e-12, "{hops} {unit}");
        // With a chord 0-2 of length 1.5, 1-2 is 2.5 long (through 0), not 3.
        let (src, dst) = (vec![0, 1, 2, 0], vec![1, 2, 3, 2]);
        let w = vec![1.0f32, 3.0, 1.0, 1.5];
        let (x, y) = (vec![0.0, 1.0, 1.5, 2.5], vec![0.0; 4]);
        // Drawn distances equal the weighted distances for every pair but 1-2 (drawn 0.5 for
        // 2.5) and 1-3 (drawn 1.5 for 3.5).
        let got = normalized_stress_weighted(&x, &y, &src, &dst, Some(&w), 1);
        let r = [1.0f64, 1.0, 1.0, 0.5 / 2.5, 1.5 / 3.5, 1.0];
        let (s1, s2): (f64, f64) = (r.iter().sum(), r.iter().map(|v| v * v).sum());
        let want = 1.0 - s1 * s1 / (6.0 * s2);
        assert!((got - want).abs() < 1e-12, "{got} {want}");
    }

    #[test]
    fn disconnected_pairs_are_skipped_and_sampling_is_seeded() {
        let n = 500u32;
        let (src, dst): (Vec<u32>, Vec<u32>) = ((0..n - 1).collect(), (1..n).collect());
        let x: Vec<f32> = (0..n).map(|i| ((i * 7919) % 113) as f32).collect();
        let y: Vec<f32> = (0..n).map(|i| ((i * 104_729) % 97) as f32).collect();
        let a = normalized_stress(&x, &y, &src, &dst, 5);
        assert_eq!(a, normalized_stress(&x, &y, &src, &dst, 5));
        assert!(a > 0.0 && a < 1.0, "{a}");
        let none = normalized_stress(&[0.0, 1.0], &[0.0, 0.0], &[], &[], 1);
        assert_eq!(none, 0.0);
    }
}
