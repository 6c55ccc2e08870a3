//! Task archives (`kind = "task"`) as the rows trainers read (`warren tasks`): verl's Parquet
//! (`data_source`, `prompt` as chat messages, `ability`, `reward_model {style, ground_truth}`,
//! `extra_info {split, index, seed, answer, ...metrics}`, and `images` for `png` renderings) or
//! the same objects as JSON Lines. Batches stream from the archive; the output is written to
//! `OUT.tmp` and renamed when complete.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

use arrow_array::builder::{BinaryBuilder, ListBuilder, StringBuilder, StructBuilder};
use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, UInt32Type, UInt64Type};
use arrow_array::{Array, ArrayRef, RecordBatch, StringArray, StructArray, UInt64Array};
use arrow_schema::{DataType, Field, Fields, Schema};
use parquet::arrow::ArrowWriter;
use parquet::basic::{Compression as PqCompression, ZstdLevel};
use parquet::file::properties::WriterProperties;

use crate::archive::{Archive, META_GENERATOR, META_PROFILE};
use crate::core::output::temp_path;
use crate::export::ExportError;

/// What a task export writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskFormat {
    /// verl's Parquet rows.
    Verl,
    /// One JSON object per line, the same fields (no images).
    Jsonl,
}

/// The task facts an export needs from the archive's profile.
struct TaskInfo {
    name: String,
    split: String,
    ability: &'static str,
}

/// Reads the task name and split from the archive's stored profile.
fn task_info(archive: &Archive) -> Result<TaskInfo, ExportError> {
    let path = archive.path().to_path_buf();
    if archive.meta(META_GENERATOR) != Some("task") {
        return Err(ExportError::NotTasks {
            path,
            generator: archive.meta(META_GENERATOR).unwrap_or("?").to_string(),
        });
    }
    let profile: toml::Table = archive
        .meta(META_PROFILE)
        .and_then(|t| toml::from_str(t).ok())
        .unwrap_or_default();
    let section = profile.get("task").and_then(|t| t.as_table());
    let get = |key: &str, default: &str| {
        section
            .and_then(|s| s.get(key))
            .and_then(|v| v.as_str())
            .unwrap_or(default)
            .to_string()
    };
    let name = get("task", "maze-steps");
    let ability = match name.as_str() {
        "graph-color" | "coloring-puzzle" => "graph",
        _ => "spatial",
    };
    Ok(TaskInfo {
        split: get("split", "train"),
        name,
        ability,
    })
}

/// The metric columns of a task batch: every column after the text and image columns whose
/// type is a number (`u32` or `f32` metrics).
fn metric_columns(batch: &RecordBatch) -> Vec<(String, ArrayRef)> {
    let skip = [
        "index",
        "seed",
        "layout_hash",
        "canonical_hash",
        "grid_width",
        "grid_height",
    ];
    batch
        .schema()
        .fields()
        .iter()
        .zip(batch.columns())
        .filter(|(f, _)| {
            !skip.contains(&f.name().as_str())
                && matches!(f.data_type(), DataType::UInt32 | DataType::Float32)
        })
        .map(|(f, c)| (f.name().clone(), c.clone()))
        .collect()
}

/// A text column of a task batch.
fn text<'a>(
    batch: &'a RecordBatch,
    path: &Path,
    column: &'static str,
) -> Result<&'a StringArray, ExportError> {
    batch
        .column_by_name(column)
        .and_then(|c| c.as_string_opt::<i32>())
        .ok_or_else(|| ExportError::MissingColumn {
            path: path.to_path_buf(),
            column,
        })
}

/// Writes the archive's items to `out` in `format`; returns the rows written.
///
/// # Errors
/// The archive is not a task archive or cannot be read, or the output cannot be written
/// (nothing is left under `out` then).
pub fn write_tasks(archive: &Archive, out: &Path, format: TaskFormat) -> Result<u64, ExportError> {
    let info = task_info(archive)?;
    let tmp = temp_path(out);
    let result = match format {
        TaskFormat::Verl => write_verl(archive, &info, &tmp),
        TaskFormat::Jsonl => write_jsonl(archive, &info, &tmp),
    }
    .and_then(|rows| {
        std::fs::rename(&tmp, out).map_err(|error| ExportError::Write {
            path: out.to_path_buf(),
            error,
        })?;
        Ok(rows)
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// verl's row schema for a batch with these metric columns.
fn verl_schema(metrics: &[(String, ArrayRef)], images: bool) -> Schema {
    let message = Fields::from(vec![
        Field::new("role", DataType::Utf8, false),
        Field::new("content", DataType::Utf8, false),
    ]);
    let reward = Fields::from(vec![
        Field::new("style", DataType::Utf8, false),
        Field::new("ground_truth", DataType::Utf8, false),
    ]);
    let mut extra = vec![
        Field::new("split", DataType::Utf8, false),
        Field::new("index", DataType::UInt64, false),
        Field::new("seed", DataType::UInt64, false),
        Field::new("answer", DataType::Utf8, false),
    ];
    extra.extend(
        metrics
            .iter()
            .map(|(name, c)| Field::new(name, c.data_type().clone(), false)),
    );
    let mut fields = vec![
        Field::new("data_source", DataType::Utf8, false),
        Field::new(
            "prompt",
            DataType::List(Arc::new(Field::new_struct("item", message, true))),
            false,
        ),
        Field::new("ability", DataType::Utf8, false),
        Field::new_struct("reward_model", reward, false),
        Field::new_struct("extra_info", Fields::from(extra), false),
    ];
    if images {
        let image = Fields::from(vec![Field::new("bytes", DataType::Binary, false)]);
        fields.push(Field::new(
            "images",
            DataType::List(Arc::new(Field::new_struct("item", image, true))),
            false,
        ));
    }
    Schema::new(fields)
}

/// One archive batch as verl rows.
fn verl_batch(
    batch: &RecordBatch,
    info: &TaskInfo,
    schema: &Arc<Schema>,
    path: &Path,
) -> Result<RecordBatch, ExportError> {
    let (question, answer, truth) = (
        text(batch, path, "question")?,
        text(batch, path, "answer")?,
        text(batch, path, "ground_truth")?,
    );
    let image = batch
        .column_by_name("image")
        .and_then(|c| c.as_binary_opt::<i32>());
    let n = batch.num_rows();
    let source = format!("warren/{}", info.name);
    let constant = |s: &str| -> ArrayRef { Arc::new(StringArray::from(vec![s; n])) };
    let DataType::List(message) = schema.field(1).data_type() else {
        unreachable!("verl_schema's prompt is a list")
    };
    let DataType::Struct(message_fields) = message.data_type() else {
        unreachable!("a prompt item is a struct")
    };
    let mut prompt = ListBuilder::new(StructBuilder::from_fields(message_fields.clone(), n))
        .with_field(message.clone());
    for i in 0..n {
        let has_image = image.is_some_and(|im| !im.value(i).is_empty());
        let s = prompt.values();
        s.field_builder::<StringBuilder>(0)
            .expect("role")
            .append_value("user");
        let content = s.field_builder::<StringBuilder>(1).expect("content");
        if has_image {
            content.append_value(format!("<image>{}", question.value(i)));
        } else {
            content.append_value(question.value(i));
        }
        s.append(true);
        prompt.append(true);
    }
    let reward = StructArray::new(
        match schema.field(3).data_type() {
            DataType::Struct(f) => f.clone(),
            _ => unreachable!("verl_schema's reward_model is a struct"),
        },
        vec![constant("rule"), Arc::new(truth.clone())],
        None,
    );
    let seeds = batch
        .column_by_name("seed")
        .and_then(|c| c.as_primitive_opt::<UInt64Type>());
    let indices = batch
        .column_by_name("index")
        .and_then(|c| c.as_primitive_opt::<UInt64Type>());
    let (Some(seeds), Some(indices)) = (seeds, indices) else {
        return Err(ExportError::MissingColumn {
            path: path.to_path_buf(),
            column: "index",
        });
    };
    let mut extra: Vec<ArrayRef> = vec![
        constant(&info.split),
        Arc::new(UInt64Array::from(indices.values().to_vec())),
        Arc::new(UInt64Array::from(seeds.values().to_vec())),
        Arc::new(answer.clone()),
    ];
    extra.extend(metric_columns(batch).into_iter().map(|(_, c)| c));
    let extra_info = StructArray::new(
        match schema.field(4).data_type() {
            DataType::Struct(f) => f.clone(),
            _ => unreachable!("verl_schema's extra_info is a struct"),
        },
        extra,
        None,
    );
    let mut columns: Vec<ArrayRef> = vec![
        constant(&source),
        Arc::new(prompt.finish()),
        constant(info.ability),
        Arc::new(reward),
        Arc::new(extra_info),
    ];
    if let Some(image) = image {
        columns.push(image_list(image, schema));
    }
    RecordBatch::try_new(schema.clone(), columns).map_err(|e| ExportError::Write {
        path: path.to_path_buf(),
        error: std::io::Error::other(e),
    })
}

/// The `images` column: one `{bytes}` per row with a picture, none for the others.
fn image_list(image: &arrow_array::BinaryArray, schema: &Arc<Schema>) -> ArrayRef {
    let DataType::List(item) = schema.field(5).data_type() else {
        unreachable!("verl_schema's images is a list")
    };
    let DataType::Struct(fields) = item.data_type() else {
        unreachable!("an image item is a struct")
    };
    let mut list = ListBuilder::new(StructBuilder::from_fields(fields.clone(), image.len()))
        .with_field(item.clone());
    for i in 0..image.len() {
        let bytes = image.value(i);
        if !bytes.is_empty() {
            let s = list.values();
            s.field_builder::<BinaryBuilder>(0)
                .expect("bytes")
                .append_value(bytes);
            s.append(true);
        }
        list.append(true);
    }
    Arc::new(list.finish())
}

/// verl's Parquet file (zstd) at `tmp`.
fn write_verl(archive: &Archive, info: &TaskInfo, tmp: &Path) -> Result<u64, ExportError> {
    let path = archive.path();
    let file = File::create(tmp).map_err(|source| ExportError::Create {
        path: tmp.to_path_buf(),
        source,
    })?;
    let fail = |e: parquet::errors::ParquetError| ExportError::Write {
        path: tmp.to_path_buf(),
        error: std::io::Error::other(e),
    };
    let mut writer: Option<ArrowWriter<File>> = None;
    let mut file = Some(file);
    let mut rows = 0u64;
    for b in 0..archive.batch_count() {
        let batch = archive.batch(b)?;
        let images = batch.column_by_name("image").is_some();
        let schema = Arc::new(verl_schema(&metric_columns(&batch), images));
        let rows_batch = verl_batch(&batch, info, &schema, path)?;
        if writer.is_none() {
            let props = WriterProperties::builder()
                .set_compression(PqCompression::ZSTD(ZstdLevel::try_new(3).map_err(fail)?))
                .build();
            let f = file.take().expect("the file is taken once");
            writer = Some(ArrowWriter::try_new(f, schema.clone(), Some(props)).map_err(fail)?);
        }
        let w = writer.as_mut().expect("made above");
        w.write(&rows_batch).map_err(fail)?;
        rows += rows_batch.num_rows() as u64;
    }
    match writer {
        Some(w) => {
            let f = w.into_inner().map_err(fail)?;
            f.sync_all().map_err(|error| ExportError::Write {
                path: tmp.to_path_buf(),
                error,
            })?;
        }
        None => {
            // An empty archive: a valid Parquet file with verl's columns and no rows.
            let schema = Arc::new(verl_schema(&[], false));
            let f = file.take().expect("unused");
            ArrowWriter::try_new(f, schema, None)
                .and_then(|w| w.close())
                .map_err(fail)?;
        }
    }
    Ok(rows)
}

/// JSON Lines at `tmp`: verl's fields per line (images left out: JSONL holds text).
fn write_jsonl(archive: &Archive, info: &TaskInfo, tmp: &Path) -> Result<u64, ExportError> {
    let path = archive.path();
    let io = |error: std::io::Error| ExportError::Write {
        path: tmp.to_path_buf(),
        error,
    };
    let file = File::create(tmp).map_err(|source| ExportError::Create {
        path: tmp.to_path_buf(),
        source,
    })?;
    let mut w = BufWriter::new(file);
    let mut rows = 0u64;
    let source = format!("warren/{}", info.name);
    for b in 0..archive.batch_count() {
        let batch = archive.batch(b)?;
        let (question, answer, truth) = (
            text(&batch, path, "question")?,
            text(&batch, path, "answer")?,
            text(&batch, path, "ground_truth")?,
        );
        let index = batch
            .column_by_name("index")
            .and_then(|c| c.as_primitive_opt::<UInt64Type>());
        let seed = batch
            .column_by_name("seed")
            .and_then(|c| c.as_primitive_opt::<UInt64Type>());
        let (Some(index), Some(seed)) = (index, seed) else {
            return Err(ExportError::MissingColumn {
                path: path.to_path_buf(),
                column: "index",
            });
        };
        let metrics = metric_columns(&batch);
        for i in 0..batch.num_rows() {
            let mut extra = serde_json::Map::new();
            extra.insert("split".into(), info.split.clone().into());
            extra.insert("index".into(), index.value(i).into());
            extra.insert("seed".into(), seed.value(i).into());
            extra.insert("answer".into(), answer.value(i).into());
            for (name, col) in &metrics {
                let v: serde_json::Value = if let Some(a) = col.as_primitive_opt::<UInt32Type>() {
                    a.value(i).into()
                } else if let Some(a) = col.as_primitive_opt::<Float32Type>() {
                    f64::from(a.value(i)).into()
                } else {
                    continue;
                };
                extra.insert(name.clone(), v);
            }
            let row = serde_json::json!({
                "data_source": source,
                "prompt": [{"role": "user", "content": question.value(i)}],
                "ability": info.ability,
                "reward_model": {"style": "rule", "ground_truth": truth.value(i)},
                "extra_info": extra,
            });
            serde_json::to_writer(&mut w, &row).map_err(|e| io(std::io::Error::other(e)))?;
            w.write_all(b"\n").map_err(io)?;
            rows += 1;
        }
    }
    let f = w.into_inner().map_err(|e| io(e.into_error()))?;
    f.sync_all().map_err(io)?;
    Ok(rows)
}
