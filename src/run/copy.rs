//! The plain merge: every record batch of the shards copied unchanged, in shard order, with a
//! checkpoint after each, so that a killed merge resumes from its `OUT.tmp` into the archive an
//! uninterrupted merge writes, byte for byte.

use std::path::Path;

use arrow_schema::SchemaRef;

use crate::archive::{
    ArchiveWriter, Checkpoint, Recovered, ResumeKey, ResumePlan, RunFooter, plan_resume,
};

use super::error::MergeError;
use super::options::{MergeSummary, Resumed};
use super::shards::{Part, batch_of, merged_schema, whole};

/// Where a plain merge writes: a fresh writer, or one going on after the batches a killed
/// merge wrote; `None` when `out` is the finished merge already.
struct Start {
    writer: ArchiveWriter,
    /// Batches in the archive already.
    skip: u64,
    /// Levels in them.
    kept: u64,
    resumed: Option<Resumed>,
}

/// Opens the plain merge's writer on `out`, going on from a killed merge's `OUT.tmp` with
/// `resume` (telling `on_resume` what it kept first).
fn start(
    parts: &[Part],
    out: &Path,
    schema: &SchemaRef,
    resume: bool,
    on_resume: impl FnOnce(&Resumed),
) -> Result<Option<Start>, MergeError> {
    // The merged archive stores its batches as the first shard does.
    let compression = parts[0].archive.compression()?;
    // The shards' batches, in merge order, identify what a resumed merge must be given again.
    let mut inputs = crc32fast::Hasher::new();
    for part in parts {
        for crc in part.archive.checksums() {
            inputs.update(&crc.to_le_bytes());
        }
    }
    let key = ResumeKey {
        chunk_size: 0,
        inputs: inputs.finalize(),
    };
    let fresh = |writer| Start {
        writer,
        skip: 0,
        kept: 0,
        resumed: None,
    };
    if !resume {
        let writer = ArchiveWriter::create_resumable(out, schema, compression, &key)?;
        return Ok(Some(fresh(writer)));
    }
    Ok(match plan_resume(out, schema, compression, &key)? {
        ResumePlan::Complete => None,
        ResumePlan::Start(_) => Some(fresh(ArchiveWriter::create_resumable(
            out,
            schema,
            compression,
            &key,
        )?)),
        ResumePlan::Continue(found) => {
            let resumed = resumed(out, &found);
            on_resume(&resumed);
            Some(Start {
                skip: resumed.batches,
                kept: resumed.levels,
                resumed: Some(resumed),
                writer: ArchiveWriter::resume(out, schema, compression, found)?,
            })
        }
    })
}

/// What `found` kept of the killed merge onto `out`.
fn resumed(out: &Path, found: &Recovered) -> Resumed {
    Resumed {
        temp: crate::archive::temp_path(out),
        batches: found.checkpoint.as_ref().map_or(0, |c| c.chunks),
        levels: found.levels(),
        bytes: found.len_bytes(),
        dropped_bytes: found.dropped_bytes,
    }
}

/// The plain merge: every batch of `parts` copied in shard order, with a checkpoint after each
/// so that a killed merge can resume.
pub(super) fn copy(
    parts: &[Part],
    out: &Path,
    resume: bool,
    on_resume: impl FnOnce(&Resumed),
) -> Result<MergeSummary, MergeError> {
    let total = parts[0].shard.total;
    let run = parts[0].run.clone().with_shard(whole(total));
    let schema = merged_schema(parts, &run);
    let mut summary = MergeSummary {
        shards: parts.len(),
        total,
        ..MergeSummary::default()
    };
    let Some(Start {
        mut writer,
        mut skip,
        kept,
        resumed,
    }) = start(parts, out, &schema, resume, on_resume)?
    else {
        summary.finished_already = true;
        return Ok(summary);
    };
    let (mut done, mut written) = (0u64, kept);
    for part in parts {
        for i in 0..part.archive.batch_count() {
            done += 1;
            if skip > 0 {
                // In the archive already (a resumed merge).
                skip -= 1;
                continue;
            }
            let batch = batch_of(part, i, &schema)?;
            writer.write(&batch)?;
            part.archive.release(i);
            written += batch.num_rows() as u64;
            writer.checkpoint(&Checkpoint {
                chunks: done,
                kept: written,
                ..Checkpoint::default()
            })?;
        }
        summary.levels += part.footer.levels;
        for (reason, n) in &part.footer.failures {
            *summary.failures.entry(reason.clone()).or_default() += n;
        }
    }
    let footer = RunFooter {
        levels: summary.levels,
        failures: summary.failures.clone(),
        scanned: None,
    };
    summary.bytes = writer.finish(&footer.to_metadata())?;
    summary.from_shards = summary.levels;
    summary.resumed = resumed;
    Ok(summary)
}
