//! `maze-steps` and `maze-path`: a real maze (any of the 13 algorithms, braided or not) with a
//! start and a goal at a distance drawn uniformly from the band, so that no answer is commoner
//! than the band allows; `maze-path` can make an exact share of items infeasible by walling one
//! cell of every way from start to goal.

use std::fmt::Write;
use std::sync::OnceLock;

use crate::core::error::GenError;
use crate::core::grid::cell;
use crate::core::rng::{WarrenRng, mix};
use crate::core::symmetry::{Canonical, Ends, SymmetryScratch, with_ends};
use crate::maze::{MazeAlgorithm, MazeConfig, MazeGenerator};
use crate::task::config::{Rendering, TaskConfig, TaskName, distance_capacity};
use crate::task::grid::{GridPuzzle, Move, UNREACHED};
use crate::task::item::{ItemOut, Split, in_split};
use crate::task::metrics::GridTaskMetrics;
use crate::task::render::{self, Glyphs};
use crate::task::trace;

/// The maze tasks' shared state: one maze generator per room size and algorithm, made when
/// first needed.
pub struct MazeTasks {
    /// Grid rows the spec allows, one entry per size in `min_rows..=max_rows` (rounded down to
    /// odd), so a size is drawn as often as the spec's range says.
    rows: Vec<u32>,
    /// Grid columns, likewise (unused when square).
    cols: Vec<u32>,
    /// Room rows of the smallest grid and how many room-row sizes there are.
    room_rows: (u32, u32),
    /// Room columns of the smallest grid and how many room-column sizes there are.
    room_cols: (u32, u32),
    gens: Vec<OnceLock<MazeGenerator>>,
}

/// One worker's maze-task memory.
#[derive(Default)]
pub struct MazeTaskScratch {
    maze: crate::maze::MazeScratch,
    puzzle: GridPuzzle,
    dist: Vec<u32>,
    queue: Vec<u32>,
    candidates: Vec<u32>,
    moves: Vec<Move>,
    text: String,
    sym: SymmetryScratch,
}

/// Largest grid side rounded down to odd (a maze grid is `2 * rooms + 1` cells).
fn odd(v: u32) -> u32 {
    if v.is_multiple_of(2) { v - 1 } else { v }
}

/// Tries of a fresh maze before an item gives up.
const ATTEMPTS: u32 = 64;

impl MazeTasks {
    /// The state for `cfg` (validated).
    pub fn new(cfg: &TaskConfig) -> Self {
        let (rows, cols): (Vec<u32>, Vec<u32>) = if cfg.square {
            // A side in both ranges (validation keeps them overlapping).
            let sides: Vec<u32> = (cfg.min_rows.max(cfg.min_cols)..=cfg.max_rows.min(cfg.max_cols))
                .map(odd)
                .collect();
            (sides.clone(), sides)
        } else {
            (
                (cfg.min_rows..=cfg.max_rows).map(odd).collect(),
                (cfg.min_cols..=cfg.max_cols).map(odd).collect(),
            )
        };
        let span = |v: &[u32]| {
            let lo = (v[0] - 1) / 2;
            let hi = (v[v.len() - 1] - 1) / 2;
            (lo, hi - lo + 1)
        };
        let (room_rows, room_cols) = (span(&rows), span(&cols));
        let slots = (room_rows.1 * room_cols.1) as usize * cfg.algorithms.len();
        Self {
            rows,
            cols,
            room_rows,
            room_cols,
            gens: (0..slots).map(|_| OnceLock::new()).collect(),
        }
    }

    /// The generator of `r x c` rooms with the `a`th algorithm of the spec.
    fn generator(&self, cfg: &TaskConfig, r: u32, c: u32, a: usize) -> &MazeGenerator {
        let ri = (r - self.room_rows.0) as usize;
        let ci = (c - self.room_cols.0) as usize;
        let slot = (ri * self.room_cols.1 as usize + ci) * cfg.algorithms.len() + a;
        self.gens[slot].get_or_init(|| {
            let algorithm = cfg.algorithms[a];
            let maze = MazeConfig {
                width: c,
                height: r,
                algorithm,
                braid: cfg.braid,
                // Seed 001's merge is part of its algorithm; the others keep their own shape.
                merge_dead_ends: algorithm == MazeAlgorithm::Seed001,
                ..MazeConfig::default()
            };
            MazeGenerator::new(maze).expect("task.validate bounds every maze parameter")
        })
    }

    /// A grid size `(rows, cols)` whose mazes can hold `d` steps, drawn uniformly from the
    /// spec's sizes that can (the largest when none can: validation keeps `min_dist` in reach).
    fn size(&self, cfg: &TaskConfig, d: u32, rng: &mut WarrenRng) -> (u32, u32) {
        for _ in 0..32 {
            let rows = self.rows[rng.below(self.rows.len() as u32) as usize];
            let cols = if cfg.square {
                rows
            } else {
                self.cols[rng.below(self.cols.len() as u32) as usize]
            };
            if distance_capacity(rows, cols) >= u64::from(d) {
                return (rows, cols);
            }
        }
        (
            *self.rows.last().expect("at least one size"),
            *self.cols.last().expect("at least one size"),
        )
    }

    /// Writes item `index` (its random stream `seed`, already split-mixed) of `split`.
    pub fn item(
        &self,
        cfg: &TaskConfig,
        seed: u64,
        index: u64,
        split: Split,
        s: &mut MazeTaskScratch,
        out: &mut ItemOut,
    ) -> Result<(), GenError> {
        let mut rng = WarrenRng::new(seed);
        let infeasible = cfg.task == TaskName::MazePath && takes_share(index, cfg.infeasible_share);
        let (lo, hi) = cfg.band();
        let d = lo + balanced(index, hi - lo + 1);
        let rendering = cfg.renderings[rng.below(cfg.renderings.len() as u32) as usize];
        let glyphs = Glyphs::draw(&mut rng);
        for _ in 0..ATTEMPTS {
            let (rows, cols) = self.size(cfg, d, &mut rng);
            let a = rng.below(cfg.algorithms.len() as u32) as usize;
            let generator = self.generator(cfg, (rows - 1) / 2, (cols - 1) / 2, a);
            let (grid, loops) = generator.grid_only(rng.next_u64(), &mut s.maze)?;
            load_puzzle(&mut s.puzzle, grid.width, grid.height, grid.cells);
            out.grid.width = grid.width;
            out.grid.height = grid.height;
            out.grid.cells.clear();
            out.grid.cells.extend_from_slice(grid.cells);
            let swappable = cfg.task != TaskName::MazePath;
            if !self.place_ends(
                d,
                infeasible,
                split,
                swappable,
                &out.grid.cells,
                &mut rng,
                s,
            ) {
                continue;
            }
            if infeasible && !block_every_way(&mut rng, s, out) {
                continue;
            }
            out.identity = identity(
                (out.grid.width, out.grid.height, &out.grid.cells),
                (s.puzzle.start, s.puzzle.goal),
                swappable,
                &mut s.sym,
            );
            if infeasible && !in_split(out.identity, split) {
                continue;
            }
            let algorithm = MazeAlgorithm::ALL
                .iter()
                .position(|x| *x == cfg.algorithms[a])
                .unwrap_or(0) as u32;
            write_item(
                cfg,
                rendering,
                &glyphs,
                (algorithm, loops, d),
                infeasible,
                s,
                out,
            );
            return Ok(());
        }
        Err(GenError {
            reason: "distance not placed".into(),
            detail: format!("no start and goal {d} steps apart in {ATTEMPTS} mazes"),
        })
    }

    /// Picks a start and a goal `d` steps apart whose puzzle belongs to `split` (for an
    /// infeasible item the split is checked once its way is walled). `cells` is the grid the
    /// puzzle is loaded from, `swappable` whether its identity takes start and goal as an
    /// unordered pair. `false`: none here.
    #[allow(clippy::too_many_arguments)]
    fn place_ends(
        &self,
        d: u32,
        infeasible: bool,
        split: Split,
        swappable: bool,
        cells: &[u8],
        rng: &mut WarrenRng,
        s: &mut MazeTaskScratch,
    ) -> bool {
        let p = &mut s.puzzle;
        // PERF: the grid is oriented and hashed once; each candidate goal then costs the
        // placement of its ends (`core::identity` computes the same from the stored item).
        let canon = Canonical::of(p.cols, p.rows, cells);
        let base = canon.grid_hash(cells, &mut s.sym);
        for attempt in 0..6 {
            let start = if attempt < 4 {
                random_open(p, rng)
            } else {
                // A far cell: one end of (nearly) the longest path, from which most distances
                // are found.
                let far =
                    p.distances_into(random_open(p, rng), u32::MAX, &mut s.dist, &mut s.queue);
                let at = s.queue.iter().rev().find(|&&v| s.dist[v as usize] == far);
                let v = *at.expect("the BFS queue holds its last layer");
                (v / p.cols, v % p.cols)
            };
            p.distances_into(start, d, &mut s.dist, &mut s.queue);
            s.candidates.clear();
            for &v in s.queue.iter().rev() {
                let dv = s.dist[v as usize];
                if dv < d {
                    break;
                }
                let ends = Ends {
                    start,
                    goal: (v / p.cols, v % p.cols),
                    swappable,
                };
                if infeasible || in_split(with_ends(base, canon.place(ends)), split) {
                    s.candidates.push(v);
                }
            }
            if s.candidates.is_empty() {
                continue;
            }
            let v = s.candidates[rng.below(s.candidates.len() as u32) as usize];
            p.start = start;
            p.goal = (v / p.cols, v % p.cols);
            return true;
        }
        false
    }
}

/// Salt of the distance blocks' rotations.
const BLOCK_SALT: u64 = 0xD157_A9CE_B10C_5EED;

/// The distance slot of item `index` among `width` values: every block of `width` consecutive
/// items takes each value exactly once (a rotation drawn per block), so over the first n items
/// no value is taken more than `ceil(n / width)` times, the least any draw can promise.
fn balanced(index: u64, width: u32) -> u32 {
    let w = u64::from(width);
    let rotation = mix(index / w, BLOCK_SALT) % w;
    ((index % w + rotation) % w) as u32
}

/// Whether item `index` is one of the `share` that are infeasible: exactly `floor(n * share)`
/// of the first `n` items are, for every `n`.
fn takes_share(index: u64, share: f64) -> bool {
    if share <= 0.0 {
        return false;
    }
    let at = |i: u64| (i as f64 * share).floor() as u64;
    at(index + 1) > at(index)
}

/// Fills the puzzle's cells from a maze grid (walls blocked, every other cell open).
fn load_puzzle(p: &mut GridPuzzle, width: u32, height: u32, cells: &[u8]) {
    p.rows = height;
    p.cols = width;
    p.open.clear();
    p.open.extend(cells.iter().map(|&c| c != cell::WALL));
}

/// A uniformly drawn open cell.
fn random_open(p: &GridPuzzle, rng: &mut WarrenRng) -> (u32, u32) {
    loop {
        let r = rng.below(p.rows);
        let c = rng.below(p.cols);
        if p.open[p.index((r, c))] {
            return (r, c);
        }
    }
}

/// The puzzle's identity, the `canonical_hash` the archive stores for it (`core::identity`,
/// a grid with ends): its grid `(width, height, cells)` up to the 8 rotations and reflections,
/// start and goal carried along (an unordered pair when `swappable`). The same for every
/// rendering of the puzzle and for its mirror images, so a split holds all of them or none.
pub fn identity(
    (width, height, cells): (u32, u32, &[u8]),
    (start, goal): ((u32, u32), (u32, u32)),
    swappable: bool,
    s: &mut SymmetryScratch,
) -> u64 {
    let canon = Canonical::of(width, height, cells);
    let grid = canon.grid_hash(cells, s);
    with_ends(
        grid,
        canon.place(Ends {
            start,
            goal,
            swappable,
        }),
    )
}

/// Walls one cell of the shortest way from start to goal until the goal cannot be reached
/// (once in a perfect maze; a braided one may need more); the grid is walled to match.
fn block_every_way(rng: &mut WarrenRng, s: &mut MazeTaskScratch, out: &mut ItemOut) -> bool {
    let p = &mut s.puzzle;
    for _ in 0..256 {
        p.distances_into(p.start, u32::MAX, &mut s.dist, &mut s.queue);
        let d = s.dist[p.index(p.goal)];
        if d == UNREACHED {
            return true;
        }
        if d < 2 || !p.path_words(&s.dist, &mut s.moves, &mut s.text) {
            return false;
        }
        // Walk the path from the start and wall a cell strictly between the ends.
        let k = 1 + rng.below(d - 1) as usize;
        let mut at = p.start;
        for m in s.moves.iter().rev().take(k) {
            let (dr, dc) = m.delta();
            at = ((i64::from(at.0) + dr) as u32, (i64::from(at.1) + dc) as u32);
        }
        let i = p.index(at);
        p.open[i] = false;
        out.grid.cells[i] = cell::WALL;
    }
    false
}

/// Question, answer, ground truth, trace and metrics of a placed maze item.
fn write_item(
    cfg: &TaskConfig,
    rendering: Rendering,
    glyphs: &Glyphs,
    (algorithm, loops, d): (u32, u32, u32),
    infeasible: bool,
    s: &mut MazeTaskScratch,
    out: &mut ItemOut,
) {
    let p = &s.puzzle;
    let feasible = !infeasible;
    // NOTE: `s.dist` still holds `place_ends`' search from this start (to depth d), which
    // found the goal there; only walling (infeasible items) searched again since.
    debug_assert!(!feasible || s.dist[p.index(p.goal)] == d);
    write_question(cfg.task, "maze", rendering, glyphs, p, out);
    out.answer.clear();
    out.ground_truth.clear();
    match cfg.task {
        TaskName::MazePath => {
            if feasible {
                p.path_words(&s.dist, &mut s.moves, &mut out.answer);
            } else {
                out.answer.push_str("infeasible");
            }
            path_ground_truth(p, feasible.then_some(d), &mut out.ground_truth);
        }
        _ => {
            let _ = write!(out.answer, "{d}");
            steps_ground_truth(cfg.task, d, &mut out.ground_truth);
        }
    }
    let trace_length = trace::grid_trace(cfg.trace, p, &mut out.trace);
    out.metrics.clear();
    out.metrics.extend(
        GridTaskMetrics {
            rows: p.rows,
            cols: p.cols,
            distance: if feasible { d } else { 0 },
            feasible: u32::from(feasible),
            open_cells: p.open.iter().filter(|&&o| o).count() as u32,
            start_row: p.start.0,
            start_col: p.start.1,
            goal_row: p.goal.0,
            goal_col: p.goal.1,
            algorithm,
            loops,
            rendering: rendering.code(),
            trace_length,
            answer_length: out.answer.len() as u32,
        }
        .to_array(),
    );
    let _ = &mut s.text;
}

/// The question of a grid task: the instruction, the rendering, the answer format.
pub fn write_question(
    task: TaskName,
    what: &str,
    rendering: Rendering,
    glyphs: &Glyphs,
    p: &GridPuzzle,
    out: &mut ItemOut,
) {
    let q = &mut out.question;
    q.clear();
    match task {
        TaskName::MazePath => {
            let _ = write!(
                q,
                "Find a shortest path from the start to the goal in this {what}. Each step moves \
                 one cell up, down, left or right onto an open cell; walls cannot be crossed.\n\n"
            );
        }
        _ => {
            let _ = write!(
                q,
                "How many steps does the shortest path from the start to the goal take in this \
                 {what}? Each step moves one cell up, down, left or right onto an open cell; walls \
                 cannot be crossed.\n\n"
            );
        }
    }
    render::render(rendering, p, glyphs, q, &mut out.image);
    q.push('\n');
    match task {
        TaskName::MazePath => q.push_str(
            "Answer with the moves separated by spaces, each one of up, down, left, right (for \
             example: right right down). If the goal cannot be reached, answer: infeasible",
        ),
        _ => q.push_str("Answer with a single integer: the number of steps."),
    }
}

/// `{"task":"maze-steps","steps":12}` (or `grid-steps`).
pub fn steps_ground_truth(task: TaskName, d: u32, out: &mut String) {
    let _ = write!(out, "{{\"task\":\"{}\",\"steps\":{d}}}", task.name());
}

/// `maze-path`'s ground truth: the grid (open cells in hex), the ends and the shortest length
/// (`null` when the goal cannot be reached).
pub fn path_ground_truth(p: &GridPuzzle, steps: Option<u32>, out: &mut String) {
    let _ = write!(
        out,
        "{{\"task\":\"maze-path\",\"rows\":{},\"cols\":{},\"start\":[{},{}],\"goal\":[{},{}],\"steps\":",
        p.rows, p.cols, p.start.0, p.start.1, p.goal.0, p.goal.1
    );
    match steps {
        Some(d) => {
            let _ = write!(out, "{d}");
        }
        None => out.push_str("null"),
    }
    out.push_str(",\"open\":\"");
    p.open_hex(out);
    out.push_str("\"}");
}
