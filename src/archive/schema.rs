//! The archive's Arrow schema (DESIGN.md, "Archive"): fixed identity columns, the grid and graph
//! parts a generator declares in its [`Columns`], its extra (generator-specific) columns, then
//! one plain column per metric. Absent parts are omitted, never filled with junk. Extra and
//! metric columns carry their one-sentence description as field metadata [`DOC_KEY`].
//!
//! The layout goes both ways: [`ArchiveColumns::schema`] (and [`level_schema`] for a
//! generator's [`Columns`]) builds the schema, [`ArchiveColumns::from_schema`] reads the column
//! layout back from a stored schema, so a reader learns an archive's columns from the archive
//! itself, never from a generator rebuilt from its profile.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_schema::{DataType, Field, Metadata, Schema};

use crate::archive::error::SchemaError;
use crate::core::generator::{Columns, ExtraKind, MetricKind};

/// Field metadata key holding a metric's one-sentence description.
pub const DOC_KEY: &str = "warren.doc";

/// The description the `canonical_hash` column carries.
pub const CANONICAL_DOC: &str = "the level's identity up to the symmetries a learner cannot tell apart: a grid's 8 rotations and reflections (a task's start and goal carried along), a graph's vertex numbering (docs/datasets.md)";

/// The room rectangle columns, in schema order.
pub const ROOM_COLUMNS: [&str; 4] = ["room_x0", "room_y0", "room_x1", "room_y1"];

/// The columns every part of the layout may hold, apart from extras and metrics.
const FIXED_COLUMNS: [&str; 17] = [
    "index",
    "seed",
    "layout_hash",
    "canonical_hash",
    "grid_width",
    "grid_height",
    "grid",
    "vertex_x",
    "vertex_y",
    "vertex_tag",
    "edge_src",
    "edge_dst",
    "edge_flags",
    "room_x0",
    "room_y0",
    "room_x1",
    "room_y1",
];

/// A list-of-`inner` type with Arrow's conventional nullable `item` field.
pub fn list_of(inner: DataType) -> DataType {
    DataType::List(Arc::new(Field::new("item", inner, true)))
}

/// The Arrow type of an extra column of kind `kind`.
pub fn extra_type(kind: ExtraKind) -> DataType {
    match kind {
        ExtraKind::ListU32 => list_of(DataType::UInt32),
        ExtraKind::ListI32 => list_of(DataType::Int32),
        ExtraKind::ListF32 => list_of(DataType::Float32),
        ExtraKind::ListU8 => list_of(DataType::UInt8),
        ExtraKind::ListU16 => list_of(DataType::UInt16),
        ExtraKind::Binary => DataType::Binary,
        ExtraKind::Utf8 => DataType::Utf8,
    }
}

/// The extra kind stored as `data_type`, if any.
fn extra_kind(data_type: &DataType) -> Option<ExtraKind> {
    const KINDS: [ExtraKind; 7] = [
        ExtraKind::ListU32,
        ExtraKind::ListI32,
        ExtraKind::ListF32,
        ExtraKind::ListU8,
        ExtraKind::ListU16,
        ExtraKind::Binary,
        ExtraKind::Utf8,
    ];
    KINDS.into_iter().find(|&k| extra_type(k) == *data_type)
}

/// The Arrow type of a metric column of kind `kind`.
fn metric_type(kind: MetricKind) -> DataType {
    match kind {
        MetricKind::U32 => DataType::UInt32,
        MetricKind::F32 => DataType::Float32,
    }
}

/// One metric column as an archive stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredMetric {
    /// Column name.
    pub name: String,
    /// Column type.
    pub kind: MetricKind,
    /// Its description (`warren.doc`; empty when the field carries none).
    pub doc: String,
}

/// One extra (generator-specific) column as an archive stores it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredExtra {
    /// Column name.
    pub name: String,
    /// Column type.
    pub kind: ExtraKind,
    /// Its description (`warren.doc`; empty when the field carries none).
    pub doc: String,
}

/// An archive's column layout, owned: what a generator's [`Columns`] declares, with names and
/// descriptions read back from a stored schema instead of a generator's static tables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ArchiveColumns {
    /// `canonical_hash` (archives of warren 0.2 before issue 47 have none).
    pub canonical: bool,
    /// `grid_width`, `grid_height`, `grid`.
    pub grid: bool,
    /// Every grid's (width, height) when the run fixed it: `grid` is then a fixed-shape
    /// tensor column ([`grid_type`]).
    pub grid_shape: Option<(u16, u16)>,
    /// `vertex_x`, `vertex_y`, `edge_src`, `edge_dst`, `edge_flags`.
    pub graph: bool,
    /// `vertex_tag` (only with `graph`).
    pub tags: bool,
    /// `room_x0`, `room_y0`, `room_x1`, `room_y1` (only with `graph`).
    pub rooms: bool,
    /// `rule_uses`.
    pub rule_uses: bool,
    /// The metric columns, in schema order.
    pub metrics: Vec<StoredMetric>,
    /// The extra columns, in schema order.
    pub extra: Vec<StoredExtra>,
}

impl From<&Columns> for ArchiveColumns {
    fn from(c: &Columns) -> Self {
        Self {
            canonical: true,
            grid: c.grid,
            grid_shape: c.grid_shape.filter(|_| c.grid),
            graph: c.graph,
            // NOTE: tags and rooms belong to the graph; without one they are not written.
            tags: c.graph && c.tags,
            rooms: c.graph && c.rooms,
            rule_uses: c.rule_uses,
            metrics: c
                .metrics
                .iter()
                .map(|m| StoredMetric {
                    name: m.name.to_string(),
                    kind: m.kind,
                    doc: m.doc.to_string(),
                })
                .collect(),
            extra: c
                .extra
                .iter()
                .map(|e| StoredExtra {
                    name: e.name.to_string(),
                    kind: e.kind,
                    doc: e.doc.to_string(),
                })
                .collect(),
        }
    }
}

impl From<Columns> for ArchiveColumns {
    fn from(c: Columns) -> Self {
        Self::from(&c)
    }
}

/// The extension name of Arrow's canonical fixed-shape tensor type.
pub const TENSOR_EXTENSION: &str = "arrow.fixed_shape_tensor";

/// The Arrow type of the `grid` column: `binary` (one row-major run of cells per level) when
/// sizes vary, a fixed-size list of `uint8` of width x height items when every grid has
/// `shape` (width, height).
pub fn grid_type(shape: Option<(u16, u16)>) -> DataType {
    match shape {
        None => DataType::Binary,
        Some((w, h)) => DataType::FixedSizeList(
            Arc::new(Field::new("item", DataType::UInt8, false)),
            i32::from(w) * i32::from(h),
        ),
    }
}

/// The `grid` field: for one size, the fixed-size list marked as the canonical extension type
/// `arrow.fixed_shape_tensor` with shape [height, width] (row-major, as the cells are stored),
/// which pyarrow, polars and Hugging Face datasets read as an (N, H, W) array.
pub(crate) fn grid_field(shape: Option<(u16, u16)>) -> Field {
    let field = Field::new("grid", grid_type(shape), false);
    match shape {
        None => field,
        Some((w, h)) => field.with_metadata(HashMap::from([
            (
                "ARROW:extension:name".to_string(),
                TENSOR_EXTENSION.to_string(),
            ),
            (
                "ARROW:extension:metadata".to_string(),
                format!(r#"{{"shape":[{h},{w}]}}"#),
            ),
        ])),
    }
}

/// The (width, height) a stored `grid` field declares: `Some` for a fixed-shape tensor whose
/// shape matches its list size, `None` for `binary`.
fn stored_grid_shape(field: &Field) -> Result<Option<(u16, u16)>, SchemaError> {
    let DataType::FixedSizeList(_, size) = field.data_type() else {
        return Ok(None);
    };
    let bad = || SchemaError::UnknownColumn {
        name: field.name().clone(),
        data_type: field.data_type().clone(),
    };
    let metadata = field.metadata();
    if metadata.get("ARROW:extension:name").map(String::as_str) != Some(TENSOR_EXTENSION) {
        return Err(bad());
    }
    #[derive(serde::Deserialize)]
    struct Shape {
        shape: [u16; 2],
    }
    let shape: Shape = metadata
        .get("ARROW:extension:metadata")
        .and_then(|m| serde_json::from_str(m).ok())
        .ok_or_else(bad)?;
    let [h, w] = shape.shape;
    if i32::from(w) * i32::from(h) != *size {
        return Err(bad());
    }
    Ok(Some((w, h)))
}

/// A field documented by `doc`.
fn documented(name: &str, data_type: DataType, doc: &str) -> Field {
    let doc = HashMap::from([(DOC_KEY.to_string(), doc.to_string())]);
    Field::new(name, data_type, false).with_metadata(doc)
}

/// `` `name` type ``, or `nothing`, for error messages.
fn describe(field: Option<&Field>) -> String {
    field.map_or_else(
        || "nothing".to_string(),
        |f| format!("`{}` {}", f.name(), f.data_type()),
    )
}

impl ArchiveColumns {
    /// The schema of these columns, carrying `metadata` (the `warren.*` keys).
    pub fn schema(&self, metadata: impl Into<Metadata>) -> Schema {
        let plain = |name: &str, data_type| Field::new(name, data_type, false);
        let mut fields = vec![
            plain("index", DataType::UInt64),
            plain("seed", DataType::UInt64),
            plain("layout_hash", DataType::UInt64),
        ];
        if self.canonical {
            fields.push(documented(
                "canonical_hash",
                DataType::UInt64,
                CANONICAL_DOC,
            ));
        }
        if self.grid {
            fields.push(plain("grid_width", DataType::UInt16));
            fields.push(plain("grid_height", DataType::UInt16));
            fields.push(grid_field(self.grid_shape));
        }
        if self.graph {
            fields.push(plain("vertex_x", list_of(DataType::Float32)));
            fields.push(plain("vertex_y", list_of(DataType::Float32)));
            if self.tags {
                fields.push(plain("vertex_tag", list_of(DataType::UInt16)));
            }
            fields.push(plain("edge_src", list_of(DataType::UInt32)));
            fields.push(plain("edge_dst", list_of(DataType::UInt32)));
            fields.push(plain("edge_flags", list_of(DataType::UInt8)));
            if self.rooms {
                for name in ROOM_COLUMNS {
                    fields.push(plain(name, list_of(DataType::Int32)));
                }
            }
        }
        if self.rule_uses {
            fields.push(plain("rule_uses", list_of(DataType::UInt32)));
        }
        for e in &self.extra {
            fields.push(documented(&e.name, extra_type(e.kind), &e.doc));
        }
        for m in &self.metrics {
            fields.push(documented(&m.name, metric_type(m.kind), &m.doc));
        }
        Schema::new_with_metadata(fields, metadata)
    }

    /// Reads the column layout back from a stored schema: the parts present by their columns,
    /// extra columns by their list, binary or text types, metrics as the other `u32` and `f32`
    /// columns, descriptions from [`DOC_KEY`]. The schema must be exactly what
    /// [`ArchiveColumns::schema`] builds for the layout found (names, types and order).
    ///
    /// # Errors
    /// A column of a type warren never writes, or columns out of warren's order, missing from
    /// a part, or mistyped; the message names the column.
    ///
    /// # Runtime
    /// O(columns), a few small allocations per column.
    pub fn from_schema(schema: &Schema) -> Result<Self, SchemaError> {
        let has = |name: &str| schema.field_with_name(name).is_ok();
        let grid_shape = match schema.field_with_name("grid") {
            Ok(field) => stored_grid_shape(field)?,
            Err(_) => None,
        };
        let mut columns = Self {
            canonical: has("canonical_hash"),
            grid: has("grid"),
            grid_shape,
            graph: has("edge_src"),
            tags: has("vertex_tag"),
            rooms: has("room_x0"),
            rule_uses: has("rule_uses"),
            ..Self::default()
        };
        for field in schema.fields() {
            let name = field.name();
            if FIXED_COLUMNS.contains(&name.as_str()) || name == "rule_uses" {
                continue;
            }
            let doc = field.metadata().get(DOC_KEY).cloned().unwrap_or_default();
            let metric = |kind| StoredMetric {
                name: name.clone(),
                kind,
                doc: doc.clone(),
            };
            match field.data_type() {
                DataType::UInt32 => columns.metrics.push(metric(MetricKind::U32)),
                DataType::Float32 => columns.metrics.push(metric(MetricKind::F32)),
                other => match extra_kind(other) {
                    Some(kind) => columns.extra.push(StoredExtra {
                        name: name.clone(),
                        kind,
                        doc,
                    }),
                    None => {
                        return Err(SchemaError::UnknownColumn {
                            name: name.clone(),
                            data_type: other.clone(),
                        });
                    }
                },
            }
        }
        columns.check_layout_of(schema)?;
        Ok(columns)
    }

    /// Checks that `schema` has exactly the columns (names, types, order) these columns give.
    fn check_layout_of(&self, schema: &Schema) -> Result<(), SchemaError> {
        let expected = self.schema(Metadata::new());
        let (found, wanted) = (schema.fields(), expected.fields());
        for position in 0..found.len().max(wanted.len()) {
            let (f, w) = (found.get(position), wanted.get(position));
            let same = matches!((f, w), (Some(f), Some(w))
                if f.name() == w.name() && f.data_type() == w.data_type());
            if !same {
                return Err(SchemaError::Misplaced {
                    position,
                    found: describe(f.map(|f| f.as_ref())),
                    expected: describe(w.map(|w| w.as_ref())),
                });
            }
        }
        Ok(())
    }

    /// Whether `other` has the same columns: parts, names and types (descriptions aside, which
    /// another warren version may word differently).
    pub fn same_layout(&self, other: &Self) -> bool {
        let metrics = |c: &Self| -> Vec<(String, MetricKind)> {
            c.metrics.iter().map(|m| (m.name.clone(), m.kind)).collect()
        };
        let extra = |c: &Self| -> Vec<(String, ExtraKind)> {
            c.extra.iter().map(|e| (e.name.clone(), e.kind)).collect()
        };
        let parts = |c: &Self| (c.grid, c.grid_shape, c.graph, c.tags, c.rooms, c.rule_uses);
        parts(self) == parts(other)
            && metrics(self) == metrics(other)
            && extra(self) == extra(other)
    }
}

/// The schema for a generator's `columns`, carrying `metadata` (the `warren.*` keys).
pub fn level_schema(columns: &Columns, metadata: HashMap<String, String>) -> Schema {
    ArchiveColumns::from(columns).schema(metadata)
}

#[cfg(test)]
#[path = "schema_tests.rs"]
mod tests;
