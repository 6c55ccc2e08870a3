//! DMG dungeons (seed 003): passages and chambers drawn by cursors on a grid of 5-ft squares,
//! chambers placed by the seed's clearance-and-proposal algorithm.
//!
//! - [`canvas`]: the grid, and the cursor (position, facing, object-to-map offset) that draws;
//! - [`chamber`]: placing a chamber at the end of a passage;
//! - [`tables`]: the random tables, as validated data files;
//! - [`dungeon`]: the macro loop (start area, exits explored breadth-first);
//! - `config`: the `[dmg]` profile section;
//! - `metrics`: what a dungeon measures;
//! - `generate`: the generator kind;
//! - `verify`: re-checking a stored dungeon from its columns.
//!
//! A level is stored as its grid (cell codes of DESIGN.md), its objects as a graph (a vertex per
//! passage stretch or chamber at the centre of its box, tag 0 passage, 1 chamber; an edge per
//! connection, with [`dungeon::DOOR_FLAG`] and the door kind in bits 4 to 6 where it is a
//! door), the objects' boxes as room rectangles, and the metrics below.

pub mod canvas;
pub mod chamber;
mod config;
pub mod dungeon;
mod generate;
mod metrics;
pub mod tables;
mod verify;

pub use config::DmgConfig;
pub use generate::{DmgGenerator, DmgScratch, DmgSetupError};
pub use metrics::{DMG_METRICS, DmgMetrics};
