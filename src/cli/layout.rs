//! `warren layout GRAPH [--algorithm A] [--out POS.tsv] [--svg OUT.svg] [--repeat R] [--json]`:
//! lay out any graph file and report its time and quality, the entry point for comparing
//! warren's layout with others (DESIGN.md, "Command line").
//!
//! The graph is read with [`read_graph`], which chooses the format by extension: a SNAP /
//! networkx edge list by default, Matrix Market (`.mtx`), GraphML (`.graphml`), GML (`.gml`) or
//! DOT (`.dot`, `.gv`). By default (`--algorithm auto`) it is laid out at low stress by
//! [`layout_stress`]: up to [`AUTO_FULL_UP_TO`] vertices by stochastic gradient descent on full
//! stress, above by the multilevel force drawing ([`layout_multilevel`]: coarsening, an MDS
//! drawing of the coarsest level, placement and Fruchterman-Reingold refinement of each finer
//! level on a Barnes-Hut quadtree) refined by light sparse stress
//! ([`StressParams::refine`]). `--algorithm stress` takes the stress layout at its lowest
//! (full stress up to 10,000 vertices, sparse pivot stress with 200 pivots above);
//! `--algorithm multilevel` the force drawing alone; `--algorithm single` seed 000's solver,
//! started from [`curve_positions`] (depth-first order along a Hilbert curve; `--start random`
//! scatters the vertices instead, [`random_positions`]) and relaxed with [`relax`]. `--pin`
//! and `--start POS.tsv` work with the stress layouts. Only the layout is timed: not reading, not
//! the single-level start positions, not the quality figures. With `--repeat R` the graph is
//! laid out R times from the seeds `mix(S, 0..R)` and the median time is reported; every other
//! figure, and the positions written, come from the first run. `--threads N` runs the layout
//! on N threads (the positions are the same bits for any N).
//!
//! With `--weights` each edge's weight is read from the file ([`ReadOptions::weights`]) and
//! asked for as its length: the solvers get each weight over the mean weight as the edge's
//! length factor (kept within [`FACTOR_LIMIT`] either way), so positions are in units of the
//! mean weight, as without weights they are in units of one edge.
//!
//! Every layout is scored the same way: crossings (exact below
//! [`quality::SAMPLE_CROSSINGS_FROM`] edges, estimated from a sample of edges from there), the
//! edge-length coefficient of variation (of length over weight, with `--weights`), the
//! normalized stress over sampled vertex pairs ([`normalized_stress_weighted`], against
//! weighted graph distances with `--weights`) and the neighbourhood preservation
//! ([`neighbourhood_auto`], from a sample of vertices from
//! [`crate::layout::neighbourhood::NEIGHBOURHOOD_SAMPLE_FROM`] vertices). `--positions POS.tsv` scores positions from any other tool with the
//! same code, laying nothing out. Output, on stdout, is one line per figure, or one JSON object
//! with `--json`. `--out` writes the first run's positions as TSV, naming each vertex by its id
//! in the file; `--svg` draws them ([`layout_svg`]).
//!
//! A graph without edges (empty, only comments, or only self-loops) is an error: there is
//! nothing to lay out, and a zero result would hide a mistyped file name.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};

use super::layout_positions::{positions_tsv, read_positions};
use crate::core::rng::mix;
use crate::layout::edgelist::EdgeList;
use crate::layout::formats::{ReadOptions, read_graph_with};
use crate::layout::multilevel::{MultilevelParams, layout_multilevel};
use crate::layout::neighbourhood::{Neighbourhood, neighbourhood_auto};
use crate::layout::quality::{self, Crossings};
use crate::layout::sgd::{Given, StressParams, layout_stress};
use crate::layout::start::curve_positions;
use crate::layout::stress::normalized_stress_weighted;
use crate::layout::svg::layout_svg;
use crate::layout::{
    LayoutGraph, LayoutParams, LayoutScratch, Repulsion, Spring, random_positions, relax,
};

/// Largest graph `--algorithm auto` draws with full stress (every pair); larger ones get the
/// multilevel force drawing refined by light sparse stress ([`StressParams::refine`]). Full
/// stress costs about 5x the refinement at 1,000 vertices (level-like graph: 33 ms against
/// 6 ms) and grows with the square of the vertices, most of it the all-pairs searches; on the
/// real graphs below the line it is what reaches the stress optimum (hep-th, 5,835 vertices:
/// 318 ms at 0.99x s_gd2's full-stress drawing, against 43 ms at 1.18x refined; 4elt, 7,434
/// vertices: 517 ms at 1.01x, against 56 ms at 1.25x; 2 threads). Past 8,000 vertices the
/// default gives up that last tenth or fifth of stress for speed (a level-like graph of
/// 10,000: 1.8 s of full stress against 66 ms refined); `--algorithm stress` keeps full stress
/// up to 10,000.
pub const AUTO_FULL_UP_TO: usize = 8_000;

/// Finest-level iterations of the force drawing the default refines: the refinement does the
/// fine work, so 8 instead of 15 (level-like graph of 100,000 vertices: stress 0.0006 either
/// way, 190 ms less).
pub const AUTO_ITERATIONS: u32 = 8;

/// Which solver lays the graph out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Algorithm {
    /// Stress: full stress up to `AUTO_FULL_UP_TO` (8,000) vertices, above it the multilevel
    /// force drawing refined by light sparse stress (32 pivots, more on small-world graphs, and
    /// the pairs within six edges).
    Auto,
    /// Stress by stochastic gradient descent: full stress up to 10,000 vertices (from random
    /// positions up to 2,000), sparse pivot stress above, started from the multilevel drawing.
    Stress,
    /// Force-only: coarsen, lay out the coarsest graph, place and refine each finer level with
    /// forces (faster, higher stress).
    Multilevel,
    /// Seed 000's solver on the whole graph from a start drawing (the grammar levels' solver).
    Single,
}

/// Which stress model `--algorithm stress` minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum StressModel {
    /// Full stress up to 10,000 vertices per component, sparse above.
    Auto,
    /// Every vertex pair (quadratic time and memory).
    Full,
    /// Each vertex against pivots, and every edge.
    Sparse,
}

/// How a layout starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Start {
    /// Depth-first order along a Hilbert curve: edges start short (untangles large graphs).
    Curve,
    /// Uniformly scattered over a square of side sqrt(n) edge lengths.
    Random,
}

/// What `--start` names: a start drawing of the single-level solver or a positions file.
#[derive(Clone, Debug, PartialEq)]
pub enum StartArg {
    /// A generated start drawing.
    Drawn(Start),
    /// Positions read from a file.
    File(PathBuf),
}

/// `--start`'s value: `curve`, `random` or a path.
fn parse_start(value: &str) -> Result<StartArg, String> {
    Ok(match value {
        "curve" => StartArg::Drawn(Start::Curve),
        "random" => StartArg::Drawn(Start::Random),
        "" => return Err("expected curve, random or a positions file".to_string()),
        path => StartArg::File(PathBuf::from(path)),
    })
}

/// Positions read from `--start` and `--pin`, by vertex (NaN for a vertex without a pin).
#[derive(Default)]
struct GivenFiles {
    start: Option<(Vec<f32>, Vec<f32>)>,
    pins: Option<(Vec<f32>, Vec<f32>)>,
}

impl GivenFiles {
    /// What the layout gets of them.
    fn given(&self) -> Given<'_> {
        fn pair(p: &Option<(Vec<f32>, Vec<f32>)>) -> Option<(&[f32], &[f32])> {
            p.as_ref().map(|(x, y)| (x.as_slice(), y.as_slice()))
        }
        Given {
            start: pair(&self.start),
            pins: pair(&self.pins),
        }
    }
}

/// Arguments of `layout`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The graph file, its format chosen by extension: `.mtx` Matrix Market, `.graphml` GraphML,
    /// `.gml` GML, `.dot` or `.gv` DOT; anything else is an edge list, `u v` per line (ids are
    /// non-negative integers), further columns ignored, `#` comments.
    graph: PathBuf,
    /// Read each edge's weight and lay the edge out that long (relative to the others): an edge
    /// list's third column, Matrix Market values, GraphML's edge key `weight`, GML's `weight`,
    /// DOT's `len` or else `weight`; each a positive finite number. Stress is then scored
    /// against weighted distances and the edge-length cv over length / weight.
    #[arg(long)]
    weights: bool,
    /// Solver: by default stress (full up to 8,000 vertices, the multilevel force drawing
    /// refined by light sparse stress above); `stress` for the stress layout at its lowest
    /// (full up to 10,000 vertices, sparse with 200 pivots above; slower on large graphs);
    /// `multilevel` for the force drawing alone (fastest); `single` for seed 000's solver.
    #[arg(long, value_enum, default_value_t = Algorithm::Auto)]
    algorithm: Algorithm,
    /// Stress model of `--algorithm stress`: `full` (every pair), `sparse` (pivots) or `auto`
    /// (full up to 10,000 vertices per component; 8,000 for `--algorithm auto`).
    #[arg(long, value_enum, default_value_t = StressModel::Auto)]
    stress_model: StressModel,
    /// Epochs of the stress schedule (default 30; a start from the force drawing runs its
    /// last half).
    #[arg(long)]
    epochs: Option<u32>,
    /// Pivots of sparse stress (default 200; fewer on graphs so large that pivots times
    /// vertices would pass 40 million).
    #[arg(long)]
    pivots: Option<usize>,
    /// Iteration cap (single-level: default 300; multilevel: of the finest level, default 15,
    /// 8 under the default's refinement; coarser levels get more).
    #[arg(long)]
    iterations: Option<u32>,
    /// Threads for one layout (default: every core). Positions are the same bits for any
    /// count.
    #[arg(long)]
    threads: Option<usize>,
    /// Score these positions (TSV `id\tx\ty`, as `--out` writes them, from any tool) with the
    /// same quality figures instead of laying the graph out.
    #[arg(long, value_name = "POS.tsv", conflicts_with_all = ["out", "repeat"])]
    positions: Option<PathBuf>,
    /// Spring law.
    #[arg(long, value_enum, default_value_t = Spring::Log)]
    spring: Spring,
    /// Repulsion kernel (`auto`: exact SIMD for small graphs, Barnes-Hut for large ones).
    #[arg(long, value_enum, default_value_t = Repulsion::Auto)]
    repulsion: Repulsion,
    /// Barnes-Hut opening angle (smaller is more exact and slower; default 0.9 single-level,
    /// 1.0 multilevel).
    #[arg(long, allow_negative_numbers = true)]
    theta: Option<f32>,
    /// Repulsion only between vertices closer than this many edge lengths (default: all pairs).
    #[arg(long, allow_negative_numbers = true)]
    cutoff: Option<f32>,
    /// Stop once no vertex moves more than this many edge lengths in a step (0: always run
    /// every iteration; default 0.001 single-level, 0.01 per level multilevel).
    #[arg(long, allow_negative_numbers = true)]
    tolerance: Option<f32>,
    /// Seed of the start positions: run r starts from `mix(seed, r)`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start positions: `curve` or `random` for the single-level solver (default `curve`), or
    /// a positions file (TSV `id\tx\ty` as `--out` writes them, a row for every vertex) for
    /// `stress` (refined with the small steps of the schedule, for incremental layout after a
    /// small change) and `single`.
    #[arg(long, value_name = "curve|random|POS.tsv", value_parser = parse_start, default_value = "curve")]
    start: StartArg,
    /// Pin vertices (`stress` only): each row `id\tx\ty` of this file (any subset of the
    /// vertices, positions in edge lengths) puts its vertex exactly there, the others are laid
    /// out around them.
    #[arg(long, value_name = "POS.tsv")]
    pin: Option<PathBuf>,
    /// Write the positions (of the first run) here as TSV, `id\tx\ty` with the file's vertex
    /// ids (a tab, line break or backslash in a name written `\t`, `\n`, `\r`, `\\`); written
    /// atomically.
    #[arg(long, value_name = "POS.tsv")]
    out: Option<PathBuf>,
    /// Draw the first run's layout here as SVG: edges as thin lines, vertices as dots (no dots
    /// above 50,000 vertices), about 1000 px on the long side; written atomically.
    #[arg(long, value_name = "OUT.svg")]
    svg: Option<PathBuf>,
    /// Lay the graph out this many times and report the median time.
    #[arg(long, default_value_t = 1)]
    repeat: u32,
    /// Print one JSON object instead of one line per figure.
    #[arg(long)]
    json: bool,
}

/// What one layout run did, whichever solver ran.
#[derive(Clone, Copy, Debug, Default)]
struct RunReport {
    /// Iterations (of the finest level, for the multilevel layout).
    iterations: u32,
    /// Whether it stopped below the tolerance rather than at the cap (every level, multilevel).
    converged: bool,
    /// The largest move in the last iteration, in edge lengths (single-level only).
    last_move: Option<f32>,
    /// Levels of the hierarchy (1 for the single-level solver).
    levels: u32,
}

/// The quality figures every layout is scored by.
#[derive(Clone, Copy, Debug)]
struct Scores {
    crossings: Crossings,
    length_cv: f32,
    stress: f64,
    neighbourhood: Neighbourhood,
}

/// What one `layout` command measured.
struct Summary {
    vertices: usize,
    edges: usize,
    self_loops: u64,
    /// Whether edge weights were read (`--weights`).
    weighted: bool,
    /// The solver that ran (`None` when scoring given positions).
    algorithm: Option<Algorithm>,
    /// Layout time of each run, in milliseconds.
    times_ms: Vec<f64>,
    /// The first run's report.
    report: RunReport,
    /// The first run's quality.
    scores: Scores,
    /// Milliseconds spent on the quality figures.
    scoring_ms: f64,
}

/// Checks `args`' ranges.
fn check_args(args: &Args) -> Result<()> {
    if let Some(t) = args.theta.filter(|t| !(t.is_finite() && *t >= 0.0)) {
        bail!("--theta {t}: must be a finite number >= 0");
    }
    if let Some(c) = args.cutoff.filter(|c| !(c.is_finite() && *c > 0.0)) {
        bail!("--cutoff {c}: must be a finite number > 0");
    }
    if let Some(t) = args.tolerance.filter(|t| !(t.is_finite() && *t >= 0.0)) {
        bail!("--tolerance {t}: must be a finite number >= 0");
    }
    if args.repeat == 0 {
        bail!("--repeat 0: must be at least 1");
    }
    if args.threads == Some(0) {
        bail!("--threads 0: must be at least 1");
    }
    if args.epochs == Some(0) {
        bail!("--epochs 0: must be at least 1");
    }
    if args.pivots == Some(0) {
        bail!("--pivots 0: must be at least 1");
    }
    if args.pin.is_some() && !matches!(args.algorithm, Algorithm::Stress | Algorithm::Auto) {
        bail!("--pin: only the stress layouts (--algorithm auto or stress) hold pinned vertices");
    }
    if matches!(args.start, StartArg::File(_)) && args.algorithm == Algorithm::Multilevel {
        bail!("--start POS.tsv: the multilevel layout draws from nothing; use stress or single");
    }
    Ok(())
}

/// Most vertices `--stress-model full` takes: its targets need `n^2` bytes (2.5 GB here).
const FULL_MOST: usize = 50_000;

/// Checks what the graph allows of the arguments.
fn check_graph(args: &Args, n: usize) -> Result<()> {
    if args.stress_model == StressModel::Full && n > FULL_MOST {
        bail!(
            "--stress-model full: {n} vertices need {:.1} GB of targets (n^2 bytes), more than \
             the {FULL_MOST}-vertex limit; use --stress-model sparse",
            (n as f64).powi(2) / 1e9
        );
    }
    Ok(())
}

/// Single-level solver settings from the arguments.
fn layout_params(args: &Args) -> LayoutParams {
    let d = LayoutParams::default();
    LayoutParams {
        spring: args.spring,
        repulsion: args.repulsion,
        theta: args.theta.unwrap_or(d.theta),
        cutoff: args.cutoff,
        tolerance: args.tolerance.unwrap_or(d.tolerance),
        max_iterations: args.iterations.unwrap_or(d.max_iterations),
        ..d
    }
}

/// Stress settings from the arguments.
fn stress_params(args: &Args) -> StressParams {
    let d = StressParams::default();
    let full_up_to = match args.stress_model {
        StressModel::Auto => d.full_up_to,
        StressModel::Full => usize::MAX,
        StressModel::Sparse => 0,
    };
    StressParams {
        epochs: args.epochs.unwrap_or(d.epochs),
        sparse_epochs: args.epochs.unwrap_or(d.sparse_epochs),
        pivots: args.pivots.unwrap_or(d.pivots),
        full_up_to,
        ..d
    }
}

/// The default's stress settings ([`StressParams::refine`]) from the arguments.
fn auto_stress_params(args: &Args) -> StressParams {
    let full_up_to = match args.stress_model {
        StressModel::Auto => AUTO_FULL_UP_TO,
        StressModel::Full => usize::MAX,
        StressModel::Sparse => 0,
    };
    let d = StressParams::refine(full_up_to);
    StressParams {
        epochs: args.epochs.unwrap_or(d.epochs),
        sparse_epochs: args.epochs.unwrap_or(d.sparse_epochs),
        pivots: args.pivots.unwrap_or(d.pivots),
        // `--pivots P` asks for exactly P.
        small_world_terms: if args.pivots.is_some() {
            0
        } else {
            d.small_world_terms
        },
        ..d
    }
}

/// Multilevel settings from the arguments.
fn multilevel_params(args: &Args) -> MultilevelParams {
    let d = MultilevelParams::default();
    MultilevelParams {
        iterations: args.iterations.unwrap_or(d.iterations),
        tolerance: args.tolerance.unwrap_or(d.tolerance),
        theta: args.theta.unwrap_or(d.theta),
        ..d
    }
}

/// The median of `values` (the mean of the middle two for an even count; 0 for none).
fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    match sorted.len() {
        0 => 0.0,
        n if n % 2 == 1 => sorted[n / 2],
        n => (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0,
    }
}

/// Runs `layout`.
pub fn run(args: Args) -> Result<ExitCode> {
    check_args(&args)?;
    // Both outputs' folders are checked before the graph is read and laid out.
    for out in [&args.out, &args.svg].into_iter().flatten() {
        super::check_output_folder(out)?;
    }
    let options = ReadOptions {
        weights: args.weights,
    };
    let list = read_graph_with(&args.graph, options)?;
    if list.edge_count() == 0 {
        bail!(
            "{}: no edges to lay out ({} vertices, {} self-loops dropped)",
            args.graph.display(),
            list.vertex_count(),
            list.self_loops
        );
    }
    if args.positions.is_none() {
        check_graph(&args, list.vertex_count())?;
    }
    let summary = match args.threads {
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(t)
            .build()
            .context("cannot start the worker threads")?
            .install(|| summarise(&args, &list))?,
        None => summarise(&args, &list)?,
    };
    let text = if args.json {
        summary_json(&summary)
    } else {
        summary_lines(&summary)
    };
    let mut stdout = std::io::stdout().lock();
    stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush())
        .context("cannot write to stdout")?;
    Ok(ExitCode::SUCCESS)
}

/// How far from 1 a length factor may be ([`length_factors`]): a weight more than this many
/// times the mean weight (or less than its inverse) is laid out as if it were that many. Far
/// enough for any drawing to show, near enough that no force overflows `f32`.
pub const FACTOR_LIMIT: f32 = 1e4;

/// The length factors the solvers get for `weights`: each over the mean weight, clamped to
/// `1 / FACTOR_LIMIT ..= FACTOR_LIMIT`. `None` without weights.
fn length_factors(weights: Option<&[f32]>) -> Option<Vec<f32>> {
    let weights = weights.filter(|w| !w.is_empty())?;
    let mean = weights.iter().map(|&w| f64::from(w)).sum::<f64>() / weights.len() as f64;
    let limit = f64::from(FACTOR_LIMIT);
    // NOTE: every weight is positive and finite, so the mean is too and every ratio is a
    // positive number (or +inf for a weight near f32::MAX over a tiny mean) that clamps finite.
    let factor = |w: f32| (f64::from(w) / mean).clamp(1.0 / limit, limit) as f32;
    Some(weights.iter().map(|&w| factor(w)).collect())
}

/// Lays `list` out (or reads `--positions`), writes `--out` and scores the first run.
fn summarise(args: &Args, list: &EdgeList) -> Result<Summary> {
    let factors = length_factors(list.weights.as_deref());
    let graph = LayoutGraph {
        length_factor: factors.as_deref(),
        ..list.graph()
    };
    let n = list.vertex_count();
    let (first_x, first_y, report, times_ms, algorithm) = match &args.positions {
        Some(path) => {
            let (x, y) = read_positions(path, &list.ids, true)?;
            (x, y, RunReport::default(), Vec::new(), None)
        }
        None => {
            let algorithm = args.algorithm;
            let files = GivenFiles {
                start: match &args.start {
                    StartArg::File(path) => Some(read_positions(path, &list.ids, true)?),
                    StartArg::Drawn(_) => None,
                },
                pins: match &args.pin {
                    Some(path) => Some(read_positions(path, &list.ids, false)?),
                    None => None,
                },
            };
            let mut scratch = LayoutScratch::default();
            let mut lay_out = |r: u32, x: &mut Vec<f32>, y: &mut Vec<f32>| {
                let run = Run {
                    algorithm,
                    graph: &graph,
                    n,
                    r,
                    files: &files,
                };
                lay_out_once(args, run, x, y, &mut scratch)
            };
            // The first run's positions are kept for output and quality; later runs share a
            // buffer.
            let (mut fx, mut fy) = (Vec::new(), Vec::new());
            let (report, first_ms) = lay_out(0, &mut fx, &mut fy);
            let mut times_ms = vec![first_ms];
            let (mut x, mut y) = (Vec::new(), Vec::new());
            for r in 1..args.repeat {
                times_ms.push(lay_out(r, &mut x, &mut y).1);
            }
            (fx, fy, report, times_ms, Some(algorithm))
        }
    };
    if let Some(out) = &args.out {
        super::write_atomic(out, positions_tsv(&list.ids, &first_x, &first_y).as_bytes())?;
    }
    if let Some(svg) = &args.svg {
        let drawing = layout_svg(&list.graph(), &first_x, &first_y);
        super::write_atomic(svg, drawing.as_bytes())?;
    }
    let start = Instant::now();
    let scores = score(&first_x, &first_y, list, args.seed);
    let scoring_ms = start.elapsed().as_secs_f64() * 1e3;
    Ok(Summary {
        vertices: n,
        edges: list.edge_count(),
        self_loops: list.self_loops,
        weighted: list.weights.is_some(),
        algorithm,
        times_ms,
        report,
        scores,
        scoring_ms,
    })
}

/// One layout run's inputs: the solver, the graph of `n` vertices, the run index `r` (seed
/// `mix(seed, r)`) and the positions files.
struct Run<'a> {
    algorithm: Algorithm,
    graph: &'a LayoutGraph<'a>,
    n: usize,
    r: u32,
    files: &'a GivenFiles,
}

/// Lays the graph out once; returns the report and the time of the layout itself in
/// milliseconds (not the start drawing of the single-level solver).
fn lay_out_once(
    args: &Args,
    run: Run<'_>,
    x: &mut Vec<f32>,
    y: &mut Vec<f32>,
    scratch: &mut LayoutScratch,
) -> (RunReport, f64) {
    let Run {
        algorithm,
        graph,
        n,
        r,
        files,
    } = run;
    let seed = mix(args.seed, u64::from(r));
    if matches!(algorithm, Algorithm::Stress | Algorithm::Auto) {
        let mut params = multilevel_params(args);
        let mut stress = stress_params(args);
        if algorithm == Algorithm::Auto {
            stress = auto_stress_params(args);
            params.iterations = args.iterations.unwrap_or(AUTO_ITERATIONS);
        }
        let start = Instant::now();
        let (s, m) = layout_stress(n, graph, &stress, &params, seed, files.given(), x, y);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let report = RunReport {
            iterations: s.epochs,
            converged: true,
            last_move: None,
            levels: m.levels.max(1),
        };
        return (report, ms);
    }
    if algorithm == Algorithm::Multilevel {
        let params = multilevel_params(args);
        let start = Instant::now();
        let m = layout_multilevel(n, graph, &params, seed, x, y);
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let report = RunReport {
            iterations: m.iterations,
            converged: m.converged,
            last_move: None,
            levels: m.levels,
        };
        return (report, ms);
    }
    let params = layout_params(args);
    match &args.start {
        StartArg::Drawn(Start::Curve) => {
            curve_positions(n, graph.src, graph.dst, params.length, seed, x, y)
        }
        StartArg::Drawn(Start::Random) => random_positions(n, params.length, seed, x, y),
        StartArg::File(_) => {
            let (sx, sy) = files.start.as_ref().expect("read with the arguments");
            x.clone_from(sx);
            y.clone_from(sy);
        }
    }
    let start = Instant::now();
    let report = relax(graph, x, y, &params, scratch);
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let report = RunReport {
        iterations: report.iterations,
        converged: report.converged,
        last_move: Some(report.last_move),
        levels: 1,
    };
    (report, ms)
}

/// The quality figures of positions `x`, `y` of `list`: crossings (estimated past
/// [`quality::SAMPLE_CROSSINGS_FROM`] edges), edge-length spread and sampled stress (both
/// against the weights, when read) and neighbourhood preservation.
fn score(x: &[f32], y: &[f32], list: &EdgeList, seed: u64) -> Scores {
    let (src, dst, weights) = (&list.src[..], &list.dst[..], list.weights.as_deref());
    Scores {
        crossings: quality::crossings_auto(x, y, src, dst, seed),
        length_cv: quality::length_cv_weighted(x, y, src, dst, weights),
        stress: normalized_stress_weighted(x, y, src, dst, weights, seed),
        neighbourhood: neighbourhood_auto(x, y, src, dst, seed),
    }
}

/// The algorithm's name as `--algorithm` takes it.
fn algorithm_name(a: Option<Algorithm>) -> &'static str {
    match a {
        None => "given",
        Some(Algorithm::Multilevel) => "multilevel",
        Some(Algorithm::Stress) => "stress",
        Some(Algorithm::Auto) => "auto",
        Some(Algorithm::Single) => "single",
    }
}

/// The human form: one line per figure.
fn summary_lines(s: &Summary) -> String {
    let loops = match s.self_loops {
        0 => String::new(),
        k => format!(" ({k} self-loops dropped)"),
    };
    let mut text = format!("vertices {}\nedges {}{loops}\n", s.vertices, s.edges);
    if s.algorithm.is_some() {
        let stop = if s.report.converged {
            "converged"
        } else {
            "cap"
        };
        let _ = write!(
            text,
            "algorithm {} ({} levels)\ntime {:.3} ms (median of {})\niterations {} ({stop})\n",
            algorithm_name(s.algorithm),
            s.report.levels,
            median(&s.times_ms),
            s.times_ms.len(),
            s.report.iterations,
        );
    }
    let sampled = if s.scores.crossings.sampled {
        " (estimated from a sample of edges)".to_string()
    } else {
        String::new()
    };
    let (over, against) = if s.weighted {
        (" (of length / weight)", " (weighted distances)")
    } else {
        ("", "")
    };
    let np_sampled = if s.scores.neighbourhood.sampled {
        " (estimated from a sample of vertices)"
    } else {
        ""
    };
    let _ = write!(
        text,
        "crossings {}{sampled}\nedge length cv {:.4}{over}\nstress {:.4}{against}\n\
         neighbourhood preservation {:.4}{np_sampled}\n",
        s.scores.crossings.count, s.scores.length_cv, s.scores.stress, s.scores.neighbourhood.mean,
    );
    text
}

/// A JSON number (`f32`'s shortest round-trip text), or `null` for NaN and infinities, which
/// JSON cannot hold.
fn json_f32(v: f32) -> String {
    if v.is_finite() {
        format!("{v}")
    } else {
        "null".to_string()
    }
}

/// Milliseconds as a JSON number, to 0.1 microsecond.
fn json_ms(ms: f64) -> String {
    if ms.is_finite() {
        format!("{ms:.4}")
    } else {
        "null".to_string()
    }
}

/// The `--json` form: one object on one line.
fn summary_json(s: &Summary) -> String {
    let times: Vec<String> = s.times_ms.iter().map(|&t| json_ms(t)).collect();
    // A run that laid nothing out (`--positions`) has no levels, time or iterations: null.
    let laid_out = |v: String| {
        if s.algorithm.is_some() {
            v
        } else {
            "null".to_string()
        }
    };
    format!(
        "{{\"vertices\":{},\"edges\":{},\"self_loops\":{},\"algorithm\":\"{}\",\"levels\":{},\
         \"repeat\":{},\"time_ms\":{},\"times_ms\":[{}],\"iterations\":{},\"converged\":{},\
         \"last_move\":{},\"crossings\":{},\"crossings_sampled\":{},\"edge_length_cv\":{},\
         \"stress\":{},\"scoring_ms\":{},\"neighbourhood_preservation\":{},\
         \"neighbourhood_sampled\":{},\"weighted\":{}}}\n",
        s.vertices,
        s.edges,
        s.self_loops,
        algorithm_name(s.algorithm),
        laid_out(s.report.levels.to_string()),
        s.times_ms.len(),
        laid_out(json_ms(median(&s.times_ms))),
        times.join(","),
        laid_out(s.report.iterations.to_string()),
        laid_out(s.report.converged.to_string()),
        s.report.last_move.map_or("null".to_string(), json_f32),
        s.scores.crossings.count,
        s.scores.crossings.sampled,
        json_f32(s.scores.length_cv),
        json_f32(s.scores.stress as f32),
        json_ms(s.scoring_ms),
        json_f32(s.scores.neighbourhood.mean as f32),
        s.scores.neighbourhood.sampled,
        s.weighted,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&[]), 0.0);
    }

    #[test]
    fn length_factors_are_weights_over_their_mean_within_the_limit() {
        assert_eq!(length_factors(None), None);
        assert_eq!(length_factors(Some(&[])), None);
        let f = length_factors(Some(&[1.0, 3.0, 2.0])).unwrap();
        assert_eq!(f, [0.5, 1.5, 1.0]);
        let f = length_factors(Some(&[f32::MAX, 1e-30, 1e-30])).unwrap();
        assert_eq!(f, [3.0, 1.0 / FACTOR_LIMIT, 1.0 / FACTOR_LIMIT]);
        let f = length_factors(Some(&[f32::MIN_POSITIVE, 1e30])).unwrap();
        assert_eq!(f, [1.0 / FACTOR_LIMIT, 2.0]);
    }

    #[test]
    fn json_numbers_are_never_nan() {
        assert_eq!(json_f32(0.001), "0.001");
        assert_eq!(json_f32(f32::NAN), "null");
        assert_eq!(json_f32(f32::INFINITY), "null");
        assert_eq!(json_ms(0.005_256_999_9), "0.0053");
        assert_eq!(json_ms(f64::NAN), "null");
    }
}
