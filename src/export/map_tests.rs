//! Exports of `map` levels: the Tiled map and the LDtk project carry the owner grid as a layer of
//! its own, equal tile for tile to the archive's `owner` column, with the room tiles the
//! `room_tiles` metric counts, every value declared, and rooms named by their graph ids; other
//! kinds' exports keep their one tile layer, one tileset and one IntGrid layer.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{UInt8Type, UInt16Type, UInt32Type};
use serde_json::Value;

use super::doors::FACINGS;
use super::tiled::OWNER_FIRSTGID;
use super::{write_ldtk, write_tiled};
use crate::archive::{Archive, ArchiveWriter, RunMeta, level_schema};
use crate::batch::{self, BatchOptions};
use crate::core::generator::Generator;
use crate::floorplan::doors::DoorTable;
use crate::profile::{GeneratorTask, Profile};

/// A fresh folder for one test.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("warren-export-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes a run of `count` levels of the generator it is handed to `out`, as `warren generate`
/// does (the profile and the files it read stored with the levels).
struct WriteRun<'a> {
    profile: &'a Profile,
    out: &'a Path,
    count: u64,
}

impl GeneratorTask for WriteRun<'_> {
    type Output = ();

    fn run<G: Generator>(self, generator: &G) {
        let metadata = RunMeta::new(generator, &self.profile.to_toml(), 0)
            .with_files(crate::core::files::last_built())
            .to_metadata();
        let schema = Arc::new(level_schema(&generator.columns(), metadata));
        let writer = ArchiveWriter::create(self.out, &schema).unwrap();
        let opts = BatchOptions {
            count: self.count,
            seed: 0,
            threads: 1,
            shard: Default::default(),
            start: 0,
            chunk_size: 64,
            progress: false,
            selection: None,
            resume: None,
            kept: Vec::new(),
        };
        batch::run(generator, schema, &opts, writer, Vec::new()).unwrap();
    }
}

/// An archive of `count` levels of `kind` with the profile overrides `sets`, at `dir/kind.arrow`.
fn archive(dir: &Path, kind: &str, sets: &[&str], count: u64) -> PathBuf {
    let mut profile = Profile::builtin(kind).unwrap();
    for set in sets {
        profile.set(set).unwrap();
    }
    let out = dir.join(format!("{kind}.arrow"));
    let task = WriteRun {
        profile: &profile,
        out: &out,
        count,
    };
    profile.with_generator(task).unwrap();
    out
}

/// Level `index`'s owner column and its `rooms`, `room_tiles` and `corridor_tiles` metrics,
/// read straight from the archive's record batches.
fn stored_owner(path: &Path, index: usize) -> (Vec<u16>, [u32; 3]) {
    let archive = Archive::open(path).unwrap();
    let batch = archive.batch(0).unwrap();
    let owner = batch.column_by_name("owner").unwrap().as_list::<i32>();
    let owner = owner
        .value(index)
        .as_primitive::<UInt16Type>()
        .values()
        .to_vec();
    let metric = |name: &str| {
        let column = batch.column_by_name(name).unwrap();
        column.as_primitive::<UInt32Type>().value(index)
    };
    let metrics = [
        metric("rooms"),
        metric("room_tiles"),
        metric("corridor_tiles"),
    ];
    (owner, metrics)
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// The layer named `name` among `layers` (Tiled `name`, LDtk `__identifier`).
fn layer<'a>(layers: &'a Value, key: &str, name: &str) -> &'a Value {
    let layers = layers.as_array().unwrap();
    layers
        .iter()
        .find(|l| l[key] == name)
        .unwrap_or_else(|| panic!("no layer {name}"))
}

fn numbers(value: &Value) -> Vec<u64> {
    let all = value.as_array().unwrap();
    all.iter().map(|v| v.as_u64().unwrap()).collect()
}

/// Tiles of room values (1..=rooms) and of corridor values (above) in `owner`.
fn room_and_corridor_tiles(owner: &[u64], rooms: u32) -> [u32; 2] {
    let rooms = u64::from(rooms);
    let count = |f: &dyn Fn(u64) -> bool| owner.iter().filter(|&&v| f(v)).count() as u32;
    [count(&|v| v >= 1 && v <= rooms), count(&|v| v > rooms)]
}

#[test]
fn tiled_maps_of_map_levels_have_the_owner_grid_as_a_tile_layer() {
    let dir = temp_dir("tiled-map");
    let path = archive(&dir, "map", &["map.corridors=routed"], 3);
    let out = dir.join("level.tmj");
    let images = write_tiled(&Archive::open(&path).unwrap(), 2, &out).unwrap();
    assert_eq!(
        images,
        [dir.join("level.tiles.png"), dir.join("level.owners.png")]
    );
    let m = read_json(&out);
    let (owner, [rooms, room_tiles, corridor_tiles]) = stored_owner(&path, 2);
    let names: Vec<&str> = m["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["cells", "owner", "objects"]);
    assert_eq!(m["nextlayerid"], 4);
    // Gids back to owner values: the archive's column, tile for tile.
    let data = numbers(&layer(&m["layers"], "name", "owner")["data"]);
    let firstgid = u64::from(OWNER_FIRSTGID);
    let values: Vec<u64> = data
        .iter()
        .map(|&g| if g == 0 { 0 } else { g - firstgid + 1 })
        .collect();
    let stored: Vec<u64> = owner.iter().map(|&v| u64::from(v)).collect();
    assert_eq!(values, stored);
    assert_eq!(
        room_and_corridor_tiles(&values, rooms),
        [room_tiles, corridor_tiles]
    );
    assert!(corridor_tiles > 0, "routed corridors own floor tiles");
    // Every room owns floor, and the owner tileset declares every room and connection.
    assert!((1..=u64::from(rooms)).all(|v| values.contains(&v)));
    let tileset = &m["tilesets"][1];
    assert_eq!(tileset["firstgid"], OWNER_FIRSTGID);
    let count = tileset["tilecount"].as_u64().unwrap();
    assert_eq!(count, 17 + 20, "edgar-fig8-17: 17 rooms, 20 connections");
    assert!(
        data.iter()
            .all(|&g| g == 0 || (firstgid..firstgid + count).contains(&g))
    );
    let tiles = tileset["tiles"].as_array().unwrap();
    assert_eq!(tiles[0]["type"], "room");
    assert_eq!(tiles[0]["properties"][0]["value"], "0");
    assert_eq!(tiles[36]["type"], "corridor");
    assert_eq!(tiles[36]["properties"][0]["value"], "15 - 16");
    let png = std::fs::read(dir.join("level.owners.png")).unwrap();
    let side = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    assert_eq!(
        (side(16), side(20)),
        (32 * 16, 2 * 16),
        "37 swatches, 32 to a row"
    );
    // Rooms are named by their ids in the level graph and carry their owner value.
    let objects = layer(&m["layers"], "name", "objects")["objects"]
        .as_array()
        .unwrap();
    assert_eq!(objects[3]["name"], "3");
    assert_eq!(objects[3]["properties"][0]["value"], 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ldtk_projects_of_map_levels_have_an_owner_intgrid_layer_declaring_every_value() {
    let dir = temp_dir("ldtk-map");
    let path = archive(&dir, "map", &["map.corridors=routed"], 2);
    let out = dir.join("level.ldtk");
    write_ldtk(&Archive::open(&path).unwrap(), 1, &out).unwrap();
    let p = read_json(&out);
    let (owner, [rooms, room_tiles, corridor_tiles]) = stored_owner(&path, 1);
    let instances = &p["levels"][0]["layerInstances"];
    let identifiers: Vec<&str> = instances
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["__identifier"].as_str().unwrap())
        .collect();
    assert_eq!(identifiers, ["Rooms", "Doors", "Owner", "Cells"]);
    let csv = numbers(&layer(instances, "__identifier", "Owner")["intGridCsv"]);
    let stored: Vec<u64> = owner.iter().map(|&v| u64::from(v)).collect();
    assert_eq!(csv, stored);
    assert_eq!(
        room_and_corridor_tiles(&csv, rooms),
        [room_tiles, corridor_tiles]
    );
    // The definition declares 1..=rooms + connections, so every value in the grid is declared.
    let def = layer(&p["defs"]["layers"], "identifier", "Owner");
    assert_eq!(
        def["uid"],
        layer(instances, "__identifier", "Owner")["layerDefUid"]
    );
    let declared: Vec<u64> = def["intGridValues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["value"].as_u64().unwrap())
        .collect();
    assert_eq!(declared, (1..=37).collect::<Vec<u64>>());
    assert!(csv.iter().all(|v| *v == 0 || declared.contains(v)));
    assert_eq!(def["intGridValues"][16]["identifier"], "room_16");
    assert_eq!(def["intGridValues"][17]["identifier"], "corridor_0");
    // Uids are unique and below `nextUid`.
    let mut uids: Vec<u64> = p["defs"]["layers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["uid"].as_u64().unwrap())
        .chain([p["levels"][0]["uid"].as_u64().unwrap()])
        .collect();
    uids.sort_unstable();
    uids.dedup();
    let entities = p["defs"]["entities"].as_array().unwrap();
    for entity in entities {
        uids.push(entity["uid"].as_u64().unwrap());
        let fields = entity["fieldDefs"].as_array().unwrap();
        uids.extend(fields.iter().map(|f| f["uid"].as_u64().unwrap()));
    }
    let all = uids.len();
    uids.sort_unstable();
    uids.dedup();
    assert_eq!((uids.len(), all), (5 + 3 + 12, 5 + 3 + 12));
    assert!(uids.iter().all(|&u| u < p["nextUid"].as_u64().unwrap()));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Level `index`'s door table, read straight from the archive's record batches.
fn stored_doors(path: &Path, index: usize) -> DoorTable {
    let archive = Archive::open(path).unwrap();
    let batch = archive.batch(0).unwrap();
    let list = |name: &str| {
        batch
            .column_by_name(name)
            .unwrap()
            .as_list::<i32>()
            .value(index)
    };
    let u16s = |name: &str| list(name).as_primitive::<UInt16Type>().values().to_vec();
    let u8s = |name: &str| list(name).as_primitive::<UInt8Type>().values().to_vec();
    DoorTable {
        connection: u16s("door_connection"),
        from: u16s("door_from"),
        to: u16s("door_to"),
        x: u16s("door_x"),
        y: u16s("door_y"),
        length: u16s("door_length"),
        facing: u8s("door_facing"),
        key: u16s("door_key"),
        unused_room: u16s("door_unused_room"),
        unused_x: u16s("door_unused_x"),
        unused_y: u16s("door_unused_y"),
        unused_length: u16s("door_unused_length"),
        unused_facing: u8s("door_unused_facing"),
    }
}

/// A door table rebuilt from door objects: `(type, [x0, y0, x1, y1) in tiles, property)` each,
/// `property(name)` giving an integer or a facing name.
fn table_of(objects: &[(String, [u64; 4], Value)]) -> DoorTable {
    let mut t = DoorTable::default();
    for (kind, [x0, y0, x1, y1], props) in objects {
        let facing = FACINGS
            .iter()
            .position(|&f| props["facing"] == f)
            .expect("a facing") as u8;
        let len = ((x1 - x0).max(y1 - y0)) as u16;
        // A door one tile long runs along its wall: across its facing.
        assert_eq!(facing.is_multiple_of(2), x1 - x0 == 1 && (y1 - y0 >= 1));
        let int = |name: &str| props[name].as_u64().unwrap() as u16;
        if kind == "door" {
            t.connection.push(int("connection"));
            t.from.push(int("from"));
            t.to.push(int("to"));
            t.x.push(*x0 as u16);
            t.y.push(*y0 as u16);
            t.length.push(len);
            t.facing.push(facing);
            t.key.push(int("key"));
        } else {
            assert_eq!(kind, "unused_door");
            t.unused_room.push(int("room"));
            t.unused_x.push(*x0 as u16);
            t.unused_y.push(*y0 as u16);
            t.unused_length.push(len);
            t.unused_facing.push(facing);
        }
    }
    t
}

#[test]
fn door_tables_round_trip_through_the_tiled_and_ldtk_json() {
    let dir = temp_dir("doors-map");
    let path = archive(&dir, "map", &["map.corridors=routed"], 3);
    let archive = Archive::open(&path).unwrap();
    let (tmj, ldtk) = (dir.join("level.tmj"), dir.join("level.ldtk"));
    write_tiled(&archive, 2, &tmj).unwrap();
    write_ldtk(&archive, 2, &ldtk).unwrap();
    let stored = stored_doors(&path, 2);
    assert!(stored.doors() > 20 && stored.unused() > 17, "{stored:?}");
    let tile = |v: &Value| v.as_u64().unwrap() / 16;
    // Tiled: objects typed `door` and `unused_door`, their properties a list of name and value.
    let m = read_json(&tmj);
    let objects = layer(&m["layers"], "name", "objects")["objects"]
        .as_array()
        .unwrap();
    let doors: Vec<(String, [u64; 4], Value)> = objects
        .iter()
        .filter(|o| o["type"] == "door" || o["type"] == "unused_door")
        .map(|o| {
            let (x, y) = (tile(&o["x"]), tile(&o["y"]));
            let rect = [x, y, x + tile(&o["width"]), y + tile(&o["height"])];
            let mut props = serde_json::Map::new();
            for p in o["properties"].as_array().unwrap() {
                props.insert(p["name"].as_str().unwrap().into(), p["value"].clone());
            }
            (
                o["type"].as_str().unwrap().into(),
                rect,
                Value::Object(props),
            )
        })
        .collect();
    assert_eq!(table_of(&doors), stored, "Tiled");
    // No door cell is an object of its own beside them.
    assert_eq!(doors.len(), stored.doors() + stored.unused());
    // LDtk: entities `Door` and `UnusedDoor` of the `Doors` layer, their fields named.
    let p = read_json(&ldtk);
    let instances = &p["levels"][0]["layerInstances"];
    let entities = layer(instances, "__identifier", "Doors")["entityInstances"]
        .as_array()
        .unwrap();
    let doors: Vec<(String, [u64; 4], Value)> = entities
        .iter()
        .map(|e| {
            let (x, y) = (tile(&e["px"][0]), tile(&e["px"][1]));
            assert_eq!(
                [x, y],
                [
                    e["__grid"][0].as_u64().unwrap(),
                    e["__grid"][1].as_u64().unwrap()
                ]
            );
            let rect = [x, y, x + tile(&e["width"]), y + tile(&e["height"])];
            let mut props = serde_json::Map::new();
            for f in e["fieldInstances"].as_array().unwrap() {
                props.insert(
                    f["__identifier"].as_str().unwrap().into(),
                    f["__value"].clone(),
                );
            }
            let kind = if e["__identifier"] == "Door" {
                "door"
            } else {
                "unused_door"
            };
            (kind.to_string(), rect, Value::Object(props))
        })
        .collect();
    assert_eq!(table_of(&doors), stored, "LDtk");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn other_kinds_keep_one_tile_layer_one_tileset_and_one_intgrid_layer() {
    let dir = temp_dir("maze-unchanged");
    let path = archive(&dir, "maze", &["maze.width=6", "maze.height=5"], 2);
    let archive = Archive::open(&path).unwrap();
    let (tmj, ldtk) = (dir.join("maze.tmj"), dir.join("maze.ldtk"));
    let images = write_tiled(&archive, 1, &tmj).unwrap();
    assert_eq!(images, [dir.join("maze.tiles.png")]);
    write_ldtk(&archive, 1, &ldtk).unwrap();
    let m = read_json(&tmj);
    assert_eq!(m["layers"].as_array().unwrap().len(), 2);
    assert_eq!(m["tilesets"].as_array().unwrap().len(), 1);
    assert_eq!(m["nextlayerid"], 3);
    let p = read_json(&ldtk);
    assert_eq!(
        p["levels"][0]["layerInstances"].as_array().unwrap().len(),
        1
    );
    assert_eq!(p["defs"]["layers"][0]["identifier"], "Cells");
    assert_eq!(p["nextUid"], 3);
    assert!(!dir.join("maze.owners.png").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn grammar_levels_drawn_by_the_map_builder_export_their_owner_grid_too() {
    let dir = temp_dir("tiled-grammar-builder");
    let path = archive(
        &dir,
        "grammar",
        &[
            "grammar.rules=dungeon",
            "grammar.min_vertices=8",
            "grammar.max_vertices=24",
            "grammar.max_grid=[512, 512]",
            "grammar.corridors=templates",
            "grammar.templates=edgar-paper",
        ],
        3,
    );
    let archive = Archive::open(&path).unwrap();
    let batch = archive.batch(0).unwrap();
    let index = batch
        .column_by_name("index")
        .unwrap()
        .as_primitive::<arrow_array::types::UInt64Type>()
        .value(0);
    let out = dir.join("level.tmj");
    write_tiled(&archive, index, &out).unwrap();
    let m = read_json(&out);
    let data = numbers(&layer(&m["layers"], "name", "owner")["data"]);
    let firstgid = u64::from(OWNER_FIRSTGID);
    let values: Vec<u64> = data
        .iter()
        .map(|&g| if g == 0 { 0 } else { g - firstgid + 1 })
        .collect();
    let owner = batch.column_by_name("owner").unwrap().as_list::<i32>();
    let stored: Vec<u64> = owner
        .value(0)
        .as_primitive::<UInt16Type>()
        .values()
        .iter()
        .map(|&v| u64::from(v))
        .collect();
    assert_eq!(values, stored);
    // Room floors (vertices) and corridors (edges, above the vertices) both own tiles.
    let vertices = batch
        .column_by_name("vertices")
        .unwrap()
        .as_primitive::<UInt32Type>()
        .value(0);
    let [rooms, corridors] = room_and_corridor_tiles(&values, vertices);
    assert!(
        rooms > 0 && corridors > 0,
        "{rooms} room tiles, {corridors} corridor tiles"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
