//! `verify` for tasks: every stored item is re-checked from its record alone. The oracle answer
//! scores 1 against the ground truth; for grid tasks the question reads back (a `png`
//! rendering's text with its picture from the `image` column) into the stored grid with its
//! start and goal, the ground truth's distance is the breadth-first distance on that grid, the metrics
//! agree, and the puzzle lies in its split's third of the identity space.

use crate::core::error::Violation;
use crate::core::generator::{Columns, LevelRecord};
use crate::core::route::walkable;
use crate::ensure_level;
use crate::task::config::{Rendering, TaskConfig};
use crate::task::grid::GridPuzzle;
use crate::task::item::in_split;
use crate::task::maze::identity;
use crate::task::metrics::GridTaskMetrics;
use crate::task::render;
use crate::task::score::score_task;
use crate::task::{graph_color, puzzle};

/// Re-checks one stored item against `cfg`.
pub fn verify(
    cfg: &TaskConfig,
    columns: Columns,
    record: &LevelRecord<'_>,
) -> Result<(), Violation> {
    let level = &record.level;
    ensure_level!(
        level.extra.len() == columns.extra.len(),
        "{} extra columns, expected {}",
        level.extra.len(),
        columns.extra.len()
    );
    let text = |i: usize| level.extra[i].as_str().unwrap_or_default();
    let (question, answer, truth) = (text(0), text(1), text(2));
    let image = level
        .extra
        .get(columns.extra.len().wrapping_sub(1))
        .and_then(|v| v.as_binary())
        .unwrap_or_default();
    ensure_level!(
        score_task(cfg.task, answer, truth) == 1.0,
        "the stored answer {:?} does not score 1 against the stored ground truth",
        answer.chars().take(80).collect::<String>()
    );
    if !cfg.task.is_grid() {
        return match cfg.task {
            crate::task::config::TaskName::GraphColor => graph_color::verify(cfg, record),
            _ => puzzle::verify(cfg, record),
        };
    }
    let m = GridTaskMetrics::from_values(level.metrics)
        .ok_or_else(|| Violation::new("the metric row has the wrong length"))?;
    let grid = level
        .grid
        .ok_or_else(|| Violation::new("a grid task stores no grid"))?;
    let stored = GridPuzzle {
        rows: grid.height,
        cols: grid.width,
        open: grid.cells.iter().map(|&c| walkable(c)).collect(),
        start: (m.start_row, m.start_col),
        goal: (m.goal_row, m.goal_col),
    };
    ensure_level!(
        (m.rows, m.cols) == (stored.rows, stored.cols),
        "metrics say {} x {}, the grid is {} x {}",
        m.rows,
        m.cols,
        stored.rows,
        stored.cols
    );
    let rendering = Rendering::ALL
        .get(m.rendering as usize)
        .copied()
        .ok_or_else(|| Violation::new(format!("rendering code {} is unknown", m.rendering)))?;
    let read = render::parse(rendering, question, image)
        .map_err(|e| Violation::new(format!("the question does not read back: {e}")))?;
    ensure_level!(
        read == stored,
        "the question ({}) shows another grid, start or goal than the stored level",
        rendering.name()
    );
    let d = stored.shortest();
    ensure_level!(
        d.unwrap_or(0) == m.distance && u32::from(d.is_some()) == m.feasible,
        "the stored distance {} (feasible {}) is not the grid's {:?}",
        m.distance,
        m.feasible,
        d
    );
    ensure_level!(
        in_split(
            identity(
                (grid.width, grid.height, grid.cells),
                (stored.start, stored.goal),
                cfg.task != crate::task::config::TaskName::MazePath,
                &mut crate::core::symmetry::SymmetryScratch::default(),
            ),
            cfg.split
        ),
        "the puzzle is not in split {}'s third of the identity space",
        cfg.split.name()
    );
    Ok(())
}
