//! Building one record batch (a chunk of consecutive levels) from borrowed [`Level`]s: each level
//! is copied once, straight from the generator's scratch into Arrow column builders.

use std::sync::Arc;

use arrow_array::builder::ArrayBuilder;
use arrow_array::builder::{
    BinaryBuilder, Float32Builder, Int32Builder, ListBuilder, UInt8Builder, UInt16Builder,
    UInt32Builder, UInt64Builder,
};
use arrow_array::{ArrayRef, RecordBatch};
use arrow_schema::{ArrowError, SchemaRef};

use crate::core::generator::{Columns, Level, MetricKind};

enum MetricBuilder {
    U32(UInt32Builder),
    F32(Float32Builder),
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

/// Accumulates levels into the columns of one record batch.
pub struct ChunkBuilder {
    schema: SchemaRef,
    index: UInt64Builder,
    seed: UInt64Builder,
    hash: UInt64Builder,
    grid: Option<(UInt16Builder, UInt16Builder, BinaryBuilder)>,
    graph: Option<GraphBuilders>,
    rule_uses: Option<ListBuilder<UInt32Builder>>,
    metrics: Vec<MetricBuilder>,
    rows: usize,
}

impl ChunkBuilder {
    /// A builder for `schema` (made by `level_schema(columns, ..)`), sized for `capacity` rows.
    pub fn new(schema: SchemaRef, columns: Columns, capacity: usize) -> Self {
        let grid = columns.grid.then(|| {
            (
                UInt16Builder::with_capacity(capacity),
                UInt16Builder::with_capacity(capacity),
                BinaryBuilder::with_capacity(capacity, 0),
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
            index: UInt64Builder::with_capacity(capacity),
            seed: UInt64Builder::with_capacity(capacity),
            hash: UInt64Builder::with_capacity(capacity),
            grid,
            graph,
            rule_uses,
            metrics,
            rows: 0,
        }
    }

    /// Bytes of variable-length data (grid cells, list values) pushed since the last `finish`.
    pub fn variable_bytes(&self) -> usize {
        let grid = self
            .grid
            .as_ref()
            .map_or(0, |(_, _, cells)| cells.values_slice().len());
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
        grid + graph + uses
    }

    /// Rows pushed since the last `finish`.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Appends one level.
    ///
    /// # Panics
    /// If the level lacks a part its generator's [`Columns`] declares (a generator bug).
    pub fn push(&mut self, index: u64, seed: u64, level: &Level<'_>) {
        self.index.append_value(index);
        self.seed.append_value(seed);
        self.hash.append_value(level.layout_hash);
        if let Some((w, h, cells)) = &mut self.grid {
            let g = level
                .grid
                .expect("generator declared a grid but produced none");
            w.append_value(g.width as u16);
            h.append_value(g.height as u16);
            cells.append_value(g.cells);
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
        ];
        if let Some((w, h, cells)) = &mut self.grid {
            cols.push(Arc::new(w.finish()));
            cols.push(Arc::new(h.finish()));
            cols.push(Arc::new(cells.finish()));
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
