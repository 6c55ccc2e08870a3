//! Batch runs: the parallel, ordered, memory-bounded engine, shards and progress reporting.

mod engine;
mod progress;
mod shard;

pub use engine::{
    BatchError, BatchOptions, BatchSummary, failures_json, json_array, json_string, run,
};
pub use shard::Shard;
