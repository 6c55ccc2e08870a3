//! Parquet datasets in the Hugging Face Hub's layout: written from an archive's record batches
//! (`write.rs`, with the grid column encoded by hand in `grid.rs`) and read back as a
//! [`LevelSource`](crate::archive::LevelSource) in the archive layout (`read.rs`).

mod grid;
mod read;
mod write;

pub use read::{ParquetDataset, archive_schema, dataset_splits};
pub use write::{
    DATA_DIR, ParquetWriter, from_parquet_batch, parquet_schema, parse_shard_name, shard_name,
    to_parquet_batch,
};
