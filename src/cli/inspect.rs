//! `warren inspect FILE`: schema, metadata, level count and min, mean, max, 10th percentile,
//! median and 90th percentile of every metric column.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Result, bail};
use arrow_array::Array;
use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, UInt32Type};
use arrow_schema::DataType;

use crate::archive::{self, Archive, DOC_KEY};

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
struct Stat {
    values: Vec<f64>,
    sum: f64,
}

impl Stat {
    fn add(&mut self, v: f64) {
        self.values.push(v);
        self.sum += v;
    }

    /// `(min, mean, max, p10, median, p90)` (nearest-rank quantiles), or `None` without
    /// values. Sorts the values.
    fn summary(&mut self) -> Option<[f64; 6]> {
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
    let archive = Archive::open(&args.file)?;
    let schema = archive.schema().clone();
    let metrics: Vec<(usize, String, String)> = schema
        .fields()
        .iter()
        .enumerate()
        // Metric columns are the documented plain number columns; extra (list, binary, text)
        // columns are documented too but listed with the schema.
        .filter(|(_, f)| matches!(f.data_type(), DataType::UInt32 | DataType::Float32))
        .filter_map(|(i, f)| {
            f.metadata()
                .get(DOC_KEY)
                .map(|d| (i, f.name().clone(), d.clone()))
        })
        .collect();
    let mut stats = vec![Stat::default(); metrics.len()];
    let mut rows = 0u64;
    for b in 0..archive.batch_count() {
        let batch = archive.batch(b)?;
        rows += batch.num_rows() as u64;
        for (slot, (col, _, _)) in stats.iter_mut().zip(&metrics) {
            let array = batch.column(*col);
            if array.null_count() > 0 {
                let name = schema.field(*col).name();
                bail!(
                    "{}: batch {b}: column `{name}` holds nulls",
                    args.file.display()
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
    }
    let meta = |k: &str| archive.meta(k).unwrap_or("?").to_string();
    println!("file         {}", args.file.display());
    println!("size         {:.1} MB", archive.file_len() as f64 / 1e6);
    println!("generator    {}", meta(archive::META_GENERATOR));
    println!("version      {}", meta(archive::META_VERSION));
    println!("master seed  {}", meta(archive::META_MASTER_SEED));
    println!("shard        {}", meta(archive::META_SHARD));
    if let Ok(Some(files)) = crate::batch::stored_files(archive.meta(archive::META_FILES)) {
        let listed: Vec<String> = files
            .iter()
            .map(|(path, text)| format!("{path} ({} bytes)", text.len()))
            .collect();
        println!("files        {} (stored)", listed.join(", "));
    }
    println!("levels       {}", super::thousands(rows));
    let footer = archive.footer_metadata();
    if let Some(f) = footer.get(archive::FOOTER_FAILURES) {
        println!("failures     {f}");
    }
    println!("batches      {}", archive.batch_count());
    println!("cell codes   {}", meta(archive::META_CELL_CODES));
    println!("\nschema");
    for f in schema.fields() {
        let is_metric = metrics.iter().any(|(_, name, _)| name == f.name());
        match f.metadata().get(DOC_KEY).filter(|_| !is_metric) {
            Some(doc) => println!("  {:<24} {:<20} {doc}", f.name(), f.data_type().to_string()),
            None => println!("  {:<24} {}", f.name(), f.data_type()),
        }
    }
    println!(
        "\nmetrics{:>28}{:>12}{:>12}{:>12}{:>12}{:>12}",
        "min", "mean", "max", "p10", "median", "p90"
    );
    for ((_, name, doc), s) in metrics.iter().zip(&mut stats) {
        match s.summary() {
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
        println!("\nprofile\n{}", meta(archive::META_PROFILE));
    }
    Ok(ExitCode::SUCCESS)
}

/// Integers without decimals, other values with three.
fn compact(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v:.3}")
    }
}
