//! Which spanning-tree algorithm `maze.algorithm` names ([`Algorithm`]), and the settings the
//! algorithms read from the profile ([`AlgoParams`]).

use serde::{Deserialize, Serialize};

/// How the spanning tree is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Algorithm {
    /// Seed 001's: Kruskal over the edges in the order `maze.weighting` gives them.
    #[default]
    Seed001,
    /// Recursive backtracker (depth-first search): long corridors, few dead ends.
    Dfs,
    /// Wilson's loop-erased random walks: uniform over all spanning trees.
    Wilson,
    /// Aldous-Broder's random walk: uniform over all spanning trees.
    AldousBroder,
    /// Kruskal over a uniformly shuffled edge order.
    Kruskal,
    /// "True Prim": random room costs, the cheapest room in the maze grows.
    Prim,
    /// A random frontier room joined to a random neighbour already in the maze.
    PrimSimplified,
    /// Eller's row-by-row sets (lattice).
    Eller,
    /// Random walks to a dead end, then a hunt (in room order) for the next start.
    HuntAndKill,
    /// Runs along each row, each closed by one passage north (lattice).
    Sidewinder,
    /// North or west from every room (lattice).
    BinaryTree,
    /// Walls added to an open area, each with one gap, recursively (lattice).
    RecursiveDivision,
    /// An active list: the newest room with probability `maze.growing_tree_newest`, else a
    /// random one, grows by a random unvisited neighbour.
    GrowingTree,
}

impl Algorithm {
    /// Every algorithm, in the order the docs list them.
    pub const ALL: [Algorithm; 13] = [
        Algorithm::Seed001,
        Algorithm::Dfs,
        Algorithm::Wilson,
        Algorithm::AldousBroder,
        Algorithm::Kruskal,
        Algorithm::Prim,
        Algorithm::PrimSimplified,
        Algorithm::Eller,
        Algorithm::HuntAndKill,
        Algorithm::Sidewinder,
        Algorithm::BinaryTree,
        Algorithm::RecursiveDivision,
        Algorithm::GrowingTree,
    ];

    /// Whether it needs a lattice without holes (it works row by row or by walls).
    pub fn lattice_only(self) -> bool {
        matches!(
            self,
            Algorithm::Eller
                | Algorithm::Sidewinder
                | Algorithm::BinaryTree
                | Algorithm::RecursiveDivision
        )
    }

    /// The name profiles use.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Seed001 => "seed001",
            Algorithm::Dfs => "dfs",
            Algorithm::Wilson => "wilson",
            Algorithm::AldousBroder => "aldous-broder",
            Algorithm::Kruskal => "kruskal",
            Algorithm::Prim => "prim",
            Algorithm::PrimSimplified => "prim-simplified",
            Algorithm::Eller => "eller",
            Algorithm::HuntAndKill => "hunt-and-kill",
            Algorithm::Sidewinder => "sidewinder",
            Algorithm::BinaryTree => "binary-tree",
            Algorithm::RecursiveDivision => "recursive-division",
            Algorithm::GrowingTree => "growing-tree",
        }
    }
}

/// Settings the algorithms read.
#[derive(Clone, Copy, Debug)]
pub struct AlgoParams {
    /// Lattice columns and rows (lattice algorithms only).
    pub width: u32,
    /// See `width`.
    pub height: u32,
    /// `growing-tree`: share of newest-room picks.
    pub newest: f64,
}
