"""warren.maze_dataset against maze-dataset 1.4.2 itself: 1,000 warren mazes of every algorithm
become SolvedMazes whose solution maze-dataset's own solver agrees with, that maze-dataset draws
as warren's grid and that tokenize and decode back; braided and unmerged mazes; MazeDataset
with its config, save and read, plots; archives; what is refused.

Skipped when maze-dataset is not installed (the extra: pip install "warren[maze-dataset]").

Cost: maze-dataset's A* (``find_shortest_path``) takes about 1.5 ms per 6 x 6 maze and a
``MazeTokenizerModular`` round trip (``as_tokens`` then ``SolvedMaze.from_tokens``) about 2.7 ms
(8 x 8: 3.2 ms and 4.2 ms), all in Python on one core. So every one of the 1,000 mazes of each
algorithm is checked against the solver and against maze-dataset's pixel grid, and the first
``TOKENIZED`` (200) of each are tokenized and decoded back: tokenizing all 13,000 would add
about 28 s to the file's 35 s.
"""

import random
import subprocess
import warnings

import numpy as np
import pyarrow as pa
import pytest

pytest.importorskip("maze_dataset")

with warnings.catch_warnings():
    # maze-dataset warns on import that rust_fst (its [tokenization] extra) is missing; the
    # tokenizers work without it, it only checks a tokenizer is one of its tested ones.
    warnings.filterwarnings("ignore", message=".*rust_fst.*")
    from maze_dataset import LatticeMaze, MazeDataset, MazeDatasetConfig, SolvedMaze
    from maze_dataset.maze.lattice_maze import PixelColors
    from maze_dataset.tokenization import MazeTokenizerModular

import warren
import warren.maze_dataset as wmd

# maze-dataset's decoder (SolvedMaze.from_tokens) warns on every coordinate that its helpers
# will change; hundreds of thousands of these would cost seconds to record.
pytestmark = pytest.mark.filterwarnings("ignore::maze_dataset.token_utils.TokenizerPendingDeprecationWarning")

ALGORITHMS = [
    "seed001",
    "dfs",
    "wilson",
    "aldous-broder",
    "kruskal",
    "prim",
    "prim-simplified",
    "hunt-and-kill",
    "growing-tree",
    "eller",
    "sidewinder",
    "binary-tree",
    "recursive-division",
]
SIZE = 6
COUNT = 1000
TOKENIZED = 200


def mazes(algorithm, count=COUNT, width=SIZE, height=SIZE, **sets):
    sets = {f"maze.{k}": v for k, v in sets.items()}
    return warren.generate(
        "maze",
        count,
        seed=7,
        set={"maze.algorithm": algorithm, "maze.width": width, "maze.height": height, **sets},
    )


def rooms(table, column, width=SIZE):
    """(row, col) of each level's room id in `column`."""
    ids = table.column(column).to_numpy().astype(np.int64)
    return np.stack([ids // width, ids % width], axis=1)


def open_pixels(maze):
    """maze-dataset's own drawing of a maze's lattice: True where it is not wall."""
    plain = LatticeMaze(connection_list=maze.connection_list)
    return (plain.as_pixels() != np.array(PixelColors.WALL, np.uint8)).any(axis=-1)


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_every_algorithm_agrees_with_maze_datasets_solver_and_tokenizer(algorithm):
    table = mazes(algorithm)
    solved = wmd.solved_mazes(table)
    lattice = wmd.lattice_mazes(table)
    assert len(solved) == len(lattice) == COUNT
    assert all(type(m) is SolvedMaze for m in solved)
    assert all(type(m) is LatticeMaze for m in lattice)
    grids = warren.grids(table)
    start, goal = rooms(table, "start_room"), rooms(table, "goal_room")
    diameter = table.column("diameter").to_numpy()
    assert table.column("loops").to_numpy().sum() == 0  # perfect mazes (merged dead ends included)
    for i, m in enumerate(solved):
        assert m.connection_list.shape == (2, SIZE, SIZE) and m.connection_list.dtype == np.bool_
        assert int(m.n_connections) == SIZE * SIZE - 1, i  # a spanning tree
        assert np.array_equal(m.connection_list, lattice[i].connection_list), i
        # Orientation: maze-dataset's pixel grid of the maze is warren's tile grid.
        assert np.array_equal(open_pixels(m), grids[i] == 1), i
        assert tuple(m.start_pos) == tuple(start[i]) and tuple(m.end_pos) == tuple(goal[i]), i
        assert len(m.solution) == diameter[i] + 1, i
        # The path of a perfect maze is unique: maze-dataset's A* finds the same one.
        assert np.array_equal(m.find_shortest_path(m.start_pos, m.end_pos), m.solution), i
        assert m.generation_meta["warren_index"] == i and m.generation_meta["algorithm"] == algorithm
    tokenizer = MazeTokenizerModular()
    for i, m in enumerate(solved[:TOKENIZED]):
        tokens = m.as_tokens(tokenizer)
        back = SolvedMaze.from_tokens(tokens, tokenizer)
        assert type(back) is SolvedMaze, i
        assert back == m, i
        assert np.array_equal(back.connection_list, m.connection_list), i
        assert np.array_equal(back.solution, m.solution), i


@pytest.mark.parametrize(
    "algorithm, sets",
    [
        ("wilson", {"merge_dead_ends": False}),
        ("seed001", {"braid": 0.5}),
        ("hunt-and-kill", {"braid": 1.0, "merge_dead_ends": False}),
    ],
)
def test_merging_and_braiding(algorithm, sets):
    table = mazes(algorithm, **sets)
    merges = table.column("merges").to_numpy()
    loops = table.column("loops").to_numpy()
    assert (merges.sum() > 0) == sets.get("merge_dead_ends", True)
    assert (loops.sum() > 0) == ("braid" in sets)
    solved = wmd.solved_mazes(table)
    start, goal = rooms(table, "start_room"), rooms(table, "goal_room")
    diameter = table.column("diameter").to_numpy()
    for i, m in enumerate(solved):
        assert int(m.n_connections) == SIZE * SIZE - 1 + loops[i], i
        assert tuple(m.solution[0]) == tuple(start[i]) and tuple(m.solution[-1]) == tuple(goal[i]), i
        assert m.is_valid_path(m.solution), i
        theirs = m.find_shortest_path(m.start_pos, m.end_pos)
        if loops[i]:
            # Several shortest paths may exist: the lengths agree.
            assert len(theirs) == len(m.solution) == diameter[i] + 1, i
        else:
            assert np.array_equal(theirs, m.solution), i
    tokenizer = MazeTokenizerModular()
    for m in solved[:50]:
        assert SolvedMaze.from_tokens(m.as_tokens(tokenizer), tokenizer) == m


def test_maze_dataset_config_save_read_and_plots(tmp_path):
    table = mazes("growing-tree", count=300, braid=0.25)
    np.random.seed(5)
    random.seed(5)
    expected = np.random.rand(), random.random()
    np.random.seed(5)
    random.seed(5)
    ds = wmd.maze_dataset(table)
    # maze-dataset's config seeds numpy and random globally; maze_dataset puts them back.
    assert (np.random.rand(), random.random()) == expected
    assert isinstance(ds, MazeDataset) and len(ds) == 300
    assert ds.cfg.name == "warren-growing-tree-braid0.25"
    assert ds.cfg.grid_n == SIZE and ds.cfg.n_mazes == 300
    assert ds.cfg.maze_ctor is wmd.gen_warren
    sets = ds.cfg.maze_ctor_kwargs["sets"]
    assert sets["maze.algorithm"] == "growing-tree" and sets["maze.braid"] == 0.25
    assert "maze.width" not in sets and "maze.height" not in sets
    assert ds.cfg.to_fname().startswith("warren-growing-tree-braid0.25-g6-n300-a_warren")
    for m, n in zip(ds, wmd.solved_mazes(table)):
        assert m == n
    assert wmd.maze_dataset(table, name="mine").cfg.name == "mine"
    assert len(ds.as_tokens(MazeTokenizerModular(), limit=10)) == 10

    # The config names gen_warren, which maze-dataset finds again when it reads the file.
    path = tmp_path / "warren.zanj"
    ds.save(path)
    back = MazeDataset.read(path)
    assert back.cfg == ds.cfg and back.cfg.maze_ctor is wmd.gen_warren
    assert len(back) == 300 and all(a == b for a, b in zip(back, ds))
    assert back.generation_metadata_collected["algorithm"] == {"growing-tree": 300}

    # gen_warren is a working maze-dataset generator: new warren mazes from the config.
    cfg = MazeDatasetConfig(
        name="regen", grid_n=5, n_mazes=4, maze_ctor=wmd.gen_warren, maze_ctor_kwargs={"sets": {"maze.algorithm": "eller"}}
    )
    made = MazeDataset.generate(cfg)
    assert len(made) == 4 and all(m.grid_shape == (5, 5) for m in made)
    assert all(m.generation_meta["algorithm"] == "eller" for m in made)

    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    from maze_dataset.plotting import MazePlot

    import matplotlib.pyplot as plt

    MazePlot(ds[0]).plot()
    plt.close("all")


def test_archives_and_rectangles(tmp_path):
    table = mazes("kruskal", count=200, width=7, height=4)
    ours = wmd.solved_mazes(table)
    # An archive: its path, or the table pyarrow reads from it (schema metadata kept).
    path = tmp_path / "m.warren"
    with pa.OSFile(str(path), "wb") as sink, pa.ipc.new_file(sink, table.schema) as writer:
        writer.write_table(table, max_chunksize=64)  # several batches
    read = pa.ipc.open_file(pa.memory_map(str(path))).read_all()
    for other in (wmd.solved_mazes(path), wmd.solved_mazes(str(path)), wmd.solved_mazes(read)):
        assert len(other) == 200 and all(a == b for a, b in zip(ours, other))
    # Record batches, and columns added later (start_x, ..., path_length) change nothing.
    assert all(a == b for a, b in zip(ours[:64], wmd.solved_mazes(table.to_batches(max_chunksize=64)[0])))
    extra = table
    for name in ("start_x", "start_y", "goal_x", "goal_y", "path_length"):
        extra = extra.append_column(name, pa.array(np.zeros(200, np.uint32)))
    assert all(a == b for a, b in zip(ours, wmd.solved_mazes(extra)))
    # A 7 x 4 maze is 4 rows of 7 columns.
    start = rooms(table, "start_room", width=7)
    for i, m in enumerate(ours):
        assert m.grid_shape == (4, 7) and tuple(m.start_pos) == tuple(start[i])
        assert np.array_equal(m.find_shortest_path(m.start_pos, m.end_pos), m.solution)
    with pytest.raises(ValueError, match="7 x 4 rooms: a MazeDatasetConfig describes square"):
        wmd.maze_dataset(table)


def test_archive_written_by_the_command_line(warren_bin, tmp_path):
    out = tmp_path / "cli.warren"
    subprocess.run(
        [warren_bin, "generate", "maze", "--count", "300", "--seed", "7", "--set", "maze.algorithm=sidewinder",
         "--set", f"maze.width={SIZE}", "--set", f"maze.height={SIZE}", "--set", "maze.braid=0.5",
         "--quiet", "--out", str(out)],
        check=True,
    )
    ours = wmd.solved_mazes(mazes("sidewinder", count=300, braid=0.5))
    theirs = wmd.solved_mazes(out)
    assert len(theirs) == 300 and all(a == b for a, b in zip(ours, theirs))
    assert wmd.maze_dataset(out).cfg.name == "warren-sidewinder-braid0.5"


def test_what_is_refused():
    with pytest.raises(ValueError, match=r"these are `dmg` levels: warren.maze_dataset converts lattice mazes"):
        wmd.lattice_mazes(warren.generate("dmg", 2, seed=1))
    with pytest.raises(ValueError, match="topology `delaunay`: maze-dataset holds lattice mazes only"):
        wmd.solved_mazes(mazes("dfs", count=3, topology="delaunay"))
    holes = r"level 0 has holes \(maze.holes > 0\): maze-dataset's LatticeMaze .* cannot represent"
    with pytest.raises(ValueError, match=holes):
        wmd.maze_dataset(mazes("dfs", count=3, holes=0.2))
    plain = mazes("dfs", count=3).replace_schema_metadata(None)
    with pytest.raises(ValueError, match="not a warren table"):
        wmd.lattice_mazes(plain)
    with pytest.raises(ValueError, match="the table has no start_room, goal_room columns"):
        wmd.solved_mazes(mazes("dfs", count=3).drop_columns(["start_room", "goal_room"]))
    with pytest.raises(TypeError):
        wmd.lattice_mazes([1, 2, 3])
    assert wmd.lattice_mazes(mazes("dfs", count=0)) == []
    assert len(wmd.maze_dataset(mazes("dfs", count=0))) == 0
