//! `grid-steps`: a level of another grid kind (dmg, regions, grammar, map) with the start and
//! goal its kind computes (`start_x` .. `path_length`); answer: the shortest path's length.

use crate::core::error::GenError;
use crate::core::generator::{Generator, Level};
use crate::core::rng::WarrenRng;
use crate::core::route::walkable;
use crate::dmg::{DmgGenerator, DmgScratch};
use crate::grammar::{GrammarGenerator, GrammarScratch};
use crate::map::{MapGenerator, MapScratch};
use crate::regions::{RegionScratch, RegionsGenerator};
use crate::task::config::{GridSource, Rendering, TaskConfig, TaskName};
use crate::task::grid::{GridPuzzle, UNREACHED};
use crate::task::item::{ItemOut, Split, in_split};
use crate::task::maze::{identity, steps_ground_truth, write_question};
use crate::task::metrics::GridTaskMetrics;
use crate::task::render::Glyphs;
use crate::task::setup::TaskSetupError;
use crate::task::trace;

/// The source kind's generator.
pub enum GridTasks {
    /// DMG dungeons.
    Dmg(DmgGenerator),
    /// Recursive regions.
    Regions(RegionsGenerator),
    /// Graph-grammar tile maps.
    Grammar(Box<GrammarGenerator>),
    /// Maps from a level graph.
    Map(Box<MapGenerator>),
}

/// One worker's `grid-steps` memory: the source's scratch (made on first use) and the search.
#[derive(Default)]
pub struct GridStepsScratch {
    dmg: Option<DmgScratch>,
    regions: Option<RegionScratch>,
    grammar: Option<GrammarScratch>,
    map: Option<MapScratch>,
    puzzle: GridPuzzle,
    dist: Vec<u32>,
    queue: Vec<u32>,
    sym: crate::core::symmetry::SymmetryScratch,
}

/// Tries of a source level before an item gives up.
const ATTEMPTS: u32 = 256;

impl GridTasks {
    /// The source generator `cfg` names, with its section or its defaults.
    pub fn new(cfg: &TaskConfig) -> Result<Self, TaskSetupError> {
        Ok(match cfg.source {
            GridSource::Dmg => GridTasks::Dmg(DmgGenerator::new(
                cfg.dmg.as_deref().cloned().unwrap_or_default(),
            )?),
            GridSource::Regions => GridTasks::Regions(RegionsGenerator::new(
                cfg.regions.as_deref().cloned().unwrap_or_default(),
            )?),
            GridSource::Grammar => GridTasks::Grammar(Box::new(GrammarGenerator::new(
                cfg.grammar.as_deref().cloned().unwrap_or_default(),
            )?)),
            GridSource::Map => GridTasks::Map(Box::new(MapGenerator::new(
                cfg.map.as_deref().cloned().unwrap_or_default(),
            )?)),
        })
    }

    /// Writes one item from the random stream `seed` (already split-mixed).
    pub fn item(
        &self,
        cfg: &TaskConfig,
        seed: u64,
        split: Split,
        s: &mut GridStepsScratch,
        out: &mut ItemOut,
    ) -> Result<(), GenError> {
        let mut rng = WarrenRng::new(seed);
        let rendering = cfg.renderings[rng.below(cfg.renderings.len() as u32) as usize];
        let glyphs = Glyphs::draw(&mut rng);
        let (lo, hi) = cfg.band();
        let mut last = None;
        for _ in 0..ATTEMPTS {
            let level_seed = rng.next_u64();
            let placed = match self {
                GridTasks::Dmg(g) => load(
                    g,
                    level_seed,
                    s.dmg.get_or_insert_with(|| g.new_scratch()),
                    out,
                    &mut s.puzzle,
                ),
                GridTasks::Regions(g) => load(
                    g,
                    level_seed,
                    s.regions.get_or_insert_with(|| g.new_scratch()),
                    out,
                    &mut s.puzzle,
                ),
                GridTasks::Grammar(g) => load(
                    g.as_ref(),
                    level_seed,
                    s.grammar.get_or_insert_with(|| g.new_scratch()),
                    out,
                    &mut s.puzzle,
                ),
                GridTasks::Map(g) => load(
                    g.as_ref(),
                    level_seed,
                    s.map.get_or_insert_with(|| g.new_scratch()),
                    out,
                    &mut s.puzzle,
                ),
            };
            let d = match placed {
                Ok(d) => d,
                Err(e) => {
                    last = Some(e);
                    continue;
                }
            };
            if !(lo..=hi).contains(&d) {
                continue;
            }
            // A step count is the same from either end: start and goal are an unordered pair.
            out.identity = identity(
                (out.grid.width, out.grid.height, &out.grid.cells),
                (s.puzzle.start, s.puzzle.goal),
                true,
                &mut s.sym,
            );
            if !in_split(out.identity, split) {
                continue;
            }
            write_item(cfg, rendering, &glyphs, d, s, out);
            return Ok(());
        }
        Err(last.unwrap_or(GenError {
            reason: "distance not in band".into(),
            detail: format!(
                "no {} level with a path of {lo}..={hi} steps in {ATTEMPTS} tries",
                cfg.source.name()
            ),
        }))
    }
}

/// Question, answer, ground truth, trace and metrics of a placed `grid-steps` item.
fn write_item(
    cfg: &TaskConfig,
    rendering: Rendering,
    glyphs: &Glyphs,
    d: u32,
    s: &mut GridStepsScratch,
    out: &mut ItemOut,
) {
    let p = &s.puzzle;
    p.distances_into(p.start, u32::MAX, &mut s.dist, &mut s.queue);
    debug_assert_eq!(s.dist[p.index(p.goal)], d);
    write_question(
        TaskName::GridSteps,
        cfg.source.name_for_question(),
        rendering,
        glyphs,
        p,
        out,
    );
    out.answer.clear();
    out.answer.push_str(&d.to_string());
    out.ground_truth.clear();
    steps_ground_truth(TaskName::GridSteps, d, &mut out.ground_truth);
    let trace_length = trace::grid_trace(cfg.trace, p, &mut out.trace);
    out.metrics.clear();
    out.metrics.extend(
        GridTaskMetrics {
            rows: p.rows,
            cols: p.cols,
            distance: d,
            feasible: 1,
            open_cells: p.open.iter().filter(|&&o| o).count() as u32,
            start_row: p.start.0,
            start_col: p.start.1,
            goal_row: p.goal.0,
            goal_col: p.goal.1,
            algorithm: 0,
            loops: 0,
            rendering: rendering.code(),
            trace_length,
            answer_length: out.answer.len() as u32,
        }
        .to_array(),
    );
}

impl GridSource {
    /// What the question calls a level of this kind.
    fn name_for_question(self) -> &'static str {
        match self {
            GridSource::Dmg => "dungeon",
            GridSource::Regions => "map",
            GridSource::Grammar => "dungeon",
            GridSource::Map => "level map",
        }
    }
}

/// Loads a source level into `out.grid` and the puzzle (walkable cells open; the kind's start
/// and goal); returns the kind's path length.
fn load<G: Generator>(
    g: &G,
    seed: u64,
    scratch: &mut G::Scratch,
    out: &mut ItemOut,
    p: &mut GridPuzzle,
) -> Result<u32, GenError> {
    let names = g.columns().metrics;
    let level: Level<'_> = g.generate(seed, scratch)?;
    let grid = level.grid.ok_or_else(|| GenError {
        reason: "no grid".into(),
        detail: "the source level has no tile grid".into(),
    })?;
    let metric = |name: &str| {
        names
            .iter()
            .position(|m| m.name == name)
            .map(|i| level.metrics[i] as u32)
    };
    let (Some(sx), Some(sy), Some(gx), Some(gy), Some(d)) = (
        metric("start_x"),
        metric("start_y"),
        metric("goal_x"),
        metric("goal_y"),
        metric("path_length"),
    ) else {
        return Err(GenError {
            reason: "no start and goal".into(),
            detail: "the source kind stores no start_x .. path_length metrics".into(),
        });
    };
    out.grid.width = grid.width;
    out.grid.height = grid.height;
    out.grid.cells.clear();
    out.grid.cells.extend_from_slice(grid.cells);
    p.rows = grid.height;
    p.cols = grid.width;
    p.open.clear();
    p.open.extend(grid.cells.iter().map(|&c| walkable(c)));
    p.start = (sy, sx);
    p.goal = (gy, gx);
    if d == 0 || d == UNREACHED {
        return Err(GenError {
            reason: "goal not reached".into(),
            detail: "the source level's goal cannot be reached".into(),
        });
    }
    Ok(d)
}
