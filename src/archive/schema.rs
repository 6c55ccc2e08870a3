//! The archive's Arrow schema (DESIGN.md, "Archive"): fixed identity columns, the grid and graph
//! parts a generator declares in its [`Columns`], its extra (generator-specific) columns, then
//! one plain column per metric. Absent parts are omitted, never filled with junk. Extra and
//! metric columns carry their one-sentence description as field metadata [`DOC_KEY`].

use std::collections::HashMap;
use std::sync::Arc;

use arrow_schema::{DataType, Field, Schema};

use crate::core::generator::{Columns, ExtraKind, MetricKind};

/// Field metadata key holding a metric's one-sentence description.
pub const DOC_KEY: &str = "warren.doc";

/// The room rectangle columns, in schema order.
pub const ROOM_COLUMNS: [&str; 4] = ["room_x0", "room_y0", "room_x1", "room_y1"];

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

/// The schema for `columns`, carrying `metadata` (the `warren.*` keys).
pub fn level_schema(columns: &Columns, metadata: HashMap<String, String>) -> Schema {
    let mut fields = vec![
        Field::new("index", DataType::UInt64, false),
        Field::new("seed", DataType::UInt64, false),
        Field::new("layout_hash", DataType::UInt64, false),
    ];
    if columns.grid {
        fields.push(Field::new("grid_width", DataType::UInt16, false));
        fields.push(Field::new("grid_height", DataType::UInt16, false));
        fields.push(Field::new("grid", DataType::Binary, false));
    }
    if columns.graph {
        fields.push(Field::new("vertex_x", list_of(DataType::Float32), false));
        fields.push(Field::new("vertex_y", list_of(DataType::Float32), false));
        if columns.tags {
            fields.push(Field::new("vertex_tag", list_of(DataType::UInt16), false));
        }
        fields.push(Field::new("edge_src", list_of(DataType::UInt32), false));
        fields.push(Field::new("edge_dst", list_of(DataType::UInt32), false));
        fields.push(Field::new("edge_flags", list_of(DataType::UInt8), false));
        if columns.rooms {
            for name in ROOM_COLUMNS {
                fields.push(Field::new(name, list_of(DataType::Int32), false));
            }
        }
    }
    if columns.rule_uses {
        fields.push(Field::new("rule_uses", list_of(DataType::UInt32), false));
    }
    for e in columns.extra {
        let doc = HashMap::from([(DOC_KEY.to_string(), e.doc.to_string())]);
        fields.push(Field::new(e.name, extra_type(e.kind), false).with_metadata(doc));
    }
    for m in columns.metrics {
        let ty = match m.kind {
            MetricKind::U32 => DataType::UInt32,
            MetricKind::F32 => DataType::Float32,
        };
        let doc = HashMap::from([(DOC_KEY.to_string(), m.doc.to_string())]);
        fields.push(Field::new(m.name, ty, false).with_metadata(doc));
    }
    Schema::new_with_metadata(fields, metadata)
}
