//! Floor plans from a level graph and room templates: room templates placed so that no two rooms
//! overlap and every connection becomes a door where two rooms touch, or a short corridor
//! between them (the job Edgar does). The `map` kind draws a designer's level graph with it, the
//! grammar kind the graphs its rules grow.
//!
//! - [`spec`]: the inputs (templates, libraries, level graphs), independent of files;
//! - [`input`]: the JSON files (level graph, template library), built-in libraries and graphs;
//! - [`shape`]: templates under transforms, as polygons on the lattice of wall-tile centres;
//! - [`build`]: the builder (configuration spaces, chain order, bounded depth-first search
//!   steered by a force drawing);
//! - [`raster`]: a layout as tiles and the owner grid;
//! - [`columns`]: how a floor plan is stored in a level (extra columns, corridor flag);
//! - [`constraints`]: locks and keys, and floor path bounds;
//! - [`frame`]: fixed rooms and masks (where a level lies in its grid);
//! - [`doors`]: the door table (every door, and the wall runs where doors could be and are not);
//! - `proofs`: proofs made up front that a graph cannot be laid out (a K5 or K3,3 subdivision,
//!   a room with more connections than its templates have room for doors);
//! - `cycles`: proofs made up front that a cycle of the graph can never close (steps that the
//!   doors fix up to a lattice, rectangles whose doors all face one quarter of the compass);
//! - `repeat`: repeat modes decided without a search (a counting proof that none can be kept,
//!   the check of a stored layout);
//! - `bounds`: the shapes that fit `map.bounds`, and a proof that the rooms cannot;
//! - `check`: the tile checks both kinds' `verify` run on a stored floor plan.

pub(crate) mod bounds;
pub mod build;
pub(crate) mod check;
pub mod columns;
pub mod constraints;
pub(crate) mod cycles;
pub mod doors;
pub mod frame;
pub mod input;
mod json;
pub(crate) mod proofs;
pub mod raster;
pub(crate) mod repeat;
pub mod shape;
pub mod spec;
