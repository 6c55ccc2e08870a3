//! Puzzle levels for GraphColoring (seed 002), generated as pure functions of (config, seed),
//! each with a proof that it can be solved.
//!
//! Seed 002 describes the level format, not a generator; the generator follows the game's own
//! categories (the corpus `level-list.xml`):
//!
//! - **vertex** ("Vertex Colorings"): a planar graph whose vertices all start in a gray that the
//!   rules forbid (`<vertex-maximum color="gray" max="0"/>`), k colors and the rule
//!   `<edge-rule v1="same" v2="same"/>`: the player must recolor every vertex validly. Vertices
//!   may not be added, deleted or joined, edges not added, deleted or recolored. Optional clues
//!   are vertices given in their solution color with the color protected. Proof: the exact
//!   DSATUR solver ([`dsatur`]) finds a k-coloring respecting the clues; with `chromatic`, it
//!   also refutes every (k-1)-coloring, so the chromatic number is exactly k.
//! - **edge** ("Edge Colorings"): the vertices carry fixed colors, every edge starts gray and
//!   must take a color unlike both its ends (`<edge-rule v1="same" edge="same"/>`, both
//!   directions), with exactly `q_c` edges of each color c (`<edge-minimum>` per color, gray
//!   forbidden). Proof: the quotas are read off a planted solution; a backtracking solver also
//!   solves it from scratch to measure difficulty.
//! - **euler_cycle** / **euler_path** ("Eulerian Cycles & Paths"): a connected planar graph
//!   with every degree even (or exactly two odd), all protected, scored by
//!   `<cycle>`/`<path>` with one point per edge and the objective `E`. Proof: Hierholzer's walk.
//!
//! Every puzzle's stored solution is checked by the module's own evaluator on the level's own
//! XML (parsed back): [`check_solution`]; the `coloring` generator kind's `verify` runs
//! [`check_played`] on the level it reads from an archive.

mod build;
mod check;
pub mod dsatur;
mod edge;
mod euler;
mod level_doc;
pub mod planar;
mod solved;
mod vertex;

pub use crate::coloring::config::{ColoringConfig, PuzzleKind};
pub use build::build_puzzle;
pub use check::{PuzzleItem, SolutionError, apply_solution, check_played, check_solution};
pub use dsatur::{ColoringSolver, Outcome, SearchStep, is_proper};
pub use edge::solve_edges;
pub use level_doc::level_palette;
pub use planar::{PlanarGraph, PlanarScratch};
pub use solved::{Puzzle, PuzzleMetrics, PuzzleScratch, Solution};

pub(crate) use level_doc::start_colors;

#[cfg(test)]
mod tests;
