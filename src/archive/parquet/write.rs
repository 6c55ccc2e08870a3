//! Parquet datasets in the Hugging Face Hub's layout (DESIGN.md, "Archive"): a run's levels as
//! `DIR/data/{split}-00000-of-0000N.parquet`, zstd-compressed, which `datasets.load_dataset`,
//! pyarrow, polars and DuckDB read as they are.
//!
//! The columns are the archive's, with one change: a grid of one size (an
//! `arrow.fixed_shape_tensor` of shape [H, W] in an archive) is a fixed-size list of H
//! fixed-size lists of W `uint8` cells, the nesting Parquet and the Hub's viewer understand
//! (pyarrow reads it as `fixed_size_list<fixed_size_list<uint8>[W]>[H]`, polars as
//! `Array(UInt8, (H, W))`, `datasets` as an (N, H, W) array). The run's metadata (`warren.*`)
//! rides in every file's Arrow schema; the run's footer (level and failure counts) in the key /
//! value metadata of the last file, which is written last.
//!
//! Files are written into a staging folder beside `DIR/data` and moved in only when the run
//! has finished, numbered then (the count of files is known only at the end). A file is closed
//! and the next begun past [`FILE_BYTES`]; a row group is closed past [`ROW_GROUP_RAW_BYTES`] of
//! Arrow data, so a reader streams a dataset one modest row group at a time. The grid column is
//! encoded by hand ([`grid`]); every other column by parquet-rs.

use std::fs::{self, File};
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::UInt8Type;
use arrow_array::{Array, ArrayRef, FixedSizeListArray, RecordBatch};
use arrow_schema::{ArrowError, DataType, Field, FieldRef, Schema, SchemaRef};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_writer::{ArrowRowGroupWriterFactory, compute_leaves};
use parquet::basic::{Compression, ZstdLevel};
use parquet::errors::ParquetError;
use parquet::file::metadata::KeyValue;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;

use crate::archive::error::ArchiveError;
use crate::archive::schema::TENSOR_EXTENSION;

use super::grid;

/// A file is closed, and the next begun, once this many bytes are written: the Hub's own
/// shard size (`push_to_hub`'s `max_shard_size`, 500 MB).
pub const FILE_BYTES: usize = 500_000_000;

/// A row group is closed once its levels hold this many bytes of Arrow data (what a reader
/// holds in memory for one row group): groups stream in modest steps whatever the level size.
pub const ROW_GROUP_RAW_BYTES: usize = 64 << 20;

/// The zstd level: 3, zstd's own default and Arrow's.
const ZSTD_LEVEL: i32 = 3;

/// The folder of the data files under a dataset folder.
pub const DATA_DIR: &str = "data";

/// The name of file `i` (from 0) of `n` of `split`: `train-00000-of-00003.parquet`.
pub fn shard_name(split: &str, i: usize, n: usize) -> String {
    format!("{split}-{i:05}-of-{n:05}.parquet")
}

/// The split and the position (`i`, `n`) a data file's name gives, if it is
/// `{split}-{i}-of-{n}.parquet` with five-digit numbers and `i < n`.
pub fn parse_shard_name(name: &str) -> Option<(&str, usize, usize)> {
    let stem = name.strip_suffix(".parquet")?;
    let (rest, n) = stem.rsplit_once("-of-")?;
    let (split, i) = rest.rsplit_once('-')?;
    let number = |s: &str| {
        (s.len() == 5 && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<usize>().ok())
            .flatten()
    };
    let (i, n) = (number(i)?, number(n)?);
    (!split.is_empty() && i < n).then_some((split, i, n))
}

/// The (height, width) of an archive field holding one-size grids (a fixed-shape tensor).
fn tensor_shape(field: &Field) -> Option<(i32, i32)> {
    if field
        .metadata()
        .get("ARROW:extension:name")
        .map(String::as_str)
        != Some(TENSOR_EXTENSION)
    {
        return None;
    }
    #[derive(serde::Deserialize)]
    struct Shape {
        shape: [i32; 2],
    }
    let shape: Shape =
        serde_json::from_str(field.metadata().get("ARROW:extension:metadata")?).ok()?;
    Some((shape.shape[0], shape.shape[1]))
}

/// The nested list type of a grid of `h` rows of `w` cells.
fn nested_grid_type(h: i32, w: i32) -> DataType {
    let row = DataType::FixedSizeList(Arc::new(Field::new("item", DataType::UInt8, false)), w);
    DataType::FixedSizeList(Arc::new(Field::new("item", row, false)), h)
}

/// The Parquet layout of an archive schema: one-size grids become nested fixed-size lists
/// (their descriptions kept); everything else, metadata included, is as it is.
pub fn parquet_schema(archive: &Schema) -> Schema {
    let fields: Vec<FieldRef> = archive
        .fields()
        .iter()
        .map(|f| match tensor_shape(f) {
            Some((h, w)) => {
                let mut metadata = f.metadata().clone();
                metadata.remove("ARROW:extension:name");
                metadata.remove("ARROW:extension:metadata");
                Arc::new(
                    Field::new(f.name(), nested_grid_type(h, w), f.is_nullable())
                        .with_metadata(metadata),
                )
            }
            None => f.clone(),
        })
        .collect();
    Schema::new_with_metadata(fields, archive.metadata().clone())
}

/// `batch` (archive layout) in the Parquet layout `schema`: grids re-nested without a copy.
///
/// # Errors
/// A column whose length or type does not fit (a bug of the caller).
pub fn to_parquet_batch(
    batch: &RecordBatch,
    schema: &SchemaRef,
) -> Result<RecordBatch, ArrowError> {
    let columns = batch
        .columns()
        .iter()
        .zip(schema.fields())
        .map(|(column, field)| match field.data_type() {
            DataType::FixedSizeList(row_field, h) if column.data_type() != field.data_type() => {
                let DataType::FixedSizeList(cell_field, w) = row_field.data_type() else {
                    return Err(ArrowError::SchemaError(format!(
                        "{}: not a grid",
                        field.name()
                    )));
                };
                let cells = column.as_fixed_size_list_opt().ok_or_else(|| {
                    ArrowError::SchemaError(format!("{}: not a fixed-size list", field.name()))
                })?;
                let values = cells.values().slice(
                    cells.offset() * (*h * *w) as usize,
                    cells.len() * (*h * *w) as usize,
                );
                let rows = FixedSizeListArray::try_new(cell_field.clone(), *w, values, None)?;
                let grids = FixedSizeListArray::try_new(
                    row_field.clone(),
                    *h,
                    Arc::new(rows),
                    cells.nulls().cloned(),
                )?;
                Ok(Arc::new(grids) as ArrayRef)
            }
            _ => Ok(column.clone()),
        })
        .collect::<Result<Vec<_>, _>>()?;
    RecordBatch::try_new(schema.clone(), columns)
}

/// `batch` (Parquet layout) in the archive layout `schema`: nested grids flattened back into
/// one list of H x W cells per level, without a copy.
///
/// # Errors
/// A column not laid out as [`to_parquet_batch`] lays it out (a damaged or foreign file).
pub fn from_parquet_batch(
    batch: &RecordBatch,
    schema: &SchemaRef,
) -> Result<RecordBatch, ArrowError> {
    let columns = batch
        .columns()
        .iter()
        .zip(schema.fields())
        .map(
            |(column, field)| match (tensor_shape(field), field.data_type()) {
                (Some((h, w)), DataType::FixedSizeList(cell_field, size)) => {
                    let bad = || {
                        ArrowError::SchemaError(format!(
                            "`{}` is {}, not {h} rows of {w} cells",
                            field.name(),
                            column.data_type()
                        ))
                    };
                    if column.data_type() != &nested_grid_type(h, w) {
                        return Err(bad());
                    }
                    let grids = column.as_fixed_size_list();
                    let rows = grids.values().as_fixed_size_list();
                    let values = rows.values().slice(
                        (grids.offset() * h as usize + rows.offset()) * w as usize,
                        grids.len() * (h * w) as usize,
                    );
                    let flat = FixedSizeListArray::try_new(
                        cell_field.clone(),
                        *size,
                        values,
                        grids.nulls().cloned(),
                    )?;
                    Ok(Arc::new(flat) as ArrayRef)
                }
                _ => Ok(column.clone()),
            },
        )
        .collect::<Result<Vec<_>, _>>()?;
    RecordBatch::try_new(schema.clone(), columns)
}

/// One Parquet file being written.
struct OpenFile {
    writer: SerializedFileWriter<BufWriter<File>>,
    factory: ArrowRowGroupWriterFactory,
    row_groups: usize,
}

/// Writes a run's record batches (archive layout) as the Parquet files of one split of a
/// dataset folder; see the module documentation.
pub struct ParquetWriter {
    dir: PathBuf,
    split: String,
    staging: PathBuf,
    /// The archive layout (the batches written) and the Parquet layout.
    archive_schema: SchemaRef,
    schema: SchemaRef,
    /// The one-size grid column: its position and (height, width).
    grid: Option<(usize, (usize, usize))>,
    current: Option<OpenFile>,
    /// Batches of the row group being gathered, and their rows and Arrow bytes.
    pending: Vec<RecordBatch>,
    pending_rows: usize,
    pending_bytes: usize,
    /// Files so far, in the staging folder.
    files: Vec<PathBuf>,
    bytes: u64,
    finished: bool,
}

impl ParquetWriter {
    /// A writer of split `split` (`train`) of the dataset folder `dir` (made if missing), for
    /// record batches of the archive schema `schema`.
    ///
    /// # Errors
    /// The folder cannot be made, or `dir/data` is not a folder.
    pub fn create(dir: &Path, split: &str, schema: &Schema) -> Result<Self, ArchiveError> {
        let io = |path: &Path, action| {
            let path = path.to_path_buf();
            move |source| ArchiveError::Io {
                path,
                action,
                source,
            }
        };
        let data = dir.join(DATA_DIR);
        fs::create_dir_all(&data).map_err(io(&data, "cannot make the folder"))?;
        let staging = dir.join(format!(".{split}.parquet.tmp"));
        // A staging folder left by a killed run holds nothing worth keeping.
        if staging.exists() {
            fs::remove_dir_all(&staging)
                .map_err(io(&staging, "cannot remove a stale staging folder"))?;
        }
        fs::create_dir(&staging).map_err(io(&staging, "cannot make the staging folder"))?;
        let grid = schema
            .fields()
            .iter()
            .enumerate()
            .find_map(|(i, f)| Some((i, tensor_shape(f)?)))
            .map(|(i, (h, w))| (i, (h as usize, w as usize)));
        Ok(Self {
            dir: dir.to_path_buf(),
            split: split.to_string(),
            staging,
            archive_schema: Arc::new(schema.clone()),
            schema: Arc::new(parquet_schema(schema)),
            grid,
            current: None,
            pending: Vec::new(),
            pending_rows: 0,
            pending_bytes: 0,
            files: Vec::new(),
            bytes: 0,
            finished: false,
        })
    }

    fn io(&self, path: &Path, source: std::io::Error) -> ArchiveError {
        ArchiveError::Io {
            path: path.to_path_buf(),
            action: "cannot write",
            source,
        }
    }

    fn parquet(&self, error: impl std::fmt::Display) -> ArchiveError {
        ArchiveError::Parquet {
            path: self.files.last().unwrap_or(&self.dir).clone(),
            message: error.to_string(),
        }
    }

    /// Opens the next file in the staging folder.
    fn open_next(&mut self) -> Result<OpenFile, ArchiveError> {
        let path = self
            .staging
            .join(format!("{:05}.parquet", self.files.len()));
        let file = File::create(&path).map_err(|e| self.io(&path, e))?;
        self.files.push(path);
        let props = WriterProperties::builder()
            .set_compression(Compression::ZSTD(
                ZstdLevel::try_new(ZSTD_LEVEL).expect("a valid zstd level"),
            ))
            .set_created_by(format!("warren {}", env!("CARGO_PKG_VERSION")))
            .build();
        let out = BufWriter::with_capacity(1 << 20, file);
        let writer = ArrowWriter::try_new(out, self.schema.clone(), Some(props))
            .map_err(|e| self.parquet(e))?;
        let (writer, factory) = writer
            .into_serialized_writer()
            .map_err(|e| self.parquet(e))?;
        Ok(OpenFile {
            writer,
            factory,
            row_groups: 0,
        })
    }

    /// Writes one batch of the archive schema.
    ///
    /// # Errors
    /// Encoding or writing failed.
    pub fn write(&mut self, batch: &RecordBatch) -> Result<(), ArchiveError> {
        if batch.num_rows() == 0 {
            return Ok(());
        }
        self.pending_rows += batch.num_rows();
        self.pending_bytes += batch.get_array_memory_size();
        self.pending.push(batch.clone());
        if self.pending_bytes >= ROW_GROUP_RAW_BYTES {
            self.flush_row_group()?;
        }
        Ok(())
    }

    /// Encodes the pending batches as one row group of the current file (opened if need be),
    /// and closes the file once it has [`FILE_BYTES`].
    fn flush_row_group(&mut self) -> Result<(), ArchiveError> {
        if self.current.is_none() {
            self.current = Some(self.open_next()?);
        }
        let pending = std::mem::take(&mut self.pending);
        (self.pending_rows, self.pending_bytes) = (0, 0);
        let file = self.current.as_mut().expect("opened above");
        let result = write_row_group(file, &self.schema, self.grid, &pending);
        result.map_err(|e| self.parquet(e))?;
        let file = self.current.as_ref().expect("open");
        if file.writer.bytes_written() >= FILE_BYTES {
            let file = self.current.take().expect("open");
            file.writer.close().map_err(|e| self.parquet(e))?;
            self.close_sizes()?;
        }
        Ok(())
    }

    /// Adds the size of the last file closed to `bytes`.
    fn close_sizes(&mut self) -> Result<(), ArchiveError> {
        let last = self.files.last().expect("a file was closed");
        self.bytes += fs::metadata(last).map_err(|e| self.io(last, e))?.len();
        Ok(())
    }

    /// Closes the last file with `footer` in its key / value metadata, numbers the files and
    /// moves them into `DIR/data`, replacing the split's files of an earlier run; returns the
    /// bytes written and the files' final paths.
    ///
    /// # Errors
    /// Writing, syncing or renaming failed; the earlier run's files are then left as they were
    /// unless the failure came while they were being replaced.
    pub fn finish(
        mut self,
        footer: &[(String, String)],
    ) -> Result<(u64, Vec<PathBuf>), ArchiveError> {
        if !self.pending.is_empty() {
            self.flush_row_group()?;
        }
        let mut file = match self.current.take() {
            Some(f) => f,
            None => self.open_next()?,
        };
        for (key, value) in footer {
            file.writer
                .append_key_value_metadata(KeyValue::new(key.clone(), value.clone()));
        }
        // Writes the footer first.
        let out = file.writer.into_inner().map_err(|e| self.parquet(e))?;
        let out = out.into_inner().map_err(|e| self.parquet(e.into_error()))?;
        out.sync_all()
            .map_err(|e| self.io(self.files.last().expect("open"), e))?;
        drop(out);
        self.close_sizes()?;
        let data = self.dir.join(DATA_DIR);
        let n = self.files.len();
        // The earlier run's files of this split go first: a reader globbing `{split}-*` never
        // sees two runs mixed.
        let old = fs::read_dir(&data).map_err(|e| self.io(&data, e))?;
        for entry in old {
            let entry = entry.map_err(|e| self.io(&data, e))?;
            let name = entry.file_name();
            if parse_shard_name(&name.to_string_lossy()).is_some_and(|(s, _, _)| s == self.split) {
                fs::remove_file(entry.path()).map_err(|e| self.io(&entry.path(), e))?;
            }
        }
        let mut finals = Vec::with_capacity(n);
        for (i, from) in self.files.iter().enumerate() {
            let to = data.join(shard_name(&self.split, i, n));
            fs::rename(from, &to).map_err(|e| self.io(&to, e))?;
            finals.push(to);
        }
        if let Ok(dir) = File::open(&data) {
            let _ = dir.sync_all();
        }
        self.finished = true;
        let _ = fs::remove_dir_all(&self.staging);
        Ok((self.bytes, finals))
    }

    /// The dataset folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The archive layout of the batches written.
    pub fn archive_schema(&self) -> &SchemaRef {
        &self.archive_schema
    }
}

/// Writes `batches` (archive layout) as the next row group of `file`: the grid column `grid`
/// by hand ([`grid::encode`]), every other column through parquet-rs's Arrow column writers.
fn write_row_group(
    file: &mut OpenFile,
    schema: &SchemaRef,
    grid: Option<(usize, (usize, usize))>,
    batches: &[RecordBatch],
) -> Result<(), ParquetError> {
    let writers = file.factory.create_column_writers(file.row_groups)?;
    if writers.len() != schema.fields().len() {
        return Err(ParquetError::General(
            "a column with more than one Parquet leaf".into(),
        ));
    }
    let descriptors: Vec<_> = file.writer.schema_descr().columns().to_vec();
    let mut group = file.writer.next_row_group()?;
    for (c, (mut writer, field)) in writers.into_iter().zip(schema.fields()).enumerate() {
        match grid {
            Some((g, shape)) if g == c => {
                drop(writer);
                let mut grids: Vec<&[u8]> = Vec::new();
                for batch in batches {
                    let list = batch.column(c).as_fixed_size_list();
                    let cells = list.values().as_primitive::<UInt8Type>().values();
                    let size = shape.0 * shape.1;
                    let first = list.offset() * size;
                    grids.extend(cells[first..first + list.len() * size].chunks_exact(size));
                }
                let (bytes, close) =
                    grid::encode(descriptors[c].clone(), &grids, shape, ZSTD_LEVEL)?;
                group.append_column(&bytes, close)?;
            }
            _ => {
                for batch in batches {
                    for leaf in compute_leaves(field, batch.column(c))? {
                        writer.write(&leaf)?;
                    }
                }
                writer.close()?.append_to_row_group(&mut group)?;
            }
        }
    }
    group.close()?;
    file.row_groups += 1;
    Ok(())
}

impl Drop for ParquetWriter {
    fn drop(&mut self) {
        if !self.finished {
            // An error or a panic: nothing of this run is left behind.
            drop(self.current.take());
            let _ = fs::remove_dir_all(&self.staging);
        }
    }
}
