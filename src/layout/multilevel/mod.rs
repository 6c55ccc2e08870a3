//! Multilevel layout for large graphs (seed 000's force drawing at scale, after Walshaw, Hu's
//! sfdp and Hachul and Jünger's FM³): single-level iterations cannot move a long chain far
//! enough in a few hundred steps, whatever their speed per step, so the graph is coarsened
//! level by level, the coarsest graph laid out, and each finer level placed from the coarser
//! one and refined with a few iterations.
//!
//! Three stages behind small traits, as OGDF's Modular Multilevel Mixer composes them (STYLE
//! 19): a [`Merger`] builds the next coarser level ([`coarsen::MatchingMerger`]), a [`Placer`]
//! puts a finer level's vertices from the coarser positions ([`place::NeighbourPlacer`]), and a
//! [`LevelLayout`] refines one level ([`refine::ForceRefiner`], Fruchterman-Reingold forces on a
//! Barnes-Hut quadtree). [`components`] lays out each connected component apart and packs them.
//! [`layout_multilevel`] is the preset: one of each.
//!
//! Deterministic: the same graph, parameters and seed give the same positions, bit for bit,
//! for any thread count and on every CPU (each stage is serial or sums in a fixed order).

pub mod coarsen;
pub mod coarsest;
pub mod components;
mod connected;
mod params;
pub mod place;
pub mod refine;
mod scratch;
mod stages;

pub use components::layout_multilevel;
pub use connected::layout_connected;
pub use params::{MultilevelParams, MultilevelReport, level_plan};
pub use scratch::RefineScratch;
pub use stages::{Level, LevelLayout, LevelPlan, LevelReport, Merger, Placement, Placer};

#[cfg(test)]
mod tests;
