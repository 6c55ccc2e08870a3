//! The errors of [`merge`](super::merge) and [`split`](super::split). Each refusal names the
//! file it is about; the texts are the command line's, which prints them as `error: ...` with
//! their causes after a colon.

use std::ops::Range;
use std::path::PathBuf;

use arrow_schema::ArrowError;

use crate::archive::ArchiveError;
use crate::batch::{BatchError, FilterError, Shard};
use crate::profile::ProfileError;

/// Why a merge was refused or failed. A refused merge writes nothing; a failed one leaves no
/// output file (a resumable merge keeps its `OUT.tmp` to go on from).
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// No shards were given.
    #[error("no shards to merge")]
    NoShards,
    /// The output's folder does not exist.
    #[error("{path}: output folder does not exist")]
    NoOutputFolder {
        /// The folder.
        path: PathBuf,
    },
    /// The output file is one of the shards.
    #[error("{path}: the output is also a shard to merge")]
    OutputIsShard {
        /// The output.
        path: PathBuf,
    },
    /// A shard has no `warren.shard` record.
    #[error("{path}: no {key} metadata", key = crate::archive::META_SHARD)]
    NoShardRecord {
        /// The shard.
        path: PathBuf,
    },
    /// A shard made with a selection looked at other indices than its shard's range.
    #[error("{path}: it looked at indices {scanned:?}, not its shard's range {range:?}")]
    ScannedElsewhere {
        /// The shard.
        path: PathBuf,
        /// The indices it looked at.
        scanned: Range<u64>,
        /// Its shard's range.
        range: Range<u64>,
    },
    /// A shard's levels, failed seeds and left-out levels do not add up to its range.
    #[error(
        "{path}: {levels} levels, {failed} failed seeds and {left_out} left out do not fill its \
         range {range:?} (shard {shard})"
    )]
    Unfilled {
        /// The shard.
        path: PathBuf,
        /// Levels it holds.
        levels: u64,
        /// Seeds that failed.
        failed: u64,
        /// Levels its selection left out.
        left_out: u64,
        /// The range they should fill.
        range: Range<u64>,
        /// Its shard.
        shard: Shard,
    },
    /// A shard's version, generator, master seed or (short) profile differs from the first's.
    #[error("{path}: {what} {value}, but {first} has {what} {first_value}: not shards of one run")]
    OtherRun {
        /// The shard.
        path: PathBuf,
        /// The first shard given.
        first: PathBuf,
        /// What differs (`master seed`).
        what: &'static str,
        /// The shard's value.
        value: String,
        /// The first shard's value.
        first_value: String,
    },
    /// As [`OtherRun`](Self::OtherRun), for values too long to show (a profile).
    #[error("{path}: its {what} differs from {first}'s: not shards of one run")]
    OtherRunLong {
        /// The shard.
        path: PathBuf,
        /// The first shard given.
        first: PathBuf,
        /// What differs (`profile`).
        what: &'static str,
    },
    /// A shard's stored profile files differ from the first's.
    #[error("{path}: its profile's files differ from {first}'s: not shards of one run")]
    OtherFiles {
        /// The shard.
        path: PathBuf,
        /// The first shard given.
        first: PathBuf,
    },
    /// A shard belongs to a run of another size or shard count.
    #[error(
        "{path}: shard {shard} of a run of {total} levels, but {first} is shard {first_shard} \
         of {first_total} levels"
    )]
    OtherRunSize {
        /// The shard.
        path: PathBuf,
        /// Its shard.
        shard: Shard,
        /// Its run's level count.
        total: u64,
        /// The first shard given.
        first: PathBuf,
        /// The first shard's shard.
        first_shard: Shard,
        /// The first shard's run's level count.
        first_total: u64,
    },
    /// A shard's columns differ from the first's.
    #[error("{path}: its columns differ from {first}'s")]
    OtherColumns {
        /// The shard.
        path: PathBuf,
        /// The first shard given.
        first: PathBuf,
    },
    /// Two files are the same shard.
    #[error("{path} and {other} are both shard {shard}")]
    RepeatedShard {
        /// One file.
        path: PathBuf,
        /// The other.
        other: PathBuf,
        /// The shard they both are.
        shard: Shard,
    },
    /// A shard of the run is not among those given.
    #[error("shard {shard} of the run is missing ({given} of {count} shards given)", count = shard.count)]
    MissingShard {
        /// The first shard missing.
        shard: Shard,
        /// Shards given.
        given: usize,
    },
    /// A whole run (one shard of one) made with a selection: it is complete already.
    #[error("{path}: a whole run with a selection already holds its levels: nothing to merge")]
    WholeRun {
        /// The archive.
        path: PathBuf,
    },
    /// `resume` asked of a merge that makes levels (a selection's), which cannot resume.
    #[error(
        "--resume is for a merge that copies its shards: this one makes the rest of a \
         --unique or --where run"
    )]
    ResumeWithSelection,
    /// A shard's record batch does not fit the merged schema.
    #[error("{path}: batch {batch}")]
    Batch {
        /// The shard.
        path: PathBuf,
        /// The record batch.
        batch: usize,
        /// Arrow's reason.
        source: ArrowError,
    },
    /// Reading a shard or writing the merged archive failed.
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    /// Arrow failed while leaving out repeated levels.
    #[error(transparent)]
    Arrow(#[from] ArrowError),
    /// The stored profile does not parse, or its generator cannot be built again.
    #[error(transparent)]
    Profile(#[from] ProfileError),
    /// The stored `--where` condition does not compile.
    #[error(transparent)]
    Filter(#[from] FilterError),
    /// Making the rest of a run with a selection failed.
    #[error(transparent)]
    Batches(#[from] BatchError),
}

/// Why a split was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum SplitError {
    /// A share outside [0, 1].
    #[error("--{name} {share}: a share must lie between 0 and 1")]
    ShareOutOfRange {
        /// The split (`train`).
        name: &'static str,
        /// Its share.
        share: f64,
    },
    /// The shares do not add up to 1.
    #[error("--train {train} --val {val} --test {test} add up to {sum:.4}, not 1")]
    SharesSum {
        /// Share of `train`.
        train: f64,
        /// Share of `val`.
        val: f64,
        /// Share of `test`.
        test: f64,
        /// Their sum.
        sum: f64,
    },
    /// The archive is itself one split of a dataset.
    #[error("{path}: already one split of a dataset; split its source instead")]
    AlreadySplit {
        /// The archive.
        path: PathBuf,
    },
    /// The output folder cannot be made.
    #[error("{path}: cannot make the folder")]
    MakeFolder {
        /// The folder.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The archive has no `layout_hash` column to draw the splits from.
    #[error("{path}: no layout_hash column")]
    NoLayoutHash {
        /// The archive.
        path: PathBuf,
    },
    /// Reading the archive or writing a split failed.
    #[error(transparent)]
    Archive(#[from] ArchiveError),
    /// Arrow failed to pick a split's rows.
    #[error(transparent)]
    Arrow(#[from] ArrowError),
}
