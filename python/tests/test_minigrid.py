"""warren.minigrid against MiniGrid and Gymnasium themselves: Gymnasium's ``check_env`` (called
as MiniGrid's own test-suite calls it, warnings included) on every grid kind; seeding and
determinism; the agent on the level's start, the Goal on its goal and a breadth-first search
over the MiniGrid grid as long as the level's ``path_length``; archives against kinds; what is
refused; the example script over 1,000 levels.

Skipped when MiniGrid is not installed (the extra: pip install "warren[minigrid]"). The levels
are kept small (MiniGrid steps at about 0.3 ms and renders a grid tile by tile, in Python) except
in the test that lays out full-size regions worlds.
"""

import os
import pickle
import subprocess
import sys
import warnings
from collections import deque
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

# check_env opens each render mode once, "human" included: no display needed.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

pytest.importorskip("minigrid")

import gymnasium as gym  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

import warren  # noqa: E402
import warren.minigrid as wm  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "python" / "examples" / "minigrid_random.py"

# Small levels of every grid kind (grammar and map levels vary in size per level).
SMALL = {
    "maze": {"maze.width": 6, "maze.height": 6},
    "dmg": {"dmg.width": 30, "dmg.height": 30},
    "regions": {"regions.width": 4, "regions.height": 4, "regions.max_width": 4, "regions.max_height": 4},
    "grammar": {},
    "map": {},
}

# Warnings MiniGrid's test-suite lets through, and pygame's complaint on machines without its
# default font (MiniGrid's human render asks for freesansbold.ttf by name).
CHECK_ENV_IGNORE_WARNINGS = [
    "A Box observation space minimum value is -infinity. This is probably too low.",
    "A Box observation space maximum value is -infinity. This is probably too high.",
    "For Box action spaces, we recommend using a symmetric and normalized space",
    "The system font 'freesansbold.ttf' couldn't be found.",
]


def env_of(source, **kwargs):
    kwargs.setdefault("chunk_size", 32)
    return wm.WarrenEnv(source, **kwargs)


def encoding(env):
    return env.grid.encode(), tuple(int(v) for v in env.agent_pos), int(env.agent_dir)


def bfs_steps(env):
    """4-neighbour steps from the agent to the Goal over every square that is not a Wall (doors,
    open or closed, can be passed), by a breadth-first search over the MiniGrid grid itself."""
    w, h = env.grid.width, env.grid.height
    passable = np.array([c is None or c.type != "wall" for c in env.grid.grid]).reshape(h, w)
    goals = [(i % w, i // w) for i, c in enumerate(env.grid.grid) if c is not None and c.type == "goal"]
    assert len(goals) == 1
    start = tuple(int(v) for v in env.agent_pos)
    dist = {start: 0}
    todo = deque([start])
    while todo:
        x, y = todo.popleft()
        if (x, y) == goals[0]:
            return dist[(x, y)]
        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < w and 0 <= ny < h and passable[ny, nx] and (nx, ny) not in dist:
                dist[(nx, ny)] = dist[(x, y)] + 1
                todo.append((nx, ny))
    return -1


def cli_archive(warren_bin, path, *args):
    subprocess.run([warren_bin, "generate", *args, "--quiet", "--out", str(path)], check=True)
    return str(path)


@pytest.mark.parametrize("kind", list(SMALL))
def test_check_env(kind):
    # As MiniGrid's tests/test_envs.py: check_env on the unwrapped environment of a registered
    # spec (so the render modes are checked too), every unexpected warning an error.
    env = gym.make(wm.ENV_ID, source=kind, set=SMALL[kind], chunk_size=16, tile_size=8, disable_env_checker=True).unwrapped
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    unexpected = [str(w.message) for w in caught if not any(s in str(w.message) for s in CHECK_ENV_IGNORE_WARNINGS)]
    assert not unexpected
    env.close()


def test_check_env_on_an_archive(warren_bin, tmp_path):
    path = cli_archive(warren_bin, tmp_path / "map.arrow", "map", "--count", "20", "--seed", "3")
    env = gym.make(wm.ENV_ID, source=path, tile_size=8, disable_env_checker=True).unwrapped
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env)
    assert not [w for w in caught if not any(s in str(w.message) for s in CHECK_ENV_IGNORE_WARNINGS)]


def test_registered_and_made_by_module_path():
    env = gym.make("warren.minigrid:warren/MiniGrid-v0", source="maze", set=SMALL["maze"])
    obs, info = env.reset(seed=3)
    assert info["level"] == 3 and obs["image"].shape == (7, 7, 3)
    assert obs["mission"] == "get to the green goal square"
    env.close()


@pytest.mark.parametrize("kind", list(SMALL))
def test_start_goal_and_path_length(kind):
    count = 12
    table = warren.generate(kind, count, seed=4, set=SMALL[kind])
    rows = {r["index"]: r for r in table.select(["index", "start_x", "start_y", "goal_x", "goal_y", "path_length", "grid_width", "grid_height"]).to_pylist()}
    env = env_of(kind, seed=4, set=SMALL[kind])
    seen = 0
    _, info = env.reset(seed=0)
    while info["level"] < count:
        r = rows[info["level"]]
        dx, dy = info["offset"]
        assert (env.width, env.height) == (r["grid_width"] + 2 * dx, r["grid_height"] + 2 * dy)
        assert tuple(env.agent_pos) == (r["start_x"] + dx, r["start_y"] + dy)
        assert env.grid.get(r["goal_x"] + dx, r["goal_y"] + dy).type == "goal"
        # The agent faces its first walkable neighbour (right, down, left, up).
        fx, fy = env.front_pos
        front = env.grid.get(fx, fy)
        assert front is None or front.type in ("door", "goal")
        assert bfs_steps(env) == r["path_length"] == info["path_length"]
        assert env.max_steps == 4 * r["path_length"]
        # Walls, doors and open squares are warren's cells.
        level = env.level.grid
        codes = np.full((env.height, env.width), 0, np.uint8)
        codes[dy : dy + level.shape[0], dx : dx + level.shape[1]] = level
        objects = np.array([("empty" if c is None else c.type) for c in env.grid.grid]).reshape(codes.shape)
        objects[r["goal_y"] + dy, r["goal_x"] + dx] = "goal-square"
        expected = np.select(
            [np.isin(codes, [0, 6, 7, 8]), np.isin(codes, [2, 3])], ["wall", "door"], "empty"
        )
        expected[r["goal_y"] + dy, r["goal_x"] + dx] = "goal-square"
        assert (objects == expected).all()
        seen += 1
        _, info = env.reset()
    assert seen == len(rows)


def test_doors_and_secret_doors():
    env = env_of("dmg", set=SMALL["dmg"])
    doors = secret = 0
    for _ in range(20):
        env.reset()
        codes = env.level.grid
        dx, dy = env.offset
        for y, x in zip(*np.nonzero(np.isin(codes, [2, 3]))):
            door = env.grid.get(x + dx, y + dy)
            if (x, y) == env.level.goal:
                continue
            assert door.type == "door" and door.color == "yellow" and not door.is_locked
            assert door.is_open == (codes[y, x] == 2) or (x, y) == env.level.start
            doors += codes[y, x] == 2
            secret += codes[y, x] == 3
    assert doors and secret


def test_regions_worlds_are_padded_and_full_size_worlds_work():
    env = env_of("regions", chunk_size=2)
    _, info = env.reset(seed=5)
    level = env.level
    assert level.grid.shape == (256, 256) and level.start[0] == 0
    assert info["offset"] == (1, 1) and (env.width, env.height) == (258, 258)
    assert all(env.grid.get(x, y).type == "wall" for x in range(258) for y in (0, 257))
    assert all(env.grid.get(x, y).type == "wall" for y in range(258) for x in (0, 257))
    assert tuple(env.agent_pos) == (1, level.start[1] + 1)
    assert bfs_steps(env) == level.path_length
    # Walking off the left edge is impossible: the ring holds the agent in.
    env.agent_dir = 2
    for _ in range(3):
        env.step(env.actions.forward)
    assert env.agent_pos[0] >= 1


def test_determinism_and_reset_seed():
    a = env_of("grammar", seed=9)
    b = env_of("grammar", seed=9)
    for _ in range(4):
        _, ia = a.reset()
        _, ib = b.reset()
        ea, eb = encoding(a), encoding(b)
        assert ia == ib and (ea[0] == eb[0]).all() and ea[1:] == eb[1:]
    # reset(seed=k) lays out level k, then k + 1, k + 2, ... whatever came before.
    _, i1 = a.reset(seed=40)
    e1 = encoding(a)
    _, i2 = a.reset()
    a.reset(seed=3)
    _, j1 = a.reset(seed=40)
    f1 = encoding(a)
    _, j2 = a.reset()
    assert (i1["level"], i2["level"]) == (40, 41) == (j1["level"], j2["level"])
    assert (e1[0] == f1[0]).all() and e1[1:] == f1[1:]
    # The level is warren's level 40 of master seed 9 whichever way it is made: alone, through
    # `start`, in chunks of another size.
    a.reset(seed=40)
    one = warren.generate("grammar", 1, seed=9, start=40)
    assert one.column("index")[0].as_py() == 40
    assert one.column("grid")[0].as_py() == a.level.grid.tobytes()
    for other in (env_of("grammar", seed=9, start=40), env_of("grammar", seed=9, start=40, chunk_size=7)):
        _, info = other.reset()
        assert info["level"] == 40 and (encoding(other)[0] == encoding(a)[0]).all()
    # Another master seed gives other levels; the seed re-seeds np_random as Gymnasium wants.
    c = env_of("grammar", seed=10)
    c.reset(seed=40)
    assert c.level.grid.tobytes() != a.level.grid.tobytes()
    r1 = a.np_random.integers(1 << 30)
    a.reset(seed=40)
    assert a.np_random.integers(1 << 30) == r1


def test_failed_grammar_seeds_are_skipped(warren_bin, tmp_path):
    table = warren.generate("grammar", 64, seed=0)
    held = set(table.column("index").to_pylist())
    missing = sorted(set(range(64)) - held)
    assert missing, "expected a grammar seed of master seed 0 below 64 to fail"
    k = missing[0]
    env = env_of("grammar", seed=0)
    _, info = env.reset(seed=k)
    assert info["level"] == min(i for i in held if i > k)
    path = cli_archive(warren_bin, tmp_path / "g.arrow", "grammar", "--count", "64", "--seed", "0")
    stored = env_of(path)
    _, info = stored.reset(seed=k)
    assert info["level"] == min(i for i in held if i > k)
    assert stored.level.grid.tobytes() == env.level.grid.tobytes()


def test_archive_gives_the_kinds_levels(warren_bin, tmp_path):
    sets = ["--set", "maze.width=5", "--set", "maze.height=7", "--set", "maze.braid=0.3"]
    path = cli_archive(warren_bin, tmp_path / "m.arrow", "maze", "--count", "40", "--seed", "12", *sets)
    stored = env_of(path)
    made = env_of("maze", seed=12, set={"maze.width": 5, "maze.height": 7, "maze.braid": 0.3}, chunk_size=16)
    for k in range(40):
        _, i1 = stored.reset()
        _, i2 = made.reset()
        e1, e2 = encoding(stored), encoding(made)
        assert i1 == i2 and i1["level"] == k
        assert (e1[0] == e2[0]).all() and e1[1:] == e2[1:]
    # The archive cycles: after its last level comes its first; seeds wrap into its indices.
    assert stored.reset()[1]["level"] == 0
    assert stored.reset(seed=41)[1]["level"] == 1
    assert stored.reset(seed=1000)[1]["level"] == 1000 % 40
    # A table read from the archive is a source too, and unpickled environments reopen theirs.
    # (a table in another order is laid out in index order all the same).
    table = pa.ipc.open_file(pa.memory_map(path)).read_all()
    from_table = env_of(table)
    from_table.reset(seed=7)
    reversed_table = env_of(table.take(pa.array(np.arange(table.num_rows)[::-1])))
    reversed_table.reset(seed=6)
    assert reversed_table.reset()[1]["level"] == 7
    copy = pickle.loads(pickle.dumps(stored))
    copy.reset(seed=7)
    made.reset(seed=7)
    for env in (from_table, reversed_table, copy):
        assert (encoding(env)[0] == encoding(made)[0]).all() and encoding(env)[1:] == encoding(made)[1:]


def one_line_error(excinfo, *words):
    message = str(excinfo.value)
    assert "\n" not in message
    for word in words:
        assert word in message
    return message


def test_bad_input(warren_bin, tmp_path):
    with pytest.raises(ValueError) as e:
        wm.WarrenEnv("labyrinth")
    one_line_error(e, "labyrinth")
    coloring = cli_archive(warren_bin, tmp_path / "c.arrow", "coloring", "--count", "3")
    with pytest.raises(ValueError) as e:
        wm.WarrenEnv(coloring)
    one_line_error(e, "coloring", "no grid")
    with pytest.raises(ValueError) as e:
        wm.WarrenEnv("coloring")
    one_line_error(e, "coloring", "no grid")
    with pytest.raises(ValueError) as e:
        wm.WarrenEnv("maze", set={"maze.topology": "delaunay"})
    one_line_error(e, "delaunay", "no grid")
    delaunay = cli_archive(warren_bin, tmp_path / "d.arrow", str(ROOT / "profiles" / "maze-delaunay.toml"), "--count", "3")
    with pytest.raises(ValueError) as e:
        wm.WarrenEnv(delaunay)
    one_line_error(e, "delaunay")
    with pytest.raises(ValueError) as e:
        wm.WarrenEnv(str(ROOT / "profiles" / "maze-delaunay.toml"))
    one_line_error(e, "delaunay")
    with pytest.raises(ValueError) as e:
        wm.WarrenEnv(pa.table({"index": [0]}))
    one_line_error(e, "not warren levels")
    with pytest.raises(ValueError) as e:
        wm.WarrenEnv(delaunay, seed=3)
    one_line_error(e, "seed and set")
    with pytest.raises(ValueError) as e:
        wm.WarrenEnv("maze", door_color="orange")
    one_line_error(e, "orange")
    with pytest.raises(ValueError) as e:
        wm.WarrenEnv("maze", set={"maze.width": -4})
    one_line_error(e)
    with pytest.raises(FileNotFoundError):
        wm.WarrenEnv(str(tmp_path / "missing.arrow"))


def test_random_policy_example_over_1000_levels():
    out = subprocess.run(
        [sys.executable, str(EXAMPLE), "maze", "--count", "1000", "--set", "maze.width=2", "--set", "maze.height=2"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert out.startswith("levels 1000  steps ")
    assert "goals reached" in out and "levels/s" in out
