//! `map::verify`'s frame checks can fail: a level is checked against the same graph with a room
//! pinned elsewhere, and against a mask it was not drawn on.

use super::tests::Map;
use crate::map::{MapConfig, MapGenerator};

fn example(name: &str) -> String {
    format!("{}/data/map/examples/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn generator(graph: String, mask: String) -> MapGenerator {
    MapGenerator::new(MapConfig {
        graph: graph.into(),
        mask,
        ..MapConfig::default()
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_fixed_room_elsewhere_and_a_map_off_its_mask_are_found() {
    let dir = std::env::temp_dir().join(format!("warren-verify-frame-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pinned = example("fig8-17-fixed.json");
    let g = generator(pinned.clone(), String::new());
    let map = Map::generate(&g, 0);
    let moved = std::fs::read_to_string(&pinned)
        .unwrap()
        .replace("\"at\": [55, 40]", "\"at\": [56, 40]");
    let moved_path = dir.join("moved.json");
    std::fs::write(&moved_path, moved).unwrap();
    let elsewhere = generator(moved_path.display().to_string(), String::new());
    let mut renamed = map.clone();
    renamed.graph_name.clone_from(&elsewhere.graphs[0].name);
    assert!(renamed.rejected(&elsewhere).contains(
        "room `16` is fixed to template `12x12` under transform 0 at [56, 40]; it is at [55, 40]"
    ));
    let mask = dir.join("mask.txt");
    std::fs::write(&mask, ("#".repeat(200) + "\n").repeat(200)).unwrap();
    let plain = generator("edgar-fig8-17".into(), String::new());
    let masked = generator("edgar-fig8-17".into(), mask.display().to_string());
    let why = Map::generate(&plain, 0).rejected(&masked);
    assert!(why.contains("tiles, the mask 200 x 200"), "{why}");
    std::fs::remove_dir_all(&dir).ok();
}
