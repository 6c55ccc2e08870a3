//! Opening whatever holds levels: a Parquet dataset folder or an Arrow archive, as a
//! [`LevelSource`].

use std::path::Path;

use crate::archive::error::ArchiveError;
use crate::archive::parquet::{ParquetDataset, dataset_splits};
use crate::archive::reader::Archive;
use crate::archive::source::LevelSource;

/// Opens `path` for reading levels: a folder as a Parquet dataset (its `train` split, or the
/// first split it holds), anything else as an archive.
///
/// # Errors
/// The archive or the dataset cannot be opened; the message names the path.
pub fn open_levels(path: &Path) -> Result<Box<dyn LevelSource>, ArchiveError> {
    if path.is_dir() {
        let splits = dataset_splits(path)?;
        let split = splits.first().map_or("train", String::as_str);
        return Ok(Box::new(ParquetDataset::open(path, split)?));
    }
    Ok(Box::new(Archive::open(path)?))
}
