//! `warren merge` for shards made with a selection (`--unique`, `--where`), or with
//! `merge --unique`: the shards' levels are taken in index order, a level whose `layout_hash`
//! an earlier shard already kept is left out, and the rest of the run (from the index after
//! the last shard's range) is made with the stored profile until the run holds its full count.
//! A whole run with the same selection keeps the same levels (see
//! [`Selection`](crate::batch::Selection)), so the merged archive equals it level for level.

use std::collections::{BTreeMap, HashSet};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use arrow_array::RecordBatch;
use arrow_schema::{Schema, SchemaRef};

use crate::archive::{ArchiveWriter, RunFooter, RunMeta, Scanned, SelectionMeta};
use crate::batch::{
    self, BatchError, BatchOptions, BatchSink, BatchSummary, Filter, Keeper, Selection, Shard,
    ShardMeta,
};
use crate::core::generator::Generator;
use crate::profile::{GeneratorTask, Profile};

use super::merge::Part;

/// The selection a merge of `parts` applies: the shards' own, made unique with `unique`;
/// `None` for shards without one and no `--unique` (a plain merge).
///
/// # Errors
/// A whole run (one shard of one) with a selection: it is complete already.
pub(super) fn selection(parts: &[Part], unique: bool) -> Result<Option<SelectionMeta>> {
    let total = parts[0].shard.total;
    let selection = match parts[0].run.selection.clone() {
        Some(s) => SelectionMeta {
            unique: s.unique || unique,
            ..s
        },
        None if unique => SelectionMeta {
            unique: true,
            filter: None,
            max_tries: total.saturating_mul(10).max(10_000),
        },
        None => return Ok(None),
    };
    if parts[0].shard.shard.count == 1 && parts[0].footer.scanned.is_some() {
        bail!(
            "{}: a whole run with a selection already holds its levels: nothing to merge",
            parts[0].name()
        );
    }
    Ok(Some(selection))
}

/// A sink that hands the rest of the run to the merge's own writer, which the merge finishes.
struct Into<'a>(&'a mut ArchiveWriter);

impl BatchSink for Into<'_> {
    fn write(&mut self, batch: &RecordBatch) -> Result<(), BatchError> {
        Ok(self.0.write(batch)?)
    }

    fn finish(self, _footer: &[(String, String)]) -> Result<u64, BatchError> {
        Ok(0)
    }
}

/// Makes the rest of a run: `wanted` more levels from index `start`, leaving out the hashes
/// `seen` (with `unique`), into the merge's `writer`.
struct Rest<'a> {
    run: &'a RunMeta,
    selection: &'a SelectionMeta,
    schema: SchemaRef,
    start: u64,
    wanted: u64,
    seen: Option<HashSet<u64>>,
    threads: usize,
    quiet: bool,
    writer: &'a mut ArchiveWriter,
}

impl GeneratorTask for Rest<'_> {
    type Output = Result<BatchSummary>;

    fn run<G: Generator>(self, generator: &G) -> Result<BatchSummary> {
        let filter = self
            .selection
            .filter
            .as_deref()
            .map(|text| Filter::compile(text, generator.columns().metrics))
            .transpose()?;
        let opts = BatchOptions {
            count: self.wanted,
            seed: self.run.master_seed,
            threads: self.threads,
            shard: Shard::default(),
            start: self.start,
            chunk_size: 2048,
            progress: !self.quiet,
            selection: Some(Selection {
                unique: self.selection.unique,
                filter,
                max_tries: self.selection.max_tries.saturating_sub(self.start),
                earlier: self.seen.map(Arc::new),
            }),
            resume: None,
        };
        Ok(batch::run(
            generator,
            self.schema,
            &opts,
            Into(self.writer),
            Vec::new(),
        )?)
    }
}

/// Merges `parts` (every shard of one run, in shard order) under `selection` into `out`.
pub(super) fn merge(
    parts: &[Part],
    selection: SelectionMeta,
    out: &Path,
    threads: usize,
    quiet: bool,
) -> Result<ExitCode> {
    let total = parts[0].shard.total;
    let run = parts[0]
        .run
        .clone()
        .with_shard(ShardMeta::new(Shard::default(), total))
        .with_selection(Some(selection.clone()));
    let schema = Arc::new(Schema::new_with_metadata(
        parts[0].archive.schema().fields().clone(),
        run.to_metadata(),
    ));
    // The merged archive stores its batches as the first shard does.
    let compression = parts[0].archive.compression()?;
    let mut writer = ArchiveWriter::create_compressed(out, &schema, compression)?;
    let seen = selection.unique.then(HashSet::new);
    let mut keeper = Keeper::new(0, seen, Some(total), true);
    let mut failures = BTreeMap::<String, u64>::new();
    let mut scanned = Scanned::default();
    for part in parts {
        for i in 0..part.archive.batch_count() {
            let batch = part.archive.batch(i)?;
            let batch = RecordBatch::try_new(schema.clone(), batch.columns().to_vec())
                .with_context(|| format!("{}: batch {i}", part.archive.path().display()))?;
            for kept in keeper.take(0..0, vec![batch], &[])? {
                writer.write(&kept)?;
            }
            part.archive.release(i);
        }
        for (reason, n) in &part.footer.failures {
            *failures.entry(reason.clone()).or_default() += n;
        }
        if let Some(s) = &part.footer.scanned {
            scanned.duplicates += s.duplicates;
            scanned.filtered += s.filtered;
        }
    }
    scanned.duplicates += keeper.scanned.duplicates;
    scanned.end = total;
    let mut levels = keeper.kept;
    let made = levels;
    if levels < total {
        let profile = Profile::from_toml(
            &run.profile,
            &format!("{} (stored profile)", parts[0].name()),
        )?;
        let rest = Rest {
            run: &run,
            selection: &selection,
            schema: schema.clone(),
            start: total,
            wanted: total - levels,
            seen: keeper.into_seen(),
            threads,
            quiet,
            writer: &mut writer,
        };
        let summary = if run.files.is_empty() {
            profile.with_generator(rest)
        } else {
            crate::core::files::with_embedded(run.files.clone(), || profile.with_generator(rest))
        }??;
        levels += summary.levels;
        for (reason, n) in summary.failure_reasons {
            *failures.entry(reason).or_default() += n;
        }
        if let Some(s) = summary.scanned {
            scanned.duplicates += s.duplicates;
            scanned.filtered += s.filtered;
            scanned.end = s.end;
        }
    }
    let footer = RunFooter {
        levels,
        failures,
        scanned: Some(scanned),
    };
    let bytes = writer.finish(&footer.to_metadata())?;
    if !quiet {
        let s = footer.scanned.as_ref().expect("set above");
        eprintln!(
            "warren: merged {} shards, {} levels ({} from the shards, {} made after them) of {} \
             seeds tried: {} failed, {} filtered out, {} duplicates; {:.1} MB written to {}",
            parts.len(),
            super::thousands(levels),
            super::thousands(made),
            super::thousands(levels - made),
            super::thousands(s.end),
            super::thousands(footer.failed()),
            super::thousands(s.filtered),
            super::thousands(s.duplicates),
            bytes as f64 / 1e6,
            out.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}
