//! `warren merge OUT.arrow SHARD...`: joins the shard archives of one run (`--shard I/N`, or
//! `--shard auto` in a job array) into one archive holding the levels of the unsharded run, in
//! index order, level for level.
//!
//! Everything is checked before anything is written, and each refusal names the file and the
//! reason: every shard must be a whole, valid archive (its CRCs and footer intact) made by the
//! same warren version, generator, profile and master seed for the same run size and shard
//! count; no shard may appear twice and none may be missing; each must hold levels plus failed
//! seeds that fill its range exactly. The merged archive keeps the shards' schema and metadata
//! (its shard record becomes shard 0 of 1 over `0..C`), sums the footer's level and failure
//! counts, carries the shards' record batches over unchanged (each CRC-checked on the way) and
//! is written atomically: a refused or failed merge leaves no output file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use arrow_array::RecordBatch;
use arrow_schema::Schema;

use crate::archive::{
    Archive, ArchiveWriter, Checkpoint, META_SHARD, ResumeKey, ResumePlan, RunFooter, RunMeta,
    plan_resume,
};
use crate::batch::{Shard, ShardMeta};

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

/// One opened shard and what it says of its run.
pub(super) struct Part {
    pub(super) archive: Archive,
    pub(super) run: RunMeta,
    pub(super) shard: ShardMeta,
    pub(super) footer: RunFooter,
}

impl Part {
    pub(super) fn name(&self) -> String {
        self.archive.path().display().to_string()
    }

    /// What every shard of one run shares, named for the error messages: warren version,
    /// generator, master seed, profile.
    fn same(&self) -> [(&'static str, String); 4] {
        [
            ("warren version", self.run.version.clone()),
            ("generator", self.run.generator.clone()),
            ("master seed", self.run.master_seed.to_string()),
            ("profile", self.run.profile.clone()),
        ]
    }
}

fn open(path: &Path) -> Result<Part> {
    let archive = Archive::open(path)?;
    let shown = path.display();
    let run = RunMeta::from_archive(&archive)?;
    let shard = run
        .shard
        .clone()
        .with_context(|| format!("{shown}: no {META_SHARD} metadata"))?;
    let footer = RunFooter::from_archive(&archive)?;
    let (range, left_out) = match &footer.scanned {
        None => (shard.range.clone(), 0),
        Some(s) if shard.shard.count > 1 && s.range() != shard.range => bail!(
            "{shown}: it looked at indices {:?}, not its shard's range {:?}",
            s.range(),
            shard.range
        ),
        Some(s) => (s.range(), s.duplicates + s.filtered),
    };
    if footer.levels + footer.failed() + left_out != range.end - range.start {
        bail!(
            "{shown}: {} levels, {} failed seeds and {left_out} left out do not fill its range \
             {range:?} (shard {})",
            footer.levels,
            footer.failed(),
            shard.shard
        );
    }
    Ok(Part {
        archive,
        run,
        shard,
        footer,
    })
}

/// Checks that `p` comes from the same run as `first`.
fn check_same_run(first: &Part, p: &Part) -> Result<()> {
    for ((what, a), (_, b)) in first.same().into_iter().zip(p.same()) {
        if a != b {
            let short = |v: &str| !v.contains('\n') && v.len() <= 40;
            if short(&a) && short(&b) {
                bail!(
                    "{}: {what} {b}, but {} has {what} {a}: not shards of one run",
                    p.name(),
                    first.name()
                );
            }
            bail!(
                "{}: its {what} differs from {}'s: not shards of one run",
                p.name(),
                first.name()
            );
        }
    }
    if p.run.files != first.run.files {
        bail!(
            "{}: its profile's files differ from {}'s: not shards of one run",
            p.name(),
            first.name()
        );
    }
    let (a, b) = (&first.shard, &p.shard);
    if (b.total, b.shard.count) != (a.total, a.shard.count) {
        bail!(
            "{}: shard {} of a run of {} levels, but {} is shard {} of {} levels",
            p.name(),
            b.shard,
            b.total,
            first.name(),
            a.shard,
            a.total
        );
    }
    if p.archive.schema().fields() != first.archive.schema().fields() {
        bail!("{}: its columns differ from {}'s", p.name(), first.name());
    }
    Ok(())
}

/// Checks that `parts` are every shard of one run, once each; returns them in shard order.
fn check(mut parts: Vec<Part>) -> Result<Vec<Part>> {
    for p in &parts[1..] {
        check_same_run(&parts[0], p)?;
    }
    parts.sort_by_key(|p| p.shard.shard.index);
    for w in parts.windows(2) {
        if w[0].shard.shard.index == w[1].shard.shard.index {
            bail!(
                "{} and {} are both shard {}",
                w[0].name(),
                w[1].name(),
                w[0].shard.shard
            );
        }
    }
    let count = parts[0].shard.shard.count;
    if let Some(missing) = (0..count).find(|&i| {
        parts
            .get(i as usize)
            .is_none_or(|p| p.shard.shard.index != i)
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
    super::check_output_folder(&args.out)?;
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
    if let Some(selection) = super::merge_fill::selection(&parts, args.unique)? {
        if args.resume {
            bail!(
                "--resume is for a merge that copies its shards: this one makes the rest of a \
                 --unique or --where run"
            );
        }
        return super::merge_fill::merge(&parts, selection, &args.out, args.threads, args.quiet);
    }
    let total = parts[0].shard.total;
    let metadata = parts[0]
        .run
        .clone()
        .with_shard(ShardMeta::new(Shard::default(), total))
        .to_metadata();
    let schema = Arc::new(Schema::new_with_metadata(
        parts[0].archive.schema().fields().clone(),
        metadata,
    ));
    // The merged archive stores its batches as the first shard does.
    let compression = parts[0].archive.compression()?;
    // The shards' batches, in merge order, identify what a resumed merge must be given again.
    let mut inputs = crc32fast::Hasher::new();
    for part in &parts {
        for crc in part.archive.checksums() {
            inputs.update(&crc.to_le_bytes());
        }
    }
    let key = ResumeKey {
        chunk_size: 0,
        inputs: inputs.finalize(),
    };
    let (mut writer, mut skip, mut written) = match args.resume {
        false => (
            ArchiveWriter::create_resumable(&args.out, &schema, compression, &key)?,
            0,
            0,
        ),
        true => match plan_resume(&args.out, &schema, compression, &key)? {
            ResumePlan::Complete => {
                if !args.quiet {
                    eprintln!(
                        "warren: {} is already the finished merge of these shards: nothing to do",
                        args.out.display()
                    );
                }
                return Ok(ExitCode::SUCCESS);
            }
            ResumePlan::Start(_) => (
                ArchiveWriter::create_resumable(&args.out, &schema, compression, &key)?,
                0,
                0,
            ),
            ResumePlan::Continue(found) => {
                let done = found.checkpoint.as_ref().map_or(0, |c| c.chunks);
                if !args.quiet {
                    eprintln!(
                        "warren: resuming {}: {} batches ({} levels, {:.1} MB) kept, {:.1} MB \
                         after them dropped",
                        crate::archive::temp_path(&args.out).display(),
                        super::thousands(done),
                        super::thousands(found.levels()),
                        found.len_bytes() as f64 / 1e6,
                        found.dropped_bytes as f64 / 1e6
                    );
                }
                let kept = found.levels();
                let writer = ArchiveWriter::resume(&args.out, &schema, compression, found)?;
                (writer, done, kept)
            }
        },
    };
    let (mut levels, mut failures) = (0u64, BTreeMap::<String, u64>::new());
    let mut done = 0u64;
    for part in &parts {
        for i in 0..part.archive.batch_count() {
            if skip > 0 {
                // In the archive already (a resumed merge).
                skip -= 1;
                done += 1;
                continue;
            }
            let batch = part.archive.batch(i)?;
            let batch = RecordBatch::try_new(schema.clone(), batch.columns().to_vec())
                .with_context(|| format!("{}: batch {i}", part.archive.path().display()))?;
            writer.write(&batch)?;
            part.archive.release(i);
            done += 1;
            written += batch.num_rows() as u64;
            writer.checkpoint(&Checkpoint {
                chunks: done,
                kept: written,
                ..Checkpoint::default()
            })?;
        }
        levels += part.footer.levels;
        for (reason, n) in &part.footer.failures {
            *failures.entry(reason.clone()).or_default() += n;
        }
    }
    let footer = RunFooter {
        levels,
        failures,
        scanned: None,
    };
    let bytes = writer.finish(&footer.to_metadata())?;
    if !args.quiet {
        eprintln!(
            "warren: merged {} shards, {} levels and {} failed seeds of {} indices, {:.1} MB \
             written to {}",
            parts.len(),
            super::thousands(levels),
            super::thousands(footer.failed()),
            super::thousands(total),
            bytes as f64 / 1e6,
            args.out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
