//! Recursive zoom regions (seed 004): a level is a root region of cells that is carved (a
//! passage from entry to exit through it, with branches), split into connected sub-regions, each
//! zoomed by its own factor Z and processed the same way, down to a target depth.
//!
//! - [`cell`]: the four cell states and their legend codes;
//! - [`region`]: a region (cells padded in a rectangle, box in its parent, depth, zoom, parent,
//!   entry, exit and further ports, world edges);
//! - [`carve`]: the passage, ports and branches;
//! - [`split`]: components, division of those too large for their zoom into pieces that are
//!   regions too, ports (on the parent's passage and between sibling pieces), zooming;
//! - [`world`]: the world raster, the level composited down to one depth at one resolution;
//! - [`overlap`]: sibling bounding-box overlap, the seed's open question;
//! - [`cache`] and [`stack`]: the RegionCache pool and the RegionStack of ancestors;
//! - [`build`]: one level's region tree, depth first ([`build_tree`](build::build_tree));
//!   [`config`], [`metrics`] and [`columns`]: the profile section, what a level measures and
//!   its extra columns; [`generate`] and [`verify`]: the generator kind.
//!
//! A level is stored as the **world raster** in the `grid` column (every region down to
//! `world_depth` painted at `max_zoom ^ world_depth` world cells per root cell: Occupied -> 0,
//! carved -> 1, Filled -> 7), the root's own grid (`root_grid`), the region tree as list
//! columns (one entry per region, depth first, parents before children) and a fixed-size
//! **raster** for dataset users. Every carved cell of the world is 4-connected to the root's
//! entry: a sub-region's ports lie on the sides of its cells that touch its parent's passage or
//! a sibling piece's port, and its own passage joins them all.
//!
//! The raster is Wmax x Hmax codes holding the region at the end of the *largest-child path*
//! (from the root, always into the sub-region with the most cells, first of equals, until a
//! region has none) at its top left, void (8) around it. Why: every region fits Wmax x Hmax by
//! construction, so the finest level actually generated fits a fixed window without scaling or
//! cropping; the largest child carries the most structure; and the choice is a pure function of
//! the tree, so it is reproducible from the stored columns. Its depth is the `raster_depth`
//! metric.

pub mod build;
pub mod cache;
pub mod carve;
pub mod cell;
pub mod columns;
pub mod config;
pub mod generate;
pub mod metrics;
pub mod overlap;
#[allow(clippy::module_inception)]
pub mod region;
pub mod split;
pub mod stack;
pub mod verify;
pub mod world;

pub use cache::RegionCache;
pub use cell::Cell;
pub use columns::REGION_COLUMNS;
pub use config::RegionsConfig;
pub use generate::{RegionScratch, RegionsGenerator};
pub use metrics::{REGION_METRICS, RegionMetrics};
pub use overlap::{Overlap, sibling_overlap};
pub use region::{NONE, Point, Region, RegionBox};
pub use stack::{Frame, RegionStack};
