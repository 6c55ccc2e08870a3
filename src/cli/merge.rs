//! `warren merge OUT.arrow SHARD...`: joins the shard archives of one run (`--shard I/N`, or
//! `--shard auto` in a job array) into one archive holding the levels of the unsharded run, in
//! index order, level for level.
//!
//! Everything is checked before anything is written, and each refusal names the file and the
//! reason: every shard must be a whole, valid archive (its CRCs and footer intact) made by the
//! same warren version, generator, profile and master seed for the same run size and shard
//! count; no shard may appear twice and none may be missing; each must hold levels plus failed
//! seeds that fill its range exactly. The merged archive keeps the shards' schema and metadata
//! (its shard record becomes `0/1 of C levels: 0..C`), sums the footer's level and failure
//! counts, carries the shards' record batches over unchanged (each CRC-checked on the way) and
//! is written atomically: a refused or failed merge leaves no output file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use arrow_array::RecordBatch;
use arrow_schema::Schema;

use crate::archive::{self, Archive, ArchiveWriter};
use crate::batch::{Shard, ShardMeta, failures_json, footer_failures};

/// Arguments of `merge`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The merged archive (`.arrow`); written atomically.
    out: PathBuf,
    /// The shard archives, in any order.
    #[arg(required = true)]
    shards: Vec<PathBuf>,
    /// No summary line.
    #[arg(long, short)]
    quiet: bool,
}

/// One opened shard and what it says of its run.
struct Part {
    archive: Archive,
    meta: ShardMeta,
    levels: u64,
    failures: BTreeMap<String, u64>,
}

/// The metadata every shard of one run shares, named for the error messages.
const SAME: [(&str, &str); 4] = [
    (archive::META_VERSION, "warren version"),
    (archive::META_GENERATOR, "generator"),
    (archive::META_MASTER_SEED, "master seed"),
    (archive::META_PROFILE, "profile"),
];

fn open(path: &Path) -> Result<Part> {
    let archive = Archive::open(path)?;
    let shown = path.display();
    let meta = archive
        .meta(archive::META_SHARD)
        .with_context(|| format!("{shown}: no {} metadata", archive::META_SHARD))?
        .parse::<ShardMeta>()
        .map_err(|e| anyhow::anyhow!("{shown}: {e}"))?;
    let levels = archive
        .footer_metadata()
        .get(archive::FOOTER_LEVELS)
        .and_then(|v| v.parse::<u64>().ok())
        .with_context(|| format!("{shown}: no readable {} footer", archive::FOOTER_LEVELS))?;
    let failures = footer_failures(&archive).map_err(anyhow::Error::msg)?;
    let failed: u64 = failures.values().sum();
    let span = meta.range.end - meta.range.start;
    if levels + failed != span {
        bail!(
            "{shown}: {levels} levels and {failed} failed seeds do not fill its range {:?} \
             (shard {})",
            meta.range,
            meta.shard
        );
    }
    for k in SAME.iter().map(|(k, _)| *k) {
        if archive.meta(k).is_none() {
            bail!("{shown}: no {k} metadata");
        }
    }
    Ok(Part {
        archive,
        meta,
        levels,
        failures,
    })
}

/// Checks that `parts` are every shard of one run, once each; returns them in shard order.
fn check(mut parts: Vec<Part>) -> Result<Vec<Part>> {
    let first = &parts[0];
    let name = |p: &Part| p.archive.path().display().to_string();
    for p in &parts[1..] {
        for (key, what) in SAME {
            let (a, b) = (first.archive.meta(key), p.archive.meta(key));
            if a != b {
                let short = |v: &str| !v.contains('\n') && v.len() <= 40;
                match (b.filter(|v| short(v)), a.filter(|v| short(v))) {
                    (Some(b), Some(a)) => bail!(
                        "{}: {what} {b}, but {} has {what} {a}: not shards of one run",
                        name(p),
                        name(first)
                    ),
                    _ => bail!(
                        "{}: its {what} differs from {}'s: not shards of one run",
                        name(p),
                        name(first)
                    ),
                }
            }
        }
        if p.archive.meta(archive::META_FILES) != first.archive.meta(archive::META_FILES) {
            bail!(
                "{}: its profile's files differ from {}'s: not shards of one run",
                name(p),
                name(first)
            );
        }
        if (p.meta.total, p.meta.shard.count) != (first.meta.total, first.meta.shard.count) {
            bail!(
                "{}: shard {} of a run of {} levels, but {} is shard {} of {} levels",
                name(p),
                p.meta.shard,
                p.meta.total,
                name(first),
                first.meta.shard,
                first.meta.total
            );
        }
        if p.archive.schema().fields() != first.archive.schema().fields() {
            bail!("{}: its columns differ from {}'s", name(p), name(first));
        }
    }
    parts.sort_by_key(|p| p.meta.shard.index);
    for w in parts.windows(2) {
        if w[0].meta.shard.index == w[1].meta.shard.index {
            bail!(
                "{} and {} are both shard {}",
                name(&w[0]),
                name(&w[1]),
                w[0].meta.shard
            );
        }
    }
    let count = parts[0].meta.shard.count;
    if let Some(missing) = (0..count).find(|&i| {
        parts
            .get(i as usize)
            .is_none_or(|p| p.meta.shard.index != i)
    }) {
        bail!(
            "shard {} of the run is missing ({} of {count} shards given)",
            Shard {
                index: missing,
                count
            },
            parts.len()
        );
    }
    Ok(parts)
}

/// Runs `merge`.
pub fn run(args: Args) -> Result<ExitCode> {
    if let Some(parent) = args.out.parent().filter(|p| !p.as_os_str().is_empty())
        && !parent.is_dir()
    {
        bail!("{}: output folder does not exist", parent.display());
    }
    for s in &args.shards {
        if s.canonicalize().ok().is_some() && s.canonicalize().ok() == args.out.canonicalize().ok()
        {
            bail!(
                "{}: the output is also a shard to merge",
                args.out.display()
            );
        }
    }
    let parts = args
        .shards
        .iter()
        .map(|p| open(p))
        .collect::<Result<Vec<_>>>()?;
    let parts = check(parts)?;
    let first = &parts[0].archive;
    let total = parts[0].meta.total;
    let mut metadata = first.schema().metadata().clone();
    metadata.insert(
        archive::META_SHARD.to_string(),
        ShardMeta::new(Shard::default(), total).to_string(),
    );
    let schema = Arc::new(Schema::new_with_metadata(
        first.schema().fields().clone(),
        metadata,
    ));
    let mut writer = ArchiveWriter::create(&args.out, &schema)?;
    let (mut levels, mut failures) = (0u64, BTreeMap::<String, u64>::new());
    for part in &parts {
        for i in 0..part.archive.batch_count() {
            let batch = part.archive.batch(i)?;
            let batch = RecordBatch::try_new(schema.clone(), batch.columns().to_vec())
                .with_context(|| format!("{}: batch {i}", part.archive.path().display()))?;
            writer.write(&batch)?;
            part.archive.release(i);
        }
        levels += part.levels;
        for (reason, n) in &part.failures {
            *failures.entry(reason.clone()).or_default() += n;
        }
    }
    let footer = vec![
        (archive::FOOTER_LEVELS.to_string(), levels.to_string()),
        (
            archive::FOOTER_FAILURES.to_string(),
            failures_json(&failures),
        ),
    ];
    let bytes = writer.finish(&footer)?;
    if !args.quiet {
        eprintln!(
            "warren: merged {} shards, {} levels and {} failed seeds of {} indices, {:.1} MB \
             written to {}",
            parts.len(),
            super::thousands(levels),
            super::thousands(failures.values().sum()),
            super::thousands(total),
            bytes as f64 / 1e6,
            args.out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
