//! `warren verify FILE`: file integrity (framing, checksums, schema, ascending indices inside
//! the shard's range, seeds, footer counts), every level re-checked by its generator's `verify`,
//! and every level compared with a fresh generation of its seed; in parallel over batches.
//! Exits 0 when all is well, 1 with the number of violations otherwise.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use rayon::prelude::*;

use crate::archive::{self, Archive, level_schema};
use crate::batch::BatchCheck;
use crate::core::generator::Generator;
use crate::profile::{GeneratorTask, Profile};

/// Arguments of `verify`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The archive.
    file: PathBuf,
    /// Print at most this many violations.
    #[arg(long, default_value_t = 10)]
    show: usize,
}

/// The outcome of checking all levels.
struct Report {
    levels: u64,
    violations: Vec<String>,
    violation_count: u64,
    first_index: Option<u64>,
    last_index: Option<u64>,
}

struct VerifyTask<'a> {
    archive: &'a Archive,
    master_seed: u64,
    show: usize,
    /// Compare each level with a fresh generation (only when this warren wrote the file).
    regenerate: bool,
}

impl GeneratorTask for VerifyTask<'_> {
    type Output = Result<Report>;

    fn run<G: Generator>(self, generator: &G) -> Result<Report> {
        let archive = self.archive;
        let columns = generator.columns();
        let expected = level_schema(&columns, Default::default());
        let actual = archive.schema();
        if actual.fields().len() != expected.fields().len()
            || actual
                .fields()
                .iter()
                .zip(expected.fields())
                .any(|(a, e)| a.name() != e.name() || a.data_type() != e.data_type())
        {
            bail!(
                "{}: columns do not match what the profile's generator writes",
                archive.path().display()
            );
        }
        // Per batch: (first index, last index, rows, violations, violation count).
        let per_batch: Vec<Result<BatchCheck>> = (0..archive.batch_count())
            .into_par_iter()
            .map(|b| {
                // A failed checksum is a violation, not the end: decode anyway to name the
                // damaged levels.
                let checksum = archive.check_batch(b).err().map(|e| e.to_string());
                let batch = archive.batch_unchecked(b)?;
                let check = crate::batch::check_levels(
                    generator,
                    &batch,
                    self.master_seed,
                    self.regenerate,
                    self.show,
                )
                .map_err(|r| anyhow::anyhow!("{}: batch {b}: {r}", archive.path().display()))?;
                let BatchCheck {
                    first,
                    last,
                    rows,
                    mut shown,
                    mut count,
                } = check;
                if let Some(e) = checksum {
                    count += 1;
                    shown.insert(0, e);
                }
                drop(batch);
                archive.release(b);
                Ok(BatchCheck {
                    first,
                    last,
                    rows,
                    shown,
                    count,
                })
            })
            .collect();
        let mut report = Report {
            levels: 0,
            violations: Vec::new(),
            violation_count: 0,
            first_index: None,
            last_index: None,
        };
        let mut previous_last: Option<u64> = None;
        for (b, r) in per_batch.into_iter().enumerate() {
            let BatchCheck {
                first,
                last,
                rows,
                shown,
                count,
            } = r?;
            if rows > 0 {
                if let Some(p) = previous_last
                    && first <= p
                {
                    report.violation_count += 1;
                    report
                        .violations
                        .push(format!("batch {b}: index {first} follows {p}"));
                }
                previous_last = Some(last);
                report.first_index.get_or_insert(first);
                report.last_index = Some(last);
            }
            report.levels += rows;
            report.violation_count += count;
            report.violations.extend(shown);
        }
        report.violations.truncate(self.show);
        Ok(report)
    }
}

/// The shard's index range from `warren.shard` (`I/N of C levels: START..END`): every index
/// must lie in it, and the levels written plus the seeds that failed must fill it.
fn check_shard_range(archive: &Archive, report: &Report) -> u64 {
    let meta = archive
        .meta(archive::META_SHARD)
        .map(str::parse::<crate::batch::ShardMeta>);
    let range = match meta {
        Some(Ok(meta)) => meta.range,
        Some(Err(e)) => {
            println!("{}: {e}", archive::META_SHARD);
            return 1;
        }
        None => {
            println!("no {} metadata", archive::META_SHARD);
            return 1;
        }
    };
    let mut violations = 0;
    let (first, last) = (report.first_index, report.last_index);
    if first.is_some_and(|f| f < range.start) || last.is_some_and(|l| l >= range.end) {
        println!("indices {first:?}..={last:?} fall outside the shard's range {range:?}");
        violations += 1;
    }
    let failures = match crate::batch::footer_failures(archive) {
        Ok(f) => f.values().sum::<u64>(),
        Err(e) => {
            println!("{e}");
            return 1;
        }
    };
    if report.levels + failures != range.end - range.start {
        println!(
            "{} levels and {failures} failed seeds do not fill the shard's range {range:?}",
            report.levels
        );
        violations += 1;
    }
    violations
}

/// Runs `verify`.
pub fn run(args: Args) -> Result<ExitCode> {
    let archive = Archive::open(&args.file)?;
    let path = args.file.display().to_string();
    let kind = archive
        .meta(archive::META_GENERATOR)
        .with_context(|| format!("{path}: no warren.generator metadata"))?;
    let profile_text = archive
        .meta(archive::META_PROFILE)
        .with_context(|| format!("{path}: no warren.profile metadata"))?;
    let profile = Profile::from_toml(profile_text, &format!("{path} (stored profile)"))?;
    if profile.kind() != kind {
        bail!(
            "{path}: stored profile is for `{}` but the file says `{kind}`",
            profile.kind()
        );
    }
    let master_seed: u64 = archive
        .meta(archive::META_MASTER_SEED)
        .and_then(|s| s.parse().ok())
        .with_context(|| format!("{path}: no valid warren.master_seed metadata"))?;
    // Levels are reproducible by the version that generated them; another version's
    // generators may legitimately differ, so only its invariants and integrity are checked.
    let written_by = archive
        .meta(archive::META_VERSION)
        .unwrap_or("an unknown version");
    let same_version = written_by == env!("CARGO_PKG_VERSION");
    if !same_version {
        eprintln!(
            "warren: note: {path} was written by warren {written_by}, this is {}: levels are \
             checked but not compared with a fresh generation",
            env!("CARGO_PKG_VERSION")
        );
    }
    // The profile's files as stored with the levels, when the archive carries them: the
    // generator is built from those alone, whatever the folder or the files on disk now.
    let files = crate::batch::stored_files(archive.meta(archive::META_FILES))
        .map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
    let task = VerifyTask {
        archive: &archive,
        master_seed,
        show: args.show,
        regenerate: same_version,
    };
    let report = match files {
        Some(files) => crate::core::files::with_embedded(files, || profile.with_generator(task)),
        None => profile.with_generator(task),
    }??;
    let mut violations = report.violation_count;
    if let Some(levels) = archive.footer_metadata().get(archive::FOOTER_LEVELS) {
        if levels.parse::<u64>().ok() != Some(report.levels) {
            violations += 1;
            println!(
                "footer says {levels} levels, the batches hold {}",
                report.levels
            );
        }
    } else {
        violations += 1;
        println!(
            "footer has no {} entry (the run did not finish?)",
            archive::FOOTER_LEVELS
        );
    }
    violations += check_shard_range(&archive, &report);
    for v in &report.violations {
        println!("{v}");
    }
    println!(
        "{path}: {} levels checked, {} violations",
        super::thousands(report.levels),
        super::thousands(violations)
    );
    Ok(if violations == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
