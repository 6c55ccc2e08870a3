//! `warren verify FILE|DIR`: file integrity (framing, checksums, schema, ascending indices
//! inside the shard's range, seeds, footer counts), every level re-checked by its generator's
//! `verify`, and every level compared with a fresh generation of its seed; in parallel over
//! batches. Exits 0 when all is well, 1 with the number of violations otherwise.
//!
//! A folder is a Parquet dataset (`generate --format parquet`, `export --parquet`,
//! `split --format parquet`): every split under `DIR/data` is checked as an archive is, its
//! row groups standing for record batches, with one result line per split. Parquet files carry
//! no warren batch checksums, so damage shows only where Parquet's own page structure and
//! zstd's frame checks catch it or where levels no longer pass their checks; a row group that
//! cannot be read is one violation naming the file, and the scan goes on.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Result, bail};
use arrow_array::RecordBatch;
use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use rayon::prelude::*;

use crate::archive::{
    Archive, ArchiveColumns, ArchiveError, DATA_DIR, LevelSource, ParquetDataset, RunFooter,
    RunMeta, Scanned, SelectionMeta, SplitMeta, dataset_splits,
};
use crate::batch::{BatchCheck, Filter, ShapeAudit, ShardMeta, unique_key};
use crate::core::generator::Generator;
use crate::core::text::thousands;
use crate::profile::GeneratorTask;
use crate::run::Run;

/// Arguments of `verify`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The archive, or a Parquet dataset folder (every split under its `data/`).
    #[arg(required_unless_present = "disjoint")]
    file: Option<PathBuf>,
    /// Print at most this many violations (with `--disjoint`, overlaps).
    #[arg(long, default_value_t = 10)]
    show: usize,
    /// Instead of checking levels: prove that these archives and Parquet dataset folders
    /// (each split its own input) share no level, by `layout_hash` and by `canonical_hash`
    /// (mirror images, rotations, renumberings), or list the overlaps. Memory stays bounded:
    /// the hashes are sorted in bucket files under `$TMPDIR`.
    #[arg(long, num_args = 1.., value_name = "FILE|DIR", conflicts_with = "file")]
    disjoint: Vec<PathBuf>,
}

/// The outcome of checking all levels.
#[derive(Default)]
struct Report {
    levels: u64,
    violations: Vec<String>,
    violation_count: u64,
    first_index: Option<u64>,
    last_index: Option<u64>,
}

impl Report {
    /// Adds batch `b`'s check, in batch order: indices must keep ascending across batches.
    fn add(&mut self, b: usize, check: BatchCheck) {
        if check.rows > 0 {
            if let Some(p) = self.last_index
                && check.first <= p
            {
                self.violation_count += 1;
                self.violations
                    .push(format!("batch {b}: index {} follows {p}", check.first));
            }
            self.first_index.get_or_insert(check.first);
            self.last_index = Some(check.last);
        }
        self.levels += check.rows;
        self.violation_count += check.count;
        self.violations.extend(check.shown);
    }
}

/// A source of levels as `verify` reads it: each batch with the damage its format can name
/// apart from the levels' own checks.
trait CheckedSource: LevelSource {
    /// Batch `b`, or `None` when it cannot be read, and the damage found (a failed checksum,
    /// an unreadable row group) as a violation line.
    ///
    /// # Errors
    /// A batch that cannot be read where that ends the check (an archive's framing).
    fn checked_batch(&self, b: usize) -> Result<(Option<RecordBatch>, Option<String>)>;

    /// Where batch `b` lies when the source is more than one file (`FILE: row group G`), to
    /// put before its violations.
    fn origin(&self, _b: usize) -> Option<String> {
        None
    }
}

impl CheckedSource for Archive {
    /// A failed checksum is a violation, not the end: the batch is decoded anyway to name the
    /// damaged levels.
    fn checked_batch(&self, b: usize) -> Result<(Option<RecordBatch>, Option<String>)> {
        let (batch, checksum) = self.batch_and_checksum(b)?;
        Ok((Some(batch), checksum.err().map(|e| e.to_string())))
    }
}

impl CheckedSource for ParquetDataset {
    /// No checksums: a row group that does not read is the violation.
    fn checked_batch(&self, b: usize) -> Result<(Option<RecordBatch>, Option<String>)> {
        Ok(match self.batch(b) {
            Ok(batch) => (Some(batch), None),
            Err(e) => (None, Some(e.to_string())),
        })
    }

    fn origin(&self, b: usize) -> Option<String> {
        let (path, g) = self.batch_file(b)?;
        Some(format!("{}: row group {g}", path.display()))
    }
}

struct VerifyTask<'a, S: ?Sized> {
    source: &'a S,
    /// What the messages call the source.
    label: &'a str,
    /// The source's columns, read from its schema.
    columns: &'a ArchiveColumns,
    master_seed: u64,
    show: usize,
    /// Compare each level with a fresh generation (only when this warren wrote the file).
    regenerate: bool,
    /// The run's selection, if it had one: every level must pass its filter, and with
    /// `unique` no two may share a `layout_hash`.
    selection: Option<&'a SelectionMeta>,
    /// For one split of a dataset, which one: every level's hash must pick it.
    split: Option<&'a SplitMeta>,
}

impl<S: CheckedSource + ?Sized> VerifyTask<'_, S> {
    /// Checks the levels of batch `b`; damage the format names (a checksum, an unreadable row
    /// group) is a violation.
    fn check_batch<G: Generator>(
        &self,
        generator: &G,
        filter: Option<&Filter>,
        b: usize,
    ) -> Result<(BatchCheck, Hashes)> {
        let (batch, damage) = self.source.checked_batch(b)?;
        let Some(batch) = batch else {
            let check = BatchCheck {
                first: u64::MAX,
                last: 0,
                rows: 0,
                shown: damage.into_iter().collect(),
                count: 1,
            };
            return Ok((
                check,
                Hashes {
                    layout: Vec::new(),
                    unique: Vec::new(),
                    batch: None,
                },
            ));
        };
        let mut check = crate::batch::check_levels(
            generator,
            &batch,
            self.master_seed,
            self.regenerate,
            self.show,
            filter,
        )
        .map_err(|e| anyhow::anyhow!("{}: batch {b}: {e}", self.label))?;
        if let Some(e) = damage {
            check.count += 1;
            check.shown.insert(0, e);
        }
        if let Some(origin) = self.source.origin(b) {
            for line in &mut check.shown {
                *line = format!("{origin}: {line}");
            }
        }
        let column = |name: &str| {
            batch
                .column_by_name(name)
                .and_then(|c| c.as_primitive_opt::<UInt64Type>())
                .map(|c| c.values().to_vec())
                .unwrap_or_default()
        };
        // A shaped run's columns are checked in batch order, after all batches are read.
        let shaped: Vec<usize> = self
            .selection
            .map(|s| {
                let names = s
                    .quota
                    .iter()
                    .filter_map(|q| q.split_once('='))
                    .map(|(n, _)| n);
                let caps = s
                    .max_share
                    .iter()
                    .filter_map(|c| c.split_once('='))
                    .map(|(n, _)| n);
                names
                    .chain(caps)
                    .filter_map(|n| batch.schema().index_of(n.trim()).ok())
                    .collect()
            })
            .unwrap_or_default();
        let hashes = Hashes {
            batch: if shaped.is_empty() {
                None
            } else {
                Some(batch.project(&shaped)?)
            },
            layout: if let Some(split) = self.split {
                column(split.key())
            } else {
                Vec::new()
            },
            unique: match self.selection.filter(|s| s.unique) {
                Some(s) => column(unique_key(s.canonical)),
                None => Vec::new(),
            },
        };
        drop(batch);
        self.source.release(b);
        Ok((check, hashes))
    }
}

/// The hash columns of one batch that the run-wide checks need.
struct Hashes {
    /// `layout_hash`, for a split's membership (empty without one).
    layout: Vec<u64>,
    /// The column `--unique` kept one level of each of (empty without `--unique`).
    unique: Vec<u64>,
    /// The batch itself, for a run with `--quota` or `--max-share`.
    batch: Option<RecordBatch>,
}

impl<S: CheckedSource + ?Sized> GeneratorTask for VerifyTask<'_, S> {
    type Output = Result<Report>;

    fn run<G: Generator>(self, generator: &G) -> Result<Report> {
        if !self
            .columns
            .same_layout(&ArchiveColumns::from(generator.columns()))
        {
            bail!(
                "{}: columns do not match what the profile's generator writes",
                self.label
            );
        }
        let filter = self
            .selection
            .and_then(|s| s.filter.as_deref())
            .map(|text| Filter::compile(text, generator.columns().metrics))
            .transpose()
            .map_err(|e| anyhow::anyhow!("{}: {e}", self.label))?;
        let per_batch: Vec<Result<(BatchCheck, Hashes)>> = (0..self.source.batch_count())
            .into_par_iter()
            .map(|b| self.check_batch(generator, filter.as_ref(), b))
            .collect();
        let mut report = Report::default();
        let mut seen = HashSet::new();
        let unique = self.selection.is_some_and(|s| s.unique);
        let mut audit = self.shape_audit(generator)?;
        for (b, check) in per_batch.into_iter().enumerate() {
            let (check, hashes) = check?;
            report.add(b, check);
            if let (Some(audit), Some(batch)) = (audit.as_mut(), hashes.batch.as_ref()) {
                audit.batch(b, batch);
            }
            if let Some(split) = self.split {
                let elsewhere = misplaced(split, &hashes.layout);
                if elsewhere > 0 {
                    report.violation_count += elsewhere;
                    report.violations.push(format!(
                        "batch {b}: {elsewhere} levels belong to another split than `{}`",
                        split.name
                    ));
                }
            }
            if !unique {
                continue;
            }
            let repeated = hashes
                .unique
                .into_iter()
                .filter(|&h| !seen.insert(h))
                .count() as u64;
            if repeated > 0 {
                let key = unique_key(self.selection.is_some_and(|s| s.canonical));
                report.violation_count += repeated;
                report.violations.push(format!(
                    "batch {b}: {repeated} levels repeat an earlier {key} in a --unique run"
                ));
            }
        }
        if let Some(mut audit) = audit {
            audit.finish();
            report.violation_count += audit.count;
            report.violations.extend(audit.violations);
        }
        report.violations.truncate(self.show);
        Ok(report)
    }
}

impl<S: CheckedSource + ?Sized> VerifyTask<'_, S> {
    /// The check of a run's `--quota` and `--max-share`, when it had them: against the levels
    /// the footer counts (a run without a footer is not checked for full bins).
    fn shape_audit<G: Generator>(&self, generator: &G) -> Result<Option<ShapeAudit>> {
        let Some(s) = self.selection else {
            return Ok(None);
        };
        let Ok(footer) = self.source.run_footer() else {
            return Ok(None);
        };
        let columns = generator.columns();
        ShapeAudit::new(
            s.quota.as_deref(),
            &s.max_share,
            (columns.metrics, columns.extra),
            footer.levels,
        )
        .map_err(|e| anyhow::anyhow!("{}: {e}", self.label))
    }
}

/// The footer's counts against the batches: the level count must be theirs.
fn check_footer(footer: Option<&RunFooter>, report: &Report) -> u64 {
    match footer {
        None => 1,
        Some(f) if f.levels != report.levels => {
            println!(
                "footer says {} levels, the batches hold {}",
                f.levels, report.levels
            );
            1
        }
        Some(_) => 0,
    }
}

/// Levels of `hashes` that the split draw sends elsewhere than `split`.
fn misplaced(split: &SplitMeta, hashes: &[u64]) -> u64 {
    let shares: Vec<f64> = split.fractions.iter().map(|(_, f)| *f).collect();
    let Some(me) = split.fractions.iter().position(|(n, _)| *n == split.name) else {
        return hashes.len() as u64;
    };
    hashes
        .iter()
        .filter(|&&h| crate::run::split_of(h, &shares) != me)
        .count() as u64
}

/// The shard's index range (`warren.shard`), or with a selection the indices the run looked
/// at (`warren.scanned`): every index must lie in it, and the levels written plus the seeds
/// that failed and the levels left out (when the footer counts them) must fill it.
fn check_shard_range(
    shard: Option<&ShardMeta>,
    footer: Option<&RunFooter>,
    report: &Report,
) -> u64 {
    let Some(shard) = shard else {
        println!("no {} metadata", crate::archive::META_SHARD);
        return 1;
    };
    let scanned = footer.and_then(|f| f.scanned.as_ref());
    let range = scanned.map_or_else(|| shard.range.clone(), Scanned::range);
    let what = if scanned.is_some() {
        "indices the run looked at"
    } else {
        "shard's range"
    };
    let mut violations = 0;
    let (first, last) = (report.first_index, report.last_index);
    if first.is_some_and(|f| f < range.start) || last.is_some_and(|l| l >= range.end) {
        println!("indices {first:?}..={last:?} fall outside the {what} {range:?}");
        violations += 1;
    }
    if let Some(footer) = footer {
        let left_out = scanned.map_or(0, |s| s.duplicates + s.filtered);
        if report.levels + footer.failed() + left_out != range.end - range.start {
            println!(
                "{} levels, {} failed seeds and {left_out} left out do not fill the {what} \
                 {range:?}",
                report.levels,
                footer.failed()
            );
            violations += 1;
        }
    }
    violations
}

/// Checks every level of `source` (called `label` in messages) and its footer; prints the
/// violations and one result line; returns the violation count.
fn verify_source<S: CheckedSource + ?Sized>(source: &S, label: &str, show: usize) -> Result<u64> {
    let meta = RunMeta::from_schema(source.schema()).map_err(|error| ArchiveError::Metadata {
        path: PathBuf::from(label),
        error,
    })?;
    let columns = source.columns()?;
    let run = Run::from_meta(meta, label)?;
    let (meta, profile) = (run.meta(), run.profile());
    if profile.kind() != meta.generator {
        bail!(
            "{label}: stored profile is for `{}` but the file says `{}`",
            profile.kind(),
            meta.generator
        );
    }
    // Levels are reproducible by the version that generated them; another version's
    // generators may legitimately differ, so only its invariants and integrity are checked.
    let same_version = meta.version == env!("CARGO_PKG_VERSION");
    if !same_version {
        eprintln!(
            "warren: note: {label} was written by warren {}, this is {}: levels are checked but \
             not compared with a fresh generation",
            meta.version,
            env!("CARGO_PKG_VERSION")
        );
    }
    let task = VerifyTask {
        source,
        label,
        columns: &columns,
        master_seed: meta.master_seed,
        show,
        regenerate: same_version,
        selection: meta.selection.as_ref(),
        split: meta.split.as_ref(),
    };
    // The generator is built from the profile's files as stored with the levels alone,
    // whatever the folder or the files on disk now.
    let report = run.with_generator_or_mixture(task)??;
    let footer = RunFooter::from_metadata(source.footer_metadata())
        .inspect_err(|e| println!("footer: {e} (did the run finish?)"))
        .ok();
    let mut violations = report.violation_count;
    violations += check_footer(footer.as_ref(), &report);
    // A split holds a share of its source's levels: they fill no range.
    if meta.split.is_none() {
        violations += check_shard_range(meta.shard.as_ref(), footer.as_ref(), &report);
    }
    for v in &report.violations {
        println!("{v}");
    }
    println!(
        "{label}: {} levels checked, {} violations",
        super::thousands(report.levels),
        super::thousands(violations)
    );
    Ok(violations)
}

/// Checks every split of the Parquet dataset folder `dir`, one result line each.
fn verify_dataset(dir: &Path, show: usize) -> Result<u64> {
    let mut violations = 0;
    for split in dataset_splits(dir)? {
        let dataset = ParquetDataset::open(dir, &split)?;
        let label = dir
            .join(DATA_DIR)
            .join(format!("{split}-*.parquet"))
            .display()
            .to_string();
        violations += verify_source(&dataset, &label, show)?;
    }
    Ok(violations)
}

/// `verify --disjoint`: the overlaps between the inputs, printed; the number found.
fn verify_disjoint(paths: &[PathBuf], show: usize) -> Result<u64> {
    let report = crate::run::disjoint(paths, &std::env::temp_dir(), show)?;
    let levels: u64 = report.inputs.iter().map(|(_, n)| n).sum();
    for name in &report.exact_only {
        println!("{name}: no canonical_hash column (written before it): compared exactly only");
    }
    for o in &report.shown {
        let what = match o.identity {
            crate::run::DisjointIdentity::Exact => "layout_hash",
            crate::run::DisjointIdentity::Canonical => "canonical_hash",
        };
        let at: Vec<String> = o
            .levels
            .iter()
            .map(|(input, index)| format!("{input} level {index}"))
            .collect();
        println!("{what} {:#018x} in {}", o.hash, at.join(", "));
    }
    let overlaps = report.exact_overlaps + report.canonical_overlaps;
    let names: Vec<&str> = report.inputs.iter().map(|(n, _)| n.as_str()).collect();
    println!(
        "{} inputs ({}), {} levels: {} exact and {} canonical overlaps (levels equal up to symmetry, the exact ones included){}",
        names.len(),
        names.join(", "),
        thousands(levels),
        thousands(report.exact_overlaps),
        thousands(report.canonical_overlaps),
        if overlaps == 0 { ": disjoint" } else { "" }
    );
    Ok(overlaps)
}

/// Runs `verify`.
pub fn run(args: Args) -> Result<ExitCode> {
    let violations = match &args.file {
        None => verify_disjoint(&args.disjoint, args.show)?,
        Some(file) if file.is_dir() => verify_dataset(file, args.show)?,
        Some(file) => {
            let archive = Archive::open(file)?;
            verify_source(&archive, &file.display().to_string(), args.show)?
        }
    };
    Ok(if violations == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
