//! The door table of `map` levels (the archive's `door_*` columns, [`DoorTable`]) in the editors'
//! exports: each door one object covering its tiles, typed `door`, with its connection, the
//! owner values it joins (`from`, `to`, as in the owner grid) and its facing (the way one walks
//! from `from` to `to`: `east`, `south`, `west`, `north`) and its `key` (1 + the key room of a
//! locked connection, else 0) and `data` (its connection's `data` object as JSON text, empty
//! without one); each unused run (wall where the room's
//! template allows a door and there is none: where blockers go) one object typed `unused_door`
//! with its room and the way its wall faces out. The Tiled map lists them in its object layer;
//! the LDtk project in an Entities layer `Doors` of entities `Door` and `UnusedDoor`.

use serde_json::{Value, json};

use crate::core::generator::{ExtraValue, RoomsView};
use crate::floorplan::doors::{DOOR_COLUMNS, DoorTable, Run};

/// Facing names by [`crate::floorplan::shape::side`] value.
pub const FACINGS: [&str; 4] = ["east", "south", "west", "north"];

/// The designer's `data` of a level graph's rooms and connections (the `room_data` and
/// `connection_data` columns), each as compact JSON text, `None` where there is none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MapData {
    /// Per room.
    pub rooms: Vec<Option<String>>,
    /// Per connection.
    pub connections: Vec<Option<String>>,
}

impl MapData {
    /// The data of a level whose extra columns are named `names` (value of column `e`:
    /// `value(e)`); empty for a kind without the columns, or where a column is not a JSON array.
    pub fn of<'a>(names: &[&str], value: impl Fn(usize) -> ExtraValue<'a>) -> MapData {
        let list = |name: &str| -> Vec<Option<String>> {
            let Some(e) = names.iter().position(|&n| n == name) else {
                return Vec::new();
            };
            let text = value(e).as_str().unwrap_or_default();
            match serde_json::from_str::<Value>(text) {
                Ok(Value::Array(items)) => items
                    .into_iter()
                    .map(|v| (!v.is_null()).then(|| v.to_string()))
                    .collect(),
                _ => Vec::new(),
            }
        };
        MapData {
            rooms: list("room_data"),
            connections: list("connection_data"),
        }
    }

    /// Room `v`'s data.
    pub fn room(&self, v: usize) -> Option<&str> {
        self.rooms.get(v)?.as_deref()
    }

    /// Connection `j`'s data.
    pub fn connection(&self, j: usize) -> Option<&str> {
        self.connections.get(j)?.as_deref()
    }
}

/// The door table of a level whose extra columns are named `names`, column `e`'s value being
/// `value(e)`; `None` for a kind without one.
///
/// # Errors
/// The columns are there but of the wrong types or lengths.
pub fn door_table<'a>(
    names: &[&str],
    value: impl Fn(usize) -> ExtraValue<'a>,
) -> Option<Result<DoorTable, String>> {
    let first = names.iter().position(|&e| e == DOOR_COLUMNS[0].name)?;
    let names = names[first..].iter().copied().take(DOOR_COLUMNS.len());
    if !names.eq(DOOR_COLUMNS.iter().map(|e| e.name)) {
        return Some(Err("the door_* columns are not the door table's".into()));
    }
    let values: Vec<ExtraValue<'a>> = (first..first + DOOR_COLUMNS.len()).map(value).collect();
    Some(DoorTable::from_values(&values))
}

/// A run's rectangle in tiles: `[x0, y0, x1, y1)`.
pub fn rect(run: &Run) -> [i64; 4] {
    let (x, y, len) = (i64::from(run.x), i64::from(run.y), i64::from(run.len));
    if run.downwards() {
        [x, y, x + 1, y + len]
    } else {
        [x, y, x + len, y + 1]
    }
}

/// The facing name of side `s`.
fn facing(s: u8) -> &'static str {
    FACINGS.get(usize::from(s)).copied().unwrap_or("east")
}

/// What the objects of one door or unused run say: `(type, name, rect, properties)`, the
/// properties as `(name, value)` with integers and strings.
pub type DoorObject = (&'static str, String, [i64; 4], Vec<(&'static str, Value)>);

/// The objects of `table`: its doors, then its unused runs.
pub fn objects(table: &DoorTable, data: &MapData) -> Vec<DoorObject> {
    let mut out = Vec::with_capacity(table.doors() + table.unused());
    for k in 0..table.doors() {
        let (j, from, to, run) = table.door(k);
        let properties = vec![
            ("connection", json!(j)),
            ("from", json!(from)),
            ("to", json!(to)),
            ("facing", json!(facing(run.facing))),
            ("key", json!(table.key[k])),
            ("data", json!(data.connection(usize::from(j)).unwrap_or(""))),
        ];
        out.push(("door", format!("door {k}"), rect(&run), properties));
    }
    for k in 0..table.unused() {
        let (room, run) = table.unused_run(k);
        let properties = vec![("room", json!(room)), ("facing", json!(facing(run.facing)))];
        out.push((
            "unused_door",
            format!("unused door {k}"),
            rect(&run),
            properties,
        ));
    }
    out
}

/// The Tiled objects of `table` (ids after `id`, which ends at the last), in tile units of
/// `tile` pixels.
pub fn tiled_objects(table: &DoorTable, data: &MapData, id: &mut u32, tile: i64) -> Vec<Value> {
    objects(table, data)
        .into_iter()
        .map(|(kind, name, r, properties)| {
            *id += 1;
            let properties: Vec<Value> = properties
                .into_iter()
                .map(|(name, value)| {
                    let kind = if value.is_string() { "string" } else { "int" };
                    json!({"name": name, "type": kind, "value": value})
                })
                .collect();
            json!({
                "id": *id, "name": name, "type": kind,
                "x": r[0] * tile, "y": r[1] * tile,
                "width": (r[2] - r[0]) * tile, "height": (r[3] - r[1]) * tile,
                "rotation": 0, "visible": true, "properties": properties,
            })
        })
        .collect()
}

/// The uid of the LDtk `Doors` layer definition.
pub const LDTK_LAYER_UID: u32 = 4;
/// The uid of entity `Door`; `UnusedDoor` is the next, their fields the ones after.
const LDTK_DOOR_UID: u32 = 5;
/// Fields of `Door` and of `UnusedDoor`.
const DOOR_FIELDS: [&str; 6] = ["connection", "from", "to", "facing", "key", "data"];
const UNUSED_FIELDS: [&str; 2] = ["room", "facing"];
/// The uid of the LDtk `Rooms` layer definition; entity `Room` is the next, its fields the
/// ones after.
pub const LDTK_ROOMS_UID: u32 =
    LDTK_DOOR_UID + 2 + (DOOR_FIELDS.len() + UNUSED_FIELDS.len()) as u32;
/// Fields of `Room`: its index in the level graph, its owner value, its id, its data.
const ROOM_FIELDS: [&str; 4] = ["room", "owner", "name", "data"];
/// The first uid after every definition here.
pub const LDTK_NEXT_UID: u32 = LDTK_ROOMS_UID + 2 + ROOM_FIELDS.len() as u32;

/// The uid of field `name` of entity `entity` (0 `Door`, 1 `UnusedDoor`, 2 `Room`).
fn field_uid(entity: usize, name: &str) -> u32 {
    let (fields, base) = match entity {
        0 => (&DOOR_FIELDS[..], LDTK_DOOR_UID + 2),
        1 => (
            &UNUSED_FIELDS[..],
            LDTK_DOOR_UID + 2 + DOOR_FIELDS.len() as u32,
        ),
        _ => (&ROOM_FIELDS[..], LDTK_ROOMS_UID + 2),
    };
    base + fields.iter().position(|&f| f == name).unwrap_or(0) as u32
}

/// The LDtk field definition of `name` on entity `entity`.
fn field_def(entity: usize, name: &str) -> Value {
    let text = matches!(name, "facing" | "data" | "name");
    json!({
        "identifier": name, "doc": null, "__type": if text { "String" } else { "Int" },
        "uid": field_uid(entity, name), "type": if text { "F_String" } else { "F_Int" },
        "isArray": false, "canBeNull": false, "arrayMinLength": null, "arrayMaxLength": null,
        "editorDisplayMode": "Hidden", "editorDisplayScale": 1.0, "editorDisplayPos": "Above",
        "editorLinkStyle": "StraightArrow", "editorDisplayColor": null, "editorAlwaysShow": false,
        "editorShowInWorld": true, "editorCutLongValues": true, "editorTextSuffix": null,
        "editorTextPrefix": null, "useForSmartColor": false, "exportToToc": false,
        "searchable": false, "min": null, "max": null, "regex": null, "acceptFileTypes": null,
        "defaultOverride": null, "textLanguageMode": null, "symmetricalRef": false,
        "autoChainRef": true, "allowOutOfLevelRef": true, "allowedRefs": "OnlySame",
        "allowedRefsEntityUid": null, "allowedRefTags": [], "tilesetUid": null,
    })
}

/// The LDtk entity definitions `Door`, `UnusedDoor` and `Room`.
pub fn ldtk_entity_defs(grid: u32) -> Vec<Value> {
    [
        ("Door", "#E8C170", &DOOR_FIELDS[..]),
        ("UnusedDoor", "#8A5A44", &UNUSED_FIELDS[..]),
        ("Room", ROOM_COLOUR, &ROOM_FIELDS[..]),
    ]
    .into_iter()
    .enumerate()
    .map(|(e, (identifier, colour, fields))| {
        let defs: Vec<Value> = fields.iter().map(|f| field_def(e, f)).collect();
        let uid = if e == 2 {
            LDTK_ROOMS_UID + 1
        } else {
            LDTK_DOOR_UID + e as u32
        };
        json!({
            "identifier": identifier, "uid": uid, "tags": [],
            "exportToToc": false, "allowOutOfBounds": false, "doc": null,
            "width": grid, "height": grid, "resizableX": true, "resizableY": true,
            "minWidth": null, "maxWidth": null, "minHeight": null, "maxHeight": null,
            "keepAspectRatio": false, "tileOpacity": 1.0, "fillOpacity": 0.5,
            "lineOpacity": 1.0, "hollow": false, "color": colour, "renderMode": "Rectangle",
            "showName": false, "tilesetId": null, "tileRenderMode": "FitInside",
            "tileRect": null, "uiTileRect": null, "nineSliceBorders": [], "maxCount": 0,
            "limitScope": "PerLevel", "limitBehavior": "MoveLastOne", "pivotX": 0.0,
            "pivotY": 0.0, "fieldDefs": defs,
        })
    })
    .collect()
}

/// The LDtk entity instances of `table` on a grid of `grid` pixels; iids from `iid(k)`.
pub fn ldtk_entities(
    (table, data): (&DoorTable, &MapData),
    grid: i64,
    iid: impl Fn(u64) -> String,
) -> Vec<Value> {
    objects(table, data)
        .into_iter()
        .enumerate()
        .map(|(k, (kind, _, r, properties))| {
            let (entity, identifier) = if kind == "door" {
                (0, "Door")
            } else {
                (1, "UnusedDoor")
            };
            let fields: Vec<Value> = properties
                .into_iter()
                .map(|(name, value)| field_instance(entity, name, value))
                .collect();
            json!({
                "__identifier": identifier, "__grid": [r[0], r[1]], "__pivot": [0.0, 0.0],
                "__tags": [], "__tile": null, "__smartColor": if entity == 0 { "#E8C170" } else { "#8A5A44" },
                "__worldX": r[0] * grid, "__worldY": r[1] * grid, "iid": iid(k as u64),
                "width": (r[2] - r[0]) * grid, "height": (r[3] - r[1]) * grid,
                "defUid": LDTK_DOOR_UID + entity as u32, "px": [r[0] * grid, r[1] * grid],
                "fieldInstances": fields,
            })
        })
        .collect()
}

/// The colour of entity `Room`.
const ROOM_COLOUR: &str = "#6A8EAE";

/// The LDtk field instance of `name` (of entity `entity`) holding `value`.
fn field_instance(entity: usize, name: &str, value: Value) -> Value {
    let (ty, id) = if value.is_string() {
        ("String", "V_String")
    } else {
        ("Int", "V_Int")
    };
    json!({
        "__identifier": name, "__type": ty, "__value": value, "__tile": null,
        "defUid": field_uid(entity, name),
        "realEditorValues": [{"id": id, "params": [value]}],
    })
}

/// The LDtk `Room` entities of a map level: one per room of `rooms` (its box, walls
/// included), with its index, its owner value, its name (`names[i]`, the graph's id) and the
/// designer's data (`""` without); iids from `iid(k)`, on a grid of `grid` pixels.
pub fn ldtk_rooms(
    (rooms, names, data): (&RoomsView<'_>, &[String], &MapData),
    grid: i64,
    iid: impl Fn(u64) -> String,
) -> Vec<Value> {
    (0..rooms.x0.len())
        .filter(|&i| rooms.x1[i] > rooms.x0[i] && rooms.y1[i] > rooms.y0[i])
        .map(|i| {
            let r = [rooms.x0[i], rooms.y0[i], rooms.x1[i], rooms.y1[i]].map(i64::from);
            let name = names.get(i).cloned().unwrap_or_else(|| format!("room {i}"));
            let fields = vec![
                field_instance(2, "room", json!(i)),
                field_instance(2, "owner", json!(i + 1)),
                field_instance(2, "name", json!(name)),
                field_instance(2, "data", json!(data.room(i).unwrap_or(""))),
            ];
            json!({
                "__identifier": "Room", "__grid": [r[0], r[1]], "__pivot": [0.0, 0.0],
                "__tags": [], "__tile": null, "__smartColor": ROOM_COLOUR,
                "__worldX": r[0] * grid, "__worldY": r[1] * grid, "iid": iid(i as u64),
                "width": (r[2] - r[0]) * grid, "height": (r[3] - r[1]) * grid,
                "defUid": LDTK_ROOMS_UID + 1, "px": [r[0] * grid, r[1] * grid],
                "fieldInstances": fields,
            })
        })
        .collect()
}
