//! `warren export`: `--npy` stacks every grid as numpy reads it, (N, H, W) uint8 equal to the
//! archive's own grids; `--jaxued` writes JaxUED maze levels that pass JaxUED's own
//! well-formedness test and whose goal the agent can walk to; kinds without one grid size or
//! without lattice mazes are refused with one line and no file.

use std::path::PathBuf;

use crate::common::{
    TempDir, assert_one_line_error, column_binary, generate, generate_kind, stderr, warren,
};
use crate::python_reader::{python, python_has, python_ready};

const CHECK: &str = r#"
import sys, collections
import numpy as np, pyarrow as pa
t = pa.ipc.open_file(sys.argv[3]).read_all()
if sys.argv[1] != "-":
    grids = np.load(sys.argv[1])
    stored = t["grid"].combine_chunks().to_numpy_ndarray()
    assert grids.dtype == np.uint8 and (grids == stored).all(), "npy differs from the archive"
z = np.load(sys.argv[2])
assert sorted(z.files) == sorted(["wall_map", "goal_pos", "agent_pos", "agent_dir", "width", "height"])
w, g, a, d = z["wall_map"], z["goal_pos"], z["agent_pos"], z["agent_dir"]
assert w.dtype == np.bool_ and g.dtype == np.uint32 and a.dtype == np.uint32 and d.dtype == np.uint8
n, h, wd = w.shape
assert (z["width"] <= wd).all() and (z["height"] <= h).all()
assert z["width"].max() == wd and z["height"].max() == h
lengths = t["path_length"].to_numpy()
solved = 0
for i in range(n):
    # JaxUED's Level.is_well_formatted, then a breadth-first walk from agent to goal, which
    # must take the level's stored path_length steps.
    assert not w[i, a[i, 1], a[i, 0]] and not w[i, g[i, 1], g[i, 0]] and (a[i] != g[i]).any()
    assert 0 <= d[i] <= 3
    assert w[i, z["height"][i]:].all() and w[i, :, z["width"][i]:].all(), "padding is wall"
    dist = {tuple(a[i]): 0}; todo = collections.deque([tuple(a[i])])
    while todo:
        x, y = todo.popleft()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < wd and 0 <= ny < h and not w[i, ny, nx] and (nx, ny) not in dist:
                dist[(nx, ny)] = dist[(x, y)] + 1; todo.append((nx, ny))
    solved += dist.get(tuple(g[i])) == lengths[i]
print(n, h, wd, solved)
"#;

#[test]
fn npy_and_jaxued_load_in_numpy_and_every_goal_is_reachable() {
    let dir = TempDir::new("export");
    let archive = dir.join("m.arrow");
    generate(
        &archive,
        &[
            "--count",
            "300",
            "--set",
            "maze.width=12",
            "--set",
            "maze.height=9",
        ],
    );
    let (npy, npz) = (dir.join("g.npy"), dir.join("j.npz"));
    let out = warren([
        "export",
        archive.to_str().unwrap(),
        "--npy",
        npy.to_str().unwrap(),
        "--jaxued",
        npz.to_str().unwrap(),
    ]);
    crate::common::assert_succeeded(&out, "export");
    // The .npy is its header and then the grids, byte for byte.
    let bytes = std::fs::read(&npy).unwrap();
    let cells: Vec<u8> = column_binary(&archive, "grid").concat();
    assert_eq!(&bytes[bytes.len() - cells.len()..], &cells[..]);
    assert_eq!(
        (bytes.len() - cells.len()) % 64,
        0,
        "header padded to 64 bytes"
    );
    if !python_ready() {
        return;
    }
    let printed = python(
        CHECK,
        &[
            npy.to_str().unwrap(),
            npz.to_str().unwrap(),
            archive.to_str().unwrap(),
        ],
    );
    assert_eq!(printed.trim(), "300 19 25 300");
}

/// Every grid kind exports to JaxUED: levels of many sizes padded with walls to the largest,
/// each start a walkable square from which the goal is `path_length` steps away.
#[test]
fn every_grid_kind_exports_to_jaxued_and_every_goal_is_its_path_length_away() {
    if !python_ready() {
        eprintln!("skipped: numpy and pyarrow are not installed");
        return;
    }
    let dir = TempDir::new("export-kinds");
    for (kind, count) in [
        ("dmg", "40"),
        ("regions", "10"),
        ("grammar", "40"),
        ("map", "20"),
    ] {
        let archive = dir.join(&format!("{kind}.arrow"));
        generate_kind(kind, &archive, &["--count", count]);
        let npz = dir.join(&format!("{kind}.npz"));
        let out = warren([
            "export",
            archive.to_str().unwrap(),
            "--jaxued",
            npz.to_str().unwrap(),
        ]);
        crate::common::assert_succeeded(&out, kind);
        let printed = python(
            CHECK,
            &["-", npz.to_str().unwrap(), archive.to_str().unwrap()],
        );
        let fields: Vec<&str> = printed.split_whitespace().collect();
        assert_eq!(fields[0], fields[3], "{kind}: {printed}");
    }
}

#[test]
fn levels_that_do_not_fit_are_refused_with_one_line_and_no_file() {
    let dir = TempDir::new("export-bad");
    let grammar = dir.join("g.arrow");
    generate_kind("grammar", &grammar, &["--count", "12"]);
    let npy = dir.join("x.npy");
    let result = warren([
        "export",
        grammar.to_str().unwrap(),
        "--npy",
        npy.to_str().unwrap(),
    ]);
    assert_one_line_error(&result, "mixed sizes");
    assert!(stderr(&result).contains("a stack needs one grid size"));
    assert!(!npy.exists() && !dir.join("x.npy.tmp").exists());
    let npz = dir.join("x.npz");
    let coloring = dir.join("c.arrow");
    generate_kind("coloring", &coloring, &["--count", "3"]);
    let result = warren([
        "export",
        coloring.to_str().unwrap(),
        "--jaxued",
        npz.to_str().unwrap(),
    ]);
    assert_one_line_error(&result, "not a grid kind");
    assert!(stderr(&result).contains("which have no grid with a start and a goal"));
    let delaunay = dir.join("d.arrow");
    generate(
        &delaunay,
        &["--count", "5", "--set", "maze.topology=delaunay"],
    );
    let result = warren([
        "export",
        delaunay.to_str().unwrap(),
        "--jaxued",
        npz.to_str().unwrap(),
    ]);
    assert_one_line_error(&result, "delaunay");
    assert!(stderr(&result).contains("topology `delaunay`"));
    assert!(!npz.exists());
    let result = warren(["export", grammar.to_str().unwrap()]);
    assert_one_line_error(&result, "nothing asked");
}

/// Generates a few `kind` levels in `dir` and exports level `index` with `flag` (`--tiled`,
/// `--ldtk`) to `dir/kind.ext`; returns that path.
fn export_level(dir: &TempDir, kind: &str, index: u64, flag: &str, ext: &str) -> PathBuf {
    let archive = dir.join(&format!("{kind}.arrow"));
    let out = warren([
        "generate",
        kind,
        "--quiet",
        "--count",
        &(index + 2).to_string(),
        "--out",
        archive.to_str().unwrap(),
    ]);
    crate::common::assert_succeeded(&out, kind);
    let path = dir.join(&format!("{kind}.{ext}"));
    let out = warren([
        "export",
        archive.to_str().unwrap(),
        "--index",
        &index.to_string(),
        flag,
        path.to_str().unwrap(),
    ]);
    crate::common::assert_succeeded(&out, &format!("export {kind} {flag}"));
    path
}

const LOAD_TILED: &str = r#"
import sys, pathlib, json
import pytiled_parser
m = pytiled_parser.parse_map(pathlib.Path(sys.argv[1]))
cells, objects = m.layers
tileset = m.tilesets[1]
assert tileset.tile_count == 9 and (pathlib.Path(sys.argv[1]).parent / tileset.image).is_file()
kinds = sorted({o.class_ for o in objects.tiled_objects})
raw = json.load(open(sys.argv[1]))["layers"][0]["data"]
print(m.map_size.width, m.map_size.height, len(raw), min(raw), max(raw), m.properties["warren_index"], ",".join(kinds))
"#;

#[test]
fn tiled_maps_of_a_maze_a_dungeon_and_a_grammar_level_load_in_pytiled_parser() {
    let dir = TempDir::new("export-tiled");
    let mut printed = Vec::new();
    for kind in ["maze", "dmg", "grammar"] {
        let map = export_level(&dir, kind, 2, "--tiled", "tmj");
        assert!(dir.join(&format!("{kind}.tiles.png")).is_file());
        if python_has("pytiled_parser") {
            printed.push(python(LOAD_TILED, &[map.to_str().unwrap()]));
        }
    }
    if printed.is_empty() {
        return;
    }
    // Width, height, one gid per cell (cell code + 1), the level's index, the object kinds.
    let fields: Vec<Vec<&str>> = printed
        .iter()
        .map(|p| p.split_whitespace().collect())
        .collect();
    for f in &fields {
        let (w, h, n): (u64, u64, u64) = (
            f[0].parse().unwrap(),
            f[1].parse().unwrap(),
            f[2].parse().unwrap(),
        );
        assert_eq!(w * h, n);
        assert!(f[3].parse::<u32>().unwrap() >= 1 && f[4].parse::<u32>().unwrap() <= 9);
        assert_eq!(f[5], "2");
    }
    assert_eq!(
        fields[0].len(),
        6,
        "a maze has no rooms, doors or stairs: {printed:?}"
    );
    assert!(
        fields[1][6].contains("room") && fields[1][6].contains("door"),
        "{printed:?}"
    );
    assert!(fields[2][6].contains("door"), "{printed:?}");
    // A missing level is one line and no file.
    let archive = dir.join("maze.arrow");
    let map = dir.join("none.tmj");
    let out = warren([
        "export",
        archive.to_str().unwrap(),
        "--index",
        "99",
        "--tiled",
        map.to_str().unwrap(),
    ]);
    assert_one_line_error(&out, "no such level");
    assert!(stderr(&out).contains("no level with index 99"));
    assert!(!map.exists());
}

/// Exports level `index` of a maze, a dungeon and a grammar level with `flag` (to `*.ext`) and,
/// where the Python `modules` are installed, runs `script` on the schema file (relative to the
/// crate) and the three files; returns what it printed, or `None` without those modules.
fn check_exports(
    dir: &TempDir,
    (index, flag, ext): (u64, &str, &str),
    modules: &str,
    schema: &str,
    script: &str,
) -> Option<String> {
    let files: Vec<PathBuf> = ["maze", "dmg", "grammar"]
        .into_iter()
        .map(|kind| export_level(dir, kind, index, flag, ext))
        .collect();
    if !python_has(modules) {
        return None;
    }
    let schema = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(schema);
    let mut args = vec![schema.to_str().unwrap()];
    args.extend(files.iter().map(|p| p.to_str().unwrap()));
    Some(python(script, &args))
}

/// The Tiled map schema: Tiled publishes only a field reference of its JSON maps, so this schema
/// is written from that reference (see its `$comment`).
const TILED_SCHEMA: &str = "tests/export_cli/tiled-map-1.10.schema.json";

const VALIDATE_TILED: &str = r#"
import sys, json, copy, pathlib, struct, jsonschema
schema = json.load(open(sys.argv[1]))
validator = jsonschema.Draft7Validator(schema)
validator.check_schema(schema)
def errors(m):
    return [e.message for e in validator.iter_errors(m)]
out = []
for path in map(pathlib.Path, sys.argv[2:]):
    m = json.load(open(path))
    assert not errors(m), (str(path), errors(m)[:3])
    # What a schema cannot say: one GID per cell, every GID inside a tileset, unique ids below
    # the map's next ids, and an image the size the tileset says.
    sets = m["tilesets"]
    assert len(sets) == 1 and sets[0]["firstgid"] == 1
    ts = sets[0]
    cells = [l for l in m["layers"] if l["type"] == "tilelayer"]
    for layer in cells:
        assert (layer["width"], layer["height"]) == (m["width"], m["height"])
        assert len(layer["data"]) == m["width"] * m["height"]
        assert all(1 <= g <= ts["tilecount"] for g in layer["data"])
    layer_ids = [l["id"] for l in m["layers"]]
    assert len(set(layer_ids)) == len(layer_ids) and max(layer_ids) < m["nextlayerid"]
    objects = [o for l in m["layers"] if l["type"] == "objectgroup" for o in l["objects"]]
    ids = [o["id"] for o in objects]
    assert len(set(ids)) == len(ids) and (not ids or max(ids) < m["nextobjectid"])
    assert all(t["id"] < ts["tilecount"] for t in ts.get("tiles", []))
    png = (path.parent / ts["image"]).read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (ts["imagewidth"], ts["imageheight"]), (width, height)
    assert ts["columns"] * ts["tilewidth"] + 2 * ts["margin"] <= width
    # The check has teeth: each of these damaged copies must fail the schema.
    damages = {
        "no tilewidth": lambda m: m.pop("tilewidth"),
        "misspelt field": lambda m: m.__setitem__("tilewdith", 16),
        "data as a string": lambda m: cells[0].__setitem__("data", "1,2,3"),
        "negative gid": lambda m: m["layers"][0]["data"].__setitem__(0, -1),
        "int property holding text": lambda m: m["properties"][1].__setitem__("value", "one"),
        "object without id": lambda m: [l for l in m["layers"] if l["type"] == "objectgroup"][0]["objects"].append({"x": 0, "y": 0}),
        "tileset without image": lambda m: m["tilesets"][0].pop("image"),
        "version as a number": lambda m: m.__setitem__("version", 1.1),
    }
    for name, damage in damages.items():
        broken = copy.deepcopy(m)
        cells = [l for l in broken["layers"] if l["type"] == "tilelayer"]
        damage(broken)
        assert errors(broken), f"{path.name}: a map with {name} passed the schema"
    out.append(f"{path.stem} {m['width']}x{m['height']} {len(objects)}")
print("; ".join(out))
"#;

#[test]
fn tiled_maps_validate_against_the_schema_written_from_the_format_reference() {
    let dir = TempDir::new("export-tiled-schema");
    let Some(printed) = check_exports(
        &dir,
        (2, "--tiled", "tmj"),
        "jsonschema",
        TILED_SCHEMA,
        VALIDATE_TILED,
    ) else {
        return;
    };
    let maps: Vec<&str> = printed.trim().split("; ").collect();
    assert_eq!(maps.len(), 3, "{printed}");
    // A maze has no rooms or doors; a dungeon and a grammar level have some.
    assert!(
        maps[0].starts_with("maze ") && maps[0].ends_with(" 0"),
        "{printed}"
    );
    for map in &maps[1..] {
        let objects: u32 = map.rsplit(' ').next().unwrap().parse().unwrap();
        assert!(objects > 0, "{printed}");
    }
}

/// LDtk's published JSON schema of its project files (version 1.5.3, from the LDtk repository's
/// `docs/JSON_SCHEMA.json`, MIT licence beside it).
const LDTK_SCHEMA: &str = "tests/export_cli/ldtk-json-schema-1.5.3.json";

const LOAD_LDTK: &str = r#"
import sys, json, copy, jsonschema
from ldtkpy.api import ldtk_json_from_dict
schema = json.load(open(sys.argv[1]))
validator = jsonschema.Draft7Validator(schema)
out = []
for path in sys.argv[2:]:
    project = json.load(open(path))
    errors = [e.message for e in validator.iter_errors(project)]
    assert not errors, (path, errors[:3])
    # The check has teeth: a project without a required field fails it.
    broken = copy.deepcopy(project)
    del broken["levels"][0]["layerInstances"][0]["intGridCsv"]
    assert any(True for _ in validator.iter_errors(broken))
    loaded = ldtk_json_from_dict(project)
    layer = loaded.levels[0].layer_instances[0]
    values = {v.value for v in loaded.defs.layers[0].int_grid_values}
    assert set(layer.int_grid_csv) <= values | {0}
    out.append(f"{loaded.levels[0].identifier} {layer.c_wid}x{layer.c_hei} {len(layer.int_grid_csv)}")
print("; ".join(out))
"#;

#[test]
fn ldtk_projects_validate_against_the_published_schema_and_load_in_ldtkpy() {
    let dir = TempDir::new("export-ldtk");
    let Some(printed) = check_exports(
        &dir,
        (1, "--ldtk", "ldtk"),
        "jsonschema, ldtkpy.api",
        LDTK_SCHEMA,
        LOAD_LDTK,
    ) else {
        return;
    };
    let levels: Vec<&str> = printed.trim().split("; ").collect();
    assert_eq!(levels.len(), 3, "{printed}");
    assert!(
        levels[0].starts_with("Maze_1 ") && levels[1].starts_with("Dmg_1 "),
        "{printed}"
    );
    for level in levels {
        let parts: Vec<&str> = level.split([' ', 'x']).collect();
        let (w, h, n): (usize, usize, usize) = (
            parts[1].parse().unwrap(),
            parts[2].parse().unwrap(),
            parts[3].parse().unwrap(),
        );
        assert_eq!(w * h, n, "{level}");
    }
}
