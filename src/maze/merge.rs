//! Seed 001's dead-end merging, exactly as the seed states it.
//!
//! A dead end (logical degree 1) whose one neighbour is a crossroad (degree >= 3), and which is
//! physically adjacent to another dead end, is disconnected from the crossroad and connected to
//! that dead end. The tree stays a spanning tree (a leaf is detached and re-attached), the other
//! dead end becomes a corridor room, the crossroad loses one passage, so every merge removes
//! exactly one dead end and the process terminates. Passes over the rooms in id order repeat until
//! one pass merges nothing; within a room, the first adjacent dead end in neighbour order is taken.

use crate::core::graph::NONE;
use crate::maze::spanning::Tree;
use crate::maze::topology::Topology;

/// The one passage of dead end `v`: `(neighbour, edge)`.
#[inline]
fn only_passage<T: Topology>(topo: &T, tree: &Tree, v: u32) -> (u32, u32) {
    let mut found = (NONE, NONE);
    tree.for_each_passage(topo, v, |n, e| found = (n, e));
    found
}

/// If dead end `v` hangs off a crossroad and touches another dead end, returns
/// `(crossroad, passage edge, other dead end, edge to it)`.
#[inline]
fn merge_candidate<T: Topology>(topo: &T, tree: &Tree, v: u32) -> Option<(u32, u32, u32, u32)> {
    if tree.degree[v as usize] != 1 {
        return None;
    }
    let (crossroad, passage) = only_passage(topo, tree, v);
    if tree.degree[crossroad as usize] < 3 {
        return None;
    }
    let mut partner = None;
    topo.for_each_neighbour(v, |n, e| {
        if partner.is_none() && n != crossroad && tree.degree[n as usize] == 1 {
            partner = Some((n, e));
        }
    });
    partner.map(|(n, e)| (crossroad, passage, n, e))
}

/// Merges dead ends until none can merge. Returns the number of merges performed.
///
/// # Runtime
/// O(passes * V); each pass touches every room once, and the number of merges is bounded by the
/// number of dead ends. No allocation.
pub fn merge_dead_ends<T: Topology>(topo: &T, tree: &mut Tree) -> u32 {
    let mut merges = 0;
    loop {
        let mut merged_this_pass = 0;
        for v in 0..topo.slot_count() as u32 {
            if let Some((crossroad, passage, other, link)) = merge_candidate(topo, tree, v) {
                tree.passage[passage as usize] = 0;
                tree.passage[link as usize] = 1;
                tree.degree[crossroad as usize] -= 1;
                tree.degree[other as usize] += 1;
                merged_this_pass += 1;
            }
        }
        merges += merged_this_pass;
        if merged_this_pass == 0 {
            return merges;
        }
    }
}

/// Number of dead ends that could still merge (0 at the merge fixpoint); `verify` checks it.
pub fn mergeable_dead_ends<T: Topology>(topo: &T, tree: &Tree) -> u32 {
    (0..topo.slot_count() as u32)
        .filter(|&v| merge_candidate(topo, tree, v).is_some())
        .count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maze::topology::Lattice;

    /// Opens the given lattice edges (by endpoints) in a fresh tree.
    fn tree_of(lat: &Lattice, pairs: &[(u32, u32)]) -> Tree {
        let mut tree = Tree::default();
        tree.reset(lat.slot_count(), lat.edge_slots());
        for &(a, b) in pairs {
            let mut edge = NONE;
            lat.for_each_neighbour(a, |n, e| {
                if n == b {
                    edge = e;
                }
            });
            assert_ne!(edge, NONE, "{a}-{b} is not a lattice edge");
            tree.open(edge, a, b);
        }
        tree
    }

    #[test]
    fn merges_a_dead_end_off_a_crossroad_into_its_dead_end_neighbour() {
        // 3x2 lattice:  0 1 2
        //               3 4 5
        // Tree: 1 is a crossroad joining 0, 2 and 4; 4 joins 3; 4 joins 5.
        // Dead ends: 0 (off crossroad 1, physically next to dead end 3), 2, 3, 5.
        let lat = Lattice {
            width: 3,
            height: 2,
            present: None,
        };
        let mut tree = tree_of(&lat, &[(0, 1), (1, 2), (1, 4), (4, 3), (4, 5)]);
        let dead_before = tree.degree.iter().filter(|&&d| d == 1).count();
        let merges = merge_dead_ends(&lat, &mut tree);
        let dead_after = tree.degree.iter().filter(|&&d| d == 1).count();
        assert!(merges >= 1);
        assert_eq!(dead_before - dead_after, merges as usize);
        assert_eq!(tree.passage.iter().filter(|&&p| p == 1).count(), 5);
        assert_eq!(mergeable_dead_ends(&lat, &tree), 0);
    }

    #[test]
    fn a_dead_end_off_a_corridor_is_left_alone() {
        // 0-1-2 path with 3 below 0 joined to 0: 1 has degree 2, so 2 must not move.
        let lat = Lattice {
            width: 3,
            height: 2,
            present: None,
        };
        let mut tree = tree_of(&lat, &[(3, 0), (0, 1), (1, 2), (2, 5), (5, 4)]);
        let before = tree.clone();
        assert_eq!(merge_dead_ends(&lat, &mut tree), 0);
        assert_eq!(tree, before);
    }
}
