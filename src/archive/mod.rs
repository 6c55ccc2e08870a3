//! Arrow IPC archives (DESIGN.md, "Archive"): the schema and its column layout, the run's typed
//! metadata, the chunk builder that turns levels into record batches, the atomic streaming
//! writer and the memory-mapped, validating reader.

mod chunk;
mod direct;
mod error;
mod format;
#[cfg(test)]
mod full_disk;
mod journal;
mod meta;
mod open;
mod parquet;
mod reader;
mod record;
mod schema;
mod source;
mod writer;
#[cfg(test)]
mod writer_tests;

pub use chunk::ChunkBuilder;
pub use error::{ArchiveError, ColumnError, MessageError, MetaError, SchemaError};
pub use format::Compression;
pub use journal::{Checkpoint, Recovered, ResumeKey, ResumePlan, plan_resume, progress_path};
pub use meta::{
    FOOTER_BATCH_CRC32, FOOTER_FAILURES, FOOTER_LEVELS, FOOTER_SCANNED, FORMAT_VERSION,
    META_CELL_CODES, META_FILES, META_FORMAT, META_GENERATOR, META_MASTER_SEED, META_MIXTURE,
    META_PROFILE, META_RULES, META_SELECTION, META_SHARD, META_SPLIT, META_TAGS, META_VERSION,
    MixtureMeta, RunFooter, RunMeta, Scanned, SelectionMeta, SplitMeta, check_format,
};
pub use open::open_levels;
pub use parquet::{
    DATA_DIR, ParquetDataset, ParquetWriter, archive_schema, dataset_splits, from_parquet_batch,
    parquet_schema, parse_shard_name, shard_name, to_parquet_batch,
};
pub use reader::Archive;
pub use record::{BatchView, GridColumn};
pub use schema::{
    ArchiveColumns, DOC_KEY, StoredExtra, StoredMetric, TENSOR_EXTENSION, extra_type, grid_type,
    level_schema, list_of,
};
pub use source::LevelSource;
pub use writer::ArchiveWriter;

pub use crate::core::output::temp_path;
