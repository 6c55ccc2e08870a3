//! The `[task]` profile section: which task, the difficulty and balance knobs, the renderings
//! and traces, and for `grid-steps` and `coloring-puzzle` the level kind the items are views
//! of. Every key has a default (reasoning-gym's default `maze` spec for the maze tasks); the
//! checks refuse, before any item is made, a spec that no item can meet, naming the key.

use serde::{Deserialize, Serialize};

use crate::coloring::ColoringConfig;
use crate::core::error::{ConfigError, check};
use crate::dmg::DmgConfig;
use crate::grammar::GrammarConfig;
use crate::map::MapConfig;
use crate::maze::MazeAlgorithm;
use crate::regions::RegionsConfig;
use crate::task::item::Split;

/// The tasks: each turns a level into a question, an exact answer and the data a scorer needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TaskName {
    /// A maze with a marked start and goal; answer: the shortest path's length in steps.
    MazeSteps,
    /// A maze with a marked start and goal; answer: the moves of a shortest path (or
    /// `infeasible`).
    MazePath,
    /// A level of another grid kind (dmg, regions, grammar, map) with its start and goal;
    /// answer: the shortest path's length in steps.
    GridSteps,
    /// Colour a graph with k colours, k its proven chromatic number.
    GraphColor,
    /// A GraphColoring puzzle (edge colouring, Eulerian path or cycle) as a task.
    ColoringPuzzle,
}

impl TaskName {
    /// Every task, in documentation order.
    pub const ALL: [TaskName; 5] = [
        TaskName::MazeSteps,
        TaskName::MazePath,
        TaskName::GridSteps,
        TaskName::GraphColor,
        TaskName::ColoringPuzzle,
    ];

    /// The task's name (`maze-steps`, ...), as profiles, `warren tasks` and scorers spell it.
    pub fn name(self) -> &'static str {
        match self {
            TaskName::MazeSteps => "maze-steps",
            TaskName::MazePath => "maze-path",
            TaskName::GridSteps => "grid-steps",
            TaskName::GraphColor => "graph-color",
            TaskName::ColoringPuzzle => "coloring-puzzle",
        }
    }

    /// The task called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Whether the task's items are grids with a start and a goal.
    pub fn is_grid(self) -> bool {
        matches!(
            self,
            TaskName::MazeSteps | TaskName::MazePath | TaskName::GridSteps
        )
    }
}

/// How a grid item is shown to the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rendering {
    /// Rows of glyphs with a legend; the glyphs are drawn per item.
    Ascii,
    /// The grid's size, the wall cells as a list of `(row, col)` pairs, start and goal.
    Coords,
    /// maze-dataset's `ADJLIST` token form over the open cells.
    Adjlist,
    /// A compact token sequence: one token per cell, rows ended by `<EOL>`.
    Tokens,
    /// A PNG image (for vision-language models), with a short text naming its legend.
    Png,
}

impl Rendering {
    /// Every rendering.
    pub const ALL: [Rendering; 5] = [
        Rendering::Ascii,
        Rendering::Coords,
        Rendering::Adjlist,
        Rendering::Tokens,
        Rendering::Png,
    ];

    /// The rendering's name as profiles spell it.
    pub fn name(self) -> &'static str {
        match self {
            Rendering::Ascii => "ascii",
            Rendering::Coords => "coords",
            Rendering::Adjlist => "adjlist",
            Rendering::Tokens => "tokens",
            Rendering::Png => "png",
        }
    }

    /// The rendering's number in the `rendering` metric (its place in [`Rendering::ALL`]).
    pub fn code(self) -> u32 {
        Self::ALL.iter().position(|r| *r == self).unwrap_or(0) as u32
    }
}

/// Which solver trace an item carries (the optional `trace` column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TraceKind {
    /// No trace.
    #[default]
    None,
    /// Breadth-first search from the start, in Searchformer's `create`/`close` form.
    Bfs,
    /// A* with the Manhattan heuristic, in Searchformer's `create`/`close` form.
    Astar,
    /// DSATUR backtracking (graph-color): every colour tried and every undo.
    Dsatur,
}

/// The grid kinds `grid-steps` takes its levels from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum GridSource {
    /// DMG dungeons (seed 003).
    #[default]
    Dmg,
    /// Recursive regions (seed 004).
    Regions,
    /// Graph-grammar tile maps (seed 000).
    Grammar,
    /// Maps from a designer's level graph.
    Map,
}

impl GridSource {
    /// The source kind's name.
    pub fn name(self) -> &'static str {
        match self {
            GridSource::Dmg => "dmg",
            GridSource::Regions => "regions",
            GridSource::Grammar => "grammar",
            GridSource::Map => "map",
        }
    }
}

/// Every task parameter. Unknown keys are errors; missing keys take their defaults.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TaskConfig {
    /// The task (default `maze-steps`).
    pub task: TaskName,
    /// The split items are drawn for (`train`, `validation`, `test`; default `train`): item
    /// `i` of split `p` is seeded by `mix(mix(S, i), p)` and only puzzles in `p`'s third of the
    /// identity space are kept, so the splits of any seeds never share a puzzle.
    pub split: Split,
    /// Maze tasks: fewest grid rows, walls included (reasoning-gym's `min_grid_size` or
    /// `min_rows`); a maze grid has odd sides, so an even size is rounded down. Default 5.
    pub min_rows: u32,
    /// Maze tasks: most grid rows (default 10).
    pub max_rows: u32,
    /// Maze tasks: fewest grid columns (default 5).
    pub min_cols: u32,
    /// Maze tasks: most grid columns (default 10).
    pub max_cols: u32,
    /// Maze tasks: columns = rows (reasoning-gym's `maze` draws square grids). Default true.
    pub square: bool,
    /// Shortest start-goal distance in steps (maze tasks: default 5, reasoning-gym's
    /// `min_dist`; `grid-steps`: default 1).
    pub min_dist: Option<u32>,
    /// Longest start-goal distance in steps (maze tasks: default 10; the distance is drawn
    /// uniformly from the band, so no answer is commoner than the band allows; `grid-steps`:
    /// default no limit, a level outside the band is drawn again).
    pub max_dist: Option<u32>,
    /// Maze tasks: the spanning-tree algorithms items are drawn from, uniformly (default: all
    /// 13).
    pub algorithms: Vec<MazeAlgorithm>,
    /// Maze tasks: share of dead ends braided open into loops, `[0, 1]` (default 0).
    pub braid: f64,
    /// `maze-path`: exact share of items whose goal cannot be reached (answer `infeasible`),
    /// `[0, 1)` (default 0: every item solvable).
    pub infeasible_share: f64,
    /// Renderings items are drawn with, uniformly per item (default `["ascii"]`).
    pub renderings: Vec<Rendering>,
    /// The solver trace stored with each item (default `none`).
    pub trace: TraceKind,
    /// `graph-color`: fewest vertices (default 10).
    pub min_vertices: u32,
    /// `graph-color`: most vertices (default 10).
    pub max_vertices: u32,
    /// `graph-color`: the chromatic number every graph has, proven by an exact solver
    /// (default 3).
    pub colors: u32,
    /// `graph-color`: probability of an edge between two vertices of different colour classes
    /// of the planted colouring, `(0, 1]` (default 0.3).
    pub edge_probability: f64,
    /// `graph-color`: keep only graphs on which greedy colouring in index order needs more than
    /// `colors` colours (default false).
    pub greedy_fails: bool,
    /// `grid-steps`: the grid kind levels come from (default `dmg`).
    pub source: GridSource,
    /// `grid-steps`, `source = "dmg"`: the source's parameters (`[task.dmg]`).
    pub dmg: Option<Box<DmgConfig>>,
    /// `grid-steps`, `source = "regions"`: the source's parameters (`[task.regions]`).
    pub regions: Option<Box<RegionsConfig>>,
    /// `grid-steps`, `source = "grammar"`: the source's parameters (`[task.grammar]`).
    pub grammar: Option<Box<GrammarConfig>>,
    /// `grid-steps`, `source = "map"`: the source's parameters (`[task.map]`).
    pub map: Option<Box<MapConfig>>,
    /// `coloring-puzzle`: the puzzle's parameters (`[task.coloring]`; its `puzzle` must be
    /// `edge`, `euler_path` or `euler_cycle`; default `edge`).
    pub coloring: Option<Box<ColoringConfig>>,
}

impl Default for TaskConfig {
    fn default() -> Self {
        Self {
            task: TaskName::MazeSteps,
            split: Split::Train,
            min_rows: 5,
            max_rows: 10,
            min_cols: 5,
            max_cols: 10,
            square: true,
            min_dist: None,
            max_dist: None,
            algorithms: MazeAlgorithm::ALL.to_vec(),
            braid: 0.0,
            infeasible_share: 0.0,
            renderings: vec![Rendering::Ascii],
            trace: TraceKind::None,
            min_vertices: 10,
            max_vertices: 10,
            colors: 3,
            edge_probability: 0.3,
            greedy_fails: false,
            source: GridSource::Dmg,
            dmg: None,
            regions: None,
            grammar: None,
            map: None,
            coloring: None,
        }
    }
}

/// Largest maze grid side (rows or columns), walls included.
pub const MAX_GRID_SIDE: u32 = 1601;

/// Most vertices of a `graph-color` graph (the exact solver's proofs stay fast below it).
pub const MAX_VERTICES: u32 = 64;

/// Steps on the longest path a maze of `rows x cols` cells can hold: a spanning tree of its
/// `r x c` rooms that is one path visits every room and passage, `2rc - 1` cells.
pub fn distance_capacity(rows: u32, cols: u32) -> u64 {
    let (r, c) = (
        u64::from(rows.saturating_sub(1) / 2),
        u64::from(cols.saturating_sub(1) / 2),
    );
    (2 * r * c).saturating_sub(2)
}

impl TaskConfig {
    /// The distance band `(min, max)`, the task's defaults filled in.
    pub fn band(&self) -> (u32, u32) {
        match self.task {
            TaskName::GridSteps => (
                self.min_dist.unwrap_or(1),
                self.max_dist.unwrap_or(u32::MAX),
            ),
            _ => (self.min_dist.unwrap_or(5), self.max_dist.unwrap_or(10)),
        }
    }

    /// Checks every value, and that the spec can be met at all; the error names the key.
    pub fn validate(&self) -> Result<(), ConfigError> {
        check(!self.renderings.is_empty(), "task.renderings", || {
            "is empty: name at least one of ascii, coords, adjlist, tokens, png".into()
        })?;
        match self.task {
            TaskName::MazeSteps | TaskName::MazePath => self.validate_maze(),
            TaskName::GridSteps => self.validate_grid_steps(),
            TaskName::GraphColor => self.validate_graph_color(),
            TaskName::ColoringPuzzle => Ok(()),
        }
    }

    fn validate_maze(&self) -> Result<(), ConfigError> {
        let side = |key: &'static str, v: u32| {
            check((3..=MAX_GRID_SIDE).contains(&v), key, || {
                format!("= {v} is out of range 3..={MAX_GRID_SIDE} (grid cells, walls included)")
            })
        };
        side("task.min_rows", self.min_rows)?;
        side("task.max_rows", self.max_rows)?;
        side("task.min_cols", self.min_cols)?;
        side("task.max_cols", self.max_cols)?;
        check(self.min_rows <= self.max_rows, "task.min_rows", || {
            format!(
                "= {} is above task.max_rows = {}",
                self.min_rows, self.max_rows
            )
        })?;
        check(self.min_cols <= self.max_cols, "task.min_cols", || {
            format!(
                "= {} is above task.max_cols = {}",
                self.min_cols, self.max_cols
            )
        })?;
        let (lo, hi) = (
            self.min_rows.max(self.min_cols),
            self.max_rows.min(self.max_cols),
        );
        check(!self.square || lo <= hi, "task.square", || {
            format!(
                "= true needs a side in both task.min_rows..=task.max_rows ({}..={}) and \
                 task.min_cols..=task.max_cols ({}..={}), which do not overlap: set both, or \
                 square = false",
                self.min_rows, self.max_rows, self.min_cols, self.max_cols
            )
        })?;
        let (min_dist, max_dist) = self.band();
        check(min_dist >= 1, "task.min_dist", || {
            "= 0: a start and goal on one cell is no task; use 1 or more".into()
        })?;
        check(min_dist <= max_dist, "task.min_dist", || {
            format!("= {min_dist} is above task.max_dist = {max_dist}")
        })?;
        let (rows, cols) = self.largest_grid();
        let capacity = distance_capacity(rows, cols);
        check(u64::from(min_dist) <= capacity, "task.min_dist", || {
            format!(
                "= {min_dist} cannot be held: the largest grid ({rows} x {cols} cells) has no path \
                 longer than {capacity} steps"
            )
        })?;
        check((0.0..=1.0).contains(&self.braid), "task.braid", || {
            format!("= {} is out of range 0..=1", self.braid)
        })?;
        check(
            (0.0..1.0).contains(&self.infeasible_share),
            "task.infeasible_share",
            || format!("= {} is out of range 0..1", self.infeasible_share),
        )?;
        check(
            self.infeasible_share == 0.0 || self.task == TaskName::MazePath,
            "task.infeasible_share",
            || {
                "applies to task = \"maze-path\" only (a step count has no infeasible answer)"
                    .into()
            },
        )?;
        check(!self.algorithms.is_empty(), "task.algorithms", || {
            "is empty: name at least one maze algorithm".into()
        })?;
        check(
            matches!(
                self.trace,
                TraceKind::None | TraceKind::Bfs | TraceKind::Astar
            ),
            "task.trace",
            || "of a maze task is none, bfs or astar".into(),
        )
    }

    /// The largest grid the spec allows, `(rows, cols)`, sides rounded down to odd.
    pub fn largest_grid(&self) -> (u32, u32) {
        let odd = |v: u32| if v.is_multiple_of(2) { v - 1 } else { v };
        let rows = odd(self.max_rows);
        let cols = if self.square {
            rows.min(odd(self.max_cols))
        } else {
            odd(self.max_cols)
        };
        if self.square {
            (cols, cols)
        } else {
            (rows, cols)
        }
    }

    fn validate_grid_steps(&self) -> Result<(), ConfigError> {
        let (min_dist, max_dist) = self.band();
        check(min_dist <= max_dist, "task.min_dist", || {
            format!("= {min_dist} is above task.max_dist = {max_dist}")
        })?;
        check(
            matches!(
                self.trace,
                TraceKind::None | TraceKind::Bfs | TraceKind::Astar
            ),
            "task.trace",
            || "of a grid task is none, bfs or astar".into(),
        )?;
        if let Some(c) = &self.dmg {
            c.validate()?;
        }
        if let Some(c) = &self.regions {
            c.validate()?;
        }
        if let Some(c) = &self.grammar {
            c.validate()?;
        }
        if let Some(c) = &self.map {
            c.validate()?;
        }
        Ok(())
    }

    fn validate_graph_color(&self) -> Result<(), ConfigError> {
        check(
            (1..=MAX_VERTICES).contains(&self.min_vertices),
            "task.min_vertices",
            || format!("= {} is out of range 1..={MAX_VERTICES}", self.min_vertices),
        )?;
        check(
            (1..=MAX_VERTICES).contains(&self.max_vertices),
            "task.max_vertices",
            || format!("= {} is out of range 1..={MAX_VERTICES}", self.max_vertices),
        )?;
        check(
            self.min_vertices <= self.max_vertices,
            "task.min_vertices",
            || {
                format!(
                    "= {} is above task.max_vertices = {}",
                    self.min_vertices, self.max_vertices
                )
            },
        )?;
        check(self.colors >= 2, "task.colors", || {
            format!(
                "= {}: every graph with an edge needs 2 colours or more",
                self.colors
            )
        })?;
        check(self.colors <= self.min_vertices, "task.colors", || {
            format!(
                "= {} cannot be a chromatic number on task.min_vertices = {} vertices (at most \
                 one colour per vertex)",
                self.colors, self.min_vertices
            )
        })?;
        check(self.colors <= 8, "task.colors", || {
            format!("= {} is out of range 2..=8", self.colors)
        })?;
        check(
            self.edge_probability > 0.0 && self.edge_probability <= 1.0,
            "task.edge_probability",
            || format!("= {} is out of range (0, 1]", self.edge_probability),
        )?;
        check(
            matches!(self.trace, TraceKind::None | TraceKind::Dsatur),
            "task.trace",
            || "of graph-color is none or dsatur".into(),
        )?;
        self.validate_text_only()
    }

    /// Graph tasks state their graph as text: a `png` rendering would store an empty image.
    pub fn validate_text_only(&self) -> Result<(), ConfigError> {
        check(
            !self.renderings.contains(&Rendering::Png),
            "task.renderings",
            || {
                format!(
                    "of {} holds png; graph tasks are text (png applies to grid tasks)",
                    self.task.name()
                )
            },
        )
    }
}
