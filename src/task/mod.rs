//! The `task` kind (issue 46): reasoning tasks as views of levels. A task turns a level into an
//! item, a question, an exact answer and a ground truth from which a scorer checks any answer
//! without the level file, for training language models with verifiable rewards (verl,
//! reasoning-gym).
//!
//! - `config`: [`TaskConfig`], the `[task]` profile section, and the task names;
//! - `item`: [`ItemOut`], splits ([`Split`]) and item seeds;
//! - `grid`: [`GridPuzzle`], the grid every grid task is a view of;
//! - `maze`: `maze-steps` and `maze-path`; `grid_steps`: `grid-steps`;
//! - `graph_color`: `graph-color`, its graphs and proofs in `chromatic`; `puzzle`:
//!   `coloring-puzzle`, scored by `puzzle_score`; `answer`: the strict readers of their answers;
//! - `render`: the renderings and their parsers; `trace`: solver traces;
//! - `score`: the scorers; `metrics`: what each item measures;
//! - `generate`: [`TaskGenerator`]; `verify`: the re-check of every stored item.

mod answer;
mod chromatic;
mod config;
mod generate;
mod graph_color;
mod grid;
mod grid_steps;
#[cfg(test)]
mod identity_tests;
mod item;
mod maze;
mod metrics;
mod puzzle;
mod puzzle_score;
pub mod render;
mod score;
mod setup;
mod trace;
mod verify;

pub use config::{GridSource, Rendering, TaskConfig, TaskName, TraceKind};
pub use generate::{TaskGenerator, TaskScratch};
pub use grid::{GridPuzzle, Move};
pub use item::{ItemOut, Split, in_split, item_seed};
pub use metrics::{
    GRAPH_COLOR_METRICS, GRID_TASK_METRICS, GraphColorMetrics, GridTaskMetrics, PUZZLE_METRICS,
    PuzzleTaskMetrics,
};
pub use score::{MAX_ANSWER_BYTES, score, score_task, task_of};
pub use setup::TaskSetupError;
