//! [`build_puzzle`]: a puzzle per seed, drawing graphs of the profile's family (vertex, edge or
//! Eulerian) until one is proven solvable or the attempts run out.

use crate::coloring::config::{ColoringConfig, PuzzleKind};
use crate::coloring::puzzle::solved::{Puzzle, PuzzleScratch};
use crate::coloring::puzzle::{edge, euler, vertex};
use crate::core::error::GenError;
use crate::core::rng::WarrenRng;

/// Builds the puzzle for `seed`. `cfg` must be valid ([`ColoringConfig::validate`]).
///
/// # Runtime
/// Per attempt: O(V log V) for the graph, the solver's search (bounded by
/// `max_solver_nodes`), O(V + E) for the level and its XML. Allocates the returned puzzle.
pub fn build_puzzle(
    cfg: &ColoringConfig,
    seed: u64,
    scratch: &mut PuzzleScratch,
) -> Result<Puzzle, GenError> {
    let mut rng = WarrenRng::new(seed);
    let mut last = GenError {
        reason: "no attempt".into(),
        detail: String::new(),
    };
    for attempt in 1..=cfg.max_attempts {
        let made = match cfg.puzzle {
            PuzzleKind::Vertex => vertex::attempt(cfg, &mut rng, scratch),
            PuzzleKind::Edge => edge::attempt(cfg, &mut rng, scratch),
            PuzzleKind::EulerCycle | PuzzleKind::EulerPath => {
                euler::attempt(cfg, &mut rng, scratch)
            }
        };
        match made {
            Ok(mut p) => {
                p.metrics.attempts = attempt;
                return Ok(p);
            }
            Err(e) => last = e,
        }
    }
    Err(GenError {
        reason: last.reason,
        detail: format!("after {} attempts: {}", cfg.max_attempts, last.detail),
    })
}
