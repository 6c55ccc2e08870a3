//! Building one record batch (a chunk of consecutive levels) from borrowed [`Level`]s: each level
//! is copied once, straight from the generator's scratch into Arrow column builders.

use std::sync::Arc;

use arrow_array::builder::ArrayBuilder;
use arrow_array::builder::{
    BinaryBuilder, Float32Builder, Int32Builder, ListBuilder, StringBuilder, UInt8Builder,
    UInt16Builder, UInt32Builder, UInt64Builder,
};
use arrow_array::{ArrayRef, FixedSizeListArray, RecordBatch, UInt8Array};
use arrow_schema::{ArrowError, DataType, SchemaRef};

use crate::core::generator::{Columns, ExtraKind, ExtraValue, Level, MetricKind};
use crate::core::identity::{IdentityScratch, canonical_hash};

enum MetricBuilder {
    U32(UInt32Builder),
    F32(Float32Builder),
}

/// The builder of one extra column.
enum ExtraBuilder {
    U32(ListBuilder<UInt32Builder>),
    I32(ListBuilder<Int32Builder>),
    F32(ListBuilder<Float32Builder>),
    U8(ListBuilder<UInt8Builder>),
    U16(ListBuilder<UInt16Builder>),
    Binary(BinaryBuilder),
    Utf8(StringBuilder),
}

impl ExtraBuilder {
    fn new(kind: ExtraKind, capacity: usize) -> Self {
        match kind {
            ExtraKind::ListU32 => {
                Self::U32(ListBuilder::with_capacity(UInt32Builder::new(), capacity))
            }
            ExtraKind::ListI32 => {
                Self::I32(ListBuilder::with_capacity(Int32Builder::new(), capacity))
            }
            ExtraKind::ListF32 => {
                Self::F32(ListBuilder::with_capacity(Float32Builder::new(), capacity))
            }
            ExtraKind::ListU8 => {
                Self::U8(ListBuilder::with_capacity(UInt8Builder::new(), capacity))
            }
            ExtraKind::ListU16 => {
                Self::U16(ListBuilder::with_capacity(UInt16Builder::new(), capacity))
            }
            ExtraKind::Binary => Self::Binary(BinaryBuilder::with_capacity(capacity, 0)),
            ExtraKind::Utf8 => Self::Utf8(StringBuilder::with_capacity(capacity, 0)),
        }
    }

    /// Appends one row; `false` when the value's type is not the column's.
    fn push(&mut self, value: &ExtraValue<'_>) -> bool {
        match (self, *value) {
            (Self::U32(b), ExtraValue::ListU32(v)) => {
                b.values().append_slice(v);
                b.append(true);
            }
            (Self::I32(b), ExtraValue::ListI32(v)) => {
                b.values().append_slice(v);
                b.append(true);
            }
            (Self::F32(b), ExtraValue::ListF32(v)) => {
                b.values().append_slice(v);
                b.append(true);
            }
            (Self::U8(b), ExtraValue::ListU8(v)) => {
                b.values().append_slice(v);
                b.append(true);
            }
            (Self::U16(b), ExtraValue::ListU16(v)) => {
                b.values().append_slice(v);
                b.append(true);
            }
            (Self::Binary(b), ExtraValue::Binary(v)) => b.append_value(v),
            (Self::Utf8(b), ExtraValue::Utf8(v)) => b.append_value(v),
            _ => return false,
        }
        true
    }

    /// Bytes of values pushed since the last `finish`.
    fn bytes(&self) -> usize {
        match self {
            Self::U32(b) => 4 * b.values_ref().len(),
            Self::I32(b) => 4 * b.values_ref().len(),
            Self::F32(b) => 4 * b.values_ref().len(),
            Self::U8(b) => b.values_ref().len(),
            Self::U16(b) => 2 * b.values_ref().len(),
            Self::Binary(b) => b.values_slice().len(),
            Self::Utf8(b) => b.values_slice().len(),
        }
    }

    fn finish(&mut self) -> ArrayRef {
        match self {
            Self::U32(b) => Arc::new(b.finish()),
            Self::I32(b) => Arc::new(b.finish()),
            Self::F32(b) => Arc::new(b.finish()),
            Self::U8(b) => Arc::new(b.finish()),
            Self::U16(b) => Arc::new(b.finish()),
            Self::Binary(b) => Arc::new(b.finish()),
            Self::Utf8(b) => Arc::new(b.finish()),
        }
    }
}

struct GraphBuilders {
    x: ListBuilder<Float32Builder>,
    y: ListBuilder<Float32Builder>,
    tag: Option<ListBuilder<UInt16Builder>>,
    src: ListBuilder<UInt32Builder>,
    dst: ListBuilder<UInt32Builder>,
    flags: ListBuilder<UInt8Builder>,
    rooms: Option<[ListBuilder<Int32Builder>; 4]>,
}

/// The cells of a chunk's grids: `binary` rows, or one flat run for a fixed-shape tensor.
enum GridCells {
    /// One binary row per level (sizes vary).
    Binary(BinaryBuilder),
    /// Every level's cells back to back, each exactly `width x height`.
    Fixed {
        cells: Vec<u8>,
        width: u16,
        height: u16,
    },
}

impl GridCells {
    fn len(&self) -> usize {
        match self {
            GridCells::Binary(b) => b.values_slice().len(),
            GridCells::Fixed { cells, .. } => cells.len(),
        }
    }

    fn push(&mut self, width: u32, height: u32, cells: &[u8]) {
        match self {
            GridCells::Binary(b) => b.append_value(cells),
            GridCells::Fixed {
                cells: all,
                width: w,
                height: h,
            } => {
                assert!(
                    (width, height) == (u32::from(*w), u32::from(*h))
                        && cells.len() == all_len(*w, *h),
                    "generator declared {w}x{h} grids but produced a {width}x{height} one"
                );
                all.extend_from_slice(cells);
            }
        }
    }

    fn finish(&mut self) -> Result<ArrayRef, ArrowError> {
        Ok(match self {
            GridCells::Binary(b) => Arc::new(b.finish()),
            GridCells::Fixed {
                cells,
                width,
                height,
            } => {
                let values = UInt8Array::from(std::mem::take(cells));
                let item = Arc::new(arrow_schema::Field::new("item", DataType::UInt8, false));
                let size = i32::from(*width) * i32::from(*height);
                Arc::new(FixedSizeListArray::try_new(
                    item,
                    size,
                    Arc::new(values),
                    None,
                )?)
            }
        })
    }
}

/// Cells in a `w x h` grid.
fn all_len(w: u16, h: u16) -> usize {
    usize::from(w) * usize::from(h)
}

/// Accumulates levels into the columns of one record batch.
pub struct ChunkBuilder {
    schema: SchemaRef,
    columns: Columns,
    index: UInt64Builder,
    seed: UInt64Builder,
    hash: UInt64Builder,
    canonical: UInt64Builder,
    identity: IdentityScratch,
    grid: Option<(UInt16Builder, UInt16Builder, GridCells)>,
    graph: Option<GraphBuilders>,
    rule_uses: Option<ListBuilder<UInt32Builder>>,
    extra: Vec<(&'static str, ExtraBuilder)>,
    metrics: Vec<MetricBuilder>,
    rows: usize,
}

impl ChunkBuilder {
    /// A builder for `schema` (made by `level_schema(columns, ..)`), sized for `capacity` rows.
    pub fn new(schema: SchemaRef, columns: Columns, capacity: usize) -> Self {
        let grid = columns.grid.then(|| {
            let cells = match columns.grid_shape {
                None => GridCells::Binary(BinaryBuilder::with_capacity(capacity, 0)),
                Some((width, height)) => GridCells::Fixed {
                    cells: Vec::with_capacity(capacity * all_len(width, height)),
                    width,
                    height,
                },
            };
            (
                UInt16Builder::with_capacity(capacity),
                UInt16Builder::with_capacity(capacity),
                cells,
            )
        });
        let graph = columns.graph.then(|| GraphBuilders {
            x: ListBuilder::with_capacity(Float32Builder::new(), capacity),
            y: ListBuilder::with_capacity(Float32Builder::new(), capacity),
            tag: columns
                .tags
                .then(|| ListBuilder::with_capacity(UInt16Builder::new(), capacity)),
            src: ListBuilder::with_capacity(UInt32Builder::new(), capacity),
            dst: ListBuilder::with_capacity(UInt32Builder::new(), capacity),
            flags: ListBuilder::with_capacity(UInt8Builder::new(), capacity),
            rooms: columns.rooms.then(|| {
                std::array::from_fn(|_| ListBuilder::with_capacity(Int32Builder::new(), capacity))
            }),
        });
        let rule_uses = columns
            .rule_uses
            .then(|| ListBuilder::with_capacity(UInt32Builder::new(), capacity));
        let extra = columns
            .extra
            .iter()
            .map(|e| (e.name, ExtraBuilder::new(e.kind, capacity)))
            .collect();
        let metrics = columns
            .metrics
            .iter()
            .map(|m| match m.kind {
                MetricKind::U32 => MetricBuilder::U32(UInt32Builder::with_capacity(capacity)),
                MetricKind::F32 => MetricBuilder::F32(Float32Builder::with_capacity(capacity)),
            })
            .collect();
        Self {
            schema,
            columns,
            index: UInt64Builder::with_capacity(capacity),
            seed: UInt64Builder::with_capacity(capacity),
            hash: UInt64Builder::with_capacity(capacity),
            canonical: UInt64Builder::with_capacity(capacity),
            identity: IdentityScratch::default(),
            grid,
            graph,
            rule_uses,
            extra,
            metrics,
            rows: 0,
        }
    }

    /// Bytes of variable-length data (grid cells, list values) pushed since the last `finish`.
    pub fn variable_bytes(&self) -> usize {
        let grid = self.grid.as_ref().map_or(0, |(_, _, cells)| cells.len());
        let graph = self.graph.as_ref().map_or(0, |b| {
            4 * (b.x.values_ref().len()
                + b.y.values_ref().len()
                + b.src.values_ref().len()
                + b.dst.values_ref().len())
                + 2 * b.tag.as_ref().map_or(0, |t| t.values_ref().len())
                + b.flags.values_ref().len()
                + 4 * b
                    .rooms
                    .as_ref()
                    .map_or(0, |r| r.iter().map(|c| c.values_ref().len()).sum())
        });
        let uses = self
            .rule_uses
            .as_ref()
            .map_or(0, |u| 4 * u.values_ref().len());
        let extra: usize = self.extra.iter().map(|(_, b)| b.bytes()).sum();
        grid + graph + uses + extra
    }

    /// Rows pushed since the last `finish`.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Appends one level.
    ///
    /// # Panics
    /// If the level lacks a part its generator's [`Columns`] declares, or gives extra values
    /// that do not match the declared extra columns in number or type (a generator bug).
    pub fn push(&mut self, index: u64, seed: u64, level: &Level<'_>) {
        self.index.append_value(index);
        self.seed.append_value(seed);
        // PERF: the hash is made here, on the worker that built the level, from its columns as
        // stored.
        self.hash
            .append_value(self.columns.stored(level).content_hash());
        self.canonical
            .append_value(canonical_hash(&self.columns, level, &mut self.identity));
        if let Some((w, h, cells)) = &mut self.grid {
            let g = level
                .grid
                .expect("generator declared a grid but produced none");
            w.append_value(g.width as u16);
            h.append_value(g.height as u16);
            cells.push(g.width, g.height, g.cells);
        }
        if let Some(b) = &mut self.graph {
            let g = level
                .graph
                .expect("generator declared a graph but produced none");
            b.x.values().append_slice(g.x);
            b.x.append(true);
            b.y.values().append_slice(g.y);
            b.y.append(true);
            if let Some(tag) = &mut b.tag {
                tag.values().append_slice(g.tag);
                tag.append(true);
            }
            b.src.values().append_slice(g.src);
            b.src.append(true);
            b.dst.values().append_slice(g.dst);
            b.dst.append(true);
            b.flags.values().append_slice(g.flags);
            b.flags.append(true);
            if let Some(rooms) = &mut b.rooms {
                let r = level
                    .rooms
                    .expect("generator declared rooms but produced none");
                for (builder, values) in rooms.iter_mut().zip([r.x0, r.y0, r.x1, r.y1]) {
                    builder.values().append_slice(values);
                    builder.append(true);
                }
            }
        }
        if let Some(uses) = &mut self.rule_uses {
            uses.values().append_slice(level.rule_uses);
            uses.append(true);
        }
        assert_eq!(
            level.extra.len(),
            self.extra.len(),
            "generator declared {} extra columns but produced {} values",
            self.extra.len(),
            level.extra.len()
        );
        for ((name, builder), value) in self.extra.iter_mut().zip(level.extra) {
            assert!(
                builder.push(value),
                "extra column `{name}` got a {:?} value",
                value.kind()
            );
        }
        debug_assert_eq!(
            level.metrics.len(),
            self.metrics.len(),
            "metric count mismatch"
        );
        for (builder, &value) in self.metrics.iter_mut().zip(level.metrics) {
            match builder {
                MetricBuilder::U32(b) => b.append_value(value as u32),
                MetricBuilder::F32(b) => b.append_value(value as f32),
            }
        }
        self.rows += 1;
    }

    /// Finishes the rows pushed so far into a record batch and starts a new chunk.
    pub fn finish(&mut self) -> Result<RecordBatch, ArrowError> {
        let mut cols: Vec<ArrayRef> = vec![
            Arc::new(self.index.finish()),
            Arc::new(self.seed.finish()),
            Arc::new(self.hash.finish()),
            Arc::new(self.canonical.finish()),
        ];
        if let Some((w, h, cells)) = &mut self.grid {
            cols.push(Arc::new(w.finish()));
            cols.push(Arc::new(h.finish()));
            cols.push(cells.finish()?);
        }
        if let Some(b) = &mut self.graph {
            cols.push(Arc::new(b.x.finish()));
            cols.push(Arc::new(b.y.finish()));
            if let Some(tag) = &mut b.tag {
                cols.push(Arc::new(tag.finish()));
            }
            cols.push(Arc::new(b.src.finish()));
            cols.push(Arc::new(b.dst.finish()));
            cols.push(Arc::new(b.flags.finish()));
            if let Some(rooms) = &mut b.rooms {
                for r in rooms {
                    cols.push(Arc::new(r.finish()));
                }
            }
        }
        if let Some(uses) = &mut self.rule_uses {
            cols.push(Arc::new(uses.finish()));
        }
        for (_, e) in &mut self.extra {
            cols.push(e.finish());
        }
        for m in &mut self.metrics {
            match m {
                MetricBuilder::U32(b) => cols.push(Arc::new(b.finish())),
                MetricBuilder::F32(b) => cols.push(Arc::new(b.finish())),
            }
        }
        self.rows = 0;
        RecordBatch::try_new(self.schema.clone(), cols)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::{Archive, ArchiveColumns, ArchiveWriter, BatchView, level_schema};
    use crate::core::generator::ExtraSpec;

    /// One column of every extra kind.
    const ALL_KINDS: [ExtraSpec; 7] = [
        ExtraSpec::new("e_u32", ExtraKind::ListU32, "u32 lists"),
        ExtraSpec::new("e_i32", ExtraKind::ListI32, "i32 lists"),
        ExtraSpec::new("e_f32", ExtraKind::ListF32, "f32 lists"),
        ExtraSpec::new("e_u8", ExtraKind::ListU8, "u8 lists"),
        ExtraSpec::new("e_u16", ExtraKind::ListU16, "u16 lists"),
        ExtraSpec::new("e_bin", ExtraKind::Binary, "bytes"),
        ExtraSpec::new("e_text", ExtraKind::Utf8, "text"),
    ];

    /// Owned values of level `i`: lists of length `i % 4`, so some rows are empty.
    struct Row {
        u32s: Vec<u32>,
        i32s: Vec<i32>,
        f32s: Vec<f32>,
        u8s: Vec<u8>,
        u16s: Vec<u16>,
        text: String,
    }

    impl Row {
        fn new(i: u32) -> Self {
            let n = i % 4;
            Self {
                u32s: (0..n).map(|k| i * 10 + k).collect(),
                i32s: (0..n).map(|k| -(i as i32) - k as i32).collect(),
                f32s: (0..n).map(|k| i as f32 + 0.25 * k as f32).collect(),
                u8s: (0..n).map(|k| (i + k) as u8).collect(),
                u16s: (0..n).map(|k| (1000 + i + k) as u16).collect(),
                text: format!("<level n=\"{i}\">é</level>"),
            }
        }

        fn values(&self) -> [ExtraValue<'_>; 7] {
            [
                ExtraValue::ListU32(&self.u32s),
                ExtraValue::ListI32(&self.i32s),
                ExtraValue::ListF32(&self.f32s),
                ExtraValue::ListU8(&self.u8s),
                ExtraValue::ListU16(&self.u16s),
                ExtraValue::Binary(&self.u8s),
                ExtraValue::Utf8(&self.text),
            ]
        }
    }

    fn columns() -> Columns {
        Columns {
            extra: &ALL_KINDS,
            ..Columns::default()
        }
    }

    #[test]
    fn extra_columns_of_every_kind_round_trip_through_a_file() {
        let schema = Arc::new(level_schema(&columns(), Default::default()));
        let rows: Vec<Row> = (0..9).map(Row::new).collect();
        let mut builder = ChunkBuilder::new(schema.clone(), columns(), 4);
        let dir = std::env::temp_dir().join(format!("warren-extra-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("extra.arrow");
        let mut writer = ArchiveWriter::create(&path, &schema).unwrap();
        for (i, row) in rows.iter().enumerate() {
            let values = row.values();
            let level = Level {
                extra: &values,
                ..Level::default()
            };
            builder.push(i as u64, 7, &level);
            if builder.rows() == 4 {
                writer.write(&builder.finish().unwrap()).unwrap();
            }
        }
        writer.write(&builder.finish().unwrap()).unwrap();
        writer.finish(&[]).unwrap();

        let archive = Archive::open(&path).unwrap();
        let field = archive.schema().field_with_name("e_text").unwrap();
        assert_eq!(
            field.metadata().get(crate::archive::DOC_KEY).unwrap(),
            "text"
        );
        let mut seen = 0;
        for b in 0..archive.batch_count() {
            let batch = archive.batch(b).unwrap();
            let view = BatchView::new(&batch, &ArchiveColumns::from(columns())).unwrap();
            let (mut metrics, mut extra) = (Vec::new(), Vec::new());
            for r in 0..view.rows() {
                let record = view.record(r, &mut metrics, &mut extra);
                let want = rows[record.index as usize].values();
                assert_eq!(record.level.extra, &want[..], "level {}", record.index);
                assert_eq!(view.extra(6, r), want[6]);
                seen += 1;
            }
        }
        assert_eq!(seen, rows.len());
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_mistyped_extra_column_is_an_error_naming_it() {
        let schema = Arc::new(level_schema(&columns(), Default::default()));
        let mut builder = ChunkBuilder::new(schema, columns(), 1);
        let row = Row::new(3);
        let values = row.values();
        builder.push(
            0,
            0,
            &Level {
                extra: &values,
                ..Level::default()
            },
        );
        let batch = builder.finish().unwrap();
        // Read it as if the text column were a u32 list.
        let mut cols = ArchiveColumns::from(columns());
        cols.extra[6].kind = ExtraKind::ListU32;
        let err = BatchView::new(&batch, &cols)
            .err()
            .expect("a type error")
            .to_string();
        assert!(
            err.contains("`e_text`") && err.contains("expected list"),
            "{err}"
        );
    }

    #[test]
    #[should_panic(expected = "extra column `e_u32` got a ListI32 value")]
    fn a_generator_giving_the_wrong_extra_type_is_caught() {
        let schema = Arc::new(level_schema(&columns(), Default::default()));
        let mut builder = ChunkBuilder::new(schema, columns(), 1);
        let row = Row::new(2);
        let mut values = row.values();
        values.swap(0, 1);
        builder.push(
            0,
            0,
            &Level {
                extra: &values,
                ..Level::default()
            },
        );
    }
}
