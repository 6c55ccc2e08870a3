//! Recursive zoom regions (seed 004): a level is a root region of cells that is carved (a path
//! from entry to exit, with branches), split into connected sub-regions, each zoomed by its own
//! factor Z and processed the same way, down to a target depth.
//!
//! - [`cell`]: the four cell states and their legend codes;
//! - [`region`]: a region (cells padded in a rectangle, box in its parent, depth, zoom, parent,
//!   entry and exit);
//! - [`carve`]: the path and branches;
//! - [`split`]: components, division of those too large for their zoom, ports, zooming;
//! - [`overlap`]: sibling bounding-box overlap, the seed's open question;
//! - [`cache`] and [`stack`]: the RegionCache pool and the RegionStack of ancestors;
//! - [`build`]: one level, depth first; [`generator`] and [`verify`]: the generator kind.
//!
//! A level is stored as the root's grid (Occupied -> 0, carved -> 1, Filled -> 7), the region
//! tree as list columns (one entry per region, depth first, parents before children) and a
//! fixed-size **raster** for dataset users. The raster is Wmax x Hmax codes holding the region
//! at the end of the *largest-child path* (from the root, always into the sub-region with the
//! most cells, first of equals, until a region has none) at its top left, void (8) around it.
//! Why: every region fits Wmax x Hmax by construction, so the finest level actually generated
//! fits a fixed window without scaling or cropping; the largest child carries the most
//! structure; and the choice is a pure function of the tree, so it is reproducible from the
//! stored columns. Its depth is the `raster_depth` metric.

pub mod build;
pub mod cache;
pub mod carve;
pub mod cell;
pub mod config;
pub mod generator;
pub mod overlap;
#[allow(clippy::module_inception)]
pub mod region;
pub mod split;
pub mod stack;
pub mod verify;

pub use cache::RegionCache;
pub use cell::Cell;
pub use config::RegionsConfig;
pub use generator::{REGION_COLUMNS, REGION_METRICS, RegionScratch, RegionsGenerator};
pub use overlap::{Overlap, sibling_overlap};
pub use region::{NONE, Point, Region, RegionBox};
pub use stack::{Frame, RegionStack};
