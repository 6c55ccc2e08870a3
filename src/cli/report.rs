//! `warren report FILE --out report.html`: one self-contained HTML page about an archive (no
//! script, no network): its run metadata, the failed seeds by reason, a histogram of every
//! metric, a scatter of two metrics and a sample sheet of its levels.
//!
//! Charts are inline SVG, the sheet an inline PNG (`data:` URL), so the file opens offline in
//! any browser and can be mailed or attached to a dataset as it is.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};

use super::inspect::{MetricValues, metric_values};
use crate::archive::{LevelSource, RunMeta, open_levels};
use crate::render::to_png;

/// Arguments of `report`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The archive.
    file: PathBuf,
    /// The HTML page to write (atomically).
    #[arg(long)]
    out: PathBuf,
    /// The scatter's horizontal metric (default: the first metric whose values vary).
    #[arg(long, value_name = "METRIC")]
    x: Option<String>,
    /// The scatter's vertical metric (default: the next metric whose values vary).
    #[arg(long, value_name = "METRIC")]
    y: Option<String>,
    /// The sample sheet: the first COLSxROWS levels.
    #[arg(long, value_name = "COLSxROWS", default_value = "4x3")]
    sheet: String,
}

/// Levels the scatter draws at most (evenly spaced by index).
const SCATTER_POINTS: usize = 4000;

/// Bars of a histogram (metrics with fewer distinct integer values get one bar each).
const BINS: usize = 32;

/// Runs `report`.
pub fn run(args: Args) -> Result<ExitCode> {
    if !args
        .out
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("html") || e.eq_ignore_ascii_case("htm"))
    {
        bail!("{}: the report must end in .html", args.out.display());
    }
    let (cols, rows) = super::render::parse_sheet(&args.sheet)?;
    let source = open_levels(&args.file)?;
    let archive = source.as_ref();
    let run = archive.run_meta()?;
    let footer = archive.run_footer()?;
    let (mut metrics, levels) = metric_values(archive)?;
    let (x, y) = scatter_axes(&args, &metrics)?;
    // The scatter reads the values in index order, before the summaries sort them.
    let scatter = match (x, y) {
        (Some(x), Some(y)) => scatter_svg(&metrics[x], &metrics[y]),
        _ => String::from("<p>The archive has fewer than two metrics.</p>"),
    };
    let sheet = if levels == 0 {
        None
    } else {
        let (scene, drawn) = super::render::draw(archive, None, (cols, rows), 160.0, false)?;
        Some((to_png(&scene)?, drawn))
    };

    let mut html = String::new();
    let title = format!(
        "{} levels: {}",
        run.generator,
        args.file
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    );
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n\
         <style>{STYLE}</style></head><body>\n<h1>{}</h1>\n",
        escape(&title),
        escape(&title)
    );
    html += &run_table(archive, &run, levels)?;
    html += &failures_table(&footer.failures, levels);
    html += &sample_section(sheet.as_ref());
    html += "<h2>Two metrics against each other</h2>\n";
    html += &scatter;
    let _ = writeln!(
        html,
        "<h2>Every metric</h2>\n<p>{} metrics over {} levels: each bar counts the levels in its \
         range.</p>\n<div class=\"charts\">",
        metrics.len(),
        super::thousands(levels)
    );
    for metric in &mut metrics {
        html += &histogram_svg(metric);
    }
    html += "</div>\n<h2>Profile</h2>\n<pre>";
    html += &escape(&run.profile);
    html += "</pre>\n</body></html>\n";
    super::write_atomic(&args.out, html.as_bytes())?;
    eprintln!(
        "warren: report of {} levels, {} metric charts, into {}",
        super::thousands(levels),
        metrics.len(),
        args.out.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The two metrics the scatter plots: `--x` and `--y` by name, by default the first two whose
/// values vary (a constant one makes a line); `None` where the archive has too few.
fn scatter_axes(args: &Args, metrics: &[MetricValues]) -> Result<(Option<usize>, Option<usize>)> {
    let pick = |flag: &Option<String>, default: usize| -> Result<Option<usize>> {
        match flag {
            None => Ok((default < metrics.len()).then_some(default)),
            Some(name) => match metrics.iter().position(|m| m.name == *name) {
                Some(i) => Ok(Some(i)),
                None => bail!(
                    "{}: no metric `{name}`; this archive has: {}",
                    args.file.display(),
                    metrics
                        .iter()
                        .map(|m| m.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            },
        }
    };
    // By default the first two metrics whose values vary (a constant one makes a line).
    let varying: Vec<usize> = (0..metrics.len())
        .filter(|&m| range(&metrics[m].stat.values).is_some_and(|(lo, hi)| hi > lo))
        .chain(0..metrics.len())
        .collect();
    let x = pick(&args.x, varying.first().copied().unwrap_or(0))?;
    let y = pick(
        &args.y,
        varying.iter().copied().find(|&m| Some(m) != x).unwrap_or(1),
    )?;
    Ok((x, y))
}

/// The report's sample-sheet section: the PNG inline with the range of levels it shows.
fn sample_section(sheet: Option<&(Vec<u8>, usize)>) -> String {
    let mut html = String::from("<h2>Sample levels</h2>\n");
    match sheet {
        Some((png, drawn)) => {
            let _ = writeln!(
                html,
                "<p>Levels 0 to {} in index order.</p>\n<img class=\"sheet\" alt=\"a sheet of \
                 the archive's first levels\" src=\"data:image/png;base64,{}\">",
                drawn - 1,
                base64(png)
            );
        }
        None => html += "<p>The archive holds no level.</p>\n",
    }
    html
}

const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:1180px;\
color:#222;padding:0 1em}h1{font-size:1.5em}h2{font-size:1.15em;margin-top:2em}\
table{border-collapse:collapse}td,th{padding:2px 10px;text-align:left;border-bottom:1px solid #ddd;\
vertical-align:top}.charts{display:flex;flex-wrap:wrap;gap:14px}\
svg.chart{background:#fafafa;border:1px solid #e4e4e4}svg text{font:11px system-ui,sans-serif;fill:#333}\
img.sheet{max-width:100%;border:1px solid #ccc;image-rendering:pixelated}\
pre{background:#f5f5f5;padding:1em;overflow:auto}";

/// The run's metadata as a table.
fn run_table(archive: &dyn LevelSource, run: &RunMeta, levels: u64) -> Result<String> {
    let (bytes, how) = archive.storage()?;
    let mut rows = vec![
        ("file", archive.path().display().to_string()),
        (
            "size",
            format!("{:.1} MB, compression {how}", bytes as f64 / 1e6),
        ),
        ("generator", run.generator.clone()),
        ("warren version", run.version.clone()),
        ("master seed", run.master_seed.to_string()),
        ("levels", super::thousands(levels)),
    ];
    if let Some(shard) = &run.shard {
        rows.push(("shard", shard.to_string()));
    }
    if let Some(selection) = &run.selection {
        rows.push(("selection", serde_json::to_string(selection)?));
    }
    if !run.files.is_empty() {
        let files: Vec<&str> = run.files.keys().map(String::as_str).collect();
        rows.push(("files", files.join(", ")));
    }
    let mut html = String::from("<h2>Run</h2>\n<table>\n");
    for (key, value) in rows {
        let _ = writeln!(html, "<tr><th>{key}</th><td>{}</td></tr>", escape(&value));
    }
    html += "</table>\n";
    Ok(html)
}

/// The failed seeds by reason.
fn failures_table(failures: &std::collections::BTreeMap<String, u64>, levels: u64) -> String {
    let failed: u64 = failures.values().sum();
    let mut html = String::from("<h2>Failed seeds</h2>\n");
    if failed == 0 {
        html += "<p>None: every seed became a level.</p>\n";
        return html;
    }
    let _ = writeln!(
        html,
        "<p>{} seeds failed ({:.2}% of the seeds tried), counted by reason, not written.</p>\n\
         <table class=\"failures\"><tr><th>reason</th><th>seeds</th></tr>",
        super::thousands(failed),
        100.0 * failed as f64 / (failed + levels) as f64
    );
    for (reason, count) in failures {
        let _ = writeln!(
            html,
            "<tr><td>{}</td><td>{}</td></tr>",
            escape(reason),
            super::thousands(*count)
        );
    }
    html += "</table>\n";
    html
}

/// A histogram of one metric as an SVG chart, with its summary and what it counts.
fn histogram_svg(metric: &mut MetricValues) -> String {
    let (w, h, left, bottom, top) = (340.0, 190.0, 44.0, 30.0, 40.0);
    let name = escape(&metric.name);
    let doc = escape(&metric.doc);
    let values = &metric.stat.values;
    let mut svg = format!(
        "<svg class=\"chart\" data-metric=\"{name}\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 \
         {w} {h}\" role=\"img\"><title>{name}: {doc}</title>\
         <text x=\"8\" y=\"15\" style=\"font-weight:600\">{name}</text>"
    );
    let Some((lo, hi)) = range(values) else {
        svg += "<text x=\"8\" y=\"34\">no values</text></svg>\n";
        return svg;
    };
    // Integer metrics get bars of a whole number of values each, all the same (bars of one or
    // two values side by side would make a smooth spread look jagged).
    let integers = values.iter().all(|v| v.fract() == 0.0);
    let (bins, width) = if integers {
        let span = hi - lo + 1.0;
        let width = (span / BINS as f64).ceil();
        ((span / width).ceil() as usize, width)
    } else {
        (BINS, ((hi - lo) / BINS as f64).max(f64::MIN_POSITIVE))
    };
    let mut counts = vec![0u64; bins];
    for &v in values {
        counts[(((v - lo) / width) as usize).min(bins - 1)] += 1;
    }
    let most = counts.iter().copied().max().unwrap_or(1).max(1);
    let (plot_w, plot_h) = (w - left - 10.0, h - bottom - top);
    let bar = plot_w / bins as f64;
    for (i, &c) in counts.iter().enumerate() {
        let bh = plot_h * c as f64 / most as f64;
        let _ = write!(
            svg,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{bh:.1}\" fill=\"#4c78a8\">\
             <title>{}: {c}</title></rect>",
            left + bar * i as f64,
            top + plot_h - bh,
            (bar - 1.0).max(0.5),
            bin_label(lo, width, i, integers && width == 1.0),
        );
    }
    let summary = metric
        .stat
        .summary()
        .map(|[min, mean, max, _, median, _]| {
            format!(
                "min {} · mean {} · median {} · max {}",
                number(min),
                number(mean),
                number(median),
                number(max)
            )
        })
        .unwrap_or_default();
    let _ = writeln!(
        svg,
        "<text x=\"8\" y=\"30\">{summary}</text>\
         <text x=\"{left}\" y=\"{:.0}\">{}</text>\
         <text x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"end\">{}</text>\
         <text x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"end\">{most}</text>\
         <line x1=\"{left}\" y1=\"{:.0}\" x2=\"{:.0}\" y2=\"{:.0}\" stroke=\"#888\"/></svg>",
        h - 10.0,
        number(lo),
        w - 10.0,
        h - 10.0,
        number(hi),
        left - 4.0,
        top + 8.0,
        top + plot_h,
        w - 10.0,
        top + plot_h,
    );
    svg
}

/// The scatter of two metrics over at most [`SCATTER_POINTS`] levels, evenly spaced by index.
fn scatter_svg(x: &MetricValues, y: &MetricValues) -> String {
    let (w, h, left, bottom, top) = (560.0, 400.0, 56.0, 40.0, 16.0);
    let (xs, ys) = (&x.stat.values, &y.stat.values);
    let (Some((x0, x1)), Some((y0, y1))) = (range(xs), range(ys)) else {
        return String::from("<p>No levels to plot.</p>\n");
    };
    let step = xs.len().div_ceil(SCATTER_POINTS).max(1);
    let (plot_w, plot_h) = (w - left - 12.0, h - bottom - top);
    // Points keep 6 pixels from the frame, so the extremes do not sit on it.
    let pad = 6.0;
    let sx =
        |v: f64| left + pad + (plot_w - 2.0 * pad) * (v - x0) / (x1 - x0).max(f64::MIN_POSITIVE);
    let sy = |v: f64| {
        top + plot_h - pad - (plot_h - 2.0 * pad) * (v - y0) / (y1 - y0).max(f64::MIN_POSITIVE)
    };
    let (xn, yn) = (escape(&x.name), escape(&y.name));
    let which = match step {
        1 => String::from("Every level"),
        n => format!("Every {n}{} level", ordinal(n)),
    };
    let mut svg = format!(
        "<p>{which} ({} points): <b>{xn}</b> across, <b>{yn}</b> up (<code>--x</code> and <code>--y</code> choose \
         others).</p>\n<svg class=\"scatter\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 \
         {w} {h}\" role=\"img\"><title>{yn} against {xn}</title><g fill=\"#e45756\" \
         fill-opacity=\"0.35\">",
        xs.len().div_ceil(step)
    );
    for i in (0..xs.len().min(ys.len())).step_by(step) {
        let _ = write!(
            svg,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"2\"/>",
            sx(xs[i]),
            sy(ys[i])
        );
    }
    let _ = writeln!(
        svg,
        "</g><rect x=\"{left}\" y=\"{top}\" width=\"{plot_w}\" height=\"{plot_h}\" fill=\"none\" \
         stroke=\"#888\"/><text x=\"{left}\" y=\"{:.0}\">{}</text>\
         <text x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"end\">{}</text>\
         <text x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"middle\">{xn}</text>\
         <text x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"end\">{}</text>\
         <text x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"end\">{}</text>\
         <text x=\"14\" y=\"{:.0}\" transform=\"rotate(-90 14 {:.0})\" \
         text-anchor=\"middle\">{yn}</text></svg>",
        top + plot_h + 16.0,
        number(x0),
        left + plot_w,
        top + plot_h + 16.0,
        number(x1),
        left + plot_w / 2.0,
        h - 6.0,
        left - 6.0,
        top + plot_h,
        number(y0),
        left - 6.0,
        top + 10.0,
        number(y1),
        top + plot_h / 2.0,
        top + plot_h / 2.0,
    );
    svg
}

/// The least and greatest of `values`, `None` when there are none.
fn range(values: &[f64]) -> Option<(f64, f64)> {
    let lo = values.iter().copied().min_by(f64::total_cmp)?;
    let hi = values.iter().copied().max_by(f64::total_cmp)?;
    Some((lo, hi))
}

/// What bar `i` covers, for its tooltip.
fn bin_label(lo: f64, width: f64, i: usize, single: bool) -> String {
    let from = lo + width * i as f64;
    if single {
        number(from)
    } else {
        format!("{} to {}", number(from), number(from + width))
    }
}

/// `st`, `nd`, `rd` or `th` after `n`.
fn ordinal(n: usize) -> &'static str {
    match (n % 10, n % 100) {
        (1, r) if r != 11 => "st",
        (2, r) if r != 12 => "nd",
        (3, r) if r != 13 => "rd",
        _ => "th",
    }
}

/// A number as a chart label: integers whole, others with three significant decimals.
fn number(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else if v.abs() >= 100.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.3}")
    }
}

/// `text` with HTML's special characters escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Standard base64 with padding (RFC 4648), for the `data:` URL of the sheet.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * k) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc_4648() {
        for (raw, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(raw.as_bytes()), encoded, "{raw}");
        }
    }

    #[test]
    fn html_is_escaped_and_labels_are_short() {
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(number(3.0), "3");
        assert_eq!(number(0.12345), "0.123");
        assert_eq!(
            (ordinal(1), ordinal(2), ordinal(11), ordinal(23)),
            ("st", "nd", "th", "rd")
        );
    }
}
