"""warren's lattice mazes as `maze-dataset <https://github.com/understanding-search/maze-dataset>`_
objects: ``LatticeMaze``, ``SolvedMaze`` and ``MazeDataset``, so that maze-dataset's tokenizers,
plots, filters and ``save``/``read`` work on them unchanged.

>>> import warren, warren.maze_dataset as wmd
>>> table = warren.generate("maze", 1000, seed=7, set={"maze.algorithm": "wilson", "maze.width": 8, "maze.height": 8})
>>> mazes = wmd.lattice_mazes(table)        # list of maze_dataset.LatticeMaze
>>> solved = wmd.solved_mazes(table)        # list of maze_dataset.SolvedMaze, warren's start and goal
>>> ds = wmd.maze_dataset(table)            # maze_dataset.MazeDataset, 1000 mazes, grid_n = 8
>>> from maze_dataset.tokenization import MazeTokenizerModular
>>> tokens = ds.as_tokens(MazeTokenizerModular())

A table read from an archive works the same (``pa.ipc.open_file(pa.memory_map("m.arrow"))
.read_all()``), and so does the archive's path: ``wmd.solved_mazes("m.arrow")``.

**How.** A W x H lattice maze is stored as its (2W+1) x (2H+1) tile grid: room (x, y) is the tile
(2x+1, 2y+1) and the tile between two neighbouring rooms is floor exactly when a passage joins
them. maze-dataset addresses the same rooms as (row, col) = (y, x), and its ``connection_list``
is a bool array of shape (2, H, W): ``[0][r, c]`` is the passage from (r, c) down to (r+1, c),
``[1][r, c]`` the passage from (r, c) right to (r, c+1), i.e. the grid's tiles
``[2r+2, 2c+1]`` and ``[2r+1, 2c+2]``: two strided slices of the grid, taken for all mazes at
once. A ``SolvedMaze`` starts at warren's ``start_room`` and ends at its ``goal_room`` (room id
= y * W + x, the two ends of the maze's longest path); its solution is a shortest path between
them, found by a breadth-first wavefront run on all mazes of a chunk at once with numpy (the
unique path in a perfect maze, one shortest path in a braided one), and checked against the
``diameter`` metric (passages on that path). Each maze's ``generation_meta`` records where it
came from: ``func_name="gen_warren"``, the algorithm, ``warren_master_seed`` and
``warren_index`` (``warren.generate(profile, 1, seed=master_seed, start=index)`` makes it again).

``maze_dataset`` describes the data in a ``MazeDatasetConfig``: ``name`` (default
``warren-<algorithm>``, plus ``-braid<b>`` for braided mazes), ``grid_n``, ``n_mazes``, and
``maze_ctor=gen_warren`` with ``maze_ctor_kwargs={"sets": ...}``, every value of the table's
``[maze]`` profile but width and height. ``gen_warren`` is a maze-dataset generator (registered
in ``GENERATORS_MAP`` when this module is imported, so such a config loads again, e.g. in
``MazeDataset.read``) that makes one warren maze of a grid shape; ``MazeDataset.from_config`` on
the config therefore generates *new* warren mazes with maze-dataset's own choice of endpoints,
not these.

**Refused** (``ValueError``, one line): levels of another kind than ``maze``, tables without
warren's schema metadata, mazes of ``delaunay`` topology (no lattice), and lattices with holes
(``maze.holes`` > 0, void rooms in the grid): maze-dataset's ``LatticeMaze`` has a node at every
lattice cell and no notion of a missing room (a hole would have to become a walled-in cell that
plots, pixel grids and the ``rooms`` count take for a room). ``maze_dataset`` also refuses
mazes that are not square (``MazeDatasetConfig`` has one ``grid_n``); ``lattice_mazes`` and
``solved_mazes`` take any W x H.

**Install** with the extra ``warren[maze-dataset]``: ``maze-dataset==1.4.2`` with
``muutils==0.8.12`` and ``zanj==0.5.2``. The two pins are needed: with newer muutils (0.9) and
zanj (0.6) ``import maze_dataset`` 1.4.2 fails (``cannot import name '_FORMAT_KEY' from
'muutils.json_serialize.util'``, maze-dataset issue #82). maze-dataset needs Python >= 3.10.
"""

from __future__ import annotations

import json
import os
import random
from typing import Optional, Sequence, Tuple, Union

import numpy as np
import pyarrow as pa

try:
    from maze_dataset import LatticeMaze, MazeDataset, MazeDatasetConfig, SolvedMaze
    from maze_dataset.generation.generators import GENERATORS_MAP, LatticeMazeGenerators
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "warren.maze_dataset needs maze-dataset 1.4.2: pip install 'warren[maze-dataset]' "
        "(maze-dataset==1.4.2 muutils==0.8.12 zanj==0.5.2)"
    ) from e

import warren

__all__ = ["gen_warren", "lattice_mazes", "maze_dataset", "solved_mazes"]

#: A table or record batch of warren mazes, or the path of an archive written by the CLI.
Mazes = Union[pa.Table, pa.RecordBatch, str, "os.PathLike[str]"]

_WALL, _FLOOR, _VOID = 0, 1, 8
# Rooms converted at once (mazes times rooms each): bounds the breadth-first search's arrays.
_CHUNK_CELLS = 1 << 22


def _table(data: Mazes) -> pa.Table:
    if isinstance(data, pa.Table):
        return data
    if isinstance(data, pa.RecordBatch):
        return pa.Table.from_batches([data])
    if isinstance(data, (str, os.PathLike)):
        with pa.memory_map(os.fspath(data)) as source:
            return pa.ipc.open_file(source).read_all()
    raise TypeError(f"expected a pyarrow Table, RecordBatch or archive path, not {type(data).__name__}")


def _profile_values(text: str) -> dict:
    """The ``section.key`` values of a profile as warren stores it (flat ``key = value`` lines
    under ``[section]`` headers). Values are decoded when they are JSON-compatible TOML (basic
    strings, numbers, booleans, arrays) and kept as their TOML text otherwise, which warren's
    ``set=`` overrides take as they are."""
    values: dict = {}
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
            continue
        key, sep, raw = line.partition("=")
        if not sep:
            continue
        raw = raw.strip()
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw
        values[f"{section}.{key.strip()}" if section else key.strip()] = value
    return values


def _maze_profile(table: pa.Table) -> dict:
    """The table's ``[maze]`` profile values; refuses what is not a lattice maze table."""
    meta = table.schema.metadata or {}
    kind = meta.get(b"warren.generator")
    if kind is None:
        raise ValueError(
            "not a warren table: its schema metadata has no warren.generator "
            "(read archives with pyarrow, which keeps it)"
        )
    kind = kind.decode()
    if kind != "maze":
        raise ValueError(f"these are `{kind}` levels: warren.maze_dataset converts lattice mazes (kind `maze`)")
    values = _profile_values(meta.get(b"warren.profile", b"").decode())
    topology = values.get("maze.topology", "lattice")
    if topology != "lattice":
        raise ValueError(f"these mazes have topology `{topology}`: maze-dataset holds lattice mazes only")
    return values


def _need(table: pa.Table, columns: Sequence[str]) -> None:
    missing = [c for c in columns if c not in table.schema.names]
    if missing:
        plural = "s" if len(missing) > 1 else ""
        raise ValueError(f"the table has no {', '.join(missing)} column{plural} (a maze table has)")


def _rooms(grids: np.ndarray, first_index: int) -> Tuple[np.ndarray, np.ndarray]:
    """The passages of (N, 2H+1, 2W+1) lattice tile grids as maze-dataset's ``down`` and ``right``
    (N, H, W) bool arrays. Refuses grids with holes or that are no lattice maze's tiles."""
    n, gh, gw = grids.shape
    if gh % 2 == 0 or gw % 2 == 0 or gh < 3 or gw < 3:
        raise ValueError(f"a {gw} x {gh} grid is no lattice maze's tile grid (2W+1 x 2H+1)")
    rooms = grids[:, 1::2, 1::2]
    if (rooms == _VOID).any():
        level = first_index + int(np.flatnonzero((rooms == _VOID).any(axis=(1, 2)))[0])
        raise ValueError(
            f"level {level} has holes (maze.holes > 0): maze-dataset's LatticeMaze has a node at "
            "every lattice cell and cannot represent a missing room"
        )
    pillars = grids[:, ::2, ::2]
    down = grids[:, 2::2, 1::2]
    right = grids[:, 1::2, 2::2]
    bad = (
        (rooms != _FLOOR).any(axis=(1, 2))
        | (pillars != _WALL).any(axis=(1, 2))
        | ((down != _WALL) & (down != _FLOOR)).any(axis=(1, 2))
        | ((right != _WALL) & (right != _FLOOR)).any(axis=(1, 2))
        | (down[:, -1, :] != _WALL).any(axis=1)
        | (right[:, :, -1] != _WALL).any(axis=1)
    )
    if bad.any():
        level = first_index + int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"level {level}: its grid is not a lattice maze's (floor rooms, wall pillars and border, "
            "floor or wall between rooms)"
        )
    return down == _FLOOR, right == _FLOOR


def _shortest_paths(
    down: np.ndarray, right: np.ndarray, start: np.ndarray, goal: np.ndarray
) -> Tuple[np.ndarray, np.ndarray]:
    """Shortest paths from ``start`` to ``goal`` ((k, 2) (row, col)) through the passages
    ``down``/``right`` (k, H, W) of k mazes: a breadth-first wavefront over all of them at once.
    Returns (k, L+1, 2) positions and the path lengths (k,) in passages; path i is
    ``positions[i, :lengths[i] + 1]``. A goal that cannot be reached has length -1 (and then no
    path is traced)."""
    k, h, w = down.shape
    dist = np.full((k, h, w), -1, np.int32)
    at = np.arange(k)
    dist[at, start[:, 0], start[:, 1]] = 0
    # The mazes still searching, compacted as they finish: their ids, passages, front, distances.
    ids, dn, rt, gr, gc = at, down, right, goal[:, 0], goal[:, 1]
    front = np.zeros((k, h, w), bool)
    front[at, start[:, 0], start[:, 1]] = True
    seen = dist.copy()
    step = 0
    while True:
        done = seen[np.arange(ids.size), gr, gc] >= 0
        if done.any():
            dist[ids[done]] = seen[done]
            keep = ~done
            ids, dn, rt, gr, gc, front, seen = (a[keep] for a in (ids, dn, rt, gr, gc, front, seen))
        if ids.size == 0:
            break
        step += 1
        nxt = np.zeros_like(front)
        nxt[:, 1:, :] |= front[:, :-1, :] & dn[:, :-1, :]
        nxt[:, :-1, :] |= front[:, 1:, :] & dn[:, :-1, :]
        nxt[:, :, 1:] |= front[:, :, :-1] & rt[:, :, :-1]
        nxt[:, :, :-1] |= front[:, :, 1:] & rt[:, :, :-1]
        nxt &= seen < 0
        seen[nxt] = step
        front = nxt
        stuck = ~nxt.any(axis=(1, 2))
        if stuck.any():
            # Nothing left to reach and the goal not reached: it stays at -1.
            keep = ~stuck
            ids, dn, rt, gr, gc, front, seen = (a[keep] for a in (ids, dn, rt, gr, gc, front, seen))

    lengths = dist[at, goal[:, 0], goal[:, 1]]
    if (lengths < 0).any():
        return np.zeros((k, 1, 2), np.int64), lengths
    longest = int(lengths.max()) if k else 0
    positions = np.zeros((k, longest + 1, 2), np.int64)
    positions[at, lengths] = goal
    r, c = goal[:, 0].astype(np.int64), goal[:, 1].astype(np.int64)
    # Walk back from the goal: a maze whose path has t passages joins at step t.
    for t in range(longest, 0, -1):
        a = np.flatnonzero(lengths >= t)
        ra, ca = r[a], c[a]
        up, below = np.maximum(ra - 1, 0), np.minimum(ra + 1, h - 1)
        left, beside = np.maximum(ca - 1, 0), np.minimum(ca + 1, w - 1)
        moves = [
            ((ra > 0) & down[a, up, ca] & (dist[a, up, ca] == t - 1), up, ca),
            ((ra < h - 1) & down[a, ra, ca] & (dist[a, below, ca] == t - 1), below, ca),
            ((ca > 0) & right[a, ra, left] & (dist[a, ra, left] == t - 1), ra, left),
            ((ca < w - 1) & right[a, ra, ca] & (dist[a, ra, beside] == t - 1), ra, beside),
        ]
        conds = [m[0] for m in moves]
        r[a] = np.select(conds, [m[1] for m in moves], ra)
        c[a] = np.select(conds, [m[2] for m in moves], ca)
        positions[a, t - 1, 0] = r[a]
        positions[a, t - 1, 1] = c[a]
    return positions, lengths


def _meta(values: dict, table: pa.Table) -> dict:
    """The generation_meta fields every maze of the table shares."""
    return {
        "func_name": "gen_warren",
        "fully_connected": True,
        "algorithm": str(values.get("maze.algorithm", "seed001")),
        "warren_master_seed": int((table.schema.metadata or {}).get(b"warren.master_seed", b"0")),
    }


def _convert(data: Mazes, solve: bool) -> list:
    table = _table(data)
    values = _maze_profile(table)
    _need(table, ("index", "grid", "grid_width", "grid_height") + (("start_room", "goal_room") if solve else ()))
    shared = _meta(values, table)
    out: list = []
    if table.num_rows == 0:
        return out
    grids = warren.grids(table)
    n, gh, gw = grids.shape
    h, w = gh // 2, gw // 2
    index = table.column("index").to_numpy()
    if solve:
        start_room = table.column("start_room").to_numpy().astype(np.int64)
        goal_room = table.column("goal_room").to_numpy().astype(np.int64)
        if (start_room >= h * w).any() or (goal_room >= h * w).any():
            bad = int(np.flatnonzero((start_room >= h * w) | (goal_room >= h * w))[0])
            raise ValueError(f"level {int(index[bad])}: start_room or goal_room outside its {h * w} rooms")
        diameter = table.column("diameter").to_numpy() if "diameter" in table.schema.names else None
    chunk = max(1, _CHUNK_CELLS // (h * w))
    for lo in range(0, n, chunk):
        hi = min(n, lo + chunk)
        down, right = _rooms(grids[lo:hi], int(index[lo]))
        # One (k, 2, H, W) array; maze i holds the view [i].
        connections = np.stack([down, right], axis=1)
        if solve:
            start = np.stack([start_room[lo:hi] // w, start_room[lo:hi] % w], axis=1)
            goal = np.stack([goal_room[lo:hi] // w, goal_room[lo:hi] % w], axis=1)
            positions, lengths = _shortest_paths(down, right, start, goal)
            if (lengths < 0).any():
                level = int(index[lo + int(np.flatnonzero(lengths < 0)[0])])
                raise ValueError(f"level {level}: its goal room cannot be reached from its start room")
            if diameter is not None and (lengths != diameter[lo:hi]).any():
                i = int(np.flatnonzero(lengths != diameter[lo:hi])[0])
                raise ValueError(
                    f"level {int(index[lo + i])}: the shortest path from start to goal has {int(lengths[i])} "
                    f"passages, its diameter metric says {int(diameter[lo + i])}"
                )
        for i in range(hi - lo):
            meta = dict(shared, grid_shape=np.array([h, w]), warren_index=int(index[lo + i]))
            if solve:
                out.append(
                    SolvedMaze(
                        connection_list=connections[i],
                        solution=positions[i, : lengths[i] + 1],
                        generation_meta=meta,
                    )
                )
            else:
                out.append(LatticeMaze(connection_list=connections[i], generation_meta=meta))
    return out


def lattice_mazes(data: Mazes) -> "list[LatticeMaze]":
    """Each maze of ``data`` (a table or record batch of warren lattice mazes, or an archive's
    path) as a ``maze_dataset.LatticeMaze``, in row order: ``connection_list`` (2, H, W) bool
    (down, right) of the rooms' (row, col) = (y, x), and ``generation_meta`` naming warren, the
    algorithm, the master seed and the level's index. Raises ``ValueError`` for levels that are
    not lattice mazes or have holes."""
    return _convert(data, solve=False)


def solved_mazes(data: Mazes) -> "list[SolvedMaze]":
    """Each maze of ``data`` as a ``maze_dataset.SolvedMaze``: the ``LatticeMaze`` of
    ``lattice_mazes`` with ``start_pos`` at warren's ``start_room``, ``end_pos`` at its
    ``goal_room`` and ``solution`` a shortest path between them, an (n, 2) array of (row, col)
    (the only path in a perfect maze). Raises ``ValueError`` as ``lattice_mazes`` does, and when
    a path's length disagrees with the ``diameter`` metric."""
    return _convert(data, solve=True)


def _name(values: dict) -> str:
    name = f"warren-{values.get('maze.algorithm', 'seed001')}"
    braid = values.get("maze.braid", 0.0)
    if isinstance(braid, (int, float)) and braid > 0:
        name += f"-braid{braid:g}"
    return name


def maze_dataset(data: Mazes, name: Optional[str] = None) -> "MazeDataset":
    """The mazes of ``data`` as a ``maze_dataset.MazeDataset`` of the ``solved_mazes`` (no maze is
    regenerated), with a ``MazeDatasetConfig`` that describes them: ``name`` (default
    ``warren-<algorithm>``, ``-braid<b>`` added for braided mazes), ``grid_n``, ``n_mazes``,
    ``maze_ctor=gen_warren`` and ``maze_ctor_kwargs={"sets": <the table's [maze] profile but
    width and height>}``. Raises ``ValueError`` as ``solved_mazes`` does, and for mazes that are
    not square (a config has one ``grid_n``).

    Making the config does not disturb the caller's random state (maze-dataset's config re-seeds
    ``random`` and ``numpy.random`` globally; this function puts both back)."""
    table = _table(data)
    values = _maze_profile(table)
    _need(table, ("grid_width", "grid_height"))
    if table.num_rows:
        w, h = int(table.column("grid_width")[0].as_py()) // 2, int(table.column("grid_height")[0].as_py()) // 2
    else:
        w, h = int(values.get("maze.width", 0)), int(values.get("maze.height", 0))
    if w != h:
        raise ValueError(f"these mazes are {w} x {h} rooms: a MazeDatasetConfig describes square grid_n x grid_n mazes")
    mazes = solved_mazes(table)
    sets = {k: v for k, v in values.items() if k.startswith("maze.") and k not in ("maze.width", "maze.height")}
    states = random.getstate(), np.random.get_state()
    try:
        cfg = MazeDatasetConfig(
            name=name if name is not None else _name(values),
            grid_n=h,
            n_mazes=len(mazes),
            maze_ctor=gen_warren,
            maze_ctor_kwargs={"sets": sets},
        )
    finally:
        random.setstate(states[0])
        np.random.set_state(states[1])
    return MazeDataset(cfg=cfg, mazes=mazes)


def gen_warren(
    grid_shape: "Tuple[int, int] | np.ndarray",
    sets: Optional[dict] = None,
    seed: Optional[int] = None,
) -> LatticeMaze:
    """maze-dataset generator: one warren lattice maze of ``grid_shape`` (rows, cols) rooms, made
    with the profile overrides ``sets`` (``{"maze.algorithm": "wilson"}``; ``maze.width`` and
    ``maze.height`` come from ``grid_shape``) and warren master seed ``seed`` (default: drawn from
    ``numpy.random``, which maze-dataset seeds from its config, so ``MazeDataset.generate`` is
    reproducible). Registered in maze-dataset's ``GENERATORS_MAP`` as ``"gen_warren"``."""
    rows, cols = (int(v) for v in grid_shape)
    overrides = dict(sets or {})
    overrides.update({"maze.width": cols, "maze.height": rows})
    if seed is None:
        seed = int(np.random.randint(0, 2**31 - 1))
    return lattice_mazes(warren.generate("maze", 1, seed=seed, threads=1, set=overrides))[0]


# maze-dataset finds a config's maze_ctor by name in GENERATORS_MAP when it loads one (its own
# advice for added generators: put them in the map and on LatticeMazeGenerators).
GENERATORS_MAP["gen_warren"] = gen_warren
setattr(LatticeMazeGenerators, "gen_warren", staticmethod(gen_warren))
