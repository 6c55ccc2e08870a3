//! One level as a Tiled map (`.tmj`, Tiled's JSON map format, orthogonal, finite): a tile layer
//! `cells` (one tile per grid cell; tile id = cell code, gid = code + 1), a tileset embedded in
//! the map whose image (written beside the map) is one 16 x 16 swatch per cell code in the
//! colours `warren render` uses, and an object layer `objects` with the level's rooms (where the
//! kind stores room rectangles, typed by their vertex tag) and one object per door, secret door
//! and stair cell. Map properties name the level (`warren_index`, `warren_seed`,
//! `warren_generator`).

use serde_json::{Value, json};

use crate::core::generator::Level;
use crate::core::grid::cell;
use crate::render::cell_colour;

/// Pixels per tile side.
pub const TILE: u32 = 16;

/// The tileset image: one swatch per cell code, left to right, void transparent.
///
/// # Errors
/// PNG encoding failed.
pub fn tileset_png() -> Result<Vec<u8>, String> {
    let count = u32::from(cell::COUNT);
    let mut pixmap = tiny_skia::Pixmap::new(TILE * count, TILE).ok_or("tileset size")?;
    for code in 0..cell::COUNT {
        let [r, g, b, a] = cell_colour(code).0;
        let colour = tiny_skia::ColorU8::from_rgba(r, g, b, a).premultiply();
        for y in 0..TILE {
            for x in 0..TILE {
                let at = (y * TILE * count + u32::from(code) * TILE + x) as usize;
                pixmap.pixels_mut()[at] = colour;
            }
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

/// The objects of `level`: its rooms, then its door and stair cells.
fn objects(level: &Level<'_>, tags: &[String]) -> Vec<Value> {
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
            out.push(object(&mut id, format!("room {i}"), &kind, rect));
        }
    }
    if let Some(grid) = &level.grid {
        let w = grid.width as usize;
        for (at, &code) in grid.cells.iter().enumerate() {
            if matches!(
                code,
                cell::DOOR | cell::SECRET_DOOR | cell::STAIRS_UP | cell::STAIRS_DOWN
            ) {
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
    out
}

/// `level` as a Tiled JSON map.
///
/// # Panics
/// Never for a level with a grid; a level without one has nothing to draw (callers check).
pub fn map(level: &Level<'_>, info: &MapInfo<'_>) -> Value {
    let grid = level.grid.expect("a level with a grid");
    let (w, h) = (grid.width, grid.height);
    let data: Vec<u32> = grid.cells.iter().map(|&c| u32::from(c) + 1).collect();
    let objects = objects(level, info.tags);
    let count = u32::from(cell::COUNT);
    let tiles: Vec<Value> = (0..cell::COUNT)
        .map(|c| json!({"id": c, "type": cell::NAMES[usize::from(c)]}))
        .collect();
    json!({
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
    })
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
