//! The shards a merge is given, opened and checked before anything is written: every shard must
//! be a whole, valid archive made by the same warren version, generator, profile and master
//! seed for the same run size and shard count; no shard may appear twice and none may be
//! missing; each must hold levels plus failed seeds (and, with a selection, levels left out)
//! that fill its range exactly.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::{Schema, SchemaRef};

use crate::archive::{Archive, RunFooter, RunMeta, SelectionMeta};
use crate::batch::{Shard, ShardMeta};

use super::error::MergeError;

/// One opened shard and what it says of its run.
pub(super) struct Part {
    pub(super) archive: Archive,
    pub(super) run: RunMeta,
    pub(super) shard: ShardMeta,
    pub(super) footer: RunFooter,
}

impl Part {
    /// Opens the shard at `path` and checks that its levels fill its range.
    pub(super) fn open(path: &Path) -> Result<Part, MergeError> {
        let archive = Archive::open(path)?;
        let run = RunMeta::from_archive(&archive)?;
        let shard = run.shard.clone().ok_or_else(|| MergeError::NoShardRecord {
            path: path.to_path_buf(),
        })?;
        let footer = RunFooter::from_archive(&archive)?;
        let (range, left_out) = match &footer.scanned {
            None => (shard.range.clone(), 0),
            Some(s) if shard.shard.count > 1 && s.range() != shard.range => {
                return Err(MergeError::ScannedElsewhere {
                    path: path.to_path_buf(),
                    scanned: s.range(),
                    range: shard.range,
                });
            }
            Some(s) => (s.range(), s.duplicates + s.filtered),
        };
        if footer.levels + footer.failed() + left_out != range.end - range.start {
            return Err(MergeError::Unfilled {
                path: path.to_path_buf(),
                levels: footer.levels,
                failed: footer.failed(),
                left_out,
                range,
                shard: shard.shard,
            });
        }
        Ok(Part {
            archive,
            run,
            shard,
            footer,
        })
    }

    /// The file, as given.
    pub(super) fn path(&self) -> PathBuf {
        self.archive.path().to_path_buf()
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

    /// Checks that `self` comes from the same run as `first`.
    fn check_same_run(&self, first: &Part) -> Result<(), MergeError> {
        let (path, first_path) = (self.path(), first.path());
        for ((what, a), (_, b)) in first.same().into_iter().zip(self.same()) {
            if a == b {
                continue;
            }
            let short = |v: &str| !v.contains('\n') && v.len() <= 40;
            return Err(if short(&a) && short(&b) {
                MergeError::OtherRun {
                    path,
                    first: first_path,
                    what,
                    value: b,
                    first_value: a,
                }
            } else {
                MergeError::OtherRunLong {
                    path,
                    first: first_path,
                    what,
                }
            });
        }
        if self.run.files != first.run.files {
            return Err(MergeError::OtherFiles {
                path,
                first: first_path,
            });
        }
        let (a, b) = (&first.shard, &self.shard);
        if (b.total, b.shard.count) != (a.total, a.shard.count) {
            return Err(MergeError::OtherRunSize {
                path,
                shard: b.shard,
                total: b.total,
                first: first_path,
                first_shard: a.shard,
                first_total: a.total,
            });
        }
        if self.archive.schema().fields() != first.archive.schema().fields() {
            return Err(MergeError::OtherColumns {
                path,
                first: first_path,
            });
        }
        Ok(())
    }
}

/// Checks that `parts` are every shard of one run, once each; returns them in shard order.
pub(super) fn check(mut parts: Vec<Part>) -> Result<Vec<Part>, MergeError> {
    let Some(first) = parts.first() else {
        return Err(MergeError::NoShards);
    };
    for p in &parts[1..] {
        p.check_same_run(first)?;
    }
    parts.sort_by_key(|p| p.shard.shard.index);
    for w in parts.windows(2) {
        if w[0].shard.shard.index == w[1].shard.shard.index {
            return Err(MergeError::RepeatedShard {
                path: w[0].path(),
                other: w[1].path(),
                shard: w[0].shard.shard,
            });
        }
    }
    let count = parts[0].shard.shard.count;
    if let Some(missing) = (0..count).find(|&i| {
        parts
            .get(i as usize)
            .is_none_or(|p| p.shard.shard.index != i)
    }) {
        return Err(MergeError::MissingShard {
            shard: Shard {
                index: missing,
                count,
            },
            given: parts.len(),
        });
    }
    Ok(parts)
}

/// The selection a merge of `parts` applies: the shards' own, made unique with `unique`;
/// `None` for shards without one and no `unique` (a plain merge).
///
/// # Errors
/// A whole run (one shard of one) with a selection: it is complete already.
pub(super) fn selection(parts: &[Part], unique: bool) -> Result<Option<SelectionMeta>, MergeError> {
    let total = parts[0].shard.total;
    let selection = match parts[0].run.selection.clone() {
        Some(s) => SelectionMeta {
            unique: s.unique || unique,
            ..s
        },
        None if unique => SelectionMeta {
            unique: true,
            canonical: false,
            filter: None,
            max_tries: total.saturating_mul(10).max(10_000),
            quota: None,
            max_share: Vec::new(),
        },
        None => return Ok(None),
    };
    if parts[0].shard.shard.count == 1 && parts[0].footer.scanned.is_some() {
        return Err(MergeError::WholeRun {
            path: parts[0].path(),
        });
    }
    Ok(Some(selection))
}

/// The merged archive's schema: the shards' columns with the metadata of `run`.
pub(super) fn merged_schema(parts: &[Part], run: &RunMeta) -> SchemaRef {
    Arc::new(Schema::new_with_metadata(
        parts[0].archive.schema().fields().clone(),
        run.to_metadata(),
    ))
}

/// The whole run's shard record: shard 0 of 1 over all `total` indices.
pub(super) fn whole(total: u64) -> ShardMeta {
    ShardMeta::new(Shard::default(), total)
}

/// Batch `i` of `part`, under the merged `schema`.
pub(super) fn batch_of(
    part: &Part,
    i: usize,
    schema: &SchemaRef,
) -> Result<RecordBatch, MergeError> {
    let batch = part.archive.batch(i)?;
    RecordBatch::try_new(schema.clone(), batch.columns().to_vec()).map_err(|source| {
        MergeError::Batch {
            path: part.path(),
            batch: i,
            source,
        }
    })
}
