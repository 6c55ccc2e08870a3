//! `warren layout GRAPH [--iterations N] [--out POS.tsv] [--svg OUT.svg] [--repeat R] [--json]`:
//! lay out any graph file with the force solver (seed 000) and report its time and quality, the
//! entry point for comparing warren's solver with others (DESIGN.md, "Command line").
//!
//! The graph is read with [`read_graph`], which chooses the format by extension: a SNAP /
//! networkx edge list by default, Matrix Market (`.mtx`), GraphML (`.graphml`), GML (`.gml`) or
//! DOT (`.dot`, `.gv`). It is started from
//! [`curve_positions`] (depth-first order along a Hilbert curve; `--start random` scatters the
//! vertices instead, [`random_positions`]) and relaxed with [`relax`]. Only `relax` is timed: not reading, not the
//! start positions, not the quality figures. With `--repeat R` the graph is laid out R times from
//! the seeds `mix(S, 0..R)` and the median time is reported; every other figure, and the
//! positions written, come from the first run. Output, on stdout, is one line per figure, or one
//! JSON object with `--json`. `--out` writes the first run's positions as TSV, naming each
//! vertex by its id in the file; `--svg` draws them ([`layout_svg`]).
//!
//! A graph without edges (empty, only comments, or only self-loops) is an error: there is
//! nothing to lay out, and a zero result would hide a mistyped file name.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result, bail};

use crate::core::rng::mix;
use crate::layout::formats::{VertexIds, read_graph};
use crate::layout::quality::{self, Quality};
use crate::layout::start::curve_positions;
use crate::layout::svg::layout_svg;
use crate::layout::{
    LayoutParams, LayoutReport, LayoutScratch, Repulsion, Spring, random_positions, relax,
};

/// How a layout starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Start {
    /// Depth-first order along a Hilbert curve: edges start short (untangles large graphs).
    Curve,
    /// Uniformly scattered over a square of side sqrt(n) edge lengths.
    Random,
}

/// Arguments of `layout`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The graph file, its format chosen by extension: `.mtx` Matrix Market, `.graphml` GraphML,
    /// `.gml` GML, `.dot` or `.gv` DOT; anything else is an edge list, `u v` per line (ids are
    /// non-negative integers), further columns ignored, `#` comments.
    graph: PathBuf,
    /// Iteration cap.
    #[arg(long, default_value_t = 300)]
    iterations: u32,
    /// Spring law.
    #[arg(long, value_enum, default_value_t = Spring::Log)]
    spring: Spring,
    /// Repulsion kernel (`auto`: exact SIMD for small graphs, Barnes-Hut for large ones).
    #[arg(long, value_enum, default_value_t = Repulsion::Auto)]
    repulsion: Repulsion,
    /// Barnes-Hut opening angle (smaller is more exact and slower).
    #[arg(long, default_value_t = 0.9, allow_negative_numbers = true)]
    theta: f32,
    /// Repulsion only between vertices closer than this many edge lengths (default: all pairs).
    #[arg(long, allow_negative_numbers = true)]
    cutoff: Option<f32>,
    /// Stop once no vertex moves more than this many edge lengths in a step (0: always run
    /// every iteration).
    #[arg(long, default_value_t = 0.001, allow_negative_numbers = true)]
    tolerance: f32,
    /// Seed of the start positions: run r starts from `mix(seed, r)`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Start positions.
    #[arg(long, value_enum, default_value_t = Start::Curve)]
    start: Start,
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

/// What one `layout` command measured.
struct Summary {
    vertices: usize,
    edges: usize,
    self_loops: u64,
    /// `relax` time of each run, in milliseconds.
    times_ms: Vec<f64>,
    /// The first run's report.
    report: LayoutReport,
    /// The first run's quality.
    quality: Quality,
}

/// Solver settings from the arguments, after checking their ranges.
fn layout_params(args: &Args) -> Result<LayoutParams> {
    if !(args.theta.is_finite() && args.theta >= 0.0) {
        bail!("--theta {}: must be a finite number >= 0", args.theta);
    }
    if let Some(c) = args.cutoff.filter(|c| !(c.is_finite() && *c > 0.0)) {
        bail!("--cutoff {c}: must be a finite number > 0");
    }
    if !(args.tolerance.is_finite() && args.tolerance >= 0.0) {
        bail!(
            "--tolerance {}: must be a finite number >= 0",
            args.tolerance
        );
    }
    if args.repeat == 0 {
        bail!("--repeat 0: must be at least 1");
    }
    Ok(LayoutParams {
        spring: args.spring,
        repulsion: args.repulsion,
        theta: args.theta,
        cutoff: args.cutoff,
        tolerance: args.tolerance,
        max_iterations: args.iterations,
        ..LayoutParams::default()
    })
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
    let params = layout_params(&args)?;
    if let Some(parent) = args
        .out
        .as_deref()
        .and_then(Path::parent)
        .filter(|p| !p.as_os_str().is_empty())
        && !parent.is_dir()
    {
        bail!("{}: output folder does not exist", parent.display());
    }
    let list = read_graph(&args.graph)?;
    if list.edge_count() == 0 {
        bail!(
            "{}: no edges to lay out ({} vertices, {} self-loops dropped)",
            args.graph.display(),
            list.vertex_count(),
            list.self_loops
        );
    }
    let graph = list.graph();
    let n = list.vertex_count();
    let mut scratch = LayoutScratch::default();
    let mut lay_out = |r: u32, x: &mut Vec<f32>, y: &mut Vec<f32>| {
        let seed = mix(args.seed, u64::from(r));
        match args.start {
            Start::Curve => curve_positions(n, graph.src, graph.dst, params.length, seed, x, y),
            Start::Random => random_positions(n, params.length, seed, x, y),
        }
        let start = Instant::now();
        let report = relax(&graph, x, y, &params, &mut scratch);
        (report, start.elapsed().as_secs_f64() * 1e3)
    };
    // The first run's positions are kept for output and quality; later runs share a buffer.
    let (mut first_x, mut first_y) = (Vec::new(), Vec::new());
    let (report, first_ms) = lay_out(0, &mut first_x, &mut first_y);
    let mut times_ms = vec![first_ms];
    let (mut x, mut y) = (Vec::new(), Vec::new());
    for r in 1..args.repeat {
        times_ms.push(lay_out(r, &mut x, &mut y).1);
    }
    let quality = quality::measure(&first_x, &first_y, &list.src, &list.dst, None);
    if let Some(out) = &args.out {
        super::write_atomic(out, positions_tsv(&list.ids, &first_x, &first_y).as_bytes())?;
    }
    if let Some(svg) = &args.svg {
        let drawing = layout_svg(&list.graph(), &first_x, &first_y);
        super::write_atomic(svg, drawing.as_bytes())?;
    }
    let summary = Summary {
        vertices: n,
        edges: list.edge_count(),
        self_loops: list.self_loops,
        times_ms,
        report,
        quality,
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

/// The human form: one line per figure.
fn summary_lines(s: &Summary) -> String {
    let loops = match s.self_loops {
        0 => String::new(),
        k => format!(" ({k} self-loops dropped)"),
    };
    let stop = if s.report.converged {
        "converged"
    } else {
        "cap"
    };
    format!(
        "vertices {}\nedges {}{loops}\ntime {:.3} ms (median of {})\niterations {} ({stop})\n\
         crossings {}\nedge length cv {:.4}\n",
        s.vertices,
        s.edges,
        median(&s.times_ms),
        s.times_ms.len(),
        s.report.iterations,
        s.quality.crossings,
        s.quality.length_cv,
    )
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
    format!(
        "{{\"vertices\":{},\"edges\":{},\"self_loops\":{},\"repeat\":{},\"time_ms\":{},\
         \"times_ms\":[{}],\"iterations\":{},\"converged\":{},\"last_move\":{},\
         \"crossings\":{},\"edge_length_cv\":{}}}\n",
        s.vertices,
        s.edges,
        s.self_loops,
        s.times_ms.len(),
        json_ms(median(&s.times_ms)),
        times.join(","),
        s.report.iterations,
        s.report.converged,
        json_f32(s.report.last_move),
        s.quality.crossings,
        json_f32(s.quality.length_cv),
    )
}

/// Positions as TSV: the header `id\tx\ty`, then one row per vertex with its file id (a
/// number, or a string id escaped by [`crate::layout::formats::TsvField`]).
///
/// `f32`'s `Display` prints the shortest text that reads back as the same number, so the file
/// round-trips exactly and is the same bytes for the same positions.
fn positions_tsv(ids: &VertexIds, x: &[f32], y: &[f32]) -> String {
    // PERF: one preallocated buffer; about 24 bytes per row.
    let mut tsv = String::with_capacity(8 + ids.len() * 24);
    tsv.push_str("id\tx\ty\n");
    for ((id, px), py) in ids.iter().zip(x).zip(y) {
        // Writing into a `String` cannot fail.
        let _ = writeln!(tsv, "{}\t{px}\t{py}", id.tsv_field());
    }
    tsv
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
    fn positions_tsv_names_the_file_ids() {
        let tsv = positions_tsv(&VertexIds::Numbers(vec![70, 3]), &[0.5, -1.0], &[2.0, 0.25]);
        assert_eq!(tsv, "id\tx\ty\n70\t0.5\t2\n3\t-1\t0.25\n");
        let names = VertexIds::Names(["n\t0", "b"].into_iter().collect());
        let tsv = positions_tsv(&names, &[0.5, -1.0], &[2.0, 0.25]);
        assert_eq!(tsv, "id\tx\ty\nn\\t0\t0.5\t2\nb\t-1\t0.25\n");
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
