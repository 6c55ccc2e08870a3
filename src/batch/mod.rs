//! Batch runs: the parallel, ordered, memory-bounded engine, shards, progress reporting, and the
//! measurements behind `warren bench`.

pub mod bench;
mod check;
mod engine;
mod progress;
mod shard;

pub use check::{BatchCheck, check_levels};
pub use engine::{
    BatchError, BatchOptions, BatchSink, BatchSummary, failures_json, footer_failures, json_array,
    json_string, run, run_metadata, stored_files,
};
pub use shard::{Shard, ShardArg, ShardMeta};
