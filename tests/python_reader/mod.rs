//! The archive as Python users read it: pyarrow opens it memory-mapped, the schema metadata and
//! field docs are there, grids decode with numpy, graph levels are list columns, and the README's
//! reading script runs, and polars scans it. Needs `python3` with pyarrow, numpy and polars
//! (`.ci/run` installs them); outside CI a machine without them skips with a message, in CI
//! (`CI` set) their absence fails.

use std::process::Command;

use crate::common::{TempDir, generate};

/// Whether python3 can import pyarrow and numpy; panics in CI when it cannot.
pub fn python_ready() -> bool {
    python_has("pyarrow, numpy")
}

/// Whether python3 can import `modules` (`"a, b"`); panics in CI (`CI` set, where `.ci/run`
/// installs them) when it cannot, and elsewhere prints that the test skips.
pub fn python_has(modules: &str) -> bool {
    let ok = Command::new("python3")
        .args(["-c", &format!("import {modules}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must provide python3 with {modules}"
        );
        eprintln!("skipping: python3 with {modules} is not available");
    }
    ok
}

/// Runs `cmd`, asserts it succeeded, and returns its stdout.
fn run_ok(cmd: &mut Command) -> String {
    let out = cmd.output().expect("run python3");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "python failed: {text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

pub fn python(script: &str, args: &[&str]) -> String {
    run_ok(Command::new("python3").arg("-c").arg(script).args(args))
}

const CHECK_GRID: &str = r#"
import sys, json
import numpy as np, pyarrow as pa
with pa.memory_map(sys.argv[1], "r") as src:
    reader = pa.ipc.open_file(src)
    table = reader.read_all()
meta = table.schema.metadata
assert meta[b"warren.generator"] == b"maze", meta
assert json.loads(meta[b"warren.cell_codes"])["1"] == "floor"
assert table.schema.field("dead_ends").metadata[b"warren.doc"]
assert table["index"].to_pylist() == list(range(table.num_rows))
w, h = table["grid_width"][0].as_py(), table["grid_height"][0].as_py()
assert isinstance(table.schema.field("grid").type, pa.FixedShapeTensorType)
grid = table["grid"].combine_chunks().to_numpy_ndarray()[0]
assert grid.shape == (h, w)
assert grid[0].max() == 0 and grid[1, 1] == 1, grid
rooms = int((grid[1::2, 1::2] == 1).sum())
passages = int((grid == 1).sum()) - rooms
assert passages == rooms - 1, (rooms, passages)
print(table.num_rows, w, h, reader.num_record_batches)
"#;

#[test]
fn pyarrow_reads_a_lattice_archive_memory_mapped() {
    if !python_ready() {
        return;
    }
    let dir = TempDir::new("py");
    let path = dir.join("m.arrow");
    generate(
        &path,
        &[
            "--count",
            "700",
            "--chunk-size",
            "256",
            "--set",
            "maze.width=10",
            "--set",
            "maze.height=6",
        ],
    );
    let out = python(CHECK_GRID, &[path.to_str().expect("utf-8 path")]);
    assert_eq!(out.trim(), "700 21 13 3");
}

#[test]
fn pyarrow_reads_graph_levels_as_lists() {
    if !python_ready() {
        return;
    }
    let dir = TempDir::new("pyg");
    let path = dir.join("d.arrow");
    generate(
        &path,
        &[
            "--count",
            "50",
            "--set",
            "maze.topology=delaunay",
            "--set",
            "maze.width=5",
            "--set",
            "maze.height=4",
        ],
    );
    let script = r#"
import sys, pyarrow as pa
t = pa.ipc.open_file(pa.memory_map(sys.argv[1])).read_all()
assert "grid" not in t.column_names
xs, flags = t["vertex_x"][0].as_py(), t["edge_flags"][0].as_py()
assert len(xs) == 20 and sum(1 for f in flags if f & 4) == 19, (len(xs), flags)
print(t.num_rows)
"#;
    assert_eq!(
        python(script, &[path.to_str().expect("utf-8 path")]).trim(),
        "50"
    );
}

#[test]
fn the_readme_reading_script_runs() {
    if !python_ready() {
        return;
    }
    let dir = TempDir::new("pys");
    let path = dir.join("m.arrow");
    generate(
        &path,
        &[
            "--count",
            "20",
            "--set",
            "maze.width=6",
            "--set",
            "maze.height=4",
        ],
    );
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/read_archive.py");
    let text = run_ok(Command::new("python3").arg(script).arg(&path));
    assert!(text.starts_with("20 levels from maze"), "{text}");
    assert!(text.contains("dead_ends"), "{text}");
}

#[test]
fn the_readme_python_snippet_runs() {
    if !python_ready() {
        return;
    }
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).expect("README");
    let start = readme
        .find("```python\n")
        .expect("README has a python block")
        + "```python\n".len();
    let snippet = &readme[start..start + readme[start..].find("```").expect("closed block")];
    let dir = TempDir::new("pyreadme");
    generate(&dir.join("mazes.arrow"), &["--count", "300"]);
    let text = run_ok(
        Command::new("python3")
            .arg("-c")
            .arg(snippet)
            .current_dir(dir.join("")),
    );
    assert!(text.starts_with("300 "), "{text}");
    assert!(text.contains("kind = \"maze\""), "{text}");
}

#[test]
fn polars_scans_the_archive() {
    if !python_ready() {
        return;
    }
    let has_polars = Command::new("python3")
        .args(["-c", "import polars"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_polars {
        assert!(std::env::var_os("CI").is_none(), "CI must provide polars");
        eprintln!("skipping: polars is not available");
        return;
    }
    let dir = TempDir::new("polars");
    let path = dir.join("m.arrow");
    generate(&path, &["--count", "500", "--chunk-size", "100"]);
    let script = r#"
import sys, polars as pl
lf = pl.scan_ipc(sys.argv[1])
print(lf.select(pl.len()).collect().item(), lf.filter(pl.col("mergeable_dead_ends") > 0).select(pl.len()).collect().item())
"#;
    assert_eq!(
        python(script, &[path.to_str().expect("utf-8 path")]).trim(),
        "500 0"
    );
}

#[test]
fn pyarrow_reads_the_region_tree_raster_and_world() {
    if !python_ready() {
        return;
    }
    let dir = TempDir::new("pyregions");
    let path = dir.join("r.arrow");
    let output = crate::common::warren([
        "generate",
        "regions",
        "--quiet",
        "--count",
        "40",
        "--set",
        "regions.depth=2",
        "--out",
        path.to_str().expect("utf-8 path"),
    ]);
    assert!(
        output.status.success(),
        "{}",
        crate::common::stderr(&output)
    );
    let script = r#"
import sys, tomllib
import numpy as np, pyarrow as pa
t = pa.ipc.open_file(pa.memory_map(sys.argv[1])).read_all()
assert t.schema.field("region_parent").type == pa.list_(pa.uint32())
assert t.schema.field("region_x0").type == pa.list_(pa.uint16())
assert t.schema.field("region_zoom").type == pa.list_(pa.uint8())
assert t.schema.field("raster").type == pa.binary()
assert t.schema.field("region_cells").metadata[b"warren.doc"]
cfg = tomllib.loads(t.schema.metadata[b"warren.profile"].decode())["regions"]
worlds = t["grid"].combine_chunks().to_numpy_ndarray()
for row in range(t.num_rows):
    parent = np.array(t["region_parent"][row].as_py(), dtype=np.uint32)
    depth = np.array(t["region_depth"][row].as_py())
    zoom = np.array(t["region_zoom"][row].as_py())
    assert parent[0] == 2**32 - 1 and zoom[0] == 1 and len(depth) == t["regions"][row].as_py()
    assert (parent[1:] < np.arange(1, len(parent))).all()
    assert (depth[1:] == depth[parent[1:]] + 1).all()
    raster = np.frombuffer(t["raster"][row].as_py(), dtype=np.uint8)
    raster = raster.reshape(cfg["max_height"], cfg["max_width"])
    assert set(np.unique(raster)) <= {0, 1, 7, 8}
    # The world grid: max_zoom ^ world_depth world cells per root cell, the root's carved cells
    # all floor in it, and its floor share the stored metric.
    s = cfg["max_zoom"] ** min(cfg["world_depth"], cfg["depth"])
    h, w = t["grid_height"][row].as_py(), t["grid_width"][row].as_py()
    assert (h, w) == (cfg["height"] * s, cfg["width"] * s)
    world = worlds[row]
    root = np.frombuffer(t["root_grid"][row].as_py(), dtype=np.uint8)
    root = root.reshape(cfg["height"], cfg["width"])
    blocks = world.reshape(cfg["height"], s, cfg["width"], s).transpose(0, 2, 1, 3)
    assert (blocks[root == 1] == 1).all()
    assert abs((world == 1).mean() - t["world_floor"][row].as_py()) < 1e-6
print(t.num_rows, len(t["region_parent"][0]) > 1)
"#;
    assert_eq!(
        python(script, &[path.to_str().expect("utf-8 path")]).trim(),
        "40 True"
    );
}

/// Every extra column type a generator can declare, written by warren and read by pyarrow.
#[test]
fn pyarrow_reads_every_extra_column_type() {
    if !python_ready() {
        return;
    }
    use std::sync::Arc;
    use warren::archive::{ArchiveWriter, ChunkBuilder, level_schema};
    use warren::{Columns, ExtraKind, ExtraSpec, ExtraValue, Level};
    const EXTRA: [ExtraSpec; 7] = [
        ExtraSpec::new("a", ExtraKind::ListU32, "u32"),
        ExtraSpec::new("b", ExtraKind::ListI32, "i32"),
        ExtraSpec::new("c", ExtraKind::ListF32, "f32"),
        ExtraSpec::new("d", ExtraKind::ListU8, "u8"),
        ExtraSpec::new("e", ExtraKind::ListU16, "u16"),
        ExtraSpec::new("f", ExtraKind::Binary, "bytes"),
        ExtraSpec::new("g", ExtraKind::Utf8, "text"),
    ];
    let columns = Columns {
        extra: &EXTRA,
        ..Columns::default()
    };
    let dir = TempDir::new("pyextra");
    let path = dir.join("x.arrow");
    let schema = Arc::new(level_schema(&columns, Default::default()));
    let mut writer = ArchiveWriter::create(&path, &schema).unwrap();
    let mut builder = ChunkBuilder::new(schema, columns, 2);
    for i in 0..2u32 {
        let text = format!("<level id=\"{i}\"/>");
        let values = [
            ExtraValue::ListU32(&[i, 4_000_000_000]),
            ExtraValue::ListI32(&[-7]),
            ExtraValue::ListF32(&[0.5, 1.5]),
            ExtraValue::ListU8(&[1, 2, 3]),
            ExtraValue::ListU16(&[]),
            ExtraValue::Binary(b"\x00\xff"),
            ExtraValue::Utf8(&text),
        ];
        let level = Level {
            extra: &values,
            ..Level::default()
        };
        builder.push(u64::from(i), 0, &level);
    }
    writer.write(&builder.finish().unwrap()).unwrap();
    writer.finish(&[]).unwrap();
    let script = r#"
import sys, pyarrow as pa
t = pa.ipc.open_file(pa.memory_map(sys.argv[1])).read_all()
r = {k: t[k][1].as_py() for k in "abcdefg"}
assert r == {"a": [1, 4000000000], "b": [-7], "c": [0.5, 1.5], "d": [1, 2, 3], "e": [],
             "f": b"\x00\xff", "g": '<level id="1"/>'}, r
assert t.schema.field("g").metadata[b"warren.doc"] == b"text"
print("ok")
"#;
    assert_eq!(
        python(script, &[path.to_str().expect("utf-8 path")]).trim(),
        "ok"
    );
}

const TENSOR: &str = r#"
import sys, numpy as np, pyarrow as pa
for path in sys.argv[1:]:
    t = pa.ipc.open_file(path).read_all()
    a = t["grid"].combine_chunks().to_numpy_ndarray()
    h, w = t["grid_height"][0].as_py(), t["grid_width"][0].as_py()
    assert a.shape == (t.num_rows, h, w) and a.dtype == np.uint8, (path, a.shape, a.dtype)
    assert not a.flags.owndata, "copied"
    first = np.frombuffer(t["grid"].chunk(0).storage[0].values.to_numpy(), np.uint8).reshape(h, w)
    assert (a[0] == first).all()
    print(path.rsplit("/", 1)[-1], a.shape)
"#;

/// The acceptance line of the tensor grids: every kind of one grid size hands numpy an
/// (N, H, W) `uint8` array straight from `to_numpy_ndarray()`, without a copy.
#[test]
fn fixed_size_grids_are_tensors_numpy_reads_without_a_copy() {
    if !python_ready() {
        return;
    }
    let dir = TempDir::new("py-tensor");
    let mut paths = Vec::new();
    for kind in ["maze", "dmg", "regions"] {
        let path = dir.join(&format!("{kind}.arrow"));
        let out = crate::common::warren([
            "generate",
            kind,
            "--quiet",
            "--count",
            "40",
            "--out",
            path.to_str().unwrap(),
        ]);
        crate::common::assert_succeeded(&out, kind);
        paths.push(path);
    }
    let args: Vec<&str> = paths.iter().map(|p| p.to_str().unwrap()).collect();
    let printed = python(TENSOR, &args);
    assert_eq!(
        printed.trim(),
        "maze.arrow (40, 65, 65)\ndmg.arrow (40, 100, 100)\nregions.arrow (40, 256, 256)"
    );
}
