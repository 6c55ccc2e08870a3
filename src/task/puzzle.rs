//! `coloring-puzzle`: the GraphColoring puzzles warren makes (edge colouring, Eulerian paths and
//! cycles) as tasks. (Filled in by the puzzle work of issue 46.)

use crate::core::error::GenError;
use crate::core::generator::MetricSpec;
use crate::task::config::TaskConfig;
use crate::task::item::{ItemOut, Split};
use crate::task::setup::TaskSetupError;

/// The task's shared state.
pub struct PuzzleTasks;

/// One worker's memory.
#[derive(Default)]
pub struct PuzzleScratch;

impl PuzzleTasks {
    /// The state for `cfg` (validated).
    pub fn new(_cfg: &TaskConfig) -> Result<Self, TaskSetupError> {
        Ok(PuzzleTasks)
    }

    /// Writes one item from the random stream `seed` (already split-mixed).
    pub fn item(
        &self,
        _cfg: &TaskConfig,
        _seed: u64,
        _index: u64,
        _split: Split,
        _s: &mut PuzzleScratch,
        _out: &mut ItemOut,
    ) -> Result<(), GenError> {
        Err(GenError {
            reason: "not built",
            detail: "coloring-puzzle is not built yet".into(),
        })
    }
}

/// Scores an answer against a `coloring-puzzle` ground truth, in [0, 1].
pub fn score(_answer: &str, _ground_truth: &str) -> f64 {
    0.0
}

/// The metric columns of `coloring-puzzle` items.
pub const PUZZLE_METRICS: [MetricSpec; 0] = [];

/// Re-checks a stored item beyond its answer's score.
pub fn verify(
    _cfg: &TaskConfig,
    _record: &crate::core::generator::LevelRecord<'_>,
) -> Result<(), crate::core::error::Violation> {
    Ok(())
}
