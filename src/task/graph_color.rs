//! `graph-color`: colour a graph with k colours, k its chromatic number proven by an exact
//! solver. (Filled in by the graph-colour work of issue 46.)

use crate::core::error::GenError;
use crate::task::config::TaskConfig;
use crate::task::item::{ItemOut, Split};

/// The task's shared state.
pub struct GraphColorTasks;

/// One worker's memory.
#[derive(Default)]
pub struct GraphColorScratch;

impl GraphColorTasks {
    /// The state for `cfg` (validated).
    pub fn new(_cfg: &TaskConfig) -> Self {
        GraphColorTasks
    }

    /// Writes one item from the random stream `seed` (already split-mixed).
    pub fn item(
        &self,
        _cfg: &TaskConfig,
        _seed: u64,
        _split: Split,
        _s: &mut GraphColorScratch,
        _out: &mut ItemOut,
    ) -> Result<(), GenError> {
        Err(GenError {
            reason: "not built",
            detail: "graph-color is not built yet".into(),
        })
    }
}

/// Scores an answer against a `graph-color` ground truth, in [0, 1].
pub fn score(_answer: &str, _ground_truth: &str) -> f64 {
    0.0
}

/// Re-checks a stored item beyond its answer's score.
pub fn verify(
    _cfg: &TaskConfig,
    _record: &crate::core::generator::LevelRecord<'_>,
) -> Result<(), crate::core::error::Violation> {
    Ok(())
}
