//! Batch runs: the parallel, ordered, memory-bounded engine, selections and filters, progress
//! reporting, the re-check of stored levels, and the measurements behind `warren bench`.

pub mod bench;
mod check;
mod engine;
mod filter;
mod progress;
mod quota;
mod select;

pub use crate::core::shard::{Shard, ShardArg, ShardError, ShardMeta, ShardRecord};
pub use check::{BatchCheck, check_levels};
pub use engine::{
    BatchError, BatchOptions, BatchSink, BatchSummary, Selection, resolve_threads, run,
};
pub use filter::{Filter, FilterError};
pub use quota::{Bin, MaxShare, Quota, ShapeAudit, ShapeError, check_shape};
pub(crate) use select::Keeper;
pub use select::unique_key;
