//! [`DmgConfig`]: the `[dmg]` profile section (map size, budgets, chamber placement weights,
//! table overrides, join chance) and its range checks.

use serde::{Deserialize, Serialize};

use crate::core::error::ConfigError;
use crate::core::error::check;

/// The `[dmg]` profile section.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DmgConfig {
    /// Squares across (5 ft each).
    pub width: u32,
    /// Squares down.
    pub height: u32,
    /// Stop opening new exits once this share of the map is floor.
    pub max_floor: f64,
    /// Stop after exploring this many exits.
    pub max_objects: u32,
    /// Chamber placement: weight of the area in a proposal's score.
    pub area_weight: f64,
    /// Chamber placement: weight of the alignment points.
    pub align_weight: f64,
    /// Chamber placement: 0 takes the best proposal; above 0 less optimal ones are drawn at
    /// random.
    pub temperature: f64,
    /// Chamber placement: shrink a proposal past an obstacle instead of abandoning it.
    pub shrink: bool,
    /// A folder whose `<table>.toml` files replace the built-in tables (empty: built-in).
    pub tables: String,
    /// Chance that a passage, or the passage behind a door, that would stop one or two rock
    /// rows short of floor opens into it instead (a loop in the dungeon), `[0, 1]`; 0 keeps
    /// seed 003's trees.
    pub join_chance: f64,
}

impl Default for DmgConfig {
    fn default() -> Self {
        Self {
            width: 100,
            height: 100,
            max_floor: 0.4,
            max_objects: 400,
            area_weight: 1.0,
            align_weight: 0.25,
            temperature: 0.0,
            shrink: true,
            tables: String::new(),
            join_chance: 1.0,
        }
    }
}

impl DmgConfig {
    /// Checks value ranges; the error names the key.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check((16..=4096).contains(&self.width), "dmg.width", || {
            format!("= {} is out of range 16..=4096", self.width)
        })?;
        check((16..=4096).contains(&self.height), "dmg.height", || {
            format!("= {} is out of range 16..=4096", self.height)
        })?;
        check(
            self.max_floor > 0.0 && self.max_floor <= 1.0,
            "dmg.max_floor",
            || format!("= {} is out of range (0, 1]", self.max_floor),
        )?;
        check(self.max_objects >= 1, "dmg.max_objects", || {
            "must be at least 1".into()
        })?;
        for (v, key) in [
            (self.area_weight, "dmg.area_weight"),
            (self.align_weight, "dmg.align_weight"),
            (self.temperature, "dmg.temperature"),
        ] {
            check(v.is_finite() && v >= 0.0, key, || {
                format!("= {v} must be a finite number >= 0")
            })?;
        }
        check(
            (0.0..=1.0).contains(&self.join_chance),
            "dmg.join_chance",
            || format!("= {} is out of range 0..=1", self.join_chance),
        )?;
        Ok(())
    }
}
