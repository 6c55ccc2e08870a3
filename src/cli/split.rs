//! `warren split ARCHIVE --train 0.8 --val 0.1 --test 0.1 --out DIR`: leak-free dataset
//! splits by `layout_hash` ([`crate::run::split`]): no layout is in two splits, and a level's
//! split never changes when the archive grows. One archive per split is written (atomically)
//! into DIR, carrying the source's schema and metadata plus a `warren.split` record that
//! `warren verify` checks level by level.
//!
//! With `--format parquet` the splits are the Parquet files of a dataset folder in the Hugging
//! Face Hub's layout instead, under the Hub's split names: `DIR/data/train-*.parquet`,
//! `validation-*.parquet` (our `val`) and `test-*.parquet`, with the same `warren.split`
//! records; `warren verify DIR` checks every split.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::run::{SplitFormat, SplitOptions};

/// Arguments of `split`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The archive to split.
    archive: PathBuf,
    /// Share of the levels for `train.arrow`.
    #[arg(long, default_value_t = 0.8)]
    train: f64,
    /// Share for `val.arrow`.
    #[arg(long, default_value_t = 0.1)]
    val: f64,
    /// Share for `test.arrow`.
    #[arg(long, default_value_t = 0.1)]
    test: f64,
    /// Folder for the split archives (made if missing).
    #[arg(long)]
    out: PathBuf,
    /// `arrow`: one archive per split, `DIR/{train,val,test}.arrow`. `parquet`: a dataset
    /// folder in the Hugging Face Hub's layout, `DIR/data/{train,validation,test}-*.parquet`.
    #[arg(long, default_value = "arrow", value_parser = ["arrow", "parquet"])]
    format: String,
    /// No report.
    #[arg(long, short)]
    quiet: bool,
}

/// Runs `split`.
pub fn run(args: Args) -> Result<ExitCode> {
    let format = match args.format.as_str() {
        "parquet" => SplitFormat::Parquet,
        _ => SplitFormat::Arrow,
    };
    let options = SplitOptions {
        train: args.train,
        val: args.val,
        test: args.test,
        format,
    };
    let summary = crate::run::split(&args.archive, &args.out, options)?;
    if args.quiet {
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!(
        "warren: split {} levels of {}",
        super::thousands(summary.levels),
        args.archive.display()
    );
    let width = if format == SplitFormat::Parquet {
        10
    } else {
        5
    };
    for part in &summary.parts {
        eprintln!(
            "  {:<width$} {:>12} levels  {:6.2}% (asked {:6.2}%)  {:8.1} MB  {}",
            part.file_name,
            super::thousands(part.levels),
            100.0 * part.levels as f64 / summary.levels.max(1) as f64,
            100.0 * part.share,
            part.bytes as f64 / 1e6,
            part.path.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
