//! Maps from a designer's level graph (kind `map`): room templates placed so that no two rooms
//! overlap and every connection becomes a door where two rooms touch, or a short corridor
//! between them (the job Edgar does).
//!
//! - [`spec`]: the inputs (templates, libraries, level graphs), independent of files;
//! - [`input`]: the JSON files (level graph, template library), built-in libraries and graphs;
//! - [`shape`]: templates under transforms, as polygons on the lattice of wall-tile centres;
//! - [`build`]: the builder (configuration spaces, chain order, bounded depth-first search
//!   steered by a force drawing);
//! - [`raster`]: a layout as tiles and the owner grid;
//! - [`generator`]: the kind (profile section, columns, metrics); `verify` re-checks a stored
//!   level.

pub mod build;
pub mod generator;
pub mod input;
mod json;
pub mod raster;
pub mod shape;
pub mod spec;
pub(crate) mod verify;

pub use generator::{CorridorMode, MapConfig, MapGenerator, MapSetupError};
