//! `warren merge OUT.arrow SHARD...`: joins the shard archives of one run (`--shard I/N`, or
//! `--shard auto` in a job array) into one archive holding the levels of the unsharded run, in
//! index order, level for level ([`crate::run::merge`]). Everything is checked before anything
//! is written, and each refusal names the file and the reason; a refused or failed merge
//! leaves no output file.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;

use crate::run::{MergeOptions, MergeSummary, Resumed};

/// Arguments of `merge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The merged archive (`.arrow`); written atomically.
    out: PathBuf,
    /// The shard archives, in any order.
    #[arg(required = true)]
    shards: Vec<PathBuf>,
    /// Keep only the first level of every `layout_hash` across the shards, and make the rest
    /// of the run until it holds its full count (implied for shards made with `--unique`).
    #[arg(long)]
    unique: bool,
    /// Worker threads for making the rest of a run with a selection (default: all cores).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// No summary line.
    #[arg(long, short)]
    quiet: bool,
    /// Go on from where a killed merge of these same shards stopped (`OUT.tmp`), into the
    /// archive an uninterrupted merge writes; another run's or other shards' `OUT.tmp` is refused.
    #[arg(long)]
    resume: bool,
}

/// Runs `merge`.
pub fn run(args: Args) -> Result<ExitCode> {
    let options = MergeOptions {
        unique: args.unique,
        threads: args.threads,
        resume: args.resume,
        progress: !args.quiet,
    };
    let report_resume = |r: &Resumed| {
        if !args.quiet {
            eprintln!(
                "warren: resuming {}: {} batches ({} levels, {:.1} MB) kept, {:.1} MB after \
                 them dropped",
                r.temp.display(),
                super::thousands(r.batches),
                super::thousands(r.levels),
                r.bytes as f64 / 1e6,
                r.dropped_bytes as f64 / 1e6
            );
        }
    };
    let summary = crate::run::merge_with(&args.shards, &args.out, options, report_resume)?;
    if !args.quiet {
        eprintln!("warren: {}", summary_line(&summary, &args));
    }
    Ok(ExitCode::SUCCESS)
}

/// The last line of a merge, after `warren: `.
fn summary_line(s: &MergeSummary, args: &Args) -> String {
    let out = args.out.display();
    let mb = s.bytes as f64 / 1e6;
    if s.finished_already {
        return format!("{out} is already the finished merge of these shards: nothing to do");
    }
    let Some(scanned) = &s.scanned else {
        return format!(
            "merged {} shards, {} levels and {} failed seeds of {} indices, {mb:.1} MB written \
             to {out}",
            s.shards,
            super::thousands(s.levels),
            super::thousands(s.failed()),
            super::thousands(s.total),
        );
    };
    format!(
        "merged {} shards, {} levels ({} from the shards, {} made after them) of {} seeds \
         tried: {} failed, {} filtered out, {} duplicates; {mb:.1} MB written to {out}",
        s.shards,
        super::thousands(s.levels),
        super::thousands(s.from_shards),
        super::thousands(s.levels - s.from_shards),
        super::thousands(scanned.end),
        super::thousands(s.failed()),
        super::thousands(scanned.filtered),
        super::thousands(scanned.duplicates),
    )
}
