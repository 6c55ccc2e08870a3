//! [`AlgoScratch`]: the memory every algorithm reuses from level to level.

use crate::core::sets::UnionFind;
use crate::maze::algorithms::walk::{Deep, Padded};
use crate::maze::topology::Link;

/// Reused memory of the algorithms.
#[derive(Default)]
pub struct AlgoScratch {
    /// Per slot: in the maze yet.
    pub(super) visited: Vec<bool>,
    /// Per slot: the slots of its neighbours not yet visited (see [`visit`](super::visit::visit)).
    pub(super) avail: Vec<u16>,
    pub(super) stack: Vec<u32>,
    /// Wilson: per slot, the slot its walk last left by.
    pub(super) via: Vec<u8>,
    pub(super) links: Vec<Link>,
    /// Prim: each room's cost, and its successor in its cost's stack.
    pub(super) cost: Vec<u8>,
    pub(super) via32: Vec<u32>,
    pub(super) uf: UnionFind,
    /// Eller: per set root, cells left in the row and whether one went down.
    pub(super) left: Vec<u32>,
    pub(super) down: Vec<bool>,
    pub(super) regions: Vec<[u32; 4]>,
    /// Growing-tree: the active rooms in the order they came.
    pub(super) recent: Vec<u32>,
    /// Wilson on a lattice without holes.
    pub(super) padded: Padded,
    /// Aldous-Broder on a lattice without holes.
    pub(super) deep: Deep,
}
