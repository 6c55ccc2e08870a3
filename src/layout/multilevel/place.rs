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
        // PERF: on large levels each thread counts and sums for a range of the vertices,
        // scanning every edge in order, so each vertex adds its terms in edge order as the serial
        // loop does (the ranges follow the thread count, which no sum depends on).
        let threads = if n >= PARALLEL_FROM {
            rayon::current_num_threads()
        } else {
            1
        };
        let mut members = vec![0u32; coarse.mass.len()];
        let range = members.len().div_ceil(threads).max(1);
        members
            .par_chunks_mut(range)
            .enumerate()
            .for_each(|(r, members)| {
                for &c in parent {
                    if let Some(m) = members.get_mut((c as usize).wrapping_sub(r * range)) {
                        *m += 1;
                    }
                }
            });
        // Neighbour sums over edges leaving the cluster.
        let (mut sx, mut sy, mut count) = (vec![0.0f32; n], vec![0.0f32; n], vec![0u32; n]);
        let range = n.div_ceil(threads).max(1);
        sx.par_chunks_mut(range)
            .zip(sy.par_chunks_mut(range))
            .zip(count.par_chunks_mut(range))
            .enumerate()
            .for_each(|(r, ((sx, sy), count))| {
                let first = r * range;
                for (&a, &b) in fine.src.iter().zip(&fine.dst) {
                    let (ca, cb) = (parent[a as usize], parent[b as usize]);
                    if ca == cb {
                        continue;
                    }
                    for (v, c) in [(a, cb), (b, ca)] {
                        let k = (v as usize).wrapping_sub(first);
                        if k < count.len() {
                            sx[k] += cx[c as usize];
                            sy[k] += cy[c as usize];
                            count[k] += 1;
                        }
                    }
                }
            });
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
        if threads > 1 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::multilevel::coarsen::MatchingMerger;
    use crate::layout::multilevel::{Level, Merger};
    use crate::layout::random_positions;

    /// Above `PARALLEL_FROM` the counts and sums are split over the threads: 1 and 3 threads
    /// place the same bits.
    #[test]
    fn one_and_three_threads_place_the_same_bits() {
        let n = 10_000;
        let (src, dst) = crate::layout::level_like_graph(n, 2);
        let fine = Level {
            length: (0..src.len()).map(|e| 1.0 + (e % 3) as f32).collect(),
            src,
            dst,
            mass: vec![1.0; n],
            radius: vec![0.0; n],
        };
        let (coarse, parent) = MatchingMerger.coarsen(&fine, 4);
        let (mut cx, mut cy) = (Vec::new(), Vec::new());
        random_positions(coarse.mass.len(), 1.0, 5, &mut cx, &mut cy);
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let placement = Placement {
                fine: &fine,
                parent: &parent,
                coarse: &coarse,
                cx: &cx,
                cy: &cy,
                seed: 6,
            };
            let (mut x, mut y) = (Vec::new(), Vec::new());
            pool.install(|| NeighbourPlacer.place(placement, &mut x, &mut y));
            let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
            (bits(&x), bits(&y))
        };
        assert!(run(1) == run(3), "1 and 3 threads placed differently");
    }
}
