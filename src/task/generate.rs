//! [`TaskGenerator`]: a task item per seed, as a level whose extra columns hold the question,
//! the answer, the ground truth (and the trace and image when asked) beside the grid or graph
//! it is a view of. Being a generator, a task runs on the batch engine as every kind does (all
//! cores, shards, `--resume`, progress, Parquet, `warren.ray`).

use bumpalo::Bump;

use crate::core::error::{GenError, Violation};
use crate::core::generator::{
    Columns, ExtraKind, ExtraSpec, ExtraValue, Generator, GraphView, Identity, Level, LevelRecord,
    MetricSpec,
};
use crate::task::config::{Rendering, TaskConfig, TaskName, TraceKind};
use crate::task::graph_color::{GraphColorScratch, GraphColorTasks};
use crate::task::grid_steps::{GridStepsScratch, GridTasks};
use crate::task::item::{ItemOut, item_seed};
use crate::task::maze::{MazeTaskScratch, MazeTasks};
use crate::task::metrics::{GRAPH_COLOR_METRICS, GRID_TASK_METRICS, PUZZLE_METRICS};
use crate::task::puzzle::{PuzzleScratch, PuzzleTasks};
use crate::task::setup::TaskSetupError;
use crate::task::verify;

/// The text columns every task writes.
const QUESTION: ExtraSpec = ExtraSpec::new("question", ExtraKind::Utf8, "the prompt text");
const ANSWER: ExtraSpec = ExtraSpec::new("answer", ExtraKind::Utf8, "the exact oracle answer");
const GROUND_TRUTH: ExtraSpec = ExtraSpec::new(
    "ground_truth",
    ExtraKind::Utf8,
    "a JSON object with everything the task's scorer needs besides the answer (verl's \
     reward_model.ground_truth)",
);
const TRACE: ExtraSpec = ExtraSpec::new(
    "trace",
    ExtraKind::Utf8,
    "the solver trace (Searchformer's create/close form for grids, DSATUR steps for colouring)",
);
const IMAGE: ExtraSpec = ExtraSpec::new(
    "image",
    ExtraKind::Binary,
    "the PNG of a png rendering (empty for the other renderings)",
);

/// The extra columns for each (trace, image) choice.
const EXTRAS: [&[ExtraSpec]; 4] = [
    &[QUESTION, ANSWER, GROUND_TRUTH],
    &[QUESTION, ANSWER, GROUND_TRUTH, TRACE],
    &[QUESTION, ANSWER, GROUND_TRUTH, IMAGE],
    &[QUESTION, ANSWER, GROUND_TRUTH, TRACE, IMAGE],
];

/// What each task keeps between items.
enum Tasks {
    Maze(MazeTasks),
    Grid(GridTasks),
    GraphColor(GraphColorTasks),
    Puzzle(PuzzleTasks),
}

/// The task generator for one configuration.
pub struct TaskGenerator {
    cfg: TaskConfig,
    tasks: Tasks,
}

impl std::fmt::Debug for TaskGenerator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskGenerator")
            .field("cfg", &self.cfg)
            .finish()
    }
}

/// One worker's task memory.
#[derive(Default)]
pub struct TaskScratch {
    /// The item being written.
    pub item: ItemOut,
    maze: MazeTaskScratch,
    grid: GridStepsScratch,
    color: GraphColorScratch,
    puzzle: PuzzleScratch,
    bump: Bump,
}

impl TaskGenerator {
    /// A generator for `cfg`; fails with the offending key when a value is out of range or
    /// the spec cannot be met, before any item is made.
    pub fn new(cfg: TaskConfig) -> Result<Self, TaskSetupError> {
        cfg.validate()?;
        let tasks = match cfg.task {
            TaskName::MazeSteps | TaskName::MazePath => Tasks::Maze(MazeTasks::new(&cfg)),
            TaskName::GridSteps => Tasks::Grid(GridTasks::new(&cfg)?),
            TaskName::GraphColor => Tasks::GraphColor(GraphColorTasks::new(&cfg)),
            TaskName::ColoringPuzzle => Tasks::Puzzle(PuzzleTasks::new(&cfg)?),
        };
        Ok(Self { cfg, tasks })
    }

    /// The configuration.
    pub fn config(&self) -> &TaskConfig {
        &self.cfg
    }

    /// Writes item `index` of the run, whose engine seed is `seed` (`mix(S, index)`), into
    /// `s.item`.
    pub fn item(&self, index: u64, seed: u64, s: &mut TaskScratch) -> Result<(), GenError> {
        let split = self.cfg.split;
        let seed = item_seed(seed, split);
        s.item.clear();
        match &self.tasks {
            Tasks::Maze(t) => t.item(&self.cfg, seed, index, split, &mut s.maze, &mut s.item),
            Tasks::Grid(t) => t.item(&self.cfg, seed, split, &mut s.grid, &mut s.item),
            Tasks::GraphColor(t) => t.item(&self.cfg, seed, split, &mut s.color, &mut s.item),
            Tasks::Puzzle(t) => t.item(&self.cfg, seed, index, split, &mut s.puzzle, &mut s.item),
        }
    }

    /// The metric columns of this task.
    pub fn metrics(&self) -> &'static [MetricSpec] {
        match self.cfg.task {
            TaskName::MazeSteps | TaskName::MazePath | TaskName::GridSteps => &GRID_TASK_METRICS,
            TaskName::GraphColor => &GRAPH_COLOR_METRICS,
            TaskName::ColoringPuzzle => &PUZZLE_METRICS,
        }
    }

    fn traced(&self) -> bool {
        self.cfg.trace != TraceKind::None
    }

    fn imaged(&self) -> bool {
        self.cfg.renderings.contains(&Rendering::Png)
    }
}

impl Generator for TaskGenerator {
    type Scratch = TaskScratch;

    fn kind(&self) -> &'static str {
        "task"
    }

    fn columns(&self) -> Columns {
        let grid = self.cfg.task.is_grid();
        let metrics = self.metrics();
        let at = |name: &str| metrics.iter().position(|m| m.name == name);
        // A grid puzzle is its grid with its start and goal, up to the 8 symmetries; a step
        // count is the same from either end.
        let identity = match (
            at("start_row"),
            at("start_col"),
            at("goal_row"),
            at("goal_col"),
        ) {
            (Some(sr), Some(sc), Some(gr), Some(gc)) if grid => Identity::GridEnds {
                start: (sr, sc),
                goal: (gr, gc),
                swappable: self.cfg.task != TaskName::MazePath,
            },
            _ => Identity::Graph,
        };
        Columns {
            grid,
            graph: !grid,
            metrics,
            extra: EXTRAS[usize::from(self.traced()) + 2 * usize::from(self.imaged())],
            identity,
            ..Columns::default()
        }
    }

    fn new_scratch(&self) -> TaskScratch {
        TaskScratch::default()
    }

    fn generate<'s>(&self, seed: u64, s: &'s mut TaskScratch) -> Result<Level<'s>, GenError> {
        // Without its index an item takes its place-dependent choices (the exact infeasible
        // share) from index 0's rule; the engine calls `generate_at`.
        self.generate_at(0, seed, s)
    }

    fn generate_at<'s>(
        &self,
        index: u64,
        seed: u64,
        s: &'s mut TaskScratch,
    ) -> Result<Level<'s>, GenError> {
        self.item(index, seed, s)?;
        let TaskScratch { item, bump, .. } = s;
        bump.reset();
        let mut values = [
            ExtraValue::Utf8(&item.question),
            ExtraValue::Utf8(&item.answer),
            ExtraValue::Utf8(&item.ground_truth),
            ExtraValue::Utf8(""),
            ExtraValue::Utf8(""),
        ];
        let mut n = 3;
        if self.traced() {
            values[n] = ExtraValue::Utf8(&item.trace);
            n += 1;
        }
        if self.imaged() {
            values[n] = ExtraValue::Binary(&item.image);
            n += 1;
        }
        // NOTE: the borrowed column list lives in the arena (it borrows the scratch's own
        // buffers); after the first item the arena's chunk is reused.
        let extra: &'s [ExtraValue<'s>] = bump.alloc_slice_copy(&values[..n]);
        let grid = self.cfg.task.is_grid();
        Ok(Level {
            grid: grid.then(|| item.grid.view()),
            graph: (!grid).then(|| GraphView {
                x: &item.x,
                y: &item.y,
                tag: &[],
                src: &item.src,
                dst: &item.dst,
                flags: &item.flags,
            }),
            metrics: &item.metrics,
            extra,
            ..Level::default()
        })
    }

    fn verify(&self, record: &LevelRecord<'_>) -> Result<(), Violation> {
        verify::verify(&self.cfg, self.columns(), record)
    }
}
