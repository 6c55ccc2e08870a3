//! `map.graph` naming several level graphs with weights: each level lays out the graph its seed
//! picks, exactly as a run of that graph alone lays out the same seed; the `map_graph` column
//! names it; the mix follows the weights; exports name the rooms of the level's own graph; bad
//! lists are refused in one line.

use super::{assert_says, map_error, verify_passes};
use crate::common::{TempDir, column_u32, column_utf8, generate_kind, list_column, warren};
use arrow_array::types::UInt16Type;

const LEVELS: usize = 400;

#[test]
fn each_level_lays_out_the_graph_its_seed_picks_as_that_graph_alone_would() {
    let dir = TempDir::new("map-graphs");
    let count = LEVELS.to_string();
    let mixed = dir.join("mixed.arrow");
    let list = "map.graph=[\"edgar-fig8-17\", { graph = \"edgar-fig8-41\", weight = 3 }]";
    generate_kind("map", &mixed, &["--count", &count, "--set", list]);
    verify_passes(&mixed, LEVELS);
    let names = column_utf8(&mixed, "map_graph");
    let rooms = column_u32(&mixed, "rooms");
    let small = names.iter().filter(|n| *n == "edgar-fig8-17").count();
    // Weights 1 : 3 of 400 levels: 100 expected, a standard deviation of about 8.7.
    assert!(
        (65..=135).contains(&small),
        "{small} of {LEVELS} levels took the 17-room graph"
    );
    for (name, rooms) in names.iter().zip(&rooms) {
        let want = if name == "edgar-fig8-17" { 17 } else { 41 };
        assert_eq!(*rooms, want, "a level of {name}");
    }
    // Each level is the same floor plan as the level of the same seed of its graph alone.
    let owners = list_column::<UInt16Type>(&mixed, "owner");
    for graph in ["edgar-fig8-17", "edgar-fig8-41"] {
        let alone = dir.join(&format!("{graph}.arrow"));
        let set = format!("map.graph={graph}");
        generate_kind("map", &alone, &["--count", &count, "--set", &set]);
        assert!(column_utf8(&alone, "map_graph").iter().all(|n| n == graph));
        let own = list_column::<UInt16Type>(&alone, "owner");
        let mut same = 0;
        for i in (0..LEVELS).filter(|&i| names[i] == graph) {
            assert_eq!(owners[i], own[i], "level {i} of {graph}");
            same += 1;
        }
        assert!(same > 0, "no level took {graph}");
    }
}

#[test]
fn an_export_names_the_rooms_of_its_levels_own_graph() {
    let dir = TempDir::new("map-graphs-export");
    let mixed = dir.join("m.arrow");
    let list = "map.graph=[\"edgar-fig1\", \"edgar-fig8-17\"]";
    generate_kind("map", &mixed, &["--count", "8", "--set", list]);
    let names = column_utf8(&mixed, "map_graph");
    for graph in ["edgar-fig1", "edgar-fig8-17"] {
        let i = names
            .iter()
            .position(|n| n == graph)
            .expect("both graphs in 8 levels");
        let ldtk = dir.join(&format!("{i}.ldtk"));
        let result = warren([
            "export",
            mixed.to_str().unwrap(),
            "--index",
            &i.to_string(),
            "--ldtk",
            ldtk.to_str().unwrap(),
        ]);
        crate::common::assert_succeeded(&result, "export --ldtk");
        let project: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&ldtk).unwrap()).unwrap();
        let rooms = &project["levels"][0]["layerInstances"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["__identifier"] == "Rooms")
            .unwrap()["entityInstances"];
        let named: Vec<&str> = rooms
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                e["fieldInstances"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|f| f["__identifier"] == "name")
                    .unwrap()["__value"]
                    .as_str()
                    .unwrap()
            })
            .collect();
        let want = column_u32(&mixed, "rooms")[i] as usize;
        assert_eq!(named.len(), want, "level {i} of {graph}");
        assert!(named.iter().all(|n| !n.is_empty()), "{named:?}");
    }
}

#[test]
fn bad_graph_lists_are_one_line() {
    assert_says(
        &map_error(&[], &["map.graph=[]"]),
        &["map.graph", "at least one level graph"],
    );
    assert_says(
        &map_error(&[], &["map.graph=[{ graph = \"edgar-fig1\", weight = 0 }]"]),
        &["map.graph", "weight 0", "edgar-fig1", "1..=1000000"],
    );
    assert_says(
        &map_error(&[], &["map.graph=[{ graph = \"edgar-fig1\", wieght = 2 }]"]),
        &["unknown field `wieght`"],
    );
    assert_says(
        &map_error(&[], &["map.graph=[\"edgar-fig1\", \"nowhere.json\"]"]),
        &["nowhere.json"],
    );
}
