//! Starting positions for a layout. Seed 000's solver refines a drawing; it untangles a random
//! scatter of a few hundred vertices, but a large random start stays tangled for thousands of
//! iterations (every long edge crosses many others). [`curve_positions`] starts instead from a
//! drawing that is already local: vertices in depth-first order along a Hilbert curve, so a
//! subtree fills one compact patch and almost every edge starts short.

use crate::core::csr::Adjacency;
use crate::core::rng::WarrenRng;

/// The cell of distance `d` along the Hilbert curve filling a `side x side` grid (`side` a
/// power of two).
pub fn hilbert_cell(side: u32, d: u32) -> (u32, u32) {
    let (mut x, mut y, mut t) = (0u32, 0u32, d);
    let mut s = 1;
    while s < side {
        let rx = 1 & (t / 2);
        let ry = 1 & (t ^ rx);
        if ry == 0 {
            if rx == 1 {
                x = s - 1 - x;
                y = s - 1 - y;
            }
            std::mem::swap(&mut x, &mut y);
        }
        x += s * rx;
        y += s * ry;
        t /= 4;
        s *= 2;
    }
    (x, y)
}

/// Depth-first preorder of the graph (`n` vertices, edges `src`-`dst`), component after
/// component, neighbours in edge order.
///
/// # Runtime
/// O(n + m), one adjacency build.
pub fn depth_first_order(n: usize, src: &[u32], dst: &[u32]) -> Vec<u32> {
    let ends = src.iter().copied().zip(dst.iter().copied());
    let adj = Adjacency::from_edges(n, ends, |_, w| w);
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    let mut stack = Vec::new();
    for root in 0..n as u32 {
        if seen[root as usize] {
            continue;
        }
        stack.push(root);
        while let Some(v) = stack.pop() {
            if std::mem::replace(&mut seen[v as usize], true) {
                continue;
            }
            order.push(v);
            // Reversed, so the first neighbour is visited first.
            stack.extend(adj[v as usize].iter().rev().filter(|&&u| !seen[u as usize]));
        }
    }
    order
}

/// Places the vertices in depth-first order along a Hilbert curve with cells `length` apart,
/// each moved by a deterministic jitter of up to a quarter cell (`seed`) so that no three
/// vertices start collinear.
pub fn curve_positions(
    n: usize,
    src: &[u32],
    dst: &[u32],
    length: f32,
    seed: u64,
    x: &mut Vec<f32>,
    y: &mut Vec<f32>,
) {
    let side = ((n as f64).sqrt().ceil() as u32).max(1).next_power_of_two();
    let mut rng = WarrenRng::new(seed);
    x.clear();
    x.resize(n, 0.0);
    y.clear();
    y.resize(n, 0.0);
    for (d, v) in depth_first_order(n, src, dst).into_iter().enumerate() {
        let (cx, cy) = hilbert_cell(side, d as u32);
        x[v as usize] = (cx as f32 + (rng.unit_f32() - 0.5) * 0.5) * length;
        y[v as usize] = (cy as f32 + (rng.unit_f32() - 0.5) * 0.5) * length;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_visits_every_cell_once_in_unit_steps() {
        for side in [1u32, 2, 4, 8, 32] {
            let cells: Vec<(u32, u32)> = (0..side * side).map(|d| hilbert_cell(side, d)).collect();
            let mut sorted = cells.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), (side * side) as usize, "side {side}");
            for w in cells.windows(2) {
                let step = w[0].0.abs_diff(w[1].0) + w[0].1.abs_diff(w[1].1);
                assert_eq!(step, 1, "side {side}: {w:?}");
            }
        }
    }

    #[test]
    fn depth_first_order_covers_every_component() {
        // Two components: 0-1-2 and 3-4; 5 alone.
        let (src, dst) = (vec![0, 1, 3], vec![1, 2, 4]);
        let order = depth_first_order(6, &src, &dst);
        assert_eq!(order, vec![0, 1, 2, 3, 4, 5]);
        let (src, dst) = (vec![0, 0, 1], vec![2, 1, 3]);
        assert_eq!(depth_first_order(4, &src, &dst), vec![0, 2, 1, 3]);
    }

    #[test]
    fn a_path_starts_with_unit_edges() {
        let n = 1000;
        let (src, dst): (Vec<u32>, Vec<u32>) = ((0..n - 1).collect(), (1..n).collect());
        let (mut x, mut y) = (Vec::new(), Vec::new());
        curve_positions(n as usize, &src, &dst, 1.0, 3, &mut x, &mut y);
        for (&a, &b) in src.iter().zip(&dst) {
            let d = (x[a as usize] - x[b as usize]).hypot(y[a as usize] - y[b as usize]);
            assert!(d < 1.8, "edge {a}-{b} starts {d} long");
        }
    }
}
