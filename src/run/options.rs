//! What a merge is asked ([`MergeOptions`]) and what it reports ([`MergeSummary`]).

use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::archive::Scanned;

/// How to merge.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MergeOptions {
    /// Keep only the first level of every `layout_hash` across the shards, and make the rest
    /// of the run until it holds its full count (implied for shards made with `--unique`).
    pub unique: bool,
    /// Worker threads for making the rest of a run with a selection (0: all cores).
    pub threads: usize,
    /// Go on from where a killed merge of these same shards stopped (`OUT.tmp`), into the
    /// archive an uninterrupted merge writes; another run's or other shards' `OUT.tmp` is
    /// refused. Only for a plain merge (shards without a selection, no `unique`).
    pub resume: bool,
    /// Show a progress bar on stderr (when it is a terminal) while the rest of a run with a
    /// selection is made.
    pub progress: bool,
}

/// What a resumed merge found of the killed one in `OUT.tmp`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resumed {
    /// The file gone on from (`OUT.tmp`).
    pub temp: PathBuf,
    /// Record batches kept.
    pub batches: u64,
    /// Levels in them.
    pub levels: u64,
    /// Bytes kept.
    pub bytes: u64,
    /// Bytes after the last batch kept, dropped (a torn tail).
    pub dropped_bytes: u64,
}

/// What a merge did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MergeSummary {
    /// Shards merged.
    pub shards: usize,
    /// Indices in the run (its `--count`).
    pub total: u64,
    /// Levels in the merged archive.
    pub levels: u64,
    /// Of those, levels copied from the shards (the rest were made after them).
    pub from_shards: u64,
    /// Seeds that failed, by reason.
    pub failures: BTreeMap<String, u64>,
    /// With a selection, the indices looked at and the levels left out; `None` for a plain
    /// merge.
    pub scanned: Option<Scanned>,
    /// Bytes written.
    pub bytes: u64,
    /// What a resumed merge kept of the killed one.
    pub resumed: Option<Resumed>,
    /// A resumed merge found the output already the finished merge of these shards: nothing
    /// was written, and the counts above are zero.
    pub finished_already: bool,
}

impl MergeSummary {
    /// Seeds that failed, in all.
    pub fn failed(&self) -> u64 {
        self.failures.values().sum()
    }
}
