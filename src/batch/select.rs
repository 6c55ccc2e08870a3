//! The ordered writer's side of a selection (`--unique`, `--where`; see
//! [`Selection`](super::Selection)): which rows of each chunk, taken in index order, go into
//! the archive, when a whole run has kept enough, and what it looked at and left out. The
//! filter itself runs on the workers; duplicates can only be decided in index order, so they
//! are decided here.

use std::collections::{BTreeMap, HashSet};
use std::ops::Range;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::UInt64Type;
use arrow_array::{BooleanArray, RecordBatch};
use arrow_schema::ArrowError;

use crate::archive::{Checkpoint, Scanned, SelectionMeta};
use crate::batch::filter::Filter;
use crate::batch::quota::{MaxShare, Quota, Refusal, Shaper};

/// The column a `--unique` run keeps one level of each value of: `canonical_hash` with
/// `--unique canonical`, else `layout_hash`.
pub fn unique_key(canonical: bool) -> &'static str {
    if canonical {
        "canonical_hash"
    } else {
        "layout_hash"
    }
}

/// Which levels a run keeps (`--unique`, `--where`, `--quota`, `--max-share`), and how far it
/// may look for them.
///
/// A run with a selection walks the indices from its start in order and keeps a level when it
/// generates, passes the filter, lies in a bin of the quota that is not full and below every
/// cap, and (with `unique`) its `layout_hash` is not that of a level kept before it. A whole run (shard 0 of 1) goes on past `count` indices until it has kept
/// `count` levels, or fails after `max_tries` indices; a shard of several walks exactly its
/// own index range, keeps what passes there, and `warren merge` applies the rule across the
/// shards and makes the rest, so the merged archive equals the unsharded run.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Selection {
    /// Keep the first level of every `layout_hash` (or `canonical_hash`) only.
    pub unique: bool,
    /// `unique` by `canonical_hash`: one level of every set of levels equal up to symmetry.
    pub canonical: bool,
    /// Keep only levels whose metrics pass this filter.
    pub filter: Option<Filter>,
    /// Indices a whole run may try before it gives up.
    pub max_tries: u64,
    /// With `unique`: the hashes of levels kept before this run's first index (by the shards
    /// `warren merge` joins before it makes the rest of their run), left out as duplicates.
    pub earlier: Option<Arc<HashSet<u64>>>,
    /// `--quota`: the share of the kept levels each bin of a metric gets (a whole run only).
    pub quota: Option<Quota>,
    /// `--max-share`: at most this share of the kept levels for any one value of a column.
    pub max_share: Vec<MaxShare>,
}

impl Selection {
    /// The selection as the archive's metadata records it.
    pub fn to_meta(&self) -> SelectionMeta {
        SelectionMeta {
            unique: self.unique,
            canonical: self.canonical,
            filter: self.filter.as_ref().map(|f| f.text().to_string()),
            max_tries: self.max_tries,
            quota: self.quota.as_ref().map(|q| q.text().to_string()),
            max_share: self
                .max_share
                .iter()
                .map(|m| m.text().to_string())
                .collect(),
        }
    }

    /// The columns `--quota` and `--max-share` read (a resumed run counts them again).
    pub fn shaped_columns(&self) -> Vec<&'static str> {
        let quota = self.quota.as_ref().map(Quota::column);
        quota
            .into_iter()
            .chain(self.max_share.iter().map(MaxShare::column))
            .collect()
    }
}

/// Why a level of a chunk is not in its batches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Skip {
    /// The seed failed, for this reason.
    Failed(std::borrow::Cow<'static, str>),
    /// The filter left it out, or its value lies in no `--quota` bin.
    Filtered,
    /// Its `--quota` bin was full (counted as filtered out, and as over the quota).
    OverQuota,
}

/// Counts a run's levels chunk by chunk, in index order, and keeps the rows a selection wants.
#[derive(Debug)]
pub(crate) struct Keeper {
    /// Hashes of the levels kept so far (with `unique`).
    seen: Option<HashSet<u64>>,
    /// The column `unique` keeps one level of each value of.
    key: &'static str,
    /// Stop once this many levels are kept (a whole run with a selection).
    target: Option<u64>,
    /// Whether a selection is in force (the footer then says what was scanned).
    selecting: bool,
    /// Levels kept.
    pub kept: u64,
    /// Failed seeds by reason.
    pub failures: BTreeMap<String, u64>,
    /// What the run looked at: first index, one past the last one accounted for.
    pub scanned: Scanned,
    /// `target` reached: every later row and skip is past the end of the run.
    pub done: bool,
    /// `--quota` and `--max-share`, when given.
    shaper: Option<Shaper>,
    /// Why the run stopped short: a quota the rates seen prove unfillable (one line).
    pub refusal: Option<String>,
}

impl Keeper {
    /// A keeper for a run from index `start`: with `seen` (the hashes of levels kept before
    /// the run, often none) it drops repeated hashes; `target` stops the run once that many
    /// levels are kept; `selecting` says whether a selection is in force at all.
    pub fn new(
        start: u64,
        seen: Option<HashSet<u64>>,
        target: Option<u64>,
        selecting: bool,
    ) -> Self {
        Self {
            seen,
            key: "layout_hash",
            target,
            selecting,
            kept: 0,
            failures: BTreeMap::new(),
            scanned: Scanned {
                start,
                end: start,
                duplicates: 0,
                filtered: 0,
            },
            // A run asked for no levels has them all before it starts.
            done: target == Some(0),
            shaper: None,
            refusal: None,
        }
    }

    /// The keeper with `--quota` and `--max-share` in force.
    pub fn shaped_by(self, shaper: Option<Shaper>) -> Self {
        Self { shaper, ..self }
    }

    /// The quota and caps in force, if any.
    pub fn shaper(&self) -> Option<&Shaper> {
        self.shaper.as_ref()
    }

    /// Counts the levels a killed run kept (in `batches`) toward the quota and caps.
    pub fn restore_shape<'a>(
        &mut self,
        batches: impl IntoIterator<Item = &'a RecordBatch>,
    ) -> Result<(), ArrowError> {
        if let Some(shaper) = self.shaper.as_mut() {
            for batch in batches {
                shaper.restore(batch).map_err(ArrowError::SchemaError)?;
            }
        }
        Ok(())
    }

    /// The keeper with `unique` by the column `key` ([`unique_key`]).
    pub fn keyed_by(self, key: &'static str) -> Self {
        Self { key, ..self }
    }

    /// The footer's record of the scan (only when a selection was in force).
    pub fn scanned(&self) -> Option<Scanned> {
        self.selecting.then(|| self.scanned.clone())
    }

    /// The hashes of the levels kept so far (with `unique`).
    pub fn into_seen(self) -> Option<HashSet<u64>> {
        self.seen
    }

    /// Whether the run counts toward a number of kept levels (a whole run with a selection)
    /// rather than through its index range.
    pub fn is_selecting_whole(&self) -> bool {
        self.target.is_some()
    }

    /// The run's state after chunk `chunks - 1`, to record for a resumed run.
    pub fn checkpoint(&self, chunks: u64) -> Checkpoint {
        let s = &self.scanned;
        Checkpoint {
            chunks,
            kept: self.kept,
            failures: self.failures.clone(),
            scanned: [s.start, s.end, s.duplicates, s.filtered],
            done: self.done,
        }
    }

    /// Takes up the state `state` a killed run recorded (the hashes of its levels, with
    /// `unique`, came in as `seen`).
    pub fn restore(&mut self, state: &Checkpoint) {
        let [start, end, duplicates, filtered] = state.scanned;
        self.kept = state.kept;
        self.failures = state.failures.clone();
        self.scanned = Scanned {
            start,
            end,
            duplicates,
            filtered,
        };
        self.done = state.done;
    }

    /// Seeds that failed, in all.
    pub fn failed(&self) -> u64 {
        self.failures.values().sum()
    }

    /// Takes the next chunk (indices `levels`, built into `batches`, the rest in `skipped`):
    /// returns the batches to write, counting what was kept and what was left out.
    pub fn take(
        &mut self,
        levels: Range<u64>,
        batches: Vec<RecordBatch>,
        skipped: &[(u64, Skip)],
    ) -> Result<Vec<RecordBatch>, ArrowError> {
        let mut out = Vec::with_capacity(batches.len());
        let mut cutoff = None;
        for batch in batches {
            if self.done || batch.num_rows() == 0 {
                continue;
            }
            if self.seen.is_none() && self.target.is_none() {
                self.kept += batch.num_rows() as u64;
                out.push(batch);
                continue;
            }
            let (kept, last) = self.select(&batch)?;
            cutoff = cutoff.or(last);
            out.extend(kept);
        }
        for (index, skip) in skipped {
            let index = *index;
            if cutoff.is_some_and(|c| index > c) {
                break;
            }
            match skip {
                Skip::Failed(reason) => *self.failures.entry(reason.to_string()).or_insert(0) += 1,
                Skip::Filtered => self.scanned.filtered += 1,
                Skip::OverQuota => {
                    self.scanned.filtered += 1;
                    if let Some(s) = self.shaper.as_mut() {
                        s.over += 1;
                    }
                }
            }
        }
        self.scanned.end = cutoff.map_or(levels.end, |c| c + 1);
        if !self.done {
            let scanned = self.scanned.end - self.scanned.start;
            self.refusal = self.shaper.as_ref().and_then(|s| s.unfillable(scanned));
            self.done = self.refusal.is_some();
        }
        Ok(out)
    }

    /// The rows of `batch` to keep (`None` when none is), and the index of the row that
    /// completed the run, if one did.
    fn select(
        &mut self,
        batch: &RecordBatch,
    ) -> Result<(Option<RecordBatch>, Option<u64>), ArrowError> {
        let column = |name: &str| {
            batch
                .column_by_name(name)
                .and_then(|c| c.as_primitive_opt::<UInt64Type>())
                .ok_or_else(|| ArrowError::SchemaError(format!("no u64 column `{name}`")))
        };
        let (indices, hashes) = (column("index")?, column(self.key)?);
        let shaped = match &self.shaper {
            Some(s) => Some(s.rows(batch).map_err(ArrowError::SchemaError)?),
            None => None,
        };
        let mut mask = Vec::with_capacity(batch.num_rows());
        let mut last = None;
        for (row, &hash) in hashes.values().iter().enumerate() {
            if self.done {
                mask.push(false);
                continue;
            }
            // The quota and caps first: a level left out by them is not `seen`.
            let admitted = match (&mut self.shaper, &shaped) {
                (Some(s), Some(rows)) => match s.admit(rows, row) {
                    Ok(a) => Some(a),
                    Err(refusal) => {
                        mask.push(false);
                        self.scanned.filtered += 1;
                        if refusal == Refusal::Over {
                            s.over += 1;
                        }
                        continue;
                    }
                },
                _ => None,
            };
            let keep = self.seen.as_mut().is_none_or(|seen| seen.insert(hash));
            mask.push(keep);
            if !keep {
                self.scanned.duplicates += 1;
                continue;
            }
            if let (Some(s), Some(a)) = (self.shaper.as_mut(), admitted) {
                s.commit(a);
            }
            self.kept += 1;
            if self.target == Some(self.kept) {
                self.done = true;
                last = Some(indices.value(row));
            }
        }
        let rows = mask.iter().filter(|&&k| k).count();
        let kept = if rows == batch.num_rows() {
            Some(batch.clone())
        } else if rows == 0 {
            None
        } else {
            let mask = BooleanArray::from(mask);
            Some(arrow_select::filter::filter_record_batch(batch, &mask)?)
        };
        Ok((kept, last))
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use arrow_array::UInt64Array;
    use arrow_schema::{DataType, Field, Schema};

    use super::*;

    fn batch(indices: &[u64], hashes: &[u64]) -> RecordBatch {
        let schema = Schema::new(vec![
            Field::new("index", DataType::UInt64, false),
            Field::new("layout_hash", DataType::UInt64, false),
        ]);
        RecordBatch::try_new(
            Arc::new(schema),
            vec![
                Arc::new(UInt64Array::from(indices.to_vec())),
                Arc::new(UInt64Array::from(hashes.to_vec())),
            ],
        )
        .unwrap()
    }

    fn indices(batches: &[RecordBatch]) -> Vec<u64> {
        batches
            .iter()
            .flat_map(|b| b.column(0).as_primitive::<UInt64Type>().values().to_vec())
            .collect()
    }

    #[test]
    fn unique_keeps_the_first_of_each_hash_and_stops_at_the_target() {
        let mut k = Keeper::new(0, Some(HashSet::new()), Some(4), true);
        let skipped = [(2, Skip::Filtered), (4, Skip::Failed("x".into()))];
        let out = k
            .take(0..6, vec![batch(&[0, 1, 3, 5], &[7, 7, 8, 9])], &skipped)
            .unwrap();
        assert_eq!(indices(&out), [0, 3, 5]);
        assert!(!k.done);
        let skipped = [(7, Skip::Filtered), (9, Skip::Failed("y".into()))];
        let out = k
            .take(6..12, vec![batch(&[6, 8, 10, 11], &[9, 1, 2, 3])], &skipped)
            .unwrap();
        // 6 repeats 5's hash; 8 is the fourth level kept: the run ends there, so 9 (failed)
        // and 10, 11 are past its end and not counted.
        assert_eq!(indices(&out), [8]);
        assert!(k.done);
        assert_eq!(k.kept, 4);
        assert_eq!(
            k.scanned().unwrap(),
            Scanned {
                start: 0,
                end: 9,
                duplicates: 2,
                filtered: 2,
            }
        );
        assert_eq!(k.failed(), 1);
        // Everything scanned is accounted for.
        let s = k.scanned.clone();
        assert_eq!(
            k.kept + k.failed() + s.duplicates + s.filtered,
            s.end - s.start
        );
    }

    #[test]
    fn without_a_selection_every_row_is_kept_and_no_scan_is_recorded() {
        let mut k = Keeper::new(10, None, None, false);
        let out = k
            .take(
                10..13,
                vec![batch(&[10, 12], &[1, 1])],
                &[(11, Skip::Failed("x".into()))],
            )
            .unwrap();
        assert_eq!(indices(&out), [10, 12]);
        assert_eq!((k.kept, k.failed()), (2, 1));
        assert_eq!(k.scanned(), None);
        // A whole run asked for nothing is done before its first chunk.
        assert!(Keeper::new(0, Some(HashSet::new()), Some(0), true).done);
    }
}
