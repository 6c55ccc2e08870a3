//! The `[coloring]` profile section: which puzzle, on what graph, with which proofs; every
//! parameter with its default, and the checks that turn a bad value into an error naming the key.

use serde::{Deserialize, Serialize};

use crate::core::error::ConfigError;
use crate::core::error::check;

/// The puzzle families of the corpus categories.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PuzzleKind {
    /// "Vertex Colorings": color every vertex so that no edge joins two of one color.
    Vertex,
    /// "Edge Colorings": color every edge unlike both its ends, with a quota per color.
    Edge,
    /// "Eulerian Cycles": walk every edge once and come back.
    EulerCycle,
    /// "Eulerian Paths": walk every edge once, from one odd vertex to the other.
    EulerPath,
}

impl PuzzleKind {
    /// Every kind, in the order of [`code`](Self::code).
    pub const ALL: [PuzzleKind; 4] = [
        PuzzleKind::Vertex,
        PuzzleKind::Edge,
        PuzzleKind::EulerCycle,
        PuzzleKind::EulerPath,
    ];

    /// The kind's number in the archive's `puzzle_kind` metric: 0 vertex, 1 edge,
    /// 2 euler_cycle, 3 euler_path.
    pub fn code(self) -> u32 {
        match self {
            PuzzleKind::Vertex => 0,
            PuzzleKind::Edge => 1,
            PuzzleKind::EulerCycle => 2,
            PuzzleKind::EulerPath => 3,
        }
    }

    /// The profile's name for the kind (`vertex`, `edge`, `euler_cycle`, `euler_path`).
    pub fn name(self) -> &'static str {
        match self {
            PuzzleKind::Vertex => "vertex",
            PuzzleKind::Edge => "edge",
            PuzzleKind::EulerCycle => "euler_cycle",
            PuzzleKind::EulerPath => "euler_path",
        }
    }

    /// Whether the player colors something (vertex and edge puzzles) rather than walks.
    pub fn is_coloring(self) -> bool {
        matches!(self, PuzzleKind::Vertex | PuzzleKind::Edge)
    }
}

/// Every coloring-puzzle parameter. Unknown keys are errors; missing keys take their defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ColoringConfig {
    /// The puzzle family (default `vertex`).
    pub puzzle: PuzzleKind,
    /// Points across: the graph is the Delaunay triangulation of a jittered `width x height`
    /// grid of points (default 6).
    pub width: u32,
    /// Points down (default 5).
    pub height: u32,
    /// Pixels between grid points in the level (default 90; the game draws at pixel positions).
    pub spacing: u32,
    /// How far each point may move from its cell centre, in cells, `[0, 0.9]` (default 0.6).
    pub jitter: f64,
    /// Share of the triangulation's edges kept, `(0, 1]` (default 0.7). Vertex and edge
    /// puzzles always keep a random spanning tree, so the graph stays connected.
    pub keep: f64,
    /// The number of colors k, `1..=8` (default 4; edge puzzles need at least 3).
    pub colors: u32,
    /// Vertex puzzles: also prove the graph is not (k-1)-colorable, so that its chromatic
    /// number is exactly k (default false).
    pub chromatic: bool,
    /// Vertex puzzles: vertices given with their color protected (default 0).
    pub clues: u32,
    /// The exact solver's budget in search nodes per proof, `1..=4294967295` (node counts are
    /// stored as `u32` metrics); a graph it cannot settle within it is redrawn (default
    /// 200,000).
    pub max_solver_nodes: u64,
    /// Graphs drawn per seed before the seed fails (default 64).
    pub max_attempts: u32,
}

impl Default for ColoringConfig {
    fn default() -> Self {
        Self {
            puzzle: PuzzleKind::Vertex,
            width: 6,
            height: 5,
            spacing: 90,
            jitter: 0.6,
            keep: 0.7,
            colors: 4,
            chromatic: false,
            clues: 0,
            max_solver_nodes: 200_000,
            max_attempts: 64,
        }
    }
}

/// The most points a puzzle may have (the solver keeps a color count per vertex and color).
pub const MAX_POINTS: u32 = 4096;

impl ColoringConfig {
    /// Checks value ranges; the error names the key and the allowed range.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check((1..=256).contains(&self.width), "coloring.width", || {
            format!("= {} is out of range 1..=256", self.width)
        })?;
        check((1..=256).contains(&self.height), "coloring.height", || {
            format!("= {} is out of range 1..=256", self.height)
        })?;
        let points = self.width * self.height;
        check((3..=MAX_POINTS).contains(&points), "coloring.width", || {
            format!("x coloring.height = {points} points; must be in 3..={MAX_POINTS}")
        })?;
        check(
            (10..=1000).contains(&self.spacing),
            "coloring.spacing",
            || format!("= {} is out of range 10..=1000", self.spacing),
        )?;
        check(
            (0.0..=0.9).contains(&self.jitter),
            "coloring.jitter",
            || format!("= {} is out of range 0..=0.9", self.jitter),
        )?;
        check(self.keep > 0.0 && self.keep <= 1.0, "coloring.keep", || {
            format!("= {} is out of range (0, 1]", self.keep)
        })?;
        check((1..=8).contains(&self.colors), "coloring.colors", || {
            format!("= {} is out of range 1..=8", self.colors)
        })?;
        check(
            self.puzzle != PuzzleKind::Edge || self.colors >= 3,
            "coloring.colors",
            || {
                format!(
                    "= {}: edge puzzles need at least 3 colors (an edge avoids both ends' colors)",
                    self.colors
                )
            },
        )?;
        check(
            !self.chromatic || self.colors >= 2,
            "coloring.chromatic",
            || "needs coloring.colors >= 2".into(),
        )?;
        check(self.clues <= points, "coloring.clues", || {
            format!("= {} is more than the {points} points", self.clues)
        })?;
        check(
            (1..=u64::from(u32::MAX)).contains(&self.max_solver_nodes),
            "coloring.max_solver_nodes",
            || {
                format!(
                    "= {} is out of range 1..={}",
                    self.max_solver_nodes,
                    u32::MAX
                )
            },
        )?;
        check(self.max_attempts >= 1, "coloring.max_attempts", || {
            "must be at least 1".into()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_validate_and_bad_values_name_their_key() {
        ColoringConfig::default().validate().unwrap();
        let bad = |f: fn(&mut ColoringConfig)| {
            let mut c = ColoringConfig::default();
            f(&mut c);
            c.validate().unwrap_err().key
        };
        assert_eq!(bad(|c| c.width = 0), "coloring.width");
        assert_eq!(bad(|c| c.height = 1000), "coloring.height");
        assert_eq!(bad(|c| (c.width, c.height) = (1, 2)), "coloring.width");
        assert_eq!(bad(|c| c.jitter = 1.0), "coloring.jitter");
        assert_eq!(bad(|c| c.keep = 0.0), "coloring.keep");
        assert_eq!(bad(|c| c.colors = 9), "coloring.colors");
        assert_eq!(
            bad(|c| (c.puzzle, c.colors) = (PuzzleKind::Edge, 2)),
            "coloring.colors"
        );
        assert_eq!(
            bad(|c| (c.chromatic, c.colors) = (true, 1)),
            "coloring.chromatic"
        );
        assert_eq!(bad(|c| c.clues = 31), "coloring.clues");
        assert_eq!(bad(|c| c.max_attempts = 0), "coloring.max_attempts");
        assert_eq!(
            bad(|c| c.max_solver_nodes = 1 << 32),
            "coloring.max_solver_nodes"
        );
    }

    #[test]
    fn parses_from_toml_with_defaults() {
        let c: ColoringConfig = toml::from_str("puzzle = \"euler_path\"\nwidth = 4").unwrap();
        assert_eq!(c.puzzle, PuzzleKind::EulerPath);
        assert_eq!((c.width, c.height), (4, 5));
        assert!(toml::from_str::<ColoringConfig>("colours = 3").is_err());
    }
}
