//! warren generates procedural game levels by the million.
//!
//! Every level is a pure function of (profile, master seed, index). Levels are generated across
//! all cores and streamed into Arrow IPC archives that Python and ML tooling read memory-mapped.
//! The generator families come from five design seeds; this crate implements:
//!
//! - [`MazeGenerator`]: spanning-tree mazes with dead-end merging (seed 001).
//!
//! The flat API: build a [`Profile`], run it with [`batch::run`] into an archive, read the archive
//! back with [`Archive`]. See `README.md` for the command line.

#![warn(missing_docs)]

pub mod archive;
pub mod batch;
pub mod cli;
pub mod core;
pub mod maze;
pub mod profile;
pub mod render;

pub use crate::core::error::{GenError, Violation};
pub use crate::core::generator::{
    Columns, Generator, GraphView, Level, LevelRecord, MetricKind, MetricSpec,
};
pub use crate::core::grid::{Grid, GridView, cell};
pub use crate::core::rng::{WarrenRng, mix};
pub use maze::{MazeConfig, MazeGenerator};
