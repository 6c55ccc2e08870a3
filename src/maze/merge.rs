//! Seed 001's dead-end merging, exactly as the seed states it.
//!
//! A dead end (logical degree 1) whose one neighbour is a crossroad (degree >= 3), and which is
//! physically adjacent to another dead end, is disconnected from the crossroad and connected to
//! that dead end. The tree stays a spanning tree (a leaf is detached and re-attached), the other
//! dead end becomes a corridor room, the crossroad loses one passage, so every merge removes
//! exactly one dead end and the process terminates. The seed repeats passes until nothing merges;
//! one pass over the rooms in id order reaches that same fixpoint (see [`merge_dead_ends`]).
//! Within a room, the first adjacent dead end in slot order is taken.

use crate::maze::spanning::Tree;
use crate::maze::topology::{Link, Topology};

/// If dead end `v` hangs off a crossroad and touches another dead end, returns the passage to
/// close (toward the crossroad) and the one to open (toward the other dead end).
#[inline]
fn merge_candidate<T: Topology>(topo: &T, tree: &Tree, v: u32) -> Option<(Link, Link)> {
    let mask = tree.mask[v as usize];
    if mask.count_ones() != 1 {
        return None;
    }
    let k = mask.trailing_zeros();
    if tree.degree(topo.neighbour_room(v, k)) < 3 {
        return None;
    }
    let mut others = topo.physical_mask(v) & !mask;
    while others != 0 {
        let j = others.trailing_zeros();
        others &= others - 1;
        if tree.degree(topo.neighbour_room(v, j)) == 1 {
            return Some((Tree::link(topo, v, k), Tree::link(topo, v, j)));
        }
    }
    None
}

/// Merges dead ends until none can merge. Returns the number of merges performed.
///
/// One pass reaches the fixpoint the seed's repeated passes reach, because the merge condition
/// is monotone: a merge never creates a dead end (the merged room stays one, its partner stops
/// being one), never raises a crossroad's degree, and leaves the moved dead end hanging off a
/// corridor room. So a room that cannot merge now can never merge later, and a second pass would
/// find nothing; `debug_assert` and `verify` both check it.
///
/// `dead_ends` is scratch space.
///
/// # Runtime
/// O(V), one pass over the rooms; no allocation after warm-up.
pub fn merge_dead_ends<T: Topology>(topo: &T, tree: &mut Tree, dead_ends: &mut Vec<u32>) -> u32 {
    // PERF: list the dead ends first with branch-free appends (a dead end is a coin flip for
    // the branch predictor), then run the full test on them only. The dead-end set only
    // shrinks during merging, so the list covers every room that can merge.
    let n = topo.slot_count();
    dead_ends.clear();
    dead_ends.resize(n + 1, 0);
    let mut len = 0;
    for (v, mask) in tree.mask.iter().enumerate() {
        dead_ends[len] = v as u32;
        len += usize::from(mask.count_ones() == 1);
    }
    dead_ends.truncate(len);
    let mut merges = 0;
    for &v in dead_ends.iter() {
        if let Some((away, toward)) = merge_candidate(topo, tree, v) {
            tree.close(away);
            tree.open(toward);
            merges += 1;
        }
    }
    debug_assert_eq!(
        mergeable_dead_ends(topo, tree),
        0,
        "one pass must reach the fixpoint"
    );
    merges
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
            let k = (0..4)
                .find(|&k| lat.physical_mask(a) & (1 << k) != 0 && lat.neighbour_room(a, k) == b);
            tree.open(Tree::link(lat, a, k.expect("a lattice edge")));
        }
        tree
    }

    #[test]
    fn merges_a_dead_end_off_a_crossroad_into_its_dead_end_neighbour() {
        // 3x2 lattice:  0 1 2
        //               3 4 5
        // Tree: 1 is a crossroad joining 0, 2 and 4; 4 joins 3; 4 joins 5.
        // Dead ends: 0 (off crossroad 1, physically next to dead end 3), 2, 3, 5.
        let lat = Lattice::new(3, 2, None);
        let mut tree = tree_of(&lat, &[(0, 1), (1, 2), (1, 4), (4, 3), (4, 5)]);
        let dead = |t: &Tree| t.mask.iter().filter(|m| m.count_ones() == 1).count();
        let dead_before = dead(&tree);
        let merges = merge_dead_ends(&lat, &mut tree, &mut Vec::new());
        let dead_after = dead(&tree);
        assert!(merges >= 1);
        assert_eq!(dead_before - dead_after, merges as usize);
        assert_eq!(tree.passage.iter().filter(|&&p| p == 1).count(), 5);
        assert_eq!(mergeable_dead_ends(&lat, &tree), 0);
    }

    #[test]
    fn a_dead_end_off_a_corridor_is_left_alone() {
        // 0-1-2 path with 3 below 0 joined to 0: 1 has degree 2, so 2 must not move.
        let lat = Lattice::new(3, 2, None);
        let mut tree = tree_of(&lat, &[(3, 0), (0, 1), (1, 2), (2, 5), (5, 4)]);
        let before = tree.clone();
        assert_eq!(merge_dead_ends(&lat, &mut tree, &mut Vec::new()), 0);
        assert_eq!(tree, before);
    }
}
