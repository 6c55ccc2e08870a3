//! Graph-grammar levels (seed 000): a tagged graph grown by context-sensitive rewriting rules,
//! drawn by the force solver after every rewrite, and given rooms that never overlap.
//!
//! - [`rule`]: the rule model (patterns, substitutes, tag sets, blocked neighbours, `lock`,
//!   edge kinds, the map) and its validation;
//! - [`matcher`]: subgraph matching without mirrored matches, and rewriting;
//! - [`mod@build`]: the build loop, the layout after each rewrite and the room placement;
//! - [`host`]: the graph being rewritten;
//! - [`tilemap`]: the level's tile map (rooms, walls, doors, corridors) and
//!   [`tilemap::verify`], its independent check;
//! - `mapped`: the level's map drawn by the map builder ([`crate::floorplan`]) instead;
//! - [`config`]: the profile section;
//! - `metrics`: what a level measures ([`GrammarMetrics`]);
//! - `generate`: the generator ([`GrammarGenerator`]);
//! - `verify`: re-checks a stored level.
//!
//! A level is stored as its tile map (`grid`: 0 wall, 1 floor, 2 door), its graph (positions,
//! tags, edges with the cosmetic and subdivide flags), one integer room rectangle per vertex (in
//! grid coordinates: the room's floor, its wall ring around it), the rule-use counts and the
//! metrics below.
//! Times are not stored (they would make two runs of the same seeds differ); `warren bench`
//! reports them.

pub mod build;
pub mod config;
pub mod format;
mod generate;
pub mod host;
pub mod library;
pub mod lua;
mod mapped;
pub mod matcher;
mod metrics;
pub mod rule;
pub mod tilemap;
mod verify;

pub use config::GrammarConfig;
pub use generate::{GrammarGenerator, GrammarScratch, GrammarSetupError, MAP_SPREAD, MAP_SPREADS};
pub use metrics::{GRAMMAR_METRICS, GrammarMetrics, MAX_CORRIDOR_SPREAD, overlapping_rooms};
