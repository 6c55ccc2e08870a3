//! [`REGION_COLUMNS`]: the extra columns of a regions level (the region tree as lists, the
//! largest-child raster and the root grid), in the order the generator stores them.

use crate::core::generator::{ExtraKind, ExtraSpec};

/// The extra columns: the region tree, one list entry per region in depth-first order, and the
/// raster.
pub const REGION_COLUMNS: [ExtraSpec; 10] = [
    ExtraSpec::new(
        "region_parent",
        ExtraKind::ListU32,
        "tree index of each region's parent (4294967295 for the root); parents come first",
    ),
    ExtraSpec::new(
        "region_depth",
        ExtraKind::ListU8,
        "depth of each region, 0 for the root",
    ),
    ExtraSpec::new(
        "region_x0",
        ExtraKind::ListU16,
        "left of each region's box, in parent cells",
    ),
    ExtraSpec::new(
        "region_y0",
        ExtraKind::ListU16,
        "top of each region's box, in parent cells",
    ),
    ExtraSpec::new(
        "region_x1",
        ExtraKind::ListU16,
        "right of each region's box (exclusive), in parent cells",
    ),
    ExtraSpec::new(
        "region_y1",
        ExtraKind::ListU16,
        "bottom of each region's box (exclusive), in parent cells",
    ),
    ExtraSpec::new(
        "region_zoom",
        ExtraKind::ListU8,
        "subcells per parent cell along each axis (1 for the root)",
    ),
    ExtraSpec::new(
        "region_cells",
        ExtraKind::ListU32,
        "cells of each region (its Occupied cells when made, in its own zoom)",
    ),
    ExtraSpec::new(
        "raster",
        ExtraKind::Binary,
        "max_width x max_height cell codes, row-major: the deepest region on the largest-child path, at the top left, void around it",
    ),
    ExtraSpec::new(
        "root_grid",
        ExtraKind::Binary,
        "width x height cell codes of the root region alone, row-major (Occupied 0, carved 1, Filled 7)",
    ),
];
