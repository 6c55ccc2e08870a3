//! The `map` kind's extra columns: the floor plan's and the door table's
//! ([`WITH_DOOR_COLUMNS`]), then the designer's `data` of the level graph's rooms and
//! connections ([`data_columns`]), then the graph's name ([`GRAPH_COLUMN`]).

use crate::core::generator::{ExtraKind, ExtraSpec};
use crate::floorplan::doors::WITH_DOOR_COLUMNS;
use crate::floorplan::spec::LevelGraph;

/// The designer's data columns, after the door table's.
pub const DATA_COLUMNS: [ExtraSpec; 2] = [
    ExtraSpec::new(
        "room_data",
        ExtraKind::Utf8,
        "the level graph's rooms' `data` objects as a JSON array, in room order (null for a room \
         without one); empty when no room has one",
    ),
    ExtraSpec::new(
        "connection_data",
        ExtraKind::Utf8,
        "the level graph's connections' `data` objects as a JSON array, in connection order \
         (null for a connection without one); empty when no connection has one",
    ),
];

/// Which graph of `map.graph` the level lays out, after the data columns.
pub const GRAPH_COLUMN: ExtraSpec = ExtraSpec::new(
    "map_graph",
    ExtraKind::Utf8,
    "the level graph this map lays out, as `map.graph` names it (a built-in name or a file's \
     path; with several graphs, the one the level's seed picked)",
);

/// Every extra column of a `map` level, in order.
pub const MAP_KIND_COLUMNS: [ExtraSpec; WITH_DOOR_COLUMNS.len() + DATA_COLUMNS.len() + 1] = {
    let mut out = [DATA_COLUMNS[0]; WITH_DOOR_COLUMNS.len() + DATA_COLUMNS.len() + 1];
    let mut i = 0;
    while i < WITH_DOOR_COLUMNS.len() {
        out[i] = WITH_DOOR_COLUMNS[i];
        i += 1;
    }
    out[i] = DATA_COLUMNS[0];
    out[i + 1] = DATA_COLUMNS[1];
    out[i + 2] = GRAPH_COLUMN;
    out
};

/// The `room_data` and `connection_data` values of `graph` (the same for every level).
pub fn data_columns(graph: &LevelGraph) -> [String; 2] {
    let array = |items: Vec<&Option<String>>| {
        if items.iter().all(|d| d.is_none()) {
            return String::new();
        }
        let parts: Vec<&str> = items
            .iter()
            .map(|d| d.as_deref().unwrap_or("null"))
            .collect();
        format!("[{}]", parts.join(","))
    };
    [
        array(graph.rooms.iter().map(|r| &r.data).collect()),
        array(graph.connections.iter().map(|c| &c.data).collect()),
    ]
}
