//! `map::verify`'s checks of the door table and of the level graph's constraints can fail: a
//! generated level's table is corrupted, or a level of a graph without a constraint is checked
//! against the same graph with it.

use super::tests::{Map, fig1, generator};
use crate::map::{CorridorMode, MapConfig, MapGenerator};

#[test]
fn a_door_table_that_is_not_the_grids_is_found() {
    let g = fig1(CorridorMode::Routed);
    let (map, k) = Map::search(&g, |m| {
        (0..m.doors.doors()).find(|&k| usize::from(m.doors.from[k]) > m.vertex_x.len())
    });
    let mut moved = map.clone();
    moved.doors.y[k] += 1;
    assert!(
        moved
            .rejected(&g)
            .contains("is not the door the grid shows there")
    );
    let mut turned = map.clone();
    turned.doors.facing[k] ^= 2;
    assert!(
        turned
            .rejected(&g)
            .contains("is not the door the grid shows there")
    );
    let mut dropped = map.clone();
    for column in [&mut dropped.doors.connection, &mut dropped.doors.from] {
        column.remove(k);
    }
    for column in [&mut dropped.doors.to, &mut dropped.doors.x] {
        column.remove(k);
    }
    dropped.doors.y.remove(k);
    dropped.doors.key.remove(k);
    dropped.doors.length.remove(k);
    dropped.doors.facing.remove(k);
    assert!(dropped.rejected(&g).contains("is not in the door table"));
    let mut shorter = map.clone();
    shorter.doors.unused_length[0] -= 1;
    assert!(shorter.rejected(&g).contains("unused run 0 is"));
    let mut ragged = map;
    ragged.doors.unused_x.pop();
    assert!(ragged.rejected(&g).contains("door_unused_x holds"));
}

#[test]
fn a_broken_path_bound_and_a_wrong_door_key_are_found() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/map/examples/");
    let loose = generator("edgar-fig8-17", "edgar-paper", CorridorMode::None);
    let paths = generator(
        &format!("{dir}fig8-17-paths.json"),
        "edgar-paper",
        CorridorMode::None,
    );
    // The loose levels with the tags of the graph with constraints (the path bound's rooms).
    let tags = Map::generate(&paths, 0).vertex_tag;
    let (_, err) = Map::search(&loose, |map| {
        let mut tagged = map.clone();
        tagged.vertex_tag.clone_from(&tags);
        tagged.graph_name.clone_from(&paths.graphs[0].name);
        tagged
            .check(&paths)
            .err()
            .filter(|e| e.0.contains(" is broken"))
    });
    assert!(
        err.0
            .starts_with("min_path `start` - `boss` >= 55 is broken")
            || err
                .0
                .starts_with("max_path `start` - `boss` <= 69 is broken"),
        "{}",
        err.0
    );
    let locks = generator(
        &format!("{dir}fig8-17-locks.json"),
        "edgar-paper",
        CorridorMode::None,
    );
    let (map, k) = Map::search(&locks, |m| {
        (0..m.doors.doors()).find(|&k| m.doors.key[k] > 0)
    });
    let mut unlocked = map;
    unlocked.doors.key[k] = 0;
    assert!(
        unlocked
            .rejected(&locks)
            .contains(&format!("door {k} says key 0, connection 12's lock says 2")),
        "{}",
        unlocked.rejected(&locks)
    );
    for i in 0..3 {
        Map::generate(&paths, i);
    }
}

#[test]
fn data_that_is_not_the_graphs_is_found() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/map/examples/");
    let locks = generator(
        &format!("{dir}fig8-17-locks.json"),
        "edgar-paper",
        CorridorMode::None,
    );
    let map = Map::generate(&locks, 0);
    assert!(
        map.data[0].starts_with("[{\"spawn\":true},"),
        "{}",
        map.data[0]
    );
    let mut changed = map.clone();
    changed.data[0] = changed.data[0].replace("red key", "gold key");
    assert!(
        changed
            .rejected(&locks)
            .contains("room_data is not the level graph's data")
    );
    let mut dropped = map;
    dropped.data[1].clear();
    assert!(dropped.rejected(&locks).contains("connection_data is not"));
}

#[test]
fn a_level_named_for_another_graph_than_its_seed_picks_is_found() {
    let mixed = MapGenerator::new(MapConfig {
        graph: toml::from_str::<toml::Table>(
            "graph = [\"edgar-fig8-17\", { graph = \"edgar-fig8-17\", weight = 1 }, \"edgar-fig1\"]",
        )
        .unwrap()["graph"]
            .clone()
            .try_into()
            .unwrap(),
        ..MapConfig::default()
    })
    .unwrap();
    assert_eq!(mixed.graphs.len(), 3);
    // The first level of the 17-room graph, relabelled as the 9-room one's.
    let (map, ()) = Map::search(&mixed, |m| (m.graph_name == "edgar-fig8-17").then_some(()));
    let mut renamed = map.clone();
    renamed.graph_name = "edgar-fig1".into();
    let why = renamed.rejected(&mixed);
    assert!(
        why.contains(
            "map_graph is \"edgar-fig1\", but the level's seed picks the graph \"edgar-fig8-17\""
        ),
        "{why}"
    );
}
