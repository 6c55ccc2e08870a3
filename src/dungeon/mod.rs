//! DMG dungeons (seed 003): passages and chambers drawn by cursors on a grid of 5-ft squares,
//! chambers placed by the seed's clearance-and-proposal algorithm.
//!
//! - [`map`]: the grid, and the cursor (position, facing, object-to-map offset) that draws;
//! - [`chamber`]: placing a chamber at the end of a passage;
//! - [`tables`]: the random tables, as validated data files.

pub mod chamber;
pub mod map;
pub mod tables;
