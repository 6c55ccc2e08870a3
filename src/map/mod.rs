//! Maps from a designer's level graph (kind `map`): room templates placed so that no two rooms
//! overlap and every connection becomes a door where two rooms touch, or a short corridor
//! between them (the job Edgar does). The builder, its inputs and the tile checks are
//! [`crate::floorplan`]'s; this folder is the kind:
//!
//! - [`config`]: the profile section; [`graphs`]: `map.graph`, one level graph or several with
//!   weights;
//! - `corridors`: corridor templates, drawn through corridor rooms;
//! - [`columns`]: the extra columns (floor plan, door table, the designer's data);
//! - [`metrics`]: what a map measures, its start and goal;
//! - [`generate`]: the generator (its plan, columns and levels);
//! - [`variety`]: how different a run's maps are;
//! - `verify`: re-checks a stored level.

pub mod columns;
pub mod config;
mod corridors;
pub mod generate;
pub mod graphs;
pub mod metrics;
pub mod variety;
mod verify;

pub use config::{CorridorMode, MapConfig, RepeatMode};
pub use generate::{MapGenerator, MapScratch, MapSetupError, plan_for};
pub use graphs::{GraphList, WeightedGraph};
pub use metrics::{MAP_METRICS, MapMetrics};
