//! The `coloring` generator kind (seed 002): new GraphColoring puzzles, each proven solvable,
//! stored in archives as the game's level XML with its solution, and re-checked from the
//! record alone.
//!
//! - `config`: [`ColoringConfig`], the `[coloring]` profile section;
//! - [`puzzle`]: vertex-coloring, edge-coloring and Eulerian puzzles on planar graphs, each
//!   with its proof;
//! - `metrics`: [`ColoringMetrics`], what each puzzle measures;
//! - `generate`: [`ColoringGenerator`], puzzles into archive columns;
//! - `verify`: the re-check of every stored level.
//!
//! The file format itself (reading, evaluating and writing level XML) is the library module
//! [`crate::levelxml`], which this kind uses and which has no knowledge of generation.

mod config;
mod generate;
mod metrics;
pub mod puzzle;
mod verify;

pub use config::ColoringConfig;
pub use generate::{COLORING_COLUMNS, ColoringGenerator, ColoringScratch, EULER_COLUMNS};
pub use metrics::{COLORING_METRICS, ColoringMetrics};
