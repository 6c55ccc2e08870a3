//! Maps from a designer's level graph (kind `map`): room templates placed so that no two rooms
//! overlap and every connection becomes a door where two rooms touch, or a short corridor
//! between them.
//!
//! - [`spec`]: the inputs (templates, libraries, level graphs), independent of files;
//! - [`shape`]: templates under transforms, in lattice coordinates;
//! - [`input`]: the JSON files (level graph, template library) and the built-in library;

pub mod build;
pub mod input;
mod json;
pub mod raster;
pub mod shape;
pub mod spec;

#[cfg(test)]
mod build_tests;
pub mod generator;
mod verify;

pub use generator::{CorridorMode, MapConfig, MapGenerator, MapSetupError};
