//! The placer stage of the multilevel layout: puts each vertex of a finer level where its
//! cluster was drawn on the coarser one (OGDF's `SolarPlacer` and `BarycenterPlacer`).
//!
//! A vertex alone in its cluster takes the cluster's position. A vertex that shares its cluster
//! moves from the cluster's position toward the clusters of its other neighbours (their mean),
//! by the cluster's radius but at most half the way: the members of a pair spread along the
//! corridor they connect rather than stacking up. A member with no neighbour outside its cluster
//! goes the radius in a direction drawn from the seed. Every vertex also gets a small seeded
//! jitter, so no two start on one spot.

use rayon::prelude::*;

use super::stages::{Placement, Placer};
use crate::core::rng::splitmix64;
use crate::layout::PARALLEL_FROM;

/// Barycentric placement toward neighbouring clusters.
#[derive(Clone, Copy, Debug, Default)]
pub struct NeighbourPlacer;

/// A direction and a jitter in `[-1, 1]` drawn from `seed` and `v`.
#[inline]
fn draw(seed: u64, v: u32) -> (f32, f32) {
    let h = splitmix64(seed ^ (u64::from(v) << 1));
    let unit = |bits: u64| (bits & 0xFF_FFFF) as f32 / 8_388_607.5 - 1.0;
    (unit(h), unit(h >> 32))
}

impl Placer for NeighbourPlacer {
    fn place(&self, p: Placement<'_>, x: &mut Vec<f32>, y: &mut Vec<f32>) {
        let Placement {
            fine,
            parent,
            coarse,
            cx,
            cy,
            seed,
        } = p;
        let n = fine.mass.len();
        let mut members = vec![0u32; coarse.mass.len()];
        for &c in parent {
            members[c as usize] += 1;
        }
        // Neighbour sums over edges leaving the cluster.
        let (mut sx, mut sy, mut count) = (vec![0.0f32; n], vec![0.0f32; n], vec![0u32; n]);
        for (&a, &b) in fine.src.iter().zip(&fine.dst) {
            let (ca, cb) = (parent[a as usize], parent[b as usize]);
            if ca == cb {
                continue;
            }
            for (v, c) in [(a, cb), (b, ca)] {
                sx[v as usize] += cx[c as usize];
                sy[v as usize] += cy[c as usize];
                count[v as usize] += 1;
            }
        }
        let mean_length = mean(&fine.length).max(f32::MIN_POSITIVE);
        let position = |v: usize| {
            let c = parent[v] as usize;
            let (px, py) = (cx[c], cy[c]);
            let (jx, jy) = draw(seed, v as u32);
            let jitter = 0.05 * mean_length;
            if members[c] == 1 {
                return (px + jx * jitter, py + jy * jitter);
            }
            let r = coarse.radius[c].max(0.5 * mean_length);
            let (dx, dy) = if count[v] > 0 {
                let k = count[v] as f32;
                let (dx, dy) = (sx[v] / k - px, sy[v] / k - py);
                // NOTE: a square root, not libm's `hypot`: IEEE-exact, so the same bits on
                // every CPU and build.
                let d = (dx * dx + dy * dy).sqrt();
                if d > 1e-6 * mean_length {
                    let step = r.min(0.5 * d) / d;
                    (dx * step, dy * step)
                } else {
                    (jx * r, jy * r)
                }
            } else {
                (jx * r, jy * r)
            };
            (px + dx + jx * jitter, py + dy + jy * jitter)
        };
        x.clear();
        y.clear();
        if n >= PARALLEL_FROM {
            // PERF: each vertex's position depends on its own sums only: rayon's ordered
            // collect gives the serial loop's positions.
            (0..n).into_par_iter().map(position).unzip_into_vecs(x, y);
        } else {
            for (px, py) in (0..n).map(position) {
                x.push(px);
                y.push(py);
            }
        }
    }
}

/// The mean of `values` (0 for none).
pub fn mean(values: &[f32]) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    (values.iter().map(|&v| f64::from(v)).sum::<f64>() / values.len() as f64) as f32
}
