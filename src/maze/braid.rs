//! Braiding (Walter Pullen's *braid* mazes, the loops seed 001's trees lack): after the tree
//! is grown and its dead ends merged, a share of the dead ends is removed by opening a wall.
//!
//! The dead ends are visited in a random order. Each one still a dead end opens a wall to a
//! room it is physically next to but not joined with, preferring a neighbour that is itself a
//! dead end (one opening removes both). Every opening adds one passage, so the maze becomes
//! the spanning tree plus `loops` extra passages, with `loops` independent cycles. Braiding
//! stops once `round(share * D)` of the `D` dead ends are gone, or when the dead ends left have
//! no wall to open (a room whose only physical neighbour is its passage's).

use crate::core::rng::WarrenRng;
use crate::maze::spanning::Tree;
use crate::maze::topology::Topology;

/// What [`braid`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Braided {
    /// Passages opened (independent loops added).
    pub loops: u32,
    /// Dead ends removed (each opening removes one or two).
    pub removed: u32,
}

/// The dead ends `braid` removes out of `dead_ends`: `round(share * dead_ends)`.
pub fn target(share: f64, dead_ends: u32) -> u32 {
    (share * f64::from(dead_ends)).round() as u32
}

/// Removes `round(share * D)` of the tree's `D` dead ends by opening walls (see the module
/// doc). `order` is scratch.
///
/// # Runtime
/// O(V) to list the dead ends, plus their shuffle; O(slots) per dead end opened. No allocation
/// once `order` has grown.
pub fn braid<T: Topology>(
    topo: &T,
    tree: &mut Tree,
    share: f64,
    rng: &mut WarrenRng,
    order: &mut Vec<u32>,
) -> Braided {
    order.clear();
    order.extend((0..topo.slot_count() as u32).filter(|&v| topo.is_room(v) && tree.degree(v) == 1));
    let goal = target(share, order.len() as u32);
    let mut done = Braided::default();
    if goal == 0 {
        return done;
    }
    rng.shuffle(order);
    for &v in order.iter() {
        if done.removed >= goal {
            break;
        }
        if tree.degree(v) != 1 {
            continue;
        }
        // Walls to rooms v is next to and not joined with.
        let walls = topo.physical_mask(v) & !tree.mask[v as usize];
        if walls == 0 {
            continue;
        }
        let mut dead = 0u16;
        let mut rest = walls;
        while rest != 0 {
            let k = rest.trailing_zeros();
            rest &= rest - 1;
            if tree.degree(topo.neighbour_room(v, k)) == 1 {
                dead |= 1 << k;
            }
        }
        let pool = if dead != 0 { dead } else { walls };
        let k = nth_set_bit(pool, rng.below(pool.count_ones()));
        tree.open(Tree::link(topo, v, k));
        done.loops += 1;
        done.removed += 1 + u32::from(dead != 0);
    }
    done
}

/// The slot of the `n`-th set bit of `mask` (`n < mask.count_ones()`).
fn nth_set_bit(mut mask: u16, n: u32) -> u32 {
    for _ in 0..n {
        mask &= mask - 1;
    }
    mask.trailing_zeros()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::sets::UnionFind;
    use crate::maze::spanning::kruskal;
    use crate::maze::topology::{Lattice, Link};

    /// A random spanning tree of a `w x h` lattice.
    fn tree_of(lat: &Lattice<'_>, seed: u64) -> Tree {
        let mut links: Vec<Link> = Vec::new();
        lat.for_each_edge(|l| links.push(l));
        WarrenRng::new(seed).shuffle(&mut links);
        let (mut uf, mut tree) = (UnionFind::default(), Tree::default());
        kruskal(lat, &links, lat.slot_count(), &mut uf, &mut tree);
        tree
    }

    fn dead_ends(lat: &Lattice<'_>, tree: &Tree) -> u32 {
        (0..lat.slot_count() as u32)
            .filter(|&v| tree.degree(v) == 1)
            .count() as u32
    }

    #[test]
    fn a_full_braid_leaves_no_dead_end_and_one_loop_per_opening() {
        let lat = Lattice::new(9, 7, None);
        for seed in 0..20 {
            let mut tree = tree_of(&lat, seed);
            let before = dead_ends(&lat, &tree);
            let opened_before = tree.passage.iter().filter(|&&p| p != 0).count() as u32;
            let done = braid(
                &lat,
                &mut tree,
                1.0,
                &mut WarrenRng::new(seed),
                &mut Vec::new(),
            );
            assert_eq!(dead_ends(&lat, &tree), 0, "seed {seed}");
            assert_eq!(done.removed, before);
            let opened = tree.passage.iter().filter(|&&p| p != 0).count() as u32;
            assert_eq!(opened, opened_before + done.loops);
            assert!(done.loops <= done.removed && done.removed <= 2 * done.loops);
        }
    }

    #[test]
    fn a_partial_braid_removes_its_share_and_no_braid_changes_nothing() {
        let lat = Lattice::new(12, 12, None);
        for seed in 0..20 {
            let mut tree = tree_of(&lat, seed);
            let before = dead_ends(&lat, &tree);
            let untouched = tree.clone();
            let none = braid(
                &lat,
                &mut tree,
                0.0,
                &mut WarrenRng::new(seed),
                &mut Vec::new(),
            );
            assert_eq!((none, &tree), (Braided::default(), &untouched));
            let done = braid(
                &lat,
                &mut tree,
                0.5,
                &mut WarrenRng::new(seed),
                &mut Vec::new(),
            );
            let goal = target(0.5, before);
            // The last opening may remove two dead ends.
            assert!(
                done.removed == goal || done.removed == goal + 1,
                "{done:?} of {before}"
            );
            assert_eq!(dead_ends(&lat, &tree), before - done.removed);
        }
    }

    #[test]
    fn nth_set_bit_walks_the_set_bits() {
        assert_eq!(nth_set_bit(0b1011_0100, 0), 2);
        assert_eq!(nth_set_bit(0b1011_0100, 1), 4);
        assert_eq!(nth_set_bit(0b1011_0100, 3), 7);
    }
}
