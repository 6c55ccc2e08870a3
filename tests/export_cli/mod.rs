//! `warren export`: `--npy` stacks every grid as numpy reads it, (N, H, W) uint8 equal to the
//! archive's own grids; `--jaxued` writes JaxUED maze levels that pass JaxUED's own
//! well-formedness test and whose goal the agent can walk to; kinds without one grid size or
//! without lattice mazes are refused with one line and no file.

use crate::common::{TempDir, assert_one_line_error, column_binary, generate, stderr, warren};
use crate::python_reader::{python, python_ready};

const CHECK: &str = r#"
import sys, collections
import numpy as np, pyarrow as pa
grids = np.load(sys.argv[1])
t = pa.ipc.open_file(sys.argv[3]).read_all()
stored = np.stack([np.frombuffer(g, np.uint8).reshape(h, w) for g, w, h in
                   zip(t["grid"].to_pylist(), t["grid_width"].to_pylist(), t["grid_height"].to_pylist())])
assert grids.dtype == np.uint8 and (grids == stored).all(), "npy differs from the archive"
z = np.load(sys.argv[2])
assert sorted(z.files) == sorted(["wall_map", "goal_pos", "agent_pos", "agent_dir", "width", "height"])
w, g, a, d = z["wall_map"], z["goal_pos"], z["agent_pos"], z["agent_dir"]
assert w.dtype == np.bool_ and g.dtype == np.uint32 and a.dtype == np.uint32 and d.dtype == np.uint8
n, h, wd = w.shape
assert (z["width"] == wd).all() and (z["height"] == h).all()
solved = 0
for i in range(n):
    # JaxUED's Level.is_well_formatted, then a breadth-first walk from agent to goal.
    assert not w[i, a[i, 1], a[i, 0]] and not w[i, g[i, 1], g[i, 0]] and (a[i] != g[i]).any()
    assert 0 <= d[i] <= 3
    seen = {tuple(a[i])}; todo = collections.deque([tuple(a[i])])
    while todo:
        x, y = todo.popleft()
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < wd and 0 <= ny < h and not w[i, ny, nx] and (nx, ny) not in seen:
                seen.add((nx, ny)); todo.append((nx, ny))
    solved += tuple(g[i]) in seen
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

#[test]
fn levels_that_do_not_fit_are_refused_with_one_line_and_no_file() {
    let dir = TempDir::new("export-bad");
    let grammar = dir.join("g.arrow");
    let out = warren([
        "generate",
        "grammar",
        "--quiet",
        "--count",
        "12",
        "--out",
        grammar.to_str().unwrap(),
    ]);
    crate::common::assert_succeeded(&out, "grammar");
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
    let result = warren([
        "export",
        grammar.to_str().unwrap(),
        "--jaxued",
        npz.to_str().unwrap(),
    ]);
    assert_one_line_error(&result, "not a maze");
    assert!(stderr(&result).contains("--jaxued exports maze levels"));
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
