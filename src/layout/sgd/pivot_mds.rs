//! The start drawing of the stress layout: Brandes and Pich's pivot MDS, classical
//! multidimensional scaling of every vertex's distances to a few pivots ("Eigensolver Methods
//! for Progressive Multidimensional Scaling of Large Data", 2006). The distances to the
//! pivots, squared and doubly centred, form an `n x k` matrix `C`; the two leading
//! eigenvectors `v` of the `k x k` matrix `C^T C` (power iteration with deflation, from start
//! vectors drawn from the seed: the coarsest level's solver, [`leading_eigenvector`]) give the coordinates `C v`. The drawing has the graph's global
//! shape (a mesh comes out flat, a long path straight), so stress descent from it needs only
//! the tail of its schedule.
//!
//! Everything is `f64` in a fixed order, so the drawing is the same bits everywhere.

use super::paths::Paths;
use super::sparse::Pivots;
use crate::core::rng::{WarrenRng, mix};
use crate::layout::multilevel::coarsest::leading_eigenvector;

/// The pivot MDS drawing of the connected graph `paths` from `pivots` pivots drawn from
/// `seed` ([`Pivots::draw`]), or `None` when it is degenerate (fewer than three vertices, or
/// every distance to the pivots the same).
///
/// # Runtime
/// O(pivots / 64) multi-source searches, O(n pivots^2) for `C^T C`.
pub fn pivot_mds(
    paths: &Paths,
    pivots: usize,
    seed: u64,
    parallel: bool,
) -> Option<(Vec<f32>, Vec<f32>)> {
    let n = paths.len();
    if n < 3 {
        return None;
    }
    let drawn = Pivots::draw(paths, pivots, seed, parallel);
    let k = drawn.chosen.len();
    // C = -1/2 (D^2 - row means - column means + total mean), row-major n x k.
    let mut c: Vec<f64> = vec![0.0; n * k];
    for p in 0..k {
        for v in 0..n {
            let d = f64::from(drawn.dist[p * n + v]);
            c[v * k + p] = d * d;
        }
    }
    let row_mean: Vec<f64> = c
        .chunks(k)
        .map(|r| r.iter().sum::<f64>() / k as f64)
        .collect();
    let mut col_mean = vec![0.0f64; k];
    for r in c.chunks(k) {
        for (m, &v) in col_mean.iter_mut().zip(r) {
            *m += v;
        }
    }
    for m in &mut col_mean {
        *m /= n as f64;
    }
    let all = col_mean.iter().sum::<f64>() / k as f64;
    for (v, r) in c.chunks_mut(k).enumerate() {
        for (p, e) in r.iter_mut().enumerate() {
            *e = -0.5 * (*e - row_mean[v] - col_mean[p] + all);
        }
    }
    // The k x k matrix C^T C.
    let mut ctc = vec![0.0f64; k * k];
    for r in c.chunks(k) {
        for i in 0..k {
            let ri = r[i];
            for j in 0..k {
                ctc[i * k + j] += ri * r[j];
            }
        }
    }
    let mut rng = WarrenRng::new(mix(seed, 7));
    let first = leading_eigenvector(&ctc, k, None, &mut rng)?;
    let second = leading_eigenvector(&ctc, k, Some(&first), &mut rng)?;
    let (first, second) = (first.0, second.0);
    let project = |v: &[f64]| -> Vec<f32> {
        c.chunks(k)
            .map(|r| r.iter().zip(v).map(|(a, b)| a * b).sum::<f64>() as f32)
            .collect()
    };
    Some((project(&first), project(&second)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_comes_out_straight() {
        let n = 60u32;
        let src: Vec<u32> = (0..n - 1).collect();
        let dst: Vec<u32> = (1..n).collect();
        let paths = Paths::new(n as usize, &src, &dst, &vec![1.0; n as usize - 1]);
        let (x, y) = pivot_mds(&paths, 10, 4, false).expect("a drawing");
        // Collinear and evenly spaced, up to scale: consecutive gaps all equal.
        let gap = |i: usize| (x[i + 1] - x[i]).hypot(y[i + 1] - y[i]);
        let g0 = gap(0);
        for i in 1..(n as usize - 1) {
            assert!(
                (gap(i) - g0).abs() < 0.02 * g0,
                "{i}: {} against {g0}",
                gap(i)
            );
        }
    }
}
