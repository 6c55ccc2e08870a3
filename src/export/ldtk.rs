//! One level as an LDtk project (`.ldtk`, LDtk's JSON project format, 1.5): one world, one
//! level, one IntGrid layer `Cells` whose values are the legend's cell codes plus one (LDtk
//! keeps 0 for an empty cell, which is where the level's void cells go), each named and coloured
//! as `warren render` draws it. Identifiers and iids are derived from the level's seed, so the
//! same level always gives the same file.
//!
//! A level with an owner grid (`map` levels, [`Owners`]) also gets an IntGrid layer `Owner`
//! above `Cells` (LDtk lists layers top first, so it comes first; shown half transparent): its
//! values are the owner values themselves (`1 + i` room `i`'s floor, `1 + rooms + j` connection
//! `j`'s corridor, empty for walls, doors and void), and its definition declares every value the
//! level graph can give (rooms + connections, the same for every level of a `map` archive),
//! named `room_<i>` and `corridor_<j>`, in the colours of the Tiled owner tileset. LDtk puts no
//! limit on the number of IntGrid values, so even large graphs fit one layer. Its door table
//! becomes an Entities layer `Doors` on top ([`super::doors`]).

use serde_json::{Value, json};

use super::doors::{
    LDTK_LAYER_UID, LDTK_NEXT_UID, LDTK_ROOMS_UID, MapData, ldtk_entities, ldtk_entity_defs,
    ldtk_rooms,
};
use super::owners::{Owners, owner_colour};
use crate::core::generator::RoomsView;
use crate::core::grid::{GridView, cell};
use crate::floorplan::doors::DoorTable;
use crate::render::cell_colour;

/// Pixels per grid cell.
pub const GRID: u32 = 16;

/// LDtk's file format version written.
pub const JSON_VERSION: &str = "1.5.3";

/// A UUID-shaped iid derived from `seed` and `salt` (LDtk wants one per project, world, level
/// and layer instance).
fn iid(seed: u64, salt: u64) -> String {
    let a = crate::core::rng::mix(seed, salt);
    let b = crate::core::rng::mix(a, salt);
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        b >> 52,
        b & 0xffff_ffff_ffff
    )
}

/// `#rrggbb` of a cell code.
fn hex(code: u8) -> String {
    let [r, g, b, _] = cell_colour(code).0;
    format!("#{r:02X}{g:02X}{b:02X}")
}

/// The LDtk IntGrid value of cell code `code` (0, empty, for void).
pub fn int_value(code: u8) -> u32 {
    if code == cell::VOID {
        0
    } else {
        u32::from(code) + 1
    }
}

/// The layer definition: one IntGrid value per non-void cell code.
fn layer_def() -> Value {
    let values: Vec<Value> = (0..cell::COUNT)
        .filter(|&c| c != cell::VOID)
        .map(|c| {
            json!({
                "value": int_value(c),
                "identifier": cell::NAMES[usize::from(c)],
                "color": hex(c),
                "tile": null,
                "groupUid": 0,
            })
        })
        .collect();
    json!({
        "__type": "IntGrid", "type": "IntGrid", "identifier": "Cells", "uid": 1,
        "doc": "warren cell codes: value = code + 1, empty = void",
        "uiColor": null, "gridSize": GRID, "guideGridWid": 0, "guideGridHei": 0,
        "displayOpacity": 1.0, "inactiveOpacity": 1.0, "hideInList": false,
        "hideFieldsWhenInactive": false, "canSelectWhenInactive": true,
        "renderInWorldView": true, "pxOffsetX": 0, "pxOffsetY": 0,
        "parallaxFactorX": 0.0, "parallaxFactorY": 0.0, "parallaxScaling": true,
        "requiredTags": [], "excludedTags": [], "autoTilesKilledByOtherLayerUid": null,
        "uiFilterTags": [], "useAsyncRender": false, "intGridValues": values,
        "intGridValuesGroups": [], "autoRuleGroups": [], "autoSourceLayerDefUid": null,
        "tilesetDefUid": null, "tilePivotX": 0.0, "tilePivotY": 0.0, "biomeFieldUid": null,
    })
}

/// The `Owner` layer definition (uid 3): one IntGrid value per owner value.
fn owner_layer_def(owners: &Owners<'_>) -> Value {
    let values: Vec<Value> = (1..=owners.count())
        .map(|v| {
            let identifier = if owners.is_room(v) {
                format!("room_{}", v - 1)
            } else {
                format!("corridor_{}", v - 1 - owners.rooms)
            };
            json!({
                "value": v,
                "identifier": identifier,
                "color": super::owners::hex(owner_colour(v, owners.rooms)),
                "tile": null,
                "groupUid": 0,
            })
        })
        .collect();
    let mut def = layer_def();
    let fields = [
        ("identifier", json!("Owner")),
        ("uid", json!(3)),
        (
            "doc",
            json!("warren owner grid: 1 + i room i's floor, 1 + rooms + j connection j's corridor"),
        ),
        ("displayOpacity", json!(0.5)),
        ("intGridValues", json!(values)),
    ];
    for (key, value) in fields {
        def[key] = value;
    }
    def
}

/// What names the level in the project.
pub struct ProjectInfo<'a> {
    /// The level's index in its run.
    pub index: u64,
    /// Its seed.
    pub seed: u64,
    /// The generator kind.
    pub generator: &'a str,
    /// The level's owner grid, for levels that have one.
    pub owners: Option<&'a Owners<'a>>,
    /// The level's door table, for levels that have one.
    pub doors: Option<&'a DoorTable>,
    /// The designer's data of the rooms and connections (empty for levels without it).
    pub data: &'a MapData,
    /// The level's rooms, written as `Room` entities with a door table (`map` levels).
    pub rooms: Option<RoomsView<'a>>,
}

/// The instance of IntGrid layer `identifier` (definition `def_uid`) of a `w` x `h` level,
/// holding `csv`.
fn layer_instance(
    (identifier, def_uid, opacity): (&str, u32, f64),
    (w, h): (u32, u32),
    csv: Value,
    seed: u64,
) -> Value {
    json!({
        "__identifier": identifier, "__type": "IntGrid", "__cWid": w, "__cHei": h,
        "__gridSize": GRID, "__opacity": opacity, "__pxTotalOffsetX": 0, "__pxTotalOffsetY": 0,
        "__tilesetDefUid": null, "__tilesetRelPath": null, "iid": iid(seed, 3 + u64::from(def_uid)),
        "levelId": 2, "layerDefUid": def_uid, "pxOffsetX": 0, "pxOffsetY": 0, "visible": true,
        "optionalRules": [], "intGridCsv": csv, "autoLayerTiles": [], "seed": seed % 10_000_000,
        "overrideTilesetUid": null, "gridTiles": [], "entityInstances": [],
    })
}

/// `grid` as an LDtk project holding one level (with an `Owner` layer when `info` has owners).
pub fn project(grid: &GridView<'_>, info: &ProjectInfo<'_>) -> Value {
    let (w, h) = (grid.width, grid.height);
    let csv: Vec<u32> = grid.cells.iter().map(|&c| int_value(c)).collect();
    let seed = info.seed;
    let cells = layer_instance(("Cells", 1, 1.0), (w, h), json!(csv), seed);
    // LDtk lists layers top first: the owners tint the cells from above.
    let (layers, layer_defs, next_uid) = match info.owners {
        Some(owners) => {
            let owner = layer_instance(("Owner", 3, 0.5), (w, h), json!(owners.grid), seed);
            (
                vec![owner, cells],
                vec![owner_layer_def(owners), layer_def()],
                4,
            )
        }
        None => (vec![cells], vec![layer_def()], 3),
    };
    let (mut layers, mut layer_defs, mut next_uid) = (layers, layer_defs, next_uid);
    let mut entity_defs = Vec::new();
    if let Some(doors) = info.doors {
        // Above the grids: the doors and blockers are what an editor places things on.
        let grid = i64::from(GRID);
        let entities = ldtk_entities((doors, info.data), grid, |k| iid(seed, 1000 + k));
        let (layer, def) = entities_layer(
            ("Doors", LDTK_LAYER_UID),
            "warren door table: every door, and the unused door runs",
            entities,
            ((w, h), seed),
        );
        layers.insert(0, layer);
        layer_defs.insert(0, def);
        entity_defs = ldtk_entity_defs(GRID);
        next_uid = LDTK_NEXT_UID;
        if let Some(rooms) = &info.rooms {
            let (layer, def) = rooms_layer(rooms, info, (w, h));
            layers.insert(0, layer);
            layer_defs.insert(0, def);
        }
    }
    let level = json!({
        "identifier": format!("{}_{}", capitalised(info.generator), info.index),
        "iid": iid(seed, 3), "uid": 2, "worldX": 0, "worldY": 0, "worldDepth": 0,
        "pxWid": w * GRID, "pxHei": h * GRID, "__bgColor": "#40465B", "bgColor": null,
        "useAutoIdentifier": false, "bgRelPath": null, "bgPos": null, "bgPivotX": 0.5,
        "bgPivotY": 0.5, "__smartColor": "#ADADB5", "__bgPos": null, "externalRelPath": null,
        "fieldInstances": [], "layerInstances": layers, "__neighbours": [],
    });
    // Built in parts: one `json!` of every field would pass the macro's recursion limit.
    let mut root = json!({
        "__header__": {
            "fileType": "LDtk Project JSON", "app": "LDtk", "doc": "https://ldtk.io/json",
            "schema": "https://ldtk.io/files/JSON_SCHEMA.json", "appAuthor": "warren",
            "appVersion": JSON_VERSION, "url": "https://ldtk.io",
        },
        "iid": iid(seed, 1), "jsonVersion": JSON_VERSION, "appBuildId": 473_703.0,
        "nextUid": next_uid, "identifierStyle": "Capitalize", "toc": [],
        "worldLayout": "Free", "worldGridWidth": w * GRID, "worldGridHeight": h * GRID,
        "defaultLevelWidth": w * GRID, "defaultLevelHeight": h * GRID,
        "defaultPivotX": 0.0, "defaultPivotY": 0.0, "defaultGridSize": GRID,
        "defaultEntityWidth": GRID, "defaultEntityHeight": GRID,
    });
    let rest = json!({
        "bgColor": "#40465B", "defaultLevelBgColor": "#696A79", "minifyJson": false,
        "externalLevels": false, "exportTiled": false, "simplifiedExport": false,
        "imageExportMode": "None", "exportLevelBg": true, "pngFilePattern": null,
        "backupOnSave": false, "backupLimit": 10, "backupRelPath": null,
        "levelNamePattern": "Level_%idx", "tutorialDesc": null, "customCommands": [],
        "flags": [], "dummyWorldIid": iid(seed, 2), "worlds": [],
        "defs": {
            "layers": layer_defs, "entities": entity_defs, "tilesets": [], "enums": [],
            "externalEnums": [], "levelFields": [],
        },
        "levels": [level],
    });
    if let (Some(root), Value::Object(rest)) = (root.as_object_mut(), rest) {
        root.extend(rest);
    }
    root
}

/// The Entities layer `Rooms` of a `w` x `h` level (its instance and definition): a `Room`
/// entity per room, named by the owner grid's names.
fn rooms_layer(
    rooms: &RoomsView<'_>,
    info: &ProjectInfo<'_>,
    (w, h): (u32, u32),
) -> (Value, Value) {
    let seed = info.seed;
    let names = info.owners.map_or(&[][..], |o| &o.names[..]);
    let entities = ldtk_rooms((rooms, names, info.data), i64::from(GRID), |k| {
        iid(seed, 100_000 + k)
    });
    entities_layer(
        ("Rooms", LDTK_ROOMS_UID),
        "warren rooms: each room's box, index, owner value, id and data",
        entities,
        ((w, h), seed),
    )
}

/// An Entities layer `identifier` (definition `uid`) of a `w` x `h` level holding `entities`:
/// its instance and its definition.
fn entities_layer(
    (identifier, uid): (&str, u32),
    doc: &str,
    entities: Vec<Value>,
    ((w, h), seed): ((u32, u32), u64),
) -> (Value, Value) {
    let mut instance = layer_instance((identifier, uid, 1.0), (w, h), json!([]), seed);
    instance["__type"] = json!("Entities");
    instance["entityInstances"] = json!(entities);
    let mut def = layer_def();
    for (key, value) in [
        ("__type", json!("Entities")),
        ("type", json!("Entities")),
        ("identifier", json!(identifier)),
        ("uid", json!(uid)),
        ("doc", json!(doc)),
        ("intGridValues", json!([])),
    ] {
        def[key] = value;
    }
    (instance, def)
}

/// `maze` as `Maze` (LDtk's default identifier style capitalises).
fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_become_intgrid_values_and_void_is_empty() {
        let cells = [0, 1, 8, 4];
        let grid = GridView {
            width: 2,
            height: 2,
            cells: &cells,
        };
        let p = project(
            &grid,
            &ProjectInfo {
                index: 5,
                seed: 11,
                generator: "dmg",
                owners: None,
                doors: None,
                data: &MapData::default(),
                rooms: None,
            },
        );
        let layer = &p["levels"][0]["layerInstances"][0];
        assert_eq!(layer["intGridCsv"], json!([1, 2, 0, 5]));
        assert_eq!(p["levels"][0]["identifier"], json!("Dmg_5"));
        let values = p["defs"]["layers"][0]["intGridValues"].as_array().unwrap();
        assert_eq!(values.len(), 8);
        assert_eq!(values[0]["identifier"], json!("wall"));
        // iids are UUID-shaped and stable.
        let id = p["iid"].as_str().unwrap();
        assert_eq!(id.len(), 36);
        assert_eq!(id, iid(11, 1));
    }
}
