//! Reading a Parquet dataset folder back (DESIGN.md, "Archive"): one split's files
//! `DIR/data/{split}-IIIII-of-NNNNN.parquet`, as [`ParquetWriter`](super::ParquetWriter) writes
//! them, seen as a [`LevelSource`]: the archive layout (nested grids back to the
//! `arrow.fixed_shape_tensor` column), the run's `warren.*` metadata and its footer, and one
//! record batch per row group, read on demand.
//!
//! The reader checks what it can before it trusts: every file of the split is present, all say
//! the same file count, all carry one Arrow schema, and the run's metadata is of a format this
//! warren reads. Parquet has no warren batch checksums; its pages' own structure (and zstd's
//! frame checks) are what find damage, which comes back as an error naming the file and row
//! group, never a panic.

use std::collections::{HashMap, HashSet};
use std::fs::{self, File};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::{DataType, FieldRef, Schema, SchemaRef};
use parquet::arrow::arrow_reader::{
    ArrowReaderMetadata, ArrowReaderOptions, ParquetRecordBatchReaderBuilder,
};

use super::write::{DATA_DIR, from_parquet_batch, parse_shard_name, shard_name};
use crate::archive::error::ArchiveError;
use crate::archive::meta::check_format;
use crate::archive::schema::grid_field;
use crate::archive::source::LevelSource;

/// The key under which parquet-rs stores a file's Arrow schema.
const ARROW_SCHEMA_KEY: &str = "ARROW:schema";

/// The splits the Hub lists first, in its order; others follow by name.
const HUB_SPLITS: [&str; 3] = ["train", "validation", "test"];

/// One data file of a split.
struct DataFile {
    path: PathBuf,
    /// Its length when opened: a file replaced since then is refused, not misread.
    len: u64,
    meta: ArrowReaderMetadata,
}

/// One split of a Parquet dataset folder, read as a [`LevelSource`]: one record batch per row
/// group, in file order.
pub struct ParquetDataset {
    dir: PathBuf,
    split: String,
    files: Vec<DataFile>,
    /// (file, row group) of every batch.
    groups: Vec<(usize, usize)>,
    /// The archive layout, with the run's `warren.*` metadata.
    schema: SchemaRef,
    footer: HashMap<String, String>,
}

/// The (height, width) of a nested grid type: `h` fixed-size lists of `w` `uint8` cells.
fn nested_grid_shape(data_type: &DataType) -> Option<(i32, i32)> {
    let DataType::FixedSizeList(row, h) = data_type else {
        return None;
    };
    let DataType::FixedSizeList(cell, w) = row.data_type() else {
        return None;
    };
    (cell.data_type() == &DataType::UInt8).then_some((*h, *w))
}

/// The archive layout of a Parquet schema, the inverse of
/// [`parquet_schema`](super::parquet_schema): a `grid` of nested fixed-size lists (H lists of W
/// `uint8` cells) becomes the `arrow.fixed_shape_tensor` field of shape [H, W] that an archive
/// of one grid size holds; everything else, metadata included, is as it is. A grid too large
/// for a `u16` side is left nested (the column layout check then refuses it).
///
/// # Runtime
/// O(columns).
pub fn archive_schema(parquet: &Schema) -> Schema {
    let fields: Vec<FieldRef> = parquet
        .fields()
        .iter()
        .map(|f| {
            let shape = nested_grid_shape(f.data_type())
                .and_then(|(h, w)| Some((u16::try_from(w).ok()?, u16::try_from(h).ok()?)));
            match shape {
                Some(shape) if f.name() == "grid" => {
                    let tensor = grid_field(Some(shape));
                    let mut metadata = f.metadata().clone();
                    metadata.extend(tensor.metadata().clone());
                    Arc::new(tensor.with_metadata(metadata))
                }
                _ => f.clone(),
            }
        })
        .collect();
    Schema::new_with_metadata(fields, parquet.metadata().clone())
}

/// The splits present under `dir/data` (files named `{split}-IIIII-of-NNNNN.parquet`):
/// `train`, `validation`, `test` first, then the others by name.
///
/// # Errors
/// `dir/data` cannot be read, or holds no data file; the message names the folder.
pub fn dataset_splits(dir: &Path) -> Result<Vec<String>, ArchiveError> {
    let data = dir.join(DATA_DIR);
    let mut names: Vec<String> = data_files(&data)?
        .into_iter()
        .map(|(split, _, _, _)| split)
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    if names.is_empty() {
        return Err(ArchiveError::Dataset {
            path: data,
            reason: "no Parquet data files ({split}-00000-of-0000N.parquet)".to_string(),
        });
    }
    let rank = |s: &String| {
        HUB_SPLITS
            .iter()
            .position(|h| h == s)
            .unwrap_or(HUB_SPLITS.len())
    };
    names.sort_by(|a, b| rank(a).cmp(&rank(b)).then_with(|| a.cmp(b)));
    Ok(names)
}

/// Every data file of folder `data`: (split, i, n, path).
fn data_files(data: &Path) -> Result<Vec<(String, usize, usize, PathBuf)>, ArchiveError> {
    let io = |source| ArchiveError::Io {
        path: data.to_path_buf(),
        action: "cannot read the dataset folder",
        source,
    };
    let mut files = Vec::new();
    for entry in fs::read_dir(data).map_err(io)? {
        let entry = entry.map_err(io)?;
        let name = entry.file_name();
        if let Some((split, i, n)) = parse_shard_name(&name.to_string_lossy()) {
            files.push((split.to_string(), i, n, entry.path()));
        }
    }
    Ok(files)
}

/// The files `i` = 0..n of `split` in `data`, checked: one file count, none missing.
fn split_files(data: &Path, split: &str) -> Result<Vec<PathBuf>, ArchiveError> {
    let mut found: Vec<(usize, usize, PathBuf)> = data_files(data)?
        .into_iter()
        .filter(|(s, ..)| s == split)
        .map(|(_, i, n, path)| (i, n, path))
        .collect();
    found.sort();
    let Some((_, n, first)) = found.first().cloned() else {
        return Err(ArchiveError::Dataset {
            path: data.to_path_buf(),
            reason: format!("no files of split `{split}` ({split}-00000-of-0000N.parquet)"),
        });
    };
    if let Some((_, m, path)) = found.iter().find(|(_, m, _)| *m != n) {
        return Err(ArchiveError::Dataset {
            path: path.clone(),
            reason: format!("one of {m} files, but {} says one of {n}", first.display()),
        });
    }
    // One count and names unique in a folder: each number appears at most once.
    let mut paths = Vec::with_capacity(n);
    let mut found = found.into_iter().peekable();
    for i in 0..n {
        match found.next_if(|(j, ..)| *j == i) {
            Some((.., path)) => paths.push(path),
            None => {
                return Err(ArchiveError::Dataset {
                    path: data.join(shard_name(split, i, n)),
                    reason: format!("missing: file {} of {n} of split `{split}`", i + 1),
                });
            }
        }
    }
    Ok(paths)
}

impl DataFile {
    /// Opens `path` and reads its footer (the Parquet metadata and the Arrow schema).
    fn open(path: PathBuf) -> Result<Self, ArchiveError> {
        let file = File::open(&path).map_err(|source| ArchiveError::Io {
            path: path.clone(),
            action: "cannot open",
            source,
        })?;
        let len = file
            .metadata()
            .map_err(|source| ArchiveError::Io {
                path: path.clone(),
                action: "cannot read the size of",
                source,
            })?
            .len();
        let meta = ArrowReaderMetadata::load(&file, ArrowReaderOptions::new()).map_err(|e| {
            ArchiveError::Parquet {
                path: path.clone(),
                message: format!("not a readable Parquet file: {e}"),
            }
        })?;
        Ok(Self { path, len, meta })
    }

    /// The file's own key / value metadata (the run's footer, in the last file), without the
    /// Arrow schema.
    fn key_values(&self) -> HashMap<String, String> {
        let kv = self.meta.metadata().file_metadata().key_value_metadata();
        kv.into_iter()
            .flatten()
            .filter(|kv| kv.key != ARROW_SCHEMA_KEY)
            .filter_map(|kv| Some((kv.key.clone(), kv.value.clone()?)))
            .collect()
    }

    /// The Arrow schema the file was written with: parquet-rs merges the file's key / value
    /// metadata into the schema's, which is taken out again here.
    fn written_schema(&self) -> Schema {
        let schema = self.meta.schema();
        let own = self.key_values();
        let metadata: HashMap<String, String> = schema
            .metadata()
            .iter()
            .filter(|(k, _)| !own.contains_key(*k))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Schema::new_with_metadata(schema.fields().clone(), metadata)
    }

    /// An error about row group `g` of this file.
    fn group_error(&self, g: usize, message: impl std::fmt::Display) -> ArchiveError {
        ArchiveError::Parquet {
            path: self.path.clone(),
            message: format!("row group {g}: {message}"),
        }
    }

    /// Row group `g`, in the file's Parquet layout, read from a handle of its own (handles
    /// cloned from one share a file offset, which parallel readers would race on).
    fn read_group(&self, g: usize) -> Result<RecordBatch, ArchiveError> {
        let rows = self.meta.metadata().row_group(g).num_rows();
        let rows = usize::try_from(rows)
            .map_err(|_| self.group_error(g, format!("negative row count {rows}")))?;
        let file = File::open(&self.path).map_err(|source| ArchiveError::Io {
            path: self.path.clone(),
            action: "cannot open",
            source,
        })?;
        if file.metadata().map(|m| m.len()).ok() != Some(self.len) {
            return Err(self.group_error(g, "the file changed since it was opened"));
        }
        let schema = self.meta.schema().clone();
        if rows == 0 {
            return Ok(RecordBatch::new_empty(schema));
        }
        let read = || -> Result<Vec<RecordBatch>, String> {
            ParquetRecordBatchReaderBuilder::new_with_metadata(file, self.meta.clone())
                .with_row_groups(vec![g])
                .with_batch_size(rows)
                .build()
                .map_err(|e| e.to_string())?
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| e.to_string())
        };
        // NOTE: parquet-rs turns damage it recognises into errors; a decoder bug it does not
        // must still end as an error naming the file, not take the process down. Everything
        // the closure touches is its own, so nothing half-updated outlives a panic.
        let batches = std::panic::catch_unwind(std::panic::AssertUnwindSafe(read))
            .unwrap_or_else(|_| Err("the Parquet decoder failed on damaged data".to_string()))
            .map_err(|e| self.group_error(g, e))?;
        let batch = match <[RecordBatch; 1]>::try_from(batches) {
            Ok([batch]) => batch,
            Err(batches) => arrow_select::concat::concat_batches(&schema, &batches)
                .map_err(|e| self.group_error(g, e))?,
        };
        if batch.num_rows() != rows {
            return Err(self.group_error(
                g,
                format!("{} rows read, the metadata says {rows}", batch.num_rows()),
            ));
        }
        Ok(batch)
    }
}

impl ParquetDataset {
    /// Opens split `split` of the dataset folder `dir`: its files `dir/data/{split}-*.parquet`,
    /// checked to be all there, to agree on their count and to share one Arrow schema whose
    /// `warren.*` metadata this warren reads. The footer comes from the last file.
    ///
    /// # Errors
    /// A file missing (named), numbered against the others, unreadable as Parquet, of another
    /// schema, or metadata of another format; one line naming the file.
    ///
    /// # Runtime
    /// O(files) opens and footer reads; no level data is read until [`LevelSource::batch`].
    pub fn open(dir: &Path, split: &str) -> Result<Self, ArchiveError> {
        let paths = split_files(&dir.join(DATA_DIR), split)?;
        let files = paths
            .into_iter()
            .map(DataFile::open)
            .collect::<Result<Vec<_>, _>>()?;
        let written = files[0].written_schema();
        for f in &files[1..] {
            if f.written_schema() != written {
                return Err(ArchiveError::Dataset {
                    path: f.path.clone(),
                    reason: format!("Arrow schema differs from {}'s", files[0].path.display()),
                });
            }
        }
        check_format(written.metadata()).map_err(|error| ArchiveError::Metadata {
            path: files[0].path.clone(),
            error,
        })?;
        let footer = files.last().expect("at least one file").key_values();
        let groups = files
            .iter()
            .enumerate()
            .flat_map(|(i, f)| (0..f.meta.metadata().num_row_groups()).map(move |g| (i, g)))
            .collect();
        Ok(Self {
            dir: dir.to_path_buf(),
            split: split.to_string(),
            files,
            groups,
            schema: Arc::new(archive_schema(&written)),
            footer,
        })
    }

    /// The split read (`train`).
    pub fn split(&self) -> &str {
        &self.split
    }

    /// The split's files, in order.
    pub fn files(&self) -> impl Iterator<Item = &Path> {
        self.files.iter().map(|f| f.path.as_path())
    }

    /// The file and the row group in it of batch `i`.
    pub fn batch_file(&self, i: usize) -> Option<(&Path, usize)> {
        let &(f, g) = self.groups.get(i)?;
        Some((self.files[f].path.as_path(), g))
    }

    /// Rows of every row group, from the files' metadata (no data read).
    pub fn row_count(&self) -> u64 {
        self.files
            .iter()
            .map(|f| f.meta.metadata().file_metadata().num_rows().max(0) as u64)
            .sum()
    }
}

impl LevelSource for ParquetDataset {
    /// The dataset folder.
    fn path(&self) -> &Path {
        &self.dir
    }

    fn schema(&self) -> &SchemaRef {
        &self.schema
    }

    fn footer_metadata(&self) -> &HashMap<String, String> {
        &self.footer
    }

    fn batch_count(&self) -> usize {
        self.groups.len()
    }

    /// Reads only row group `i` (counted over all files), converted to the archive layout.
    ///
    /// # Runtime
    /// One open, the row group's bytes read and decompressed; the grid is re-nested without a
    /// copy.
    fn batch(&self, i: usize) -> Result<RecordBatch, ArchiveError> {
        let &(f, g) = self.groups.get(i).ok_or_else(|| ArchiveError::Dataset {
            path: self.dir.clone(),
            reason: format!(
                "no batch {i} (split `{}` has {})",
                self.split,
                self.groups.len()
            ),
        })?;
        let file = &self.files[f];
        let batch = file.read_group(g)?;
        from_parquet_batch(&batch, &self.schema).map_err(|e| file.group_error(g, e))
    }

    fn storage(&self) -> Result<(u64, String), ArchiveError> {
        let mut bytes = 0;
        let mut files = 0;
        for file in ParquetDataset::files(self) {
            let len = std::fs::metadata(file).map_err(|source| ArchiveError::Io {
                path: file.to_path_buf(),
                action: "cannot read",
                source,
            })?;
            bytes += len.len();
            files += 1;
        }
        let noun = if files == 1 { "file" } else { "files" };
        Ok((
            bytes,
            format!("zstd (Parquet, {files} {noun} of split `{}`)", self.split),
        ))
    }
}

#[cfg(test)]
mod tests {
    use arrow_array::{ArrayRef, FixedSizeListArray, UInt8Array, UInt16Array, UInt64Array};

    use super::*;
    use crate::archive::{ArchiveColumns, RunMeta, parquet_schema, to_parquet_batch};

    /// A batch of three 3x2 (width x height) grids in the archive layout, with `warren.*`-like
    /// schema metadata.
    fn tensor_batch() -> RecordBatch {
        let columns = ArchiveColumns {
            grid: true,
            grid_shape: Some((3, 2)),
            ..ArchiveColumns::default()
        };
        let schema = Arc::new(columns.schema(HashMap::from([(
            "warren.generator".to_string(),
            "maze".to_string(),
        )])));
        let cells = UInt8Array::from_iter_values((0..18).map(|c| c as u8));
        let DataType::FixedSizeList(item, size) = schema.field(5).data_type().clone() else {
            panic!("a tensor grid");
        };
        let grid = FixedSizeListArray::try_new(item, size, Arc::new(cells), None).unwrap();
        let ids = Arc::new(UInt64Array::from(vec![0, 1, 2])) as ArrayRef;
        let side = |v| Arc::new(UInt16Array::from(vec![v; 3])) as ArrayRef;
        RecordBatch::try_new(
            schema,
            vec![
                ids.clone(),
                ids.clone(),
                ids,
                side(3),
                side(2),
                Arc::new(grid),
            ],
        )
        .unwrap()
    }

    #[test]
    fn a_tensor_grid_batch_round_trips_through_the_parquet_layout() {
        let batch = tensor_batch();
        let nested = Arc::new(parquet_schema(batch.schema_ref()));
        assert_eq!(
            nested_grid_shape(nested.field_with_name("grid").unwrap().data_type()),
            Some((2, 3))
        );
        let back = Arc::new(archive_schema(&nested));
        assert_eq!(back.as_ref(), batch.schema_ref().as_ref(), "schema inverse");
        assert!(ArchiveColumns::from_schema(&back).is_ok());
        assert!(
            RunMeta::from_schema(&back).is_err(),
            "only a partial run record"
        );
        let stored = to_parquet_batch(&batch, &nested).unwrap();
        let again = from_parquet_batch(&stored, &back).unwrap();
        assert_eq!(again, batch);
        // A slice (an offset into the grids) comes back as the same rows.
        let sliced = to_parquet_batch(&batch.slice(1, 2), &nested).unwrap();
        assert_eq!(
            from_parquet_batch(&sliced, &back).unwrap(),
            batch.slice(1, 2)
        );
    }

    #[test]
    fn splits_list_hub_names_first_and_missing_files_are_named() {
        let dir = std::env::temp_dir().join(format!("warren-pq-splits-{}", std::process::id()));
        let data = dir.join(DATA_DIR);
        fs::create_dir_all(&data).unwrap();
        for name in [
            "extra-00000-of-00001.parquet",
            "test-00000-of-00001.parquet",
            "train-00000-of-00002.parquet",
            "validation-00000-of-00001.parquet",
            "notes.txt",
        ] {
            fs::write(data.join(name), b"").unwrap();
        }
        let splits = dataset_splits(&dir).unwrap();
        assert_eq!(splits, ["train", "validation", "test", "extra"]);
        let missing = ParquetDataset::open(&dir, "train")
            .err()
            .unwrap()
            .to_string();
        assert!(
            missing.contains("train-00001-of-00002.parquet"),
            "{missing}"
        );
        assert!(!missing.contains('\n'), "{missing}");
        fs::write(data.join("train-00001-of-00003.parquet"), b"").unwrap();
        let counts = ParquetDataset::open(&dir, "train")
            .err()
            .unwrap()
            .to_string();
        assert!(counts.contains("train-00001-of-00003.parquet"), "{counts}");
        let foreign = ParquetDataset::open(&dir, "test")
            .err()
            .unwrap()
            .to_string();
        assert!(foreign.contains("test-00000-of-00001.parquet: not a readable Parquet"));
        fs::remove_dir_all(&data).unwrap();
        fs::create_dir_all(&data).unwrap();
        assert!(
            dataset_splits(&dir)
                .err()
                .unwrap()
                .to_string()
                .contains("data")
        );
        fs::remove_dir_all(&dir).unwrap();
    }
}
