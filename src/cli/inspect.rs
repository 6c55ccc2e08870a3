//! `warren inspect FILE`: schema, metadata, level count and min, mean, max, 10th percentile,
//! median and 90th percentile of every metric column.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use arrow_array::Array;
use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, UInt32Type};
use arrow_schema::DataType;

use crate::archive::{DOC_KEY, FORMAT_VERSION, LevelSource, RunFooter, RunMeta, open_levels};

/// Arguments of `inspect`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The archive.
    file: PathBuf,
    /// Also print the full resolved profile.
    #[arg(long)]
    profile: bool,
}

/// Every value of one column, for its min, mean, max and quantiles.
#[derive(Clone, Default)]
pub(super) struct Stat {
    /// In index order until [`Stat::summary`] sorts them.
    pub(super) values: Vec<f64>,
    sum: f64,
}

impl Stat {
    fn add(&mut self, v: f64) {
        self.values.push(v);
        self.sum += v;
    }

    /// `(min, mean, max, p10, median, p90)` (nearest-rank quantiles), or `None` without
    /// values. Sorts the values.
    pub(super) fn summary(&mut self) -> Option<[f64; 6]> {
        let n = self.values.len();
        if n == 0 {
            return None;
        }
        self.values.sort_unstable_by(f64::total_cmp);
        let q = |p: f64| self.values[((p * n as f64).ceil() as usize).clamp(1, n) - 1];
        Some([
            self.values[0],
            self.sum / n as f64,
            self.values[n - 1],
            q(0.1),
            q(0.5),
            q(0.9),
        ])
    }
}

/// Runs `inspect`.
pub fn run(args: Args) -> Result<ExitCode> {
    let source = open_levels(&args.file)?;
    let archive = source.as_ref();
    let run = archive.run_meta()?;
    let footer = archive.run_footer()?;
    let schema = archive.schema().clone();
    let (mut metrics, rows) = metric_values(archive)?;
    print_run(&args, archive, &run, &footer, rows)?;
    super::inspect_variety::print_variety(archive, &run.generator)?;
    println!("\nschema");
    for f in schema.fields() {
        let is_metric = metrics.iter().any(|m| m.name == *f.name());
        match f.metadata().get(DOC_KEY).filter(|_| !is_metric) {
            Some(doc) => println!("  {:<24} {:<20} {doc}", f.name(), f.data_type().to_string()),
            None => println!("  {:<24} {}", f.name(), f.data_type()),
        }
    }
    println!(
        "\nmetrics{:>28}{:>12}{:>12}{:>12}{:>12}{:>12}",
        "min", "mean", "max", "p10", "median", "p90"
    );
    for MetricValues { name, doc, stat } in &mut metrics {
        match stat.summary() {
            None => println!(
                "  {name:<24} {:>10} {:>11} {:>11} {:>11} {:>11} {:>11}   {doc}",
                "-", "-", "-", "-", "-", "-"
            ),
            Some([min, mean, max, p10, p50, p90]) => println!(
                "  {name:<24} {:>10} {:>11.3} {:>11} {:>11} {:>11} {:>11}   {doc}",
                compact(min),
                mean,
                compact(max),
                compact(p10),
                compact(p50),
                compact(p90)
            ),
        }
    }
    if args.profile {
        println!("\nprofile\n{}", run.profile);
    }
    Ok(ExitCode::SUCCESS)
}

/// One metric column: its name, what it counts, and every value.
pub(super) struct MetricValues {
    pub(super) name: String,
    pub(super) doc: String,
    pub(super) stat: Stat,
}

/// Every metric column of `source` (an archive or a Parquet dataset split; extra list, binary
/// and text columns are not metrics), and the levels read.
///
/// # Runtime
/// One pass over every batch; O(levels x metrics) memory for the values.
pub(super) fn metric_values(source: &dyn LevelSource) -> Result<(Vec<MetricValues>, u64)> {
    let schema = source.schema().clone();
    let columns = source.columns()?;
    let mut metrics: Vec<(usize, MetricValues)> = columns
        .metrics
        .iter()
        .filter_map(|m| {
            let values = MetricValues {
                name: m.name.clone(),
                doc: m.doc.clone(),
                stat: Stat::default(),
            };
            Some((schema.index_of(&m.name).ok()?, values))
        })
        .collect();
    let mut rows = 0u64;
    for b in 0..source.batch_count() {
        let batch = source.batch(b)?;
        rows += batch.num_rows() as u64;
        for (col, metric) in &mut metrics {
            let (array, slot) = (batch.column(*col), &mut metric.stat);
            if array.null_count() > 0 {
                bail!(
                    "{}: batch {b}: column `{}` holds nulls",
                    source.path().display(),
                    metric.name
                );
            }
            match array.data_type() {
                DataType::UInt32 => array
                    .as_primitive::<UInt32Type>()
                    .values()
                    .iter()
                    .for_each(|&v| slot.add(f64::from(v))),
                DataType::Float32 => array
                    .as_primitive::<Float32Type>()
                    .values()
                    .iter()
                    .for_each(|&v| slot.add(f64::from(v))),
                _ => {}
            }
        }
        source.release(b);
    }
    Ok((metrics.into_iter().map(|(_, m)| m).collect(), rows))
}

/// The lines about the run: file, size, what the metadata says, level and failure counts.
fn print_run(
    args: &Args,
    archive: &dyn LevelSource,
    run: &RunMeta,
    footer: &RunFooter,
    rows: u64,
) -> Result<()> {
    println!("file         {}", args.file.display());
    let (bytes, how) = archive.storage()?;
    println!(
        "size         {:.1} MB, compression {how}",
        bytes as f64 / 1e6
    );
    println!("generator    {}", run.generator);
    println!(
        "version      {} (archive format {FORMAT_VERSION})",
        run.version
    );
    println!("master seed  {}", run.master_seed);
    match &run.shard {
        Some(shard) => println!("shard        {shard}"),
        None => println!("shard        none (not a shard of a run)"),
    }
    if !run.files.is_empty() {
        let listed: Vec<String> = run
            .files
            .iter()
            .map(|(path, text)| format!("{path} ({} bytes)", text.len()))
            .collect();
        println!("files        {} (stored)", listed.join(", "));
    }
    println!("levels       {}", super::thousands(rows));
    println!("failures     {}", serde_json::to_string(&footer.failures)?);
    if let Some(selection) = &run.selection {
        let mut kept = Vec::new();
        if selection.unique {
            kept.push(format!(
                "unique {}",
                crate::batch::unique_key(selection.canonical)
            ));
        }
        if let Some(filter) = &selection.filter {
            kept.push(format!("where {filter}"));
        }
        if let Some(quota) = &selection.quota {
            kept.push(format!("quota {quota}"));
        }
        for cap in &selection.max_share {
            kept.push(format!("max-share {cap}"));
        }
        println!(
            "selection    {} (at most {} seeds)",
            kept.join(", "),
            super::thousands(selection.max_tries)
        );
    }
    if let Some(m) = &run.mixture {
        let variants: Vec<String> = m
            .variants
            .iter()
            .zip(&m.weights)
            .map(|(sets, w)| format!("[{}] x{w}", sets.join(" ")))
            .collect();
        println!(
            "mixture      {} variants of the profile, each level's picked by its seed: {}",
            m.variants.len(),
            variants.join(", ")
        );
    }
    if let Some(s) = &footer.scanned {
        println!(
            "scanned      seeds {}..{}: {} filtered out, {} duplicates ({:.1}% kept)",
            s.start,
            s.end,
            super::thousands(s.filtered),
            super::thousands(s.duplicates),
            100.0 * rows as f64 / (s.end - s.start).max(1) as f64
        );
    }
    println!("batches      {}", archive.batch_count());
    let codes: Vec<String> = run
        .cell_codes
        .iter()
        .map(|(code, name)| format!("{code} {name}"))
        .collect();
    println!("cell codes   {}", codes.join(", "));
    Ok(())
}

/// Integers without decimals, other values with three.
fn compact(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}
