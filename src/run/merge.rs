//! Joining the shard archives of one run (`--shard I/N`, or `--shard auto` in a job array)
//! into one archive holding the levels of the unsharded run, in index order, level for level.
//!
//! Everything is checked before anything is written ([`super::shards`]). The merged archive
//! keeps the shards' schema and metadata (its shard record becomes shard 0 of 1 over `0..C`),
//! sums the footer's level and failure counts, carries the shards' record batches over
//! unchanged (each CRC-checked on the way) and is written atomically: a refused or failed
//! merge leaves no output file. A plain merge ([`super::copy`]) can resume a killed one from
//! its `OUT.tmp`; shards made with a selection go through [`super::refill`] instead.

use std::path::{Path, PathBuf};

use super::error::MergeError;
use super::options::{MergeOptions, MergeSummary, Resumed};
use super::shards::{self, Part};

/// Merges the shard archives `parts` (every shard of one run, in any order) into `out`.
///
/// # Errors
/// A refusal naming the file and the reason (see [`MergeError`]); a shard that cannot be read
/// or an output that cannot be written. Nothing is left under `out` then.
///
/// # Runtime
/// One pass over the shards' bytes (each batch decoded, checked and written once), O(levels)
/// in time and one record batch in memory; with a selection, a set of every `layout_hash`
/// kept, and the generation of the levels still missing.
pub fn merge(
    parts: &[PathBuf],
    out: &Path,
    options: MergeOptions,
) -> Result<MergeSummary, MergeError> {
    merge_with(parts, out, options, |_| {})
}

/// As [`merge`], calling `on_resume` before anything is copied when `options.resume` goes on
/// from a killed merge (the command line reports it then).
///
/// # Errors
/// As [`merge`].
pub fn merge_with(
    parts: &[PathBuf],
    out: &Path,
    options: MergeOptions,
    on_resume: impl FnOnce(&Resumed),
) -> Result<MergeSummary, MergeError> {
    check_output(parts, out)?;
    let parts = parts
        .iter()
        .map(|p| Part::open(p))
        .collect::<Result<Vec<_>, _>>()?;
    let parts = shards::check(parts)?;
    if let Some(selection) = shards::selection(&parts, options.unique)? {
        if options.resume {
            return Err(MergeError::ResumeWithSelection);
        }
        return super::refill::merge_selected(&parts, selection, out, options);
    }
    super::copy::copy(&parts, out, options.resume, on_resume)
}

/// Checks that `out` can be written and is none of the `parts`.
fn check_output(parts: &[PathBuf], out: &Path) -> Result<(), MergeError> {
    crate::core::folders::check_output_folder(out).map_err(|missing| {
        MergeError::NoOutputFolder {
            path: missing.folder,
        }
    })?;
    let out_real = out.canonicalize().ok();
    if out_real.is_some() && parts.iter().any(|s| s.canonicalize().ok() == out_real) {
        return Err(MergeError::OutputIsShard {
            path: out.to_path_buf(),
        });
    }
    Ok(())
}
