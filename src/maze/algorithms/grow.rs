//! [`grow_tree`]: the spanning tree of a physical graph by the algorithm the profile names.

use crate::core::rng::WarrenRng;
use crate::maze::algorithms::algorithm::{AlgoParams, Algorithm};
use crate::maze::algorithms::graph::{
    aldous_broder, dfs, growing_tree, hunt_and_kill, kruskal, prim_simplified, wilson,
};
use crate::maze::algorithms::lattice::{binary_tree, eller, recursive_division, sidewinder};
use crate::maze::algorithms::prim::prim;
use crate::maze::algorithms::scratch::AlgoScratch;
use crate::maze::spanning::Tree;
use crate::maze::topology::{Link, Topology};

/// Grows the spanning tree of `topo` (`rooms` rooms, connected) with `algorithm` into `tree`.
/// `all_links` lists every physical edge when the caller has it. Returns the passages opened.
///
/// # Panics
/// For [`Algorithm::Seed001`] (the caller's weighted Kruskal draws it).
#[allow(clippy::too_many_arguments)]
pub fn grow_tree<T: Topology>(
    algorithm: Algorithm,
    topo: &T,
    all_links: Option<&[Link]>,
    rooms: usize,
    p: AlgoParams,
    rng: &mut WarrenRng,
    s: &mut AlgoScratch,
    tree: &mut Tree,
) -> usize {
    let n = topo.slot_count();
    tree.reset(n, topo.edge_slots());
    s.visited.clear();
    s.visited.resize(n, false);
    s.avail.clear();
    s.avail.extend((0..n as u32).map(|v| {
        if topo.is_room(v) {
            topo.physical_mask(v)
        } else {
            0
        }
    }));
    // The spare entry `visit` writes a missing neighbour's update to.
    s.avail.push(0);
    if rooms == 0 {
        return 0;
    }
    match algorithm {
        Algorithm::Seed001 => unreachable!("seed 001's Kruskal is the caller's"),
        Algorithm::Dfs => dfs(topo, rng, s, tree),
        Algorithm::Wilson => wilson(topo, rooms, rng, s, tree),
        Algorithm::AldousBroder => aldous_broder(topo, rooms, rng, s, tree),
        Algorithm::Kruskal => kruskal(topo, all_links, rooms, rng, s, tree),
        Algorithm::Prim => prim(topo, rooms, rng, s, tree),
        Algorithm::PrimSimplified => prim_simplified(topo, rng, s, tree),
        Algorithm::HuntAndKill => hunt_and_kill(topo, rng, s, tree),
        Algorithm::GrowingTree => growing_tree(topo, rooms, p.newest, rng, s, tree),
        Algorithm::Eller => eller(topo, p, rng, s, tree),
        Algorithm::Sidewinder => sidewinder(topo, p, rng, tree),
        Algorithm::BinaryTree => binary_tree(topo, p, rng, tree),
        Algorithm::RecursiveDivision => recursive_division(topo, p, rng, s, tree),
    }
}
