"""warren levels as a `MiniGrid <https://minigrid.farama.org>`_ environment: every reset lays out
the next warren level (walls, doors, the agent on the level's start, a green ``Goal`` on its
goal) in a ``minigrid.minigrid_env.MiniGridEnv``, so MiniGrid's agents, wrappers and training
code play pre-made levels unchanged (the request of Farama Minigrid issue #375).

>>> import gymnasium as gym
>>> import warren.minigrid
>>> env = warren.minigrid.WarrenEnv("maze", seed=7, set={"maze.width": 8, "maze.height": 8})
>>> obs, info = env.reset()                       # level 0 of master seed 7
>>> obs, info = env.reset()                       # level 1
>>> obs, info = env.reset(seed=42)                # level 42; the next reset() lays out 43
>>> info                                          # {"level": 42, "path_length": ..., "offset": (0, 0)}
>>> env = gym.make("warren/MiniGrid-v0", source="runs/dmg.arrow")     # an archive's levels

**Sources.** ``source`` is a generator kind (``"maze"``, ``"dmg"``, ``"regions"``,
``"grammar"``, ``"map"``) or a profile file (``.toml``), generated in process with master seed
``seed`` and the overrides ``set`` (as ``warren.generate`` takes them) in chunks of
``chunk_size`` levels (256, aligned on multiples of ``chunk_size``; the last two chunks are
kept), or an archive written by ``warren generate`` (any file that starts with Arrow's
``ARROW1`` magic, read through a memory map), or a ``pyarrow.Table`` of levels. Levels are a
pure function of (profile, master seed, index), so an archive and its kind give the same
levels for the same master seed.

**Which level.** Each level has its warren index. ``reset(seed=k)`` lays out level ``k`` and
re-seeds the environment's ``np_random`` (MiniGrid's own seeding, which nothing here draws
from); ``reset()`` without a seed lays out the level after the previous one; the first
``reset()`` lays out level ``start`` (default 0 for a kind; an archive's first level). So
``reset(seed=k)`` followed by ``reset()``s always lays out ``k, k+1, k+2, ...``: the
determinism Gymnasium's ``check_env`` asks for. A seed that failed to make a level (a few
grammar seeds; the archive then lacks that index) is skipped: the next level that exists is
laid out. An archive (or table) is cycled in index order: after its last level comes its
first again, and ``reset(seed=k)`` for an index it does not hold wraps ``k`` into its index
span, ``first + (k - first) % (last - first + 1)``, and lays out the first level at or after
that (so ``k`` beyond the archive's levels still gives a fixed level).

**Layout.** warren's cells become MiniGrid objects: wall, pillar, filled and void ->
``Wall``; floor and stairs -> empty; door -> an open ``Door``; secret door -> a closed,
unlocked ``Door`` (the agent opens it with ``toggle``); both doors ``door_color`` (default
``"yellow"``: not the grey of walls nor the green of the goal). The goal square holds a
``Goal`` whatever it held; the agent stands on the start square (a secret door there is laid
out open) facing its first walkable neighbour in MiniGrid's direction order (0 right, +x;
1 down, +y; 2 left; 3 up), 0 when it has none (as warren's JaxUED export). MiniGrid needs a
wall ring around the grid (the agent would step off it otherwise): a level whose border has a
walkable square (every ``regions`` world: the root's passage enters at the left edge) is
padded with one ring of walls and all its positions shift by one: ``info["offset"]`` (also
``env.offset``) is ``(1, 1)`` then, ``(0, 0)`` for every other level (mazes, DMG, grammar and
map levels have their own wall ring). The environment's ``width`` and ``height`` follow each
level (the agent's view, and so the observation space, does not depend on them). Wall squares
share one ``Wall`` object, so even a regions world (258 x 258 with its ring) lays out in about a
millisecond once generated (a chunk of 256 default regions or grammar levels takes about 0.6 s
to generate on two cores).

**Episodes.** ``mission`` is ``"get to the green goal square"``; reaching the goal ends the
episode with MiniGrid's reward ``1 - 0.9 * steps / max_steps``. ``max_steps`` (the truncation
budget) defaults to 4 steps per square of the level's shortest path, ``4 * path_length``
(turns and toggles count as steps: a path with a turn at most every square needs up to 3
steps a square), and can be fixed with ``max_steps=n``. The reset's ``info`` holds the level's
``level`` (index), ``path_length`` and ``offset``; ``env.level`` is the current ``Level``
(warren's own grid codes, start, goal and path length, before padding).

**Refused** (``ValueError``, one line): an unknown kind or bad profile value (warren's own
messages), kinds without a grid (``coloring``), mazes of ``delaunay`` topology (no grid),
archives or tables without warren's schema metadata or without the start and goal columns
(written before warren 0.3), empty archives, and a ``door_color`` that MiniGrid has not.

**Gymnasium id.** Importing this module registers ``warren/MiniGrid-v0`` (entry point
``warren.minigrid:WarrenEnv``), so ``gym.make("warren/MiniGrid-v0", source=..., ...)`` works
after ``import warren.minigrid``, and without the import as
``gym.make("warren.minigrid:warren/MiniGrid-v0", ...)`` (Gymnasium imports the module first).

**Install** with the extra ``warren[minigrid]`` (``minigrid>=2.3.1``, ``gymnasium>=0.29.1``;
tested with minigrid 2.3.1 and gymnasium 0.29.1, and with minigrid 3.2.0 and gymnasium 1.4.0).
"""

from __future__ import annotations

import os
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import pyarrow as pa

try:
    import gymnasium
    from minigrid.core.constants import COLOR_NAMES
    from minigrid.core.grid import Grid
    from minigrid.core.mission import MissionSpace
    from minigrid.core.world_object import Door, Goal, Wall
    from minigrid.minigrid_env import MiniGridEnv
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("warren.minigrid needs MiniGrid: pip install 'warren[minigrid]' (minigrid, gymnasium)") from e

import warren

__all__ = ["ENV_ID", "Level", "WarrenEnv"]

#: The Gymnasium id this module registers on import.
ENV_ID = "warren/MiniGrid-v0"

MISSION = "get to the green goal square"

#: The kinds whose levels are grids with a start and a goal (the engine's kind registry).
GRID_KINDS = tuple(k["name"] for k in warren.kind_facts() if k["grid"])

_WALL, _FLOOR, _DOOR, _SECRET_DOOR, _STAIRS_UP, _STAIRS_DOWN = 0, 1, 2, 3, 4, 5
_LAST_CODE = 8  # void
_WALKABLE = np.zeros(256, bool)
_WALKABLE[[_FLOOR, _DOOR, _SECRET_DOOR, _STAIRS_UP, _STAIRS_DOWN]] = True
_COLUMNS = ("index", "grid", "grid_width", "grid_height", "start_x", "start_y", "goal_x", "goal_y", "path_length")
_METRICS = ("grid_width", "grid_height", "start_x", "start_y", "goal_x", "goal_y", "path_length")
# MiniGrid's directions (minigrid.core.constants.DIR_TO_VEC): right, down, left, up.
_DIRECTIONS = ((1, 0), (0, 1), (-1, 0), (0, -1))
# A kind source gives up when this many indices in a row made no level.
_MAX_GAP = 4096
_U64 = 2**64

#: What a source can be: a kind, a profile or archive path, or a table (or batch) of levels.
Source = Union[str, "os.PathLike[str]", pa.Table, pa.RecordBatch]


def _mission() -> str:
    return MISSION


@dataclass(frozen=True, eq=False)
class Level:
    """One warren level as the environment lays it out: its ``index``, its ``grid`` of warren
    cell codes (numpy uint8 (H, W), read-only, before any padding), ``start`` and ``goal``
    (x, y) in that grid, and ``path_length`` (4-neighbour steps over walkable squares)."""

    index: int
    grid: np.ndarray
    start: Tuple[int, int]
    goal: Tuple[int, int]
    path_length: int


def _profile_topology(text: str) -> str:
    """``maze.topology`` of a stored profile (flat ``key = value`` lines under headers)."""
    section = ""
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == "maze" and line.partition("=")[0].strip() == "topology":
            return line.partition("=")[2].strip().strip("\"'")
    return "lattice"


def _check_schema(schema: pa.Schema, shown: str) -> str:
    """The kind of the levels ``schema`` describes; refuses what has no grid, start and goal."""
    meta = schema.metadata or {}
    kind = meta.get(b"warren.generator")
    if kind is None:
        raise ValueError(f"{shown}: not warren levels (the schema metadata has no warren.generator)")
    kind = kind.decode()
    if kind not in GRID_KINDS:
        raise ValueError(
            f"{shown}: `{kind}` levels have no grid to lay out (MiniGrid takes {', '.join(GRID_KINDS)} levels)"
        )
    if kind == "maze":
        topology = _profile_topology(meta.get(b"warren.profile", b"").decode())
        if topology != "lattice":
            raise ValueError(f"{shown}: these mazes have topology `{topology}`, which has no grid (MiniGrid needs maze.topology = \"lattice\")")
    missing = [c for c in _COLUMNS if c not in schema.names]
    if missing:
        raise ValueError(
            f"{shown}: no {', '.join(missing)} column{'s' if len(missing) > 1 else ''} "
            "(archives written before warren 0.3 have no start and goal: generate them again)"
        )
    return kind


_NUMPY_TYPES = {
    pa.uint8(): np.uint8,
    pa.uint16(): np.uint16,
    pa.uint32(): np.uint32,
    pa.uint64(): np.uint64,
    pa.int32(): np.int32,
    pa.int64(): np.int64,
}


def _numbers(array: pa.Array) -> np.ndarray:
    """A primitive integer array without nulls as a numpy view of its buffer. (pyarrow's own
    ``to_numpy`` imports pandas when it is installed, a second on the first call.)"""
    dtype = _NUMPY_TYPES.get(array.type)
    if dtype is None or array.null_count:
        raise ValueError(f"a {array.type} column{' with nulls' if array.null_count else ''} where warren writes unsigned integers")
    if not len(array):
        return np.zeros(0, dtype)
    return np.frombuffer(array.buffers()[1], dtype, count=len(array), offset=array.offset * np.dtype(dtype).itemsize)


def _cells(column: pa.Array, row: int, size: int) -> np.ndarray:
    """The cells of ``column[row]`` (a fixed-shape tensor or binary grid) as a flat uint8 view."""
    if isinstance(column, pa.ExtensionArray):
        column = column.storage
    if pa.types.is_fixed_size_list(column.type):
        n = column.type.list_size
        cells = _numbers(column.values.slice((column.offset + row) * n, n))
    elif column.type in (pa.binary(), pa.large_binary()):
        scalar = column[row]
        if not scalar.is_valid:
            raise ValueError("a level has no grid")
        cells = np.frombuffer(scalar.as_buffer(), np.uint8)
    else:
        raise ValueError(f"the grid column is {column.type}, not binary or a fixed-shape tensor")
    if cells.size != size:
        raise ValueError(f"a grid holds {cells.size} cells, its grid_width x grid_height says {size}")
    return cells


class _Rows:
    """Levels held in record batches, looked up in ascending index order. Only the index column
    is gathered (8 bytes a level); a level's grid and metrics are read from its batch."""

    def __init__(self, batches: Sequence[pa.RecordBatch]) -> None:
        self.batches: List[pa.RecordBatch] = [b for b in batches if b.num_rows]
        sizes = np.array([b.num_rows for b in self.batches], np.int64)
        self._starts = np.concatenate([[0], np.cumsum(sizes)[:-1]]) if sizes.size else sizes
        parts = [_numbers(b.column("index")) for b in self.batches]
        index = np.concatenate(parts).astype(np.uint64) if parts else np.zeros(0, np.uint64)
        # warren writes ascending indices; a table in another order is looked up through `order`.
        self._order: Optional[np.ndarray] = None
        if index.size > 1 and not (index[1:] > index[:-1]).all():
            self._order = np.argsort(index, kind="stable")
            index = index[self._order]
        self.index = index

    def __len__(self) -> int:
        return int(self.index.size)

    def first_at_or_after(self, k: int) -> Optional[int]:
        """The position of the lowest index >= k, None when every index is below k."""
        r = int(np.searchsorted(self.index, np.uint64(k), side="left"))
        return r if r < len(self) else None

    def level(self, r: int) -> Level:
        p = r if self._order is None else int(self._order[r])
        b = int(np.searchsorted(self._starts, p, side="right")) - 1
        batch, i = self.batches[b], p - int(self._starts[b])
        m = {name: int(_numbers(batch.column(name))[i]) for name in _METRICS}
        w, h = m["grid_width"], m["grid_height"]
        index = int(self.index[r])
        try:
            grid = _cells(batch.column("grid"), i, w * h).reshape(h, w)
        except ValueError as e:
            raise ValueError(f"level {index}: {e}") from None
        grid.flags.writeable = False  # a view of the levels' own buffer
        start, goal = (m["start_x"], m["start_y"]), (m["goal_x"], m["goal_y"])
        for what, (x, y) in (("start", start), ("goal", goal)):
            if x >= w or y >= h or not _WALKABLE[grid[y, x]]:
                raise ValueError(f"level {index}: its {what} ({x}, {y}) is not a walkable square of its {w} x {h} grid")
        return Level(index, grid, start, goal, m["path_length"])


class _Stored:
    """The levels of an archive or table, cycled in index order."""

    def __init__(self, batches: Sequence[pa.RecordBatch], schema: pa.Schema, shown: str) -> None:
        self.kind = _check_schema(schema, shown)
        self._rows = _Rows(batches)
        if not len(self._rows):
            raise ValueError(f"{shown}: holds no levels")
        self._first, self._last = int(self._rows.index[0]), int(self._rows.index[-1])

    def default_start(self) -> int:
        return self._first

    def at(self, k: int) -> Level:
        span = self._last - self._first + 1
        r = self._rows.first_at_or_after(self._first + (k - self._first) % span)
        assert r is not None  # the wrapped index is at most the last one
        return self._rows.level(r)

    def after(self, level: Level) -> int:
        return level.index + 1 if level.index < self._last else self._first


class _Generated:
    """The levels of a kind or profile, generated in chunks of ``chunk_size`` aligned indices."""

    def __init__(self, source: str, seed: int, sets: List[str], threads: Optional[int], chunk_size: int) -> None:
        self._args = dict(seed=seed, set=sets, threads=threads)
        self._source = source
        with warren.batches(source, 0, seed=seed, set=sets) as probe:  # a bad kind or value fails here
            self.kind = _check_schema(probe.schema, f"`{source}`")
        self._chunk_size = chunk_size
        self._chunks: "OrderedDict[int, _Rows]" = OrderedDict()

    def default_start(self) -> int:
        return 0

    def _chunk(self, lo: int) -> _Rows:
        rows = self._chunks.get(lo)
        if rows is None:
            count = min(self._chunk_size, _U64 - lo)
            table = warren.generate(self._source, count, start=lo, chunk_size=count, **self._args)
            rows = self._chunks[lo] = _Rows(table.to_batches())
            while len(self._chunks) > 2:
                self._chunks.popitem(last=False)
        else:
            self._chunks.move_to_end(lo)
        return rows

    def at(self, k: int) -> Level:
        if not 0 <= k < _U64:
            raise ValueError(f"level {k} is out of range 0..2**64")
        first = k
        while k < _U64 and k - first < _MAX_GAP:
            lo = k - k % self._chunk_size
            rows = self._chunk(lo)
            r = rows.first_at_or_after(k)
            if r is not None:
                return rows.level(r)
            k = lo + self._chunk_size
        raise RuntimeError(f"`{self._source}` made no level at indices {first}..{k - 1}: every seed failed")

    def after(self, level: Level) -> int:
        return (level.index + 1) % _U64


def _is_archive(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(6) == b"ARROW1"
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return False


def _open(source: Source, seed: Optional[int], sets: warren.Sets, threads: Optional[int], chunk_size: int):
    if isinstance(source, (pa.Table, pa.RecordBatch)):
        stored = source if isinstance(source, pa.Table) else pa.Table.from_batches([source])
        _fixed_levels(seed, sets, "a table")
        return _Stored(stored.to_batches(), stored.schema, "the table")
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"source must be a kind, a profile or archive path, or a pyarrow Table, not {type(source).__name__}")
    path = os.fspath(source)
    if _is_archive(path):
        _fixed_levels(seed, sets, path)
        reader = pa.ipc.open_file(pa.memory_map(path))
        return _Stored([reader.get_batch(i) for i in range(reader.num_record_batches)], reader.schema, path)
    if path.endswith(".arrow"):
        if not os.path.exists(path):
            raise FileNotFoundError(f"{path}: no such archive")
        raise ValueError(f"{path}: not an Arrow IPC file (no ARROW1 magic): write archives with `warren generate`")
    return _Generated(path, 0 if seed is None else warren._index(seed, "seed"), warren._sets(sets), threads, chunk_size)


def _fixed_levels(seed: Optional[int], sets: warren.Sets, shown: str) -> None:
    if seed is not None or sets:
        raise ValueError(f"{shown}: stored levels are made already; seed and set apply to a kind or profile only")


class WarrenEnv(MiniGridEnv):
    """A MiniGrid environment whose every reset lays out the next warren level (see the module
    documentation for the sources, the seeding, the layout and what is refused).

    ``source``: a kind, a profile file, an archive written by ``warren generate``, or a
    ``pyarrow.Table`` of levels. ``seed``: the master seed (kinds and profiles; default 0).
    ``set``: profile overrides (``{"maze.width": 16}``). ``start``: the level the first
    ``reset()`` lays out. ``max_steps``: a fixed step budget per episode (default
    ``4 * path_length`` of each level). ``door_color``: the colour of every door.
    ``chunk_size``: levels generated at once. ``threads``: the engine's worker threads (default
    all cores; 1 in each process of a vector environment keeps them from competing). The other
    arguments are MiniGrid's.
    """

    def __init__(
        self,
        source: Source = "maze",
        *,
        seed: Optional[int] = None,
        set: warren.Sets = None,
        start: Optional[int] = None,
        max_steps: Optional[int] = None,
        door_color: str = "yellow",
        chunk_size: int = 256,
        threads: Optional[int] = None,
        agent_view_size: int = 7,
        see_through_walls: bool = False,
        render_mode: Optional[str] = None,
        **kwargs: Any,
    ) -> None:
        if door_color not in COLOR_NAMES:
            raise ValueError(f"door_color `{door_color}` is not a MiniGrid colour ({', '.join(COLOR_NAMES)})")
        if max_steps is not None:
            max_steps = warren._index(max_steps, "max_steps", 1)
        chunk_size = warren._index(chunk_size, "chunk_size", 1)
        self._source_args = (source, seed, set, threads, chunk_size)
        self._levels = _open(source, seed, set, threads, chunk_size)
        self.kind: str = self._levels.kind
        self._next: int = self._levels.default_start() if start is None else warren._index(start, "start")
        self._fixed_max_steps = max_steps
        self.door_color = door_color
        self._wall = Wall()
        # Cell code -> MiniGrid object (doors are made one by one: they open and close).
        self._objects = np.full(256, self._wall, dtype=object)
        self._objects[[_FLOOR, _DOOR, _SECRET_DOOR, _STAIRS_UP, _STAIRS_DOWN]] = None
        self.level: Optional[Level] = None
        self.offset: Tuple[int, int] = (0, 0)
        super().__init__(
            mission_space=MissionSpace(mission_func=_mission),
            width=3,
            height=3,
            max_steps=max_steps if max_steps is not None else 100,
            see_through_walls=see_through_walls,
            agent_view_size=agent_view_size,
            render_mode=render_mode,
            **kwargs,
        )

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[Dict[str, Any], Dict[str, Any]]:
        """Lays out level ``seed`` when given (and seeds ``np_random`` with it), else the level
        after the previous one. ``info``: ``{"level": index, "path_length": n, "offset": (dx, dy)}``."""
        if seed is not None:
            self._next = warren._index(seed, "seed")
        obs, _ = super().reset(seed=seed, options=options)
        level = self.level
        assert level is not None
        return obs, {"level": level.index, "path_length": level.path_length, "offset": self.offset}

    def _gen_grid(self, width: int, height: int) -> None:
        if self._levels is None:
            self._levels = _open(*self._source_args)
        level = self._levels.at(self._next)
        self._next = self._levels.after(level)
        codes = level.grid
        if int(codes.max()) > _LAST_CODE:
            raise ValueError(f"level {level.index}: cell code {int(codes.max())} is none of warren's (0..{_LAST_CODE})")
        border = np.concatenate([codes[0], codes[-1], codes[:, 0], codes[:, -1]])
        pad = int(_WALKABLE[border].any()) or int(min(codes.shape) < 3)
        if pad:
            codes = np.pad(codes, 1, constant_values=_WALL)
        h, w = codes.shape
        self.width, self.height = w, h
        self.grid = Grid(w, h)
        self.grid.grid = self._objects[codes.ravel()].tolist()
        for flat in np.flatnonzero((codes == _DOOR) | (codes == _SECRET_DOOR)).tolist():
            y, x = divmod(flat, w)
            self.grid.grid[flat] = Door(self.door_color, is_open=bool(codes[y, x] == _DOOR))
        sx, sy = level.start[0] + pad, level.start[1] + pad
        gx, gy = level.goal[0] + pad, level.goal[1] + pad
        self.put_obj(Goal(), gx, gy)
        here = self.grid.get(sx, sy)
        if here is not None and here.type == "door":
            here.is_open = True
        self.agent_pos = (sx, sy)
        self.agent_dir = 0
        for d, (dx, dy) in enumerate(_DIRECTIONS):
            x, y = sx + dx, sy + dy
            if 0 <= x < w and 0 <= y < h and _WALKABLE[codes[y, x]]:
                self.agent_dir = d
                break
        self.max_steps = self._fixed_max_steps or max(4 * level.path_length, 4)
        self.mission = MISSION
        self.level = level
        self.offset = (pad, pad)

    def close(self) -> None:
        """Closes MiniGrid's window and lets go of the levels (a later reset opens them again)."""
        super().close()
        self._levels = None

    def __getstate__(self) -> Dict[str, Any]:
        # An archive's memory map does not pickle; the unpickled environment opens it again.
        state = self.__dict__.copy()
        state["_levels"] = None
        return state


if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="warren.minigrid:WarrenEnv")
