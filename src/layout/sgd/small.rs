//! Full stress of a small graph, as Zheng, Pawar and Goodman run it: every pair in one list,
//! shuffled anew each epoch, one term at a time.
//!
//! The blocked model of [`super::full`] visits the pairs in a fixed pattern (all pairs of two
//! blocks together) that vectorises and spreads over threads; on a graph of a few hundred
//! vertices that pattern costs stress (a random start settles in a worse minimum: adjnoun
//! 0.144 against 0.135), and there is too little work for lanes or threads to pay. Here the
//! order is fresh each epoch, from the seed, so the result is still the same bits every run.

use super::kernel::{self, Slots};
use super::paths::{PathScratch, Paths};
use crate::core::rng::{WarrenRng, mix};

/// One term: two vertices and their target distance.
#[derive(Clone, Copy, Debug)]
struct Term {
    i: u32,
    j: u32,
    d: f32,
}

/// The full stress model of a small connected graph.
pub struct Small {
    terms: Vec<Term>,
    /// Shortest and longest target.
    pub range: (f32, f32),
}

impl Small {
    /// Every pair of the connected graph `paths` with its shortest-path length.
    ///
    /// # Runtime
    /// O(n (n + m)) searches (O(n m log n) with unequal lengths); memory O(n^2).
    pub fn new(paths: &Paths) -> Self {
        let n = paths.len();
        let mut terms = Vec::with_capacity(n * n.saturating_sub(1) / 2);
        let mut row = vec![0.0f32; n];
        let mut scratch = PathScratch::default();
        let mut range = (f32::INFINITY, 0.0f32);
        for i in 0..n {
            paths.from_source(i as u32, &mut row, &mut scratch);
            for (j, &d) in row.iter().enumerate().skip(i + 1) {
                if d > 0.0 && d.is_finite() {
                    range = (range.0.min(d), range.1.max(d));
                    terms.push(Term {
                        i: i as u32,
                        j: j as u32,
                        d,
                    });
                }
            }
        }
        Self { terms, range }
    }

    /// Runs one epoch per step size of `etas` on `x`, `y`, moving only vertices whose `free`
    /// is 1; epoch `e` shuffles the terms from `mix(seed, e)`.
    ///
    /// # Runtime
    /// O(n^2) per epoch, on the calling thread.
    pub fn run(&mut self, x: &mut [f32], y: &mut [f32], free: &[f32], etas: &[f32], seed: u64) {
        let mut s = Slots { x, y, free };
        for (epoch, &eta) in etas.iter().enumerate() {
            WarrenRng::new(mix(seed, epoch as u64)).shuffle(&mut self.terms);
            for t in &self.terms {
                kernel::pair(&mut s, t.i as usize, t.j as usize, t.d, eta);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_gets_every_pair_once_with_its_distance() {
        let n = 9u32;
        let src: Vec<u32> = (0..n - 1).collect();
        let dst: Vec<u32> = (1..n).collect();
        let paths = Paths::new(n as usize, &src, &dst, &vec![2.0; n as usize - 1]);
        let model = Small::new(&paths);
        assert_eq!(model.terms.len(), 36);
        for t in &model.terms {
            assert!(t.i < t.j);
            assert_eq!(t.d, 2.0 * (t.j - t.i) as f32);
        }
        assert_eq!(model.range, (2.0, 16.0));
    }
}
