//! warren generates procedural game levels by the million.
//!
//! Every level is a pure function of (profile, master seed, index). Levels are generated across
//! all cores and streamed into Arrow IPC archives that Python and ML tooling read memory-mapped.
//! The generator families come from five design seeds; this crate implements:
//!
//! - [`MazeGenerator`]: spanning-tree mazes with dead-end merging (seed 001);
//! - [`GrammarGenerator`]: graph-grammar levels grown by rewriting rules, drawn by the force
//!   solver with corridors that never cross, rooms that never overlap (seed 000);
//! - [`DmgGenerator`]: DMG-style dungeons of passages and chambers drawn by cursors on a grid,
//!   chambers placed by clearance proposals (seed 003);
//! - [`RegionsGenerator`]: recursive zoom regions carved, split and zoomed with a pooled
//!   [`RegionCache`] (seed 004);
//! - [`ColoringGenerator`]: GraphColoring puzzle levels (vertex and edge colorings, Eulerian
//!   cycles and paths on planar graphs), each proven solvable, stored with their level XML and
//!   solution (seed 002);
//! - [`MapGenerator`]: maps from a designer's level graph, room templates placed so that every
//!   connection is a door or a short corridor (Edgar's job).
//!
//! The flat API: a generator from its configuration, levels from seeds, and archives written with
//! [`batch::run`] and read back with [`archive::Archive`]; shards merged and archives split with
//! [`run::merge`] and [`run::split`]. See `docs/command-line.md` for the command line.
//!
//! ```
//! use warren::{Generator, MazeConfig, MazeGenerator, mix};
//!
//! let mazes = MazeGenerator::new(MazeConfig { width: 8, height: 8, ..Default::default() })?;
//! let mut scratch = mazes.new_scratch();
//! let level = mazes.generate(mix(42, 0), &mut scratch).expect("mazes never fail");
//! let grid = level.grid.expect("lattice mazes are grids");
//! assert_eq!((grid.width, grid.height), (17, 17));
//! // Metrics come in the order of `mazes.columns().metrics`: rooms first.
//! assert_eq!(level.metrics[0], 64.0);
//! # Ok::<(), warren::core::error::ConfigError>(())
//! ```

#![warn(missing_docs)]

/// The build: the commit and the CPU features the compiler assumed (from `build.rs`), as
/// `warren --version` prints it after the version and Python's `warren.__build__` holds it.
pub const BUILD: &str = env!("WARREN_BUILD");

/// `warren --version`'s line after the name: the version, then [`BUILD`] in parentheses.
pub const VERSION_LINE: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("WARREN_BUILD"), ")");

pub mod archive;
pub mod batch;
pub mod cli;
pub mod coloring;
pub mod core;
pub mod dmg;
pub mod export;
pub mod floorplan;
pub mod grammar;
pub mod layout;
pub mod levelxml;
pub mod map;
pub mod maze;
pub mod profile;
pub mod regions;
pub mod render;
pub mod run;
pub mod task;

pub use crate::core::canon::{CanonError, CanonScratch, Canonical, canonical_form, canonical_hash};
pub use crate::core::error::{GenError, Violation};
pub use crate::core::generator::{
    Columns, ExtraKind, ExtraSpec, ExtraValue, Generator, GraphView, Level, LevelRecord,
    MetricKind, MetricSpec, RoomsView,
};
pub use crate::core::grid::{Grid, GridView, cell};
pub use crate::core::rng::{WarrenRng, mix};
pub use coloring::{ColoringConfig, ColoringGenerator};
pub use dmg::{DmgConfig, DmgGenerator};
pub use grammar::{GrammarConfig, GrammarGenerator};
pub use levelxml::{LevelDoc, LevelList, evaluate, parse_level, read_level, write_level};
pub use map::{MapConfig, MapGenerator};
pub use maze::{MazeAlgorithm, MazeConfig, MazeGenerator};
pub use regions::{RegionCache, RegionStack, RegionsConfig, RegionsGenerator};
