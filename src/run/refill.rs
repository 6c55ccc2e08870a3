//! The merge of shards made with a selection (`--unique`, `--where`), or of any shards with
//! [`MergeOptions::unique`](super::MergeOptions): the shards' levels are taken in index order,
//! a level whose `layout_hash` an earlier shard already kept is left out, and the rest of the
//! run (from the index after the last shard's range) is made with the stored profile until the
//! run holds its full count. A whole run with the same selection keeps the same levels (see
//! [`Selection`]), so the merged archive equals it level for level.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;

use crate::archive::{ArchiveWriter, RunFooter, RunMeta, Scanned, SelectionMeta};
use crate::batch::{
    self, BatchError, BatchOptions, BatchSink, BatchSummary, Filter, Keeper, Selection, Shard,
};
use crate::core::generator::Generator;
use crate::profile::GeneratorTask;

use super::error::MergeError;
use super::options::{MergeOptions, MergeSummary};
use super::shards::{Part, batch_of, merged_schema, whole};
use super::stored::Run;

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
    progress: bool,
    writer: &'a mut ArchiveWriter,
}

impl GeneratorTask for Rest<'_> {
    type Output = Result<BatchSummary, MergeError>;

    fn run<G: Generator>(self, generator: &G) -> Self::Output {
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
            progress: self.progress,
            selection: Some(Selection {
                unique: self.selection.unique,
                canonical: self.selection.canonical,
                filter,
                max_tries: self.selection.max_tries.saturating_sub(self.start),
                earlier: self.seen.map(Arc::new),
                ..Selection::default()
            }),
            resume: None,
            kept: Vec::new(),
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
pub(super) fn merge_selected(
    parts: &[Part],
    selection: SelectionMeta,
    out: &Path,
    options: MergeOptions,
) -> Result<MergeSummary, MergeError> {
    let total = parts[0].shard.total;
    let run = parts[0]
        .run
        .clone()
        .with_shard(whole(total))
        .with_selection(Some(selection.clone()));
    let schema = merged_schema(parts, &run);
    // The merged archive stores its batches as the first shard does.
    let compression = parts[0].archive.compression()?;
    let mut writer = ArchiveWriter::create_compressed(out, &schema, compression)?;
    let (mut summary, seen) = copy_selected(parts, &selection, &schema, &mut writer)?;
    let scanned = summary.scanned.as_mut().expect("set by copy_selected");
    if summary.levels < total {
        let stored = Run::from_meta(run, &parts[0].path().display().to_string())?;
        let rest = Rest {
            run: stored.meta(),
            selection: &selection,
            schema: schema.clone(),
            start: total,
            wanted: total - summary.levels,
            seen,
            threads: options.threads,
            progress: options.progress,
            writer: &mut writer,
        };
        let made = stored.with_generator(rest)??;
        summary.levels += made.levels;
        for (reason, n) in made.failure_reasons {
            *summary.failures.entry(reason).or_default() += n;
        }
        if let Some(s) = made.scanned {
            scanned.duplicates += s.duplicates;
            scanned.filtered += s.filtered;
            scanned.end = s.end;
        }
    }
    let footer = RunFooter {
        levels: summary.levels,
        failures: summary.failures.clone(),
        scanned: summary.scanned.clone(),
    };
    summary.bytes = writer.finish(&footer.to_metadata())?;
    Ok(summary)
}

/// Copies the levels of `parts` that `selection` keeps, in index order, into `writer`; returns
/// the counts so far (the run's indices all scanned) and, with `unique`, the hashes kept.
fn copy_selected(
    parts: &[Part],
    selection: &SelectionMeta,
    schema: &SchemaRef,
    writer: &mut ArchiveWriter,
) -> Result<(MergeSummary, Option<HashSet<u64>>), MergeError> {
    let total = parts[0].shard.total;
    let seen = selection.unique.then(HashSet::new);
    let mut keeper = Keeper::new(0, seen, Some(total), true)
        .keyed_by(crate::batch::unique_key(selection.canonical));
    let mut summary = MergeSummary {
        shards: parts.len(),
        total,
        ..MergeSummary::default()
    };
    let mut scanned = Scanned::default();
    for part in parts {
        for i in 0..part.archive.batch_count() {
            let batch = batch_of(part, i, schema)?;
            for kept in keeper.take(0..0, vec![batch], &[])? {
                writer.write(&kept)?;
            }
            part.archive.release(i);
        }
        for (reason, n) in &part.footer.failures {
            *summary.failures.entry(reason.clone()).or_default() += n;
        }
        if let Some(s) = &part.footer.scanned {
            scanned.duplicates += s.duplicates;
            scanned.filtered += s.filtered;
        }
    }
    scanned.duplicates += keeper.scanned.duplicates;
    scanned.end = total;
    summary.levels = keeper.kept;
    summary.from_shards = keeper.kept;
    summary.scanned = Some(scanned);
    Ok((summary, keeper.into_seen()))
}
