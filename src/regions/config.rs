//! The `[regions]` profile section (seed 004's parameters: Wmax x Hmax, the zoom range, the
//! target depth) with range checks that name the key.

use serde::{Deserialize, Serialize};

use crate::core::error::ConfigError;
use crate::core::error::check;
use crate::regions::build::MAX_DEPTH;
use crate::regions::world::{MAX_WORLD_CELLS, scale};

/// The `[regions]` profile section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RegionsConfig {
    /// Root region columns (the top-level grid), at most `max_width`.
    pub width: u32,
    /// Root region rows, at most `max_height`.
    pub height: u32,
    /// Wmax: the widest region array, in cells.
    pub max_width: u32,
    /// Hmax: the tallest region array.
    pub max_height: u32,
    /// Smallest zoom Z of a sub-region.
    pub min_zoom: u32,
    /// Largest zoom Z of a sub-region (each draws its own in the range).
    pub max_zoom: u32,
    /// Zoom levels below the root (1 to 4).
    pub depth: u32,
    /// The world raster (the `grid` column) composites regions down to this depth (0 to 4; a
    /// value past `depth` draws every level), `max_zoom ^ world_depth` world cells per root
    /// cell, at most [`MAX_WORLD_CELLS`] cells in all.
    pub world_depth: u32,
    /// Chance that a step of a carved path goes aside instead of toward the exit.
    pub wander: f64,
    /// At most this many branches off each region's path.
    pub branches: u32,
    /// A branch is 1 to this many cells long.
    pub branch_length: u32,
    /// Chance that a one-cell sub-region is Filled instead.
    pub fill_chance: f64,
    /// A level with more regions than this fails (a guard on time and memory).
    pub max_regions: u32,
}

impl Default for RegionsConfig {
    fn default() -> Self {
        Self {
            width: 16,
            height: 16,
            max_width: 16,
            max_height: 16,
            min_zoom: 2,
            max_zoom: 4,
            depth: 2,
            world_depth: 2,
            wander: 0.3,
            branches: 2,
            branch_length: 4,
            fill_chance: 0.25,
            max_regions: 100_000,
        }
    }
}

impl RegionsConfig {
    /// The depth the world raster is composited to: `world_depth`, at most `depth`.
    pub fn effective_world_depth(&self) -> u32 {
        self.world_depth.min(self.depth)
    }

    /// World cells per root cell along each axis, `max_zoom ^ effective_world_depth` (valid
    /// configurations only).
    pub fn world_scale(&self) -> u32 {
        scale(self.max_zoom, self.effective_world_depth()) as u32
    }

    /// Checks value ranges; the error names the key.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.validate_sizes()?;
        self.validate_zoom()?;
        self.validate_world()?;
        self.validate_carving()
    }

    /// The array sizes: Wmax, Hmax and the root.
    fn validate_sizes(&self) -> Result<(), ConfigError> {
        check(
            (4..=128).contains(&self.max_width),
            "regions.max_width",
            || format!("= {} is out of range 4..=128", self.max_width),
        )?;
        check(
            (4..=128).contains(&self.max_height),
            "regions.max_height",
            || format!("= {} is out of range 4..=128", self.max_height),
        )?;
        check(
            (2..=self.max_width).contains(&self.width),
            "regions.width",
            || {
                format!(
                    "= {} is out of range 2..={} (max_width)",
                    self.width, self.max_width
                )
            },
        )?;
        check(
            (2..=self.max_height).contains(&self.height),
            "regions.height",
            || {
                format!(
                    "= {} is out of range 2..={} (max_height)",
                    self.height, self.max_height
                )
            },
        )?;
        Ok(())
    }

    /// The zoom range and the depth.
    fn validate_zoom(&self) -> Result<(), ConfigError> {
        let zoom_cap = self.max_width.min(self.max_height).min(16);
        check(
            (2..=zoom_cap).contains(&self.min_zoom),
            "regions.min_zoom",
            || format!("= {} is out of range 2..={zoom_cap}", self.min_zoom),
        )?;
        check(
            (self.min_zoom..=zoom_cap).contains(&self.max_zoom),
            "regions.max_zoom",
            || {
                format!(
                    "= {} is out of range {}..={zoom_cap}",
                    self.max_zoom, self.min_zoom
                )
            },
        )?;
        check(
            (1..=MAX_DEPTH).contains(&self.depth),
            "regions.depth",
            || format!("= {} is out of range 1..={MAX_DEPTH}", self.depth),
        )?;
        Ok(())
    }

    /// The world depth and the size bound of its raster.
    fn validate_world(&self) -> Result<(), ConfigError> {
        check(self.world_depth <= MAX_DEPTH, "regions.world_depth", || {
            format!("= {} is out of range 0..={MAX_DEPTH}", self.world_depth)
        })?;
        let s = scale(self.max_zoom, self.effective_world_depth());
        let (ww, wh) = (
            u64::from(self.width).saturating_mul(s),
            u64::from(self.height).saturating_mul(s),
        );
        check(
            ww.saturating_mul(wh) <= MAX_WORLD_CELLS,
            "regions.world_depth",
            || {
                format!(
                    "= {}: the world raster would be {ww} x {wh} cells ({} x {} root cells, \
                     {}^{} world cells per root side), more than the bound of {MAX_WORLD_CELLS}",
                    self.world_depth,
                    self.width,
                    self.height,
                    self.max_zoom,
                    self.effective_world_depth()
                )
            },
        )?;
        Ok(())
    }

    /// Carving, filling and the region budget.
    fn validate_carving(&self) -> Result<(), ConfigError> {
        for (v, key) in [
            (self.wander, "regions.wander"),
            (self.fill_chance, "regions.fill_chance"),
        ] {
            check((0.0..=1.0).contains(&v), key, || {
                format!("= {v} is out of range [0, 1]")
            })?;
        }
        check(self.branches <= 64, "regions.branches", || {
            format!("= {} is out of range 0..=64", self.branches)
        })?;
        check(
            (1..=256).contains(&self.branch_length),
            "regions.branch_length",
            || format!("= {} is out of range 1..=256", self.branch_length),
        )?;
        check(
            (1..=10_000_000).contains(&self.max_regions),
            "regions.max_regions",
            || format!("= {} is out of range 1..=10000000", self.max_regions),
        )?;
        // The cells a level may process are counted in a u32 metric.
        let most =
            u64::from(self.max_regions) * u64::from(self.max_width) * u64::from(self.max_height);
        check(most <= u64::from(u32::MAX), "regions.max_regions", || {
            format!(
                "= {}: with {} x {} regions a level could process {most} cells, more than \
                 4,294,967,295",
                self.max_regions, self.max_width, self.max_height
            )
        })?;
        Ok(())
    }
}
