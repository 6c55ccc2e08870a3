//! Batch runs: the parallel, ordered, memory-bounded engine, shards, progress reporting, and the
//! measurements behind `warren bench`.

pub mod bench;
mod check;
mod engine;
mod progress;
mod shard;

pub use check::{BatchCheck, check_levels};
pub use engine::{BatchError, BatchOptions, BatchSink, BatchSummary, resolve_threads, run};
pub use shard::{Shard, ShardArg, ShardError, ShardMeta, ShardRecord};
