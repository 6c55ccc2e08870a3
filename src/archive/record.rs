//! Typed, zero-copy access to the rows of a decoded record batch: each row becomes a
//! [`LevelRecord`] whose slices point into the archive's mapping, extra (generator-specific)
//! columns included. Missing or mistyped columns are
//! reported as errors (a file from another tool, or a damaged one), never unwrapped.

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Int32Type, UInt8Type, UInt16Type, UInt32Type, UInt64Type};
use arrow_array::{
    Array, ArrowPrimitiveType, BinaryArray, FixedSizeListArray, ListArray, PrimitiveArray,
    RecordBatch, StringArray,
};
use arrow_schema::DataType;

use crate::archive::error::ColumnError;
use crate::archive::schema::{ArchiveColumns, ROOM_COLUMNS};
use crate::core::generator::{
    ExtraKind, ExtraValue, GraphView, Level, LevelRecord, MetricKind, RoomsView,
};
use crate::core::grid::GridView;

/// A metric column of either type.
enum MetricColumn<'a> {
    U32(&'a [u32]),
    F32(&'a [f32]),
}

/// A list column as offsets plus flat values.
struct ListColumn<'a, T> {
    offsets: &'a [i32],
    values: &'a [T],
}

impl<'a, T> ListColumn<'a, T> {
    fn row(&self, i: usize) -> &'a [T] {
        let (lo, hi) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
        &self.values[lo..hi]
    }
}

/// An extra column of any declared type.
enum ExtraColumn<'a> {
    U32(ListColumn<'a, u32>),
    I32(ListColumn<'a, i32>),
    F32(ListColumn<'a, f32>),
    U8(ListColumn<'a, u8>),
    U16(ListColumn<'a, u16>),
    Binary(&'a BinaryArray),
    Utf8(&'a StringArray),
}

impl<'a> ExtraColumn<'a> {
    fn new(batch: &'a RecordBatch, name: &str, kind: ExtraKind) -> Result<Self, ColumnError> {
        Ok(match kind {
            ExtraKind::ListU32 => Self::U32(list::<UInt32Type>(batch, name)?),
            ExtraKind::ListI32 => Self::I32(list::<Int32Type>(batch, name)?),
            ExtraKind::ListF32 => Self::F32(list::<Float32Type>(batch, name)?),
            ExtraKind::ListU8 => Self::U8(list::<UInt8Type>(batch, name)?),
            ExtraKind::ListU16 => Self::U16(list::<UInt16Type>(batch, name)?),
            ExtraKind::Binary => Self::Binary(binary(batch, name)?),
            ExtraKind::Utf8 => {
                let col = column(batch, name)?;
                Self::Utf8(
                    col.as_string_opt::<i32>()
                        .ok_or_else(|| wrong_type(name, col, "utf8"))?,
                )
            }
        })
    }

    fn value(&self, i: usize) -> ExtraValue<'a> {
        match self {
            Self::U32(c) => ExtraValue::ListU32(c.row(i)),
            Self::I32(c) => ExtraValue::ListI32(c.row(i)),
            Self::F32(c) => ExtraValue::ListF32(c.row(i)),
            Self::U8(c) => ExtraValue::ListU8(c.row(i)),
            Self::U16(c) => ExtraValue::ListU16(c.row(i)),
            Self::Binary(c) => ExtraValue::Binary(c.value(i)),
            Self::Utf8(c) => ExtraValue::Utf8(c.value(i)),
        }
    }
}

/// A batch's `grid` column: `binary` rows, or a fixed-shape tensor (one `uint8` list of
/// width x height items per level).
#[derive(Clone, Copy, Debug)]
pub enum GridColumn<'a> {
    /// One binary row per level.
    Binary(&'a BinaryArray),
    /// Fixed-size lists over one flat `uint8` buffer.
    Fixed {
        /// The list array (for row offsets).
        lists: &'a FixedSizeListArray,
        /// Its child values.
        values: &'a [u8],
    },
}

impl<'a> GridColumn<'a> {
    /// Reads the `grid` column of `batch`, of either type.
    ///
    /// # Errors
    /// No `grid` column, or one of another type.
    pub fn of(batch: &'a RecordBatch) -> Result<Self, ColumnError> {
        let col = column(batch, "grid")?;
        if let Some(b) = col.as_binary_opt::<i32>() {
            return Ok(GridColumn::Binary(b));
        }
        let wrong = || wrong_type("grid", col, "binary or fixed_size_list<uint8>");
        let lists = col.as_fixed_size_list_opt().ok_or_else(wrong)?;
        let values = lists
            .values()
            .as_primitive_opt::<UInt8Type>()
            .ok_or_else(wrong)?
            .values();
        Ok(GridColumn::Fixed {
            lists,
            values: values.as_ref(),
        })
    }

    /// The cells of row `i`.
    pub fn row(&self, i: usize) -> &'a [u8] {
        match *self {
            GridColumn::Binary(b) => b.value(i),
            GridColumn::Fixed { lists, values } => {
                let start = lists.value_offset_at(i);
                &values[start..start + lists.value_length() as usize]
            }
        }
    }
}

/// The columns of one batch, typed.
pub struct BatchView<'a> {
    rows: usize,
    index: &'a [u64],
    seed: &'a [u64],
    hash: &'a [u64],
    canonical: Option<&'a [u64]>,
    grid: Option<(&'a [u16], &'a [u16], GridColumn<'a>)>,
    graph: Option<[ListColumn<'a, u32>; 2]>,
    xy: Option<[ListColumn<'a, f32>; 2]>,
    tags: Option<ListColumn<'a, u16>>,
    flags: Option<ListColumn<'a, u8>>,
    rooms: Option<[ListColumn<'a, i32>; 4]>,
    rule_uses: Option<ListColumn<'a, u32>>,
    extra: Vec<ExtraColumn<'a>>,
    metrics: Vec<MetricColumn<'a>>,
}

fn column<'a>(batch: &'a RecordBatch, name: &str) -> Result<&'a dyn Array, ColumnError> {
    batch
        .column_by_name(name)
        .map(|c| c.as_ref())
        .ok_or_else(|| ColumnError::Missing {
            name: name.to_string(),
        })
}

fn wrong_type(name: &str, col: &dyn Array, expected: impl ToString) -> ColumnError {
    ColumnError::WrongType {
        name: name.to_string(),
        found: col.data_type().clone(),
        expected: expected.to_string(),
    }
}

fn primitive<'a, T: ArrowPrimitiveType>(
    batch: &'a RecordBatch,
    name: &str,
) -> Result<&'a [T::Native], ColumnError> {
    let col = column(batch, name)?;
    col.as_primitive_opt::<T>()
        .map(|a: &PrimitiveArray<T>| a.values().as_ref())
        .ok_or_else(|| wrong_type(name, col, T::DATA_TYPE))
}

fn binary<'a>(batch: &'a RecordBatch, name: &str) -> Result<&'a BinaryArray, ColumnError> {
    let col = column(batch, name)?;
    col.as_binary_opt::<i32>()
        .ok_or_else(|| wrong_type(name, col, "binary"))
}

fn list<'a, T: ArrowPrimitiveType>(
    batch: &'a RecordBatch,
    name: &str,
) -> Result<ListColumn<'a, T::Native>, ColumnError> {
    let col = column(batch, name)?;
    let wrong = || wrong_type(name, col, format!("list<{}>", T::DATA_TYPE));
    let l: &ListArray = col.as_list_opt::<i32>().ok_or_else(wrong)?;
    let values = l.values().as_primitive_opt::<T>().ok_or_else(wrong)?;
    // NOTE: a sliced values array would make offsets relative to a base we do not subtract;
    // decoded IPC arrays are never sliced, so insist on it instead of handling it.
    if values.offset() != 0 {
        return Err(ColumnError::Sliced {
            name: name.to_string(),
        });
    }
    Ok(ListColumn {
        offsets: l.value_offsets(),
        values: values.values().as_ref(),
    })
}

impl<'a> BatchView<'a> {
    /// Types the columns `columns` declares (a generator's, `ArchiveColumns::from(&columns)`,
    /// or an archive's own, [`ArchiveColumns::from_schema`]).
    ///
    /// # Errors
    /// A missing or mistyped column, or one holding nulls; the error names it.
    pub fn new(batch: &'a RecordBatch, columns: &ArchiveColumns) -> Result<Self, ColumnError> {
        let grid = if columns.grid {
            Some((
                primitive::<UInt16Type>(batch, "grid_width")?,
                primitive::<UInt16Type>(batch, "grid_height")?,
                GridColumn::of(batch)?,
            ))
        } else {
            None
        };
        let (graph, xy, flags) = if columns.graph {
            (
                Some([
                    list::<UInt32Type>(batch, "edge_src")?,
                    list::<UInt32Type>(batch, "edge_dst")?,
                ]),
                Some([
                    list::<Float32Type>(batch, "vertex_x")?,
                    list::<Float32Type>(batch, "vertex_y")?,
                ]),
                Some(list::<UInt8Type>(batch, "edge_flags")?),
            )
        } else {
            (None, None, None)
        };
        let tags = if columns.graph && columns.tags {
            Some(list::<UInt16Type>(batch, "vertex_tag")?)
        } else {
            None
        };
        let rooms = if columns.graph && columns.rooms {
            let [a, b, c, d] = ROOM_COLUMNS;
            Some([
                list::<Int32Type>(batch, a)?,
                list::<Int32Type>(batch, b)?,
                list::<Int32Type>(batch, c)?,
                list::<Int32Type>(batch, d)?,
            ])
        } else {
            None
        };
        let rule_uses = if columns.rule_uses {
            Some(list::<UInt32Type>(batch, "rule_uses")?)
        } else {
            None
        };
        let extra = columns
            .extra
            .iter()
            .map(|e| ExtraColumn::new(batch, &e.name, e.kind))
            .collect::<Result<Vec<_>, _>>()?;
        let mut metrics = Vec::with_capacity(columns.metrics.len());
        for m in &columns.metrics {
            metrics.push(match m.kind {
                MetricKind::U32 => MetricColumn::U32(primitive::<UInt32Type>(batch, &m.name)?),
                MetricKind::F32 => MetricColumn::F32(primitive::<Float32Type>(batch, &m.name)?),
            });
        }
        // warren never writes nulls; a file that has them is not one of ours (or is damaged),
        // and reading the values under a null would give junk.
        for (field, column) in batch.schema().fields().iter().zip(batch.columns()) {
            if column.data_type() == &DataType::Null || column.null_count() > 0 {
                return Err(ColumnError::Nulls {
                    name: field.name().clone(),
                });
            }
        }
        Ok(Self {
            rows: batch.num_rows(),
            index: primitive::<UInt64Type>(batch, "index")?,
            seed: primitive::<UInt64Type>(batch, "seed")?,
            hash: primitive::<UInt64Type>(batch, "layout_hash")?,
            canonical: if columns.canonical {
                Some(primitive::<UInt64Type>(batch, "canonical_hash")?)
            } else {
                None
            },
            grid,
            graph,
            xy,
            tags,
            flags,
            rooms,
            rule_uses,
            extra,
            metrics,
        })
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The stored `layout_hash` of row `i`.
    pub fn layout_hash(&self, i: usize) -> u64 {
        self.hash[i]
    }

    /// The stored `canonical_hash` of row `i` (None: an archive from before the column).
    pub fn canonical_hash(&self, i: usize) -> Option<u64> {
        self.canonical.as_ref().map(|c| c[i])
    }

    /// The index of row `i`.
    pub fn index(&self, i: usize) -> u64 {
        self.index[i]
    }

    /// Row `i` as a level without metric values and extra columns (grid and graph alias the
    /// batch); [`BatchView::record`] gives both.
    pub fn level(&self, i: usize) -> Level<'a> {
        let grid = self.grid.map(|(w, h, cells)| GridView {
            width: u32::from(w[i]),
            height: u32::from(h[i]),
            cells: cells.row(i),
        });
        let graph = match (&self.graph, &self.xy, &self.flags) {
            (Some([src, dst]), Some([x, y]), Some(flags)) => Some(GraphView {
                x: x.row(i),
                y: y.row(i),
                tag: self.tags.as_ref().map_or(&[][..], |t| t.row(i)),
                src: src.row(i),
                dst: dst.row(i),
                flags: flags.row(i),
            }),
            _ => None,
        };
        let rooms = self.rooms.as_ref().map(|[x0, y0, x1, y1]| RoomsView {
            x0: x0.row(i),
            y0: y0.row(i),
            x1: x1.row(i),
            y1: y1.row(i),
        });
        Level {
            grid,
            graph,
            rooms,
            rule_uses: self.rule_uses.as_ref().map_or(&[][..], |u| u.row(i)),
            metrics: &[],
            extra: &[],
        }
    }

    /// Row `i` as a level record; metric values are written into `metrics` and the extra
    /// columns' values (which alias the batch) into `extra` (reused buffers).
    pub fn record<'m>(
        &self,
        i: usize,
        metrics: &'m mut Vec<f64>,
        extra: &'m mut Vec<ExtraValue<'a>>,
    ) -> LevelRecord<'m>
    where
        'a: 'm,
    {
        extra.clear();
        extra.extend(self.extra.iter().map(|c| c.value(i)));
        metrics.clear();
        metrics.extend(self.metrics.iter().map(|m| match m {
            MetricColumn::U32(v) => f64::from(v[i]),
            MetricColumn::F32(v) => f64::from(v[i]),
        }));
        LevelRecord {
            index: self.index[i],
            seed: self.seed[i],
            level: Level {
                metrics,
                extra,
                ..self.level(i)
            },
        }
    }

    /// The value of extra column `e` (in [`ArchiveColumns::extra`] order) at row `i`.
    pub fn extra(&self, e: usize, i: usize) -> ExtraValue<'a> {
        self.extra[e].value(i)
    }

    /// The metric value of column `m` at row `i`.
    pub fn metric(&self, m: usize, i: usize) -> f64 {
        match &self.metrics[m] {
            MetricColumn::U32(v) => f64::from(v[i]),
            MetricColumn::F32(v) => f64::from(v[i]),
        }
    }
}
