//! The grammar profile section (`[grammar]` in `profiles/grammar.toml`): the rule set and every
//! build, layout and room parameter, with the checks that turn a bad value into an error naming
//! the key.

use serde::{Deserialize, Serialize};

use crate::grammar::build::BuildParams;
use crate::layout::rooms::RoomParams;
use crate::layout::{LayoutParams, Repulsion, Spring};
use crate::maze::ConfigError;
use crate::maze::config::check;

/// Every grammar parameter. Unknown keys are errors; missing keys take their defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GrammarConfig {
    /// The rules: a built-in grammar's name (`warren grammar list`), or a path to a `.grammar`
    /// file or a demirogue `.lua` ruleset.
    pub rules: String,
    /// Rewrites attempted at most (the start rule counts as one).
    pub max_iterations: u32,
    /// Levels that end with fewer vertices fail (reason `below min_vertices`).
    pub min_vertices: u32,
    /// Rules that would go past this many vertices are not applied.
    pub max_vertices: u32,
    /// No rewrite may push a vertex's valence above this.
    pub max_valence: u32,
    /// Target edge length, in layout units (room sizes and positions share the unit).
    pub edge_length: f64,
    /// Spring law.
    pub spring: Spring,
    /// Spring strength (edge lengths per step).
    pub spring_k: f64,
    /// Repulsion strength (edge lengths per step at one edge length).
    pub repulse_k: f64,
    /// Largest move per solver step, in edge lengths.
    pub max_delta: f64,
    /// A relaxation stops once no vertex moves more than this many edge lengths in a step.
    pub tolerance: f64,
    /// Solver iterations after a rewrite, at most.
    pub relax_iterations: u32,
    /// Relax after every this many rewrites (1: after each, as demirogue; 0: only at the end).
    pub relax_every: u32,
    /// Scale the drawing by this factor before each rewrite (seed 000's upscaling insertion;
    /// 1: off).
    pub upscale: f64,
    /// Solver iterations of the final relaxation with room-sized edges.
    pub final_iterations: u32,
    /// Gap between rooms, in layout units (at least 1: rooms are stored as integer
    /// rectangles).
    pub room_margin: f64,
    /// Every room size of the rule set is multiplied by this.
    pub room_scale: f64,
}

impl Default for GrammarConfig {
    fn default() -> Self {
        Self {
            rules: "dungeon".to_string(),
            max_iterations: 40,
            min_vertices: 8,
            max_vertices: 40,
            max_valence: 5,
            edge_length: 10.0,
            spring: Spring::Log,
            spring_k: 0.3,
            repulse_k: 0.1,
            max_delta: 0.5,
            tolerance: 0.01,
            relax_iterations: 50,
            relax_every: 1,
            upscale: 1.0,
            final_iterations: 200,
            room_margin: 1.0,
            room_scale: 1.0,
        }
    }
}

fn positive(v: f64, key: &'static str) -> Result<(), ConfigError> {
    check(v.is_finite() && v > 0.0, key, || {
        format!("= {v} must be a finite number > 0")
    })
}

impl GrammarConfig {
    /// Checks value ranges; the error names the key and the allowed range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check(!self.rules.trim().is_empty(), "grammar.rules", || {
            "must name a built-in grammar or a rule file".into()
        })?;
        check(
            (1..=100_000).contains(&self.max_iterations),
            "grammar.max_iterations",
            || format!("= {} is out of range 1..=100000", self.max_iterations),
        )?;
        check(
            (2..=1_000_000).contains(&self.max_vertices),
            "grammar.max_vertices",
            || format!("= {} is out of range 2..=1000000", self.max_vertices),
        )?;
        check(
            (1..=self.max_vertices).contains(&self.min_vertices),
            "grammar.min_vertices",
            || {
                format!(
                    "= {} is out of range 1..=max_vertices ({})",
                    self.min_vertices, self.max_vertices
                )
            },
        )?;
        check(
            (2..=1000).contains(&self.max_valence),
            "grammar.max_valence",
            || format!("= {} is out of range 2..=1000", self.max_valence),
        )?;
        positive(self.edge_length, "grammar.edge_length")?;
        positive(self.spring_k, "grammar.spring_k")?;
        check(
            self.repulse_k.is_finite() && self.repulse_k >= 0.0,
            "grammar.repulse_k",
            || format!("= {} must be a finite number >= 0", self.repulse_k),
        )?;
        positive(self.max_delta, "grammar.max_delta")?;
        check(
            self.tolerance.is_finite() && self.tolerance >= 0.0,
            "grammar.tolerance",
            || format!("= {} must be a finite number >= 0", self.tolerance),
        )?;
        check(
            self.relax_iterations <= 100_000,
            "grammar.relax_iterations",
            || format!("= {} is out of range 0..=100000", self.relax_iterations),
        )?;
        check(
            self.final_iterations <= 100_000,
            "grammar.final_iterations",
            || format!("= {} is out of range 0..=100000", self.final_iterations),
        )?;
        check(
            self.upscale.is_finite() && (1.0..=4.0).contains(&self.upscale),
            "grammar.upscale",
            || format!("= {} is out of range 1..=4", self.upscale),
        )?;
        check(
            self.room_margin.is_finite() && self.room_margin >= 1.0,
            "grammar.room_margin",
            || {
                format!(
                    "= {} must be at least 1 (rooms are stored as integer rectangles)",
                    self.room_margin
                )
            },
        )?;
        positive(self.room_scale, "grammar.room_scale")
    }

    /// The build parameters these values make.
    pub fn build_params(&self) -> BuildParams {
        BuildParams {
            max_iterations: self.max_iterations,
            min_vertices: self.min_vertices,
            max_vertices: self.max_vertices,
            max_valence: self.max_valence,
            layout: LayoutParams {
                spring: self.spring,
                length: self.edge_length as f32,
                spring_k: self.spring_k as f32,
                repulse_k: self.repulse_k as f32,
                cutoff: None,
                max_delta: self.max_delta as f32,
                tolerance: self.tolerance as f32,
                max_iterations: self.relax_iterations,
                repulsion: Repulsion::Auto,
                // Levels are laid out one per thread; the batch spreads them over the cores.
                parallel: false,
                ..LayoutParams::default()
            },
            relax_every: self.relax_every,
            upscale: self.upscale as f32,
            final_iterations: self.final_iterations,
            rooms: RoomParams {
                margin: self.room_margin as f32,
                ..RoomParams::default()
            },
        }
    }
}
