//! One level as a Tiled map (`.tmj`, Tiled's JSON map format, orthogonal, finite): a tile layer
//! `cells` (one tile per grid cell; tile id = cell code, gid = code + 1), a tileset embedded in
//! the map whose image (written beside the map) is one 16 x 16 swatch per cell code in the
//! colours `warren render` uses, and an object layer `objects` with the level's rooms (where the
//! kind stores room rectangles, typed by their vertex tag) and one object per door, secret door
//! and stair cell. Map properties name the level (`warren_index`, `warren_seed`,
//! `warren_generator`).
//!
//! A level with an owner grid (`map` levels, [`Owners`]) also gets a tile layer `owner` between
//! the two, drawn half transparent over the cells: owner value `v` is tile `v - 1` of a second
//! embedded tileset `warren owners` (gid `OWNER_FIRSTGID + v - 1`; gid 0, no tile, for walls,
//! doors and void), whose tiles are typed `room` or `corridor`, carry `owner` and `name`
//! properties, and whose image (also beside the map) is one swatch per value. Its rooms are
//! named by their ids in the level graph and carry their `owner` value. Its doors come from the
//! level's door table ([`super::doors`]): one object per door, covering its tiles, and one per
//! unused door run.

use serde_json::{Value, json};

use super::doors::MapData;
use super::owners::{Owners, hex, owner_colour};
use crate::core::generator::Level;
use crate::core::grid::cell;
use crate::floorplan::doors::DoorTable;
use crate::render::{Rgba, cell_colour};

/// Pixels per tile side.
pub const TILE: u32 = 16;

/// The first gid of the owner tileset (the cell tileset's gids come before it).
pub const OWNER_FIRSTGID: u32 = cell::COUNT as u32 + 1;

/// Most swatches in one row of the owner tileset image.
const OWNER_COLUMNS: u32 = 32;

/// The tileset image: one swatch per cell code, left to right, void transparent.
///
/// # Errors
/// PNG encoding failed.
pub fn tileset_png() -> Result<Vec<u8>, String> {
    let colours: Vec<Rgba> = (0..cell::COUNT).map(cell_colour).collect();
    swatches_png(&colours, u32::from(cell::COUNT))
}

/// The owner tileset image: one swatch per owner value, `owner_columns` to a row.
///
/// # Errors
/// PNG encoding failed.
pub fn owner_tileset_png(owners: &Owners<'_>) -> Result<Vec<u8>, String> {
    let colours: Vec<Rgba> = (1..=owners.count())
        .map(|v| owner_colour(v, owners.rooms))
        .collect();
    swatches_png(&colours, owner_columns(owners))
}

/// Swatches per row of the owner tileset image.
fn owner_columns(owners: &Owners<'_>) -> u32 {
    owners.count().clamp(1, OWNER_COLUMNS)
}

/// An image of `TILE`-pixel swatches of `colours`, `columns` to a row, left to right then top
/// to bottom.
fn swatches_png(colours: &[Rgba], columns: u32) -> Result<Vec<u8>, String> {
    let rows = (colours.len() as u32).div_ceil(columns).max(1);
    let mut pixmap = tiny_skia::Pixmap::new(TILE * columns, TILE * rows).ok_or("tileset size")?;
    let stride = TILE * columns;
    for (i, colour) in colours.iter().enumerate() {
        let [r, g, b, a] = colour.0;
        let colour = tiny_skia::ColorU8::from_rgba(r, g, b, a).premultiply();
        let (left, top) = ((i as u32 % columns) * TILE, (i as u32 / columns) * TILE);
        for y in top..top + TILE {
            let row = (y * stride + left) as usize;
            pixmap.pixels_mut()[row..row + TILE as usize].fill(colour);
        }
    }
    pixmap.encode_png().map_err(|e| e.to_string())
}

/// What names a level in the map.
pub struct MapInfo<'a> {
    /// The level's index in its run.
    pub index: u64,
    /// Its seed.
    pub seed: u64,
    /// The generator kind.
    pub generator: &'a str,
    /// Vertex tag names by id (to type the rooms).
    pub tags: &'a [String],
    /// The tileset image's file name, relative to the map.
    pub image: &'a str,
    /// The owner grid and the owner tileset image's file name, for levels that have one.
    pub owners: Option<(&'a Owners<'a>, &'a str)>,
    /// The door table, for levels that have one: its doors replace the door cells' objects.
    pub doors: Option<&'a DoorTable>,
    /// The designer's data of the rooms and connections (empty for levels without it).
    pub data: &'a MapData,
}

/// One Tiled object: a rectangle in tile units, typed.
fn object(id: &mut u32, name: String, kind: &str, rect: [i64; 4]) -> Value {
    *id += 1;
    let t = i64::from(TILE);
    json!({
        "id": *id,
        "name": name,
        "type": kind,
        "x": rect[0] * t,
        "y": rect[1] * t,
        "width": (rect[2] - rect[0]) * t,
        "height": (rect[3] - rect[1]) * t,
        "rotation": 0,
        "visible": true,
    })
}

/// The objects of `level`: its rooms (named by `owners` when given, and carrying their owner
/// value), then its door and stair cells, or with a door table `doors` its stair cells, doors
/// and unused door runs.
fn objects(
    level: &Level<'_>,
    tags: &[String],
    owners: Option<&Owners<'_>>,
    (doors, data): (Option<&DoorTable>, &MapData),
) -> Vec<Value> {
    let mut id = 0;
    let mut out = Vec::new();
    if let Some(rooms) = &level.rooms {
        let tag_of = |i: usize| {
            let tag = level.graph.and_then(|g| g.tag.get(i).copied())?;
            tags.get(usize::from(tag)).cloned()
        };
        for i in 0..rooms.x0.len() {
            let rect = [rooms.x0[i], rooms.y0[i], rooms.x1[i], rooms.y1[i]].map(i64::from);
            if rect[2] <= rect[0] || rect[3] <= rect[1] {
                continue;
            }
            let kind = tag_of(i).unwrap_or_else(|| "room".to_string());
            let owned = owners.and_then(|o| o.names.get(i).filter(|_| o.is_room(i as u32 + 1)));
            let name = owned.cloned().unwrap_or_else(|| format!("room {i}"));
            let mut room = object(&mut id, name, &kind, rect);
            if owned.is_some() {
                room["properties"] = json!([{"name": "owner", "type": "int", "value": i + 1}]);
            }
            // NOTE: `get_mut`, not indexing: indexing a missing key would insert a null.
            let list = room.get_mut("properties").and_then(Value::as_array_mut);
            if let (Some(text), Some(list)) = (data.room(i), list) {
                list.push(json!({"name": "data", "type": "string", "value": text}));
            }
            out.push(room);
        }
    }
    if let Some(grid) = &level.grid {
        let w = grid.width as usize;
        for (at, &code) in grid.cells.iter().enumerate() {
            let door_cell = code == cell::DOOR && doors.is_none();
            if door_cell
                || matches!(
                    code,
                    cell::SECRET_DOOR | cell::STAIRS_UP | cell::STAIRS_DOWN
                )
            {
                let (x, y) = ((at % w) as i64, (at / w) as i64);
                let kind = cell::NAMES[usize::from(code)];
                out.push(object(
                    &mut id,
                    kind.to_string(),
                    kind,
                    [x, y, x + 1, y + 1],
                ));
            }
        }
    }
    if let Some(doors) = doors {
        out.extend(super::doors::tiled_objects(
            doors,
            data,
            &mut id,
            i64::from(TILE),
        ));
    }
    out
}

/// The owner tile layer (id 3) of a `w` x `h` map: gid `OWNER_FIRSTGID + v - 1` for owner
/// value `v`, 0 for none.
fn owner_layer(owners: &Owners<'_>, w: u32, h: u32) -> Value {
    let data: Vec<u32> = owners
        .grid
        .iter()
        .map(|&v| match v {
            0 => 0,
            v => OWNER_FIRSTGID + u32::from(v) - 1,
        })
        .collect();
    json!({
        "id": 3,
        "name": "owner",
        "type": "tilelayer",
        "x": 0,
        "y": 0,
        "width": w,
        "height": h,
        "opacity": 0.5,
        "visible": true,
        "data": data,
    })
}

/// The owner tileset: tile `v - 1` stands for owner value `v`, typed `room` or `corridor`.
fn owner_tileset(owners: &Owners<'_>, image: &str) -> Value {
    let (count, columns) = (owners.count(), owner_columns(owners));
    let tiles: Vec<Value> = (1..=count)
        .map(|v| {
            let kind = if owners.is_room(v) { "room" } else { "corridor" };
            json!({
                "id": v - 1,
                "type": kind,
                "properties": [
                    {"name": "name", "type": "string", "value": owners.names[(v - 1) as usize]},
                    {"name": "owner", "type": "int", "value": v},
                    {"name": "colour", "type": "color", "value": hex(owner_colour(v, owners.rooms))},
                ],
            })
        })
        .collect();
    json!({
        "firstgid": OWNER_FIRSTGID,
        "name": "warren owners",
        "tilewidth": TILE,
        "tileheight": TILE,
        "tilecount": count,
        "columns": columns,
        "margin": 0,
        "spacing": 0,
        "image": image,
        "imagewidth": TILE * columns,
        "imageheight": TILE * count.div_ceil(columns).max(1),
        "tiles": tiles,
    })
}

/// `level` as a Tiled JSON map.
///
/// # Panics
/// Never for a level with a grid; a level without one has nothing to draw (callers check).
pub fn map(level: &Level<'_>, info: &MapInfo<'_>) -> Value {
    let grid = level.grid.expect("a level with a grid");
    let (w, h) = (grid.width, grid.height);
    let data: Vec<u32> = grid.cells.iter().map(|&c| u32::from(c) + 1).collect();
    let owners = info.owners.map(|(o, _)| o);
    let objects = objects(level, info.tags, owners, (info.doors, info.data));
    let count = u32::from(cell::COUNT);
    let tiles: Vec<Value> = (0..cell::COUNT)
        .map(|c| json!({"id": c, "type": cell::NAMES[usize::from(c)]}))
        .collect();
    let mut map = json!({
        "type": "map",
        "version": "1.10",
        "tiledversion": "1.10.2",
        "orientation": "orthogonal",
        "renderorder": "right-down",
        "infinite": false,
        "compressionlevel": -1,
        "width": w,
        "height": h,
        "tilewidth": TILE,
        "tileheight": TILE,
        "nextlayerid": 3,
        "nextobjectid": objects.len() + 1,
        "properties": [
            {"name": "warren_generator", "type": "string", "value": info.generator},
            {"name": "warren_index", "type": "int", "value": info.index},
            {"name": "warren_seed", "type": "string", "value": info.seed.to_string()},
        ],
        "tilesets": [{
            "firstgid": 1,
            "name": "warren cells",
            "tilewidth": TILE,
            "tileheight": TILE,
            "tilecount": count,
            "columns": count,
            "margin": 0,
            "spacing": 0,
            "image": info.image,
            "imagewidth": TILE * count,
            "imageheight": TILE,
            "tiles": tiles,
        }],
        "layers": [
            {
                "id": 1,
                "name": "cells",
                "type": "tilelayer",
                "x": 0,
                "y": 0,
                "width": w,
                "height": h,
                "opacity": 1,
                "visible": true,
                "data": data,
            },
            {
                "id": 2,
                "name": "objects",
                "type": "objectgroup",
                "draworder": "topdown",
                "x": 0,
                "y": 0,
                "opacity": 1,
                "visible": true,
                "objects": objects,
            },
        ],
    });
    if let Some((owners, image)) = info.owners {
        // NOTE: the owner layer goes between the cells and the objects (Tiled draws layers in
        // order), so it tints the floors and the room outlines stay on top.
        map["nextlayerid"] = json!(4);
        if let Some(layers) = map["layers"].as_array_mut() {
            layers.insert(1, owner_layer(owners, w, h));
        }
        if let Some(sets) = map["tilesets"].as_array_mut() {
            sets.push(owner_tileset(owners, image));
        }
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::grid::GridView;

    #[test]
    fn cells_become_gids_and_doors_become_objects() {
        let cells = [0, 1, 2, 1, 4, 0];
        let level = Level {
            grid: Some(GridView {
                width: 3,
                height: 2,
                cells: &cells,
            }),
            ..Level::default()
        };
        let info = MapInfo {
            index: 7,
            seed: 9,
            generator: "maze",
            tags: &[],
            image: "x.png",
            owners: None,
            doors: None,
            data: &MapData::default(),
        };
        let m = map(&level, &info);
        assert_eq!(m["layers"][0]["data"], json!([1, 2, 3, 2, 5, 1]));
        let objects = m["layers"][1]["objects"].as_array().unwrap();
        let kinds: Vec<&str> = objects
            .iter()
            .map(|o| o["type"].as_str().unwrap())
            .collect();
        assert_eq!(kinds, ["door", "stairs_up"]);
        assert_eq!(
            (objects[0]["x"].clone(), objects[1]["y"].clone()),
            (json!(32), json!(16))
        );
        assert_eq!(m["nextobjectid"], json!(3));
        let png = tileset_png().unwrap();
        assert_eq!(&png[1..4], b"PNG");
    }
}
