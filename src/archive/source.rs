//! Where levels are read from: an Arrow archive ([`Archive`]) or a Parquet dataset folder
//! (`ParquetDataset`), both giving record batches in the archive layout (grids of one size as
//! `arrow.fixed_shape_tensor`), the run's schema metadata and its footer. Commands that only
//! scan levels (`verify`, `inspect`, `report`, `card`) take a [`LevelSource`].

use std::collections::HashMap;
use std::path::Path;

use arrow_array::RecordBatch;
use arrow_schema::SchemaRef;

use crate::archive::error::ArchiveError;
use crate::archive::format::Compression;
use crate::archive::meta::{RunFooter, RunMeta};
use crate::archive::reader::Archive;
use crate::archive::schema::ArchiveColumns;

/// Record batches of levels in the archive layout, with the run's metadata.
pub trait LevelSource: Sync {
    /// The file or folder read, for messages.
    fn path(&self) -> &Path;
    /// The schema in the archive layout, carrying the `warren.*` metadata.
    fn schema(&self) -> &SchemaRef;
    /// The run's footer metadata (level and failure counts).
    fn footer_metadata(&self) -> &HashMap<String, String>;
    /// Number of record batches (a Parquet dataset's row groups).
    fn batch_count(&self) -> usize;
    /// Batch `i`, checked where the format allows.
    ///
    /// # Errors
    /// The batch cannot be read or is damaged; the message names the file.
    fn batch(&self, i: usize) -> Result<RecordBatch, ArchiveError>;
    /// Lets go of what batch `i` holds in memory once a scan is done with it (best effort).
    fn release(&self, _i: usize) {}
    /// Bytes stored, and how: `none (memory-mappable without a copy)`, `zstd (Arrow IPC buffer
    /// compression)`, `Parquet, zstd, 3 files`.
    ///
    /// # Errors
    /// The storage cannot be examined (a damaged archive's first batch).
    fn storage(&self) -> Result<(u64, String), ArchiveError>;

    /// The run's metadata, read from the schema.
    ///
    /// # Errors
    /// Missing or malformed `warren.*` keys; the message names the path.
    fn run_meta(&self) -> Result<RunMeta, ArchiveError> {
        RunMeta::from_schema(self.schema()).map_err(|error| ArchiveError::Metadata {
            path: self.path().to_path_buf(),
            error,
        })
    }

    /// The run's footer: level and failure counts.
    ///
    /// # Errors
    /// A missing or malformed footer (a run that did not finish); the message names the path.
    fn run_footer(&self) -> Result<RunFooter, ArchiveError> {
        RunFooter::from_metadata(self.footer_metadata()).map_err(|error| ArchiveError::Metadata {
            path: self.path().to_path_buf(),
            error,
        })
    }

    /// The column layout, read from the schema.
    ///
    /// # Errors
    /// Columns not laid out as warren lays them out; the message names the path and column.
    fn columns(&self) -> Result<ArchiveColumns, ArchiveError> {
        ArchiveColumns::from_schema(self.schema()).map_err(|error| ArchiveError::Schema {
            path: self.path().to_path_buf(),
            error,
        })
    }
}

impl LevelSource for Archive {
    fn path(&self) -> &Path {
        Archive::path(self)
    }

    fn schema(&self) -> &SchemaRef {
        Archive::schema(self)
    }

    fn footer_metadata(&self) -> &HashMap<String, String> {
        Archive::footer_metadata(self)
    }

    fn batch_count(&self) -> usize {
        Archive::batch_count(self)
    }

    fn batch(&self, i: usize) -> Result<RecordBatch, ArchiveError> {
        Archive::batch(self, i)
    }

    fn release(&self, i: usize) {
        Archive::release(self, i);
    }

    fn storage(&self) -> Result<(u64, String), ArchiveError> {
        let how = match self.compression()? {
            Compression::None => "none (memory-mappable without a copy)",
            Compression::Zstd => "zstd (Arrow IPC buffer compression)",
            Compression::Lz4 => "lz4 (Arrow IPC buffer compression)",
        };
        Ok((self.file_len() as u64, how.to_string()))
    }
}
