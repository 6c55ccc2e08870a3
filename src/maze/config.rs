//! The maze profile section (`[maze]` in `profiles/maze.toml`): every parameter with its default,
//! and the checks that turn a bad value into an error naming the key.

use serde::{Deserialize, Serialize};

use crate::core::error::{ConfigError, check};
pub use crate::maze::algorithms::Algorithm;

/// Which physical room graph the maze is cut from (seed 001's "physical graph").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Topology {
    /// A `width x height` lattice of square rooms, 4-connected.
    Lattice,
    /// `width x height` jittered points joined by their Delaunay triangulation; the Voronoi
    /// cells are the rooms and the dual edges of unused connections are the walls.
    Delaunay,
}

/// How spanning-tree edge weights are drawn (Kruskal takes the lightest edges first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Weighting {
    /// Independent uniform weights: a random spanning tree, seed 001's starting point.
    Random,
    /// Uniform weights plus `bias` on edges across `bias_axis`: less randomness, long runs along
    /// the preferred axis (the seed's "a little bit less randomness to the initial weights").
    Biased,
    /// A height map: weight from the edge midpoint's position (`gradient`), blended with `noise`.
    Gradient,
}

/// The preferred corridor direction of the `biased` weighting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Axis {
    /// Corridors run left-right.
    Horizontal,
    /// Corridors run up-down.
    Vertical,
}

/// The height map of the `gradient` weighting, over coordinates normalised to `[0, 1]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Gradient {
    /// Weight grows left to right.
    #[serde(rename = "x")]
    X,
    /// Weight grows top to bottom.
    #[serde(rename = "y")]
    Y,
    /// Weight grows toward the bottom-right corner.
    #[serde(rename = "x+y")]
    XPlusY,
    /// Weight grows toward the top-right corner.
    #[serde(rename = "x-y")]
    XMinusY,
    /// Weight grows with distance from `gradient_center`.
    #[serde(rename = "radial")]
    Radial,
}

/// Every maze parameter. Unknown keys are errors; missing keys take their defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MazeConfig {
    /// Physical graph kind.
    pub topology: Topology,
    /// Rooms across (lattice columns; Delaunay points per row).
    pub width: u32,
    /// Rooms down.
    pub height: u32,
    /// Lattice only: fraction of rooms removed as holes, `0 <= holes <= 0.5`; the remaining rooms
    /// always stay connected.
    pub holes: f64,
    /// Delaunay only: how far each point may move from its cell centre, in cell widths, `[0, 0.9]`.
    pub jitter: f64,
    /// Spanning-tree weighting.
    pub weighting: Weighting,
    /// `biased`: weight added to edges across the preferred axis, `>= 0`.
    pub bias: f64,
    /// `biased`: the preferred corridor direction.
    pub bias_axis: Axis,
    /// `gradient`: the height map.
    pub gradient: Gradient,
    /// `gradient`, `radial`: the centre in normalised coordinates.
    pub gradient_center: [f64; 2],
    /// `gradient`: share of uniform noise in the weight, `[0, 1]`.
    pub noise: f64,
    /// Seed 001's dead-end merging (on by default).
    pub merge_dead_ends: bool,
    /// Share of the dead ends braiding removes after merging, by opening a wall (Walter
    /// Pullen's braid maze: loops instead of dead ends), `[0, 1]`; 0 keeps the tree.
    pub braid: f64,
    /// The spanning-tree algorithm (`seed001`, the default, or one of `maze::Algorithm`'s).
    pub algorithm: Algorithm,
    /// `growing-tree`: share of picks that take the newest active room (1: the recursive
    /// backtracker; 0: a random active room, like simplified Prim), `[0, 1]`.
    pub growing_tree_newest: f64,
}

impl Default for MazeConfig {
    fn default() -> Self {
        Self {
            topology: Topology::Lattice,
            width: 32,
            height: 32,
            holes: 0.0,
            jitter: 0.6,
            weighting: Weighting::Random,
            bias: 0.3,
            bias_axis: Axis::Horizontal,
            gradient: Gradient::X,
            gradient_center: [0.5, 0.5],
            noise: 0.5,
            merge_dead_ends: true,
            braid: 0.0,
            algorithm: Algorithm::Seed001,
            growing_tree_newest: 0.5,
        }
    }
}

/// Largest side: the raster is `2 * side + 1` cells and grid sides are stored as `u16`.
pub const MAX_SIDE: u32 = 4096;

impl MazeConfig {
    /// Checks value ranges; the error names the key and the allowed range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        let side_ok = |v: u32| (1..=MAX_SIDE).contains(&v);
        check(side_ok(self.width), "maze.width", || {
            format!("= {} is out of range 1..={MAX_SIDE}", self.width)
        })?;
        check(side_ok(self.height), "maze.height", || {
            format!("= {} is out of range 1..={MAX_SIDE}", self.height)
        })?;
        check(
            u64::from(self.width) * u64::from(self.height) <= 1 << 22,
            "maze.width",
            || "x maze.height must be at most 4,194,304 rooms".into(),
        )?;
        check((0.0..=0.5).contains(&self.holes), "maze.holes", || {
            format!("= {} is out of range 0..=0.5", self.holes)
        })?;
        check(
            self.holes == 0.0 || self.topology == Topology::Lattice,
            "maze.holes",
            || "applies to topology = \"lattice\" only".into(),
        )?;
        check((0.0..=0.9).contains(&self.jitter), "maze.jitter", || {
            format!("= {} is out of range 0..=0.9", self.jitter)
        })?;
        check(
            self.bias >= 0.0 && self.bias.is_finite(),
            "maze.bias",
            || format!("= {} must be a finite number >= 0", self.bias),
        )?;
        check((0.0..=1.0).contains(&self.noise), "maze.noise", || {
            format!("= {} is out of range 0..=1", self.noise)
        })?;
        check((0.0..=1.0).contains(&self.braid), "maze.braid", || {
            format!("= {} is out of range 0..=1", self.braid)
        })?;
        check(
            (0.0..=1.0).contains(&self.growing_tree_newest),
            "maze.growing_tree_newest",
            || format!("= {} is out of range 0..=1", self.growing_tree_newest),
        )?;
        check(
            !self.algorithm.lattice_only()
                || (self.topology == Topology::Lattice && self.holes == 0.0),
            "maze.algorithm",
            || {
                format!(
                    "= \"{}\" works row by row on a lattice without holes (topology = \"lattice\", holes = 0)",
                    self.algorithm.name()
                )
            },
        )?;
        check(
            self.weighting == Weighting::Random || self.algorithm == Algorithm::Seed001,
            "maze.weighting",
            || {
                format!(
                    "applies to algorithm = \"seed001\" only (the edge order of its Kruskal); \"{}\" draws its own",
                    self.algorithm.name()
                )
            },
        )?;
        check(
            self.gradient_center.iter().all(|c| c.is_finite()),
            "maze.gradient_center",
            || "must hold two finite numbers".into(),
        )
    }

    /// Number of rooms before holes.
    pub fn room_slots(&self) -> usize {
        self.width as usize * self.height as usize
    }
}
