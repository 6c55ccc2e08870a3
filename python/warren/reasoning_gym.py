"""warren's reasoning tasks in reasoning-gym's registry: ``import warren.reasoning_gym`` registers
them, and they work as reasoning-gym's own tasks do.

>>> import reasoning_gym, warren.reasoning_gym
>>> data = reasoning_gym.create_dataset("warren_maze_steps", size=10_000, seed=1, min_dist=5, max_dist=20)
>>> entry = data[0]                                        # question, answer, metadata
>>> data.score_answer(entry["answer"], entry)              # 1.0, by warren's Rust scorer
>>> reasoning_gym.get_score_answer_fn("warren_maze_steps")("12", entry)

=========================  =========================  ==========================================
warren dataset             task                       reasoning-gym's own fields it accepts
=========================  =========================  ==========================================
``warren_maze_steps``      ``maze-steps``             ``maze``: min_dist, max_dist,
                                                      min_grid_size, max_grid_size
``warren_maze_path``       ``maze-path``              ``shortest_path``: min_rows, max_rows,
                                                      min_cols, max_cols
``warren_graph_color``     ``graph-color``            ``graph_color``: min_num_vertices,
                                                      max_num_vertices, num_colors,
                                                      edge_probability
``warren_grid_steps``      ``grid-steps``             (none: levels of warren's other grid kinds)
``warren_coloring_puzzle`` ``coloring-puzzle``        (none: GraphColoring puzzles)
=========================  =========================  ==========================================

Each Config also takes warren's knobs (``algorithms``, ``braid``, ``infeasible_share``,
``renderings``, ``trace``, ``greedy_fails``, ``split``, ...), ``seed`` and ``size``. Its
``validate()`` refuses a spec no item can meet in one line naming the field (the engine's own
check, its key spelt as the Config's field), before any item is made.

Seeds: reasoning-gym's ``seed`` is warren's master seed ``S`` and item ``idx`` of the dataset is
warren's item ``idx``, drawn from ``mix(S, idx)``: the datasets of seeds 1 and 2 are independent
draws, sharing no item where the item space is large (reasoning-gym's own draw item ``idx`` from
``Random(seed + idx)``, so theirs share all but one; at its tiny default specs few distinct mazes
exist, and independent draws meet by chance: 34 of 2,000 ``maze`` items), and the ``split``
field's train, validation and test never share a puzzle.

Items are made in Rust in blocks of 4,096 (cached, a few blocks at a time), so indexing costs
microseconds. Scoring goes to warren's Rust scorers: any answer (``None``, a number, a huge or
binary string) scores in [0, 1] without an exception.

reasoning-gym is an optional dependency: ``pip install reasoning-gym==0.1.19`` (the package's
``reasoning-gym`` extra).
"""

from __future__ import annotations

import collections
import gc
import numbers
from dataclasses import dataclass, field
from typing import Any, Optional

try:
    from reasoning_gym.coaching import BaseCurriculum, RangeAttributeDefinition, ScalarAttributeDefinition
    from reasoning_gym.dataset import ProceduralDataset
    from reasoning_gym.factory import DATASETS, register_dataset
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "warren.reasoning_gym needs reasoning-gym: pip install reasoning-gym==0.1.19 "
        "(or the package's [reasoning-gym] extra)"
    ) from e

from . import _native
from . import tasks as _tasks

__all__ = [
    "BLOCK",
    "WarrenColoringPuzzleConfig",
    "WarrenColoringPuzzleCurriculum",
    "WarrenColoringPuzzleDataset",
    "WarrenGraphColorConfig",
    "WarrenGraphColorCurriculum",
    "WarrenGraphColorDataset",
    "WarrenGridStepsConfig",
    "WarrenGridStepsCurriculum",
    "WarrenGridStepsDataset",
    "WarrenMazePathConfig",
    "WarrenMazePathCurriculum",
    "WarrenMazePathDataset",
    "WarrenMazeStepsConfig",
    "WarrenMazeStepsCurriculum",
    "WarrenMazeStepsDataset",
]

#: Items made in one call into Rust.
BLOCK = 4096

#: Blocks a dataset keeps (the most recently used).
CACHED_BLOCKS = 4


def _integer(name: str, value: Any, low: int = 0, high: int = 2**32 - 1, none: bool = False) -> None:
    if value is None and none:
        return
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} = {value!r} is not an integer")
    if not low <= value <= high:
        raise ValueError(f"{name} = {value} is out of range {low}..={high}")


def _real(name: str, value: Any, none: bool = False) -> None:
    if value is None and none:
        return
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} = {value!r} is not a number")


def _names(name: str, value: Any, none: bool = False) -> None:
    if value is None and none:
        return
    if isinstance(value, str) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{name} = {value!r} is not a list of names")


class _WarrenConfig:
    """What every Config shares: the engine's check with its keys spelt as the Config's fields."""

    #: The warren task.
    TASK = ""
    #: The registered name.
    NAME = ""
    #: The engine's keys (``task.min_rows``) whose names differ from this Config's fields.
    RENAMES: dict = {}

    def warren_knobs(self) -> dict:
        """The ``[task]`` keys of this config (None: the engine's default)."""
        raise NotImplementedError

    def difficulty(self) -> dict:
        """The ``difficulty`` entry of each item's metadata, as reasoning-gym's tasks give it."""
        raise NotImplementedError

    def _check_fields(self) -> None:
        _integer("size", self.size, 0, 2**63 - 1)
        _integer("seed", self.seed, 0, 2**64 - 1, none=True)
        _integer("threads", self.threads, 0, 1024)
        if self.split not in _tasks.SPLITS:
            raise ValueError(f"split = {self.split!r} is not one of {', '.join(_tasks.SPLITS)}")

    def config_json(self) -> str:
        """The engine's configuration text for this Config."""
        return _tasks.config_json(self.TASK, self.split, **self.warren_knobs())

    def validate(self) -> None:
        """Refuses, in one line naming the field, a value out of range or a spec no item can
        meet: the engine's own check, before any item is made."""
        try:
            self._check_fields()
            _native.task_validate(self.config_json())
        except ValueError as e:
            raise ValueError(f"{self.NAME}: {self._spelt(str(e))}") from None

    def _spelt(self, message: str) -> str:
        for key, name in self.RENAMES.items():
            message = message.replace(key, name)
        return message.replace("task.", "")


def _common_knobs(config: Any) -> dict:
    return {"renderings": list(config.renderings), "trace": config.trace}


@dataclass
class WarrenMazeStepsConfig(_WarrenConfig):
    """``maze-steps``: how many steps is the shortest path from start to goal of a real maze.

    reasoning-gym's ``maze`` fields: ``min_dist`` and ``max_dist`` bound the answer (drawn
    uniformly from the band), ``min_grid_size`` and ``max_grid_size`` the square grid's side,
    walls included (a maze side is odd: an even one is rounded down)."""

    TASK = "maze-steps"
    NAME = "warren_maze_steps"
    RENAMES = {
        "task.min_rows": "min_grid_size",
        "task.max_rows": "max_grid_size",
        "task.min_cols": "min_grid_size",
        "task.max_cols": "max_grid_size",
    }

    min_dist: int = 5
    max_dist: int = 10
    min_grid_size: int = 5
    max_grid_size: int = 10
    #: Maze algorithms items are drawn from (None: all 13).
    algorithms: Optional[list] = None
    #: Share of dead ends braided into loops, [0, 1].
    braid: float = 0.0
    #: Renderings, drawn per item: ascii, coords, adjlist, tokens, png.
    renderings: list = field(default_factory=lambda: ["ascii"])
    #: Solver trace in the metadata: none, bfs, astar.
    trace: str = "none"
    split: str = "train"
    #: Workers making a block (items do not depend on it).
    threads: int = 1
    seed: Optional[int] = None
    size: int = 50

    def _check_fields(self) -> None:
        super()._check_fields()
        for name in ("min_dist", "max_dist", "min_grid_size", "max_grid_size"):
            _integer(name, getattr(self, name))
        _real("braid", self.braid)
        _names("algorithms", self.algorithms, none=True)
        _names("renderings", self.renderings)

    def warren_knobs(self) -> dict:
        return {
            "min_dist": self.min_dist,
            "max_dist": self.max_dist,
            "min_rows": self.min_grid_size,
            "max_rows": self.max_grid_size,
            "min_cols": self.min_grid_size,
            "max_cols": self.max_grid_size,
            "square": True,
            "algorithms": self.algorithms,
            "braid": self.braid,
            **_common_knobs(self),
        }

    def difficulty(self) -> dict:
        return {
            "dist": (self.min_dist, self.max_dist),
            "grid_size": (self.min_grid_size, self.max_grid_size),
        }


@dataclass
class WarrenMazePathConfig(_WarrenConfig):
    """``maze-path``: the moves of a shortest path from start to goal of a real maze (or
    ``infeasible``), scored as reasoning-gym's ``shortest_path``: 1 for any shortest path, 0.5
    for a longer one that reaches the goal, 0 otherwise.

    reasoning-gym's ``shortest_path`` fields: ``min_rows`` .. ``max_cols`` bound the grid, walls
    included. Its ``p_blocked`` (a random 40% of cells blocked) has no counterpart in a maze:
    given, it is refused. ``infeasible_share`` is the exact share of items with no path
    (default 0: every item solvable; reasoning-gym's is 36% at its defaults, by chance)."""

    TASK = "maze-path"
    NAME = "warren_maze_path"

    min_rows: int = 5
    max_rows: int = 8
    min_cols: int = 5
    max_cols: int = 8
    #: reasoning-gym's share of blocked cells: refused (walls come from the maze algorithm).
    p_blocked: Optional[float] = None
    #: Shortest path length band (None: warren's default, 5 to 10 steps).
    min_dist: Optional[int] = None
    max_dist: Optional[int] = None
    #: Exact share of items whose goal cannot be reached, [0, 1).
    infeasible_share: float = 0.0
    algorithms: Optional[list] = None
    braid: float = 0.0
    renderings: list = field(default_factory=lambda: ["ascii"])
    trace: str = "none"
    split: str = "train"
    threads: int = 1
    seed: Optional[int] = None
    size: int = 500

    def _check_fields(self) -> None:
        super()._check_fields()
        if self.p_blocked is not None:
            raise ValueError(
                f"p_blocked = {self.p_blocked!r}: warren's grids are mazes whose walls come from "
                "the maze algorithm; leave p_blocked out (braid opens loops, infeasible_share "
                "sets the share of unsolvable items)"
            )
        for name in ("min_rows", "max_rows", "min_cols", "max_cols"):
            _integer(name, getattr(self, name))
        _integer("min_dist", self.min_dist, none=True)
        _integer("max_dist", self.max_dist, none=True)
        _real("braid", self.braid)
        _real("infeasible_share", self.infeasible_share)
        _names("algorithms", self.algorithms, none=True)
        _names("renderings", self.renderings)

    def warren_knobs(self) -> dict:
        return {
            "min_rows": self.min_rows,
            "max_rows": self.max_rows,
            "min_cols": self.min_cols,
            "max_cols": self.max_cols,
            "square": False,
            "min_dist": self.min_dist,
            "max_dist": self.max_dist,
            "infeasible_share": self.infeasible_share,
            "algorithms": self.algorithms,
            "braid": self.braid,
            **_common_knobs(self),
        }

    def difficulty(self) -> dict:
        return {
            "rows": (self.min_rows, self.max_rows),
            "cols": (self.min_cols, self.max_cols),
        }


@dataclass
class WarrenGraphColorConfig(_WarrenConfig):
    """``graph-color``: colour a graph with ``num_colors`` colours, its chromatic number proven
    by an exact solver (reasoning-gym's ``graph_color`` only checks that greedy colouring in
    index order succeeds, so most of its graphs need 2 colours).

    reasoning-gym's ``graph_color`` fields: ``min_num_vertices``, ``max_num_vertices``,
    ``num_colors`` and ``edge_probability``. ``num_colors`` is the chromatic number every graph
    has (reasoning-gym's is the colours allowed, so its curriculum lowers it; warren's raises
    it). ``edge_probability`` None takes 0.3 for 3 colours and 0.5 for more: a proven higher
    chromatic number needs denser graphs, most of all on few vertices."""

    TASK = "graph-color"
    NAME = "warren_graph_color"
    RENAMES = {
        "task.min_vertices": "min_num_vertices",
        "task.max_vertices": "max_num_vertices",
        "task.colors": "num_colors",
    }

    num_colors: int = 3
    min_num_vertices: int = 10
    max_num_vertices: int = 10
    edge_probability: Optional[float] = None
    #: Keep only graphs on which greedy colouring in index order needs more colours.
    greedy_fails: bool = False
    #: Solver trace in the metadata: none or dsatur.
    trace: str = "none"
    split: str = "train"
    threads: int = 1
    seed: Optional[int] = None
    size: int = 500

    def _check_fields(self) -> None:
        super()._check_fields()
        for name in ("num_colors", "min_num_vertices", "max_num_vertices"):
            _integer(name, getattr(self, name))
        _real("edge_probability", self.edge_probability, none=True)
        if not isinstance(self.greedy_fails, bool):
            raise ValueError(f"greedy_fails = {self.greedy_fails!r} is not true or false")

    def warren_knobs(self) -> dict:
        return {
            "min_vertices": self.min_num_vertices,
            "max_vertices": self.max_num_vertices,
            "colors": self.num_colors,
            "edge_probability": self._edge_probability(),
            "greedy_fails": self.greedy_fails,
            "trace": self.trace,
        }

    def _edge_probability(self) -> Optional[float]:
        if self.edge_probability is not None:
            return self.edge_probability
        # NOTE: at 0.3, 4 colours on 6 vertices fail 3.5% of items after the engine's 4,096
        # draws; at 0.5 none of 3,000 do, from 6 to 25 vertices.
        return 0.3 if self.num_colors <= 3 else 0.5

    def difficulty(self) -> dict:
        return {
            "num_vertices": (self.min_num_vertices, self.max_num_vertices),
            "num_colors": self.num_colors,
        }


@dataclass
class WarrenGridStepsConfig(_WarrenConfig):
    """``grid-steps``: the shortest path's length, in steps, from the start to the goal warren
    computes for a level of another grid kind (``source``: dmg, regions, grammar, map).

    ``grid_size`` (dmg only) sets the dungeon's width and height; ``source_config`` takes any
    keys of the source's section (``[task.dmg]``, ...)."""

    TASK = "grid-steps"
    NAME = "warren_grid_steps"

    source: str = "dmg"
    grid_size: Optional[int] = None
    min_dist: Optional[int] = None
    max_dist: Optional[int] = None
    source_config: Optional[dict] = None
    renderings: list = field(default_factory=lambda: ["ascii"])
    trace: str = "none"
    split: str = "train"
    threads: int = 1
    seed: Optional[int] = None
    size: int = 500

    def _check_fields(self) -> None:
        super()._check_fields()
        _integer("grid_size", self.grid_size, none=True)
        _integer("min_dist", self.min_dist, none=True)
        _integer("max_dist", self.max_dist, none=True)
        if self.source not in ("dmg", "regions", "grammar", "map"):
            raise ValueError(f"source = {self.source!r} is not one of dmg, regions, grammar, map")
        if self.grid_size is not None and self.source != "dmg":
            raise ValueError(f"grid_size applies to source = 'dmg' only, not {self.source!r}")
        if self.source_config is not None and not isinstance(self.source_config, dict):
            raise ValueError(f"source_config = {self.source_config!r} is not a dict")
        _names("renderings", self.renderings)

    def warren_knobs(self) -> dict:
        section = dict(self.source_config or {})
        if self.grid_size is not None:
            section.update(width=self.grid_size, height=self.grid_size)
        return {
            "source": self.source,
            "min_dist": self.min_dist,
            "max_dist": self.max_dist,
            self.source: section or None,
            **_common_knobs(self),
        }

    def difficulty(self) -> dict:
        return {"source": self.source, "grid_size": self.grid_size, "dist": (self.min_dist, self.max_dist)}


@dataclass
class WarrenColoringPuzzleConfig(_WarrenConfig):
    """``coloring-puzzle``: a GraphColoring puzzle (``puzzle``: edge, euler_path, euler_cycle) as
    a task. ``width`` and ``height`` (points of the jittered grid the graph is triangulated
    from), ``colors`` and ``keep`` go to the puzzle (None: its defaults); ``coloring`` takes any
    other key of the ``[task.coloring]`` section."""

    TASK = "coloring-puzzle"
    NAME = "warren_coloring_puzzle"

    puzzle: str = "edge"
    width: Optional[int] = None
    height: Optional[int] = None
    colors: Optional[int] = None
    keep: Optional[float] = None
    coloring: Optional[dict] = None
    split: str = "train"
    threads: int = 1
    seed: Optional[int] = None
    size: int = 500

    def _check_fields(self) -> None:
        super()._check_fields()
        for name in ("width", "height", "colors"):
            _integer(name, getattr(self, name), none=True)
        _real("keep", self.keep, none=True)
        if self.coloring is not None and not isinstance(self.coloring, dict):
            raise ValueError(f"coloring = {self.coloring!r} is not a dict")

    def warren_knobs(self) -> dict:
        section = dict(self.coloring or {})
        section["puzzle"] = self.puzzle
        for name in ("width", "height", "colors", "keep"):
            if getattr(self, name) is not None:
                section[name] = getattr(self, name)
        return {"coloring": section}

    def _spelt(self, message: str) -> str:
        return super()._spelt(message).replace("coloring.", "")

    def difficulty(self) -> dict:
        return {"puzzle": self.puzzle, "width": self.width, "height": self.height}


class _Block:
    """Items ``start .. end`` of a dataset: the entries not handed out yet (None once handed
    out, and for an item that could not be made) and the reasons of those that could not."""

    __slots__ = ("start", "end", "entries", "failed")

    def __init__(self, start: int, entries: list, failed: dict):
        self.start = start
        self.end = start + len(entries)
        self.entries = entries
        self.failed = failed


class _WarrenDataset(ProceduralDataset):
    """A reasoning-gym dataset of warren task items: item ``idx`` is warren's item ``idx`` of
    master seed ``config.seed``, made in Rust in blocks of :data:`BLOCK`.

    Rust builds each block's entries whole; an entry is handed out once and then forgotten by
    the block, so every ``dataset[i]`` is a fresh dict (as reasoning-gym's own datasets give),
    and asking for an index again makes that one item anew."""

    def __init__(self, config: _WarrenConfig):
        super().__init__(config=config, seed=config.seed, size=config.size)
        self._task = config.TASK
        self._name = config.NAME
        self._json = config.config_json()
        self._difficulty = config.difficulty()
        self._split = config.split
        # The metadata every entry starts from, in the order its keys come.
        self._base = {
            "source_dataset": self._name,
            "source_index": None,
            "ground_truth": None,
            "task": self._task,
            "split": self._split,
        }
        self._blocks: collections.OrderedDict = collections.OrderedDict()
        self._last: Optional[_Block] = None

    def _make(self, start: int, count: int) -> "_Block":
        # PERF: a block is thousands of new containers at once; the cyclic collector would walk
        # them (and everything else alive) several times over while they are made. None of them
        # can be in a cycle.
        enabled = gc.isenabled()
        gc.disable()
        try:
            entries, failed = _native.task_entries(
                self._json, self.seed, start, count, self.config.threads, self._base, self._difficulty
            )
        finally:
            if enabled:
                gc.enable()
        return _Block(start, entries, dict(failed))

    def _block(self, idx: int) -> "_Block":
        number = idx // BLOCK
        block = self._blocks.get(number)
        if block is not None and idx < block.end:
            self._blocks.move_to_end(number)
            return block
        start = number * BLOCK
        # A dataset smaller than a block makes only its own items (an index past its size, the
        # whole block).
        count = min(BLOCK, self.size - start) if idx < self.size else BLOCK
        block = self._make(start, count)
        self._blocks[number] = block
        self._blocks.move_to_end(number)
        while len(self._blocks) > CACHED_BLOCKS:
            self._blocks.popitem(last=False)
        return block

    def _index(self, idx: Any) -> int:
        if isinstance(idx, bool) or not isinstance(idx, numbers.Integral):
            raise TypeError(f"{self._name} indices are integers, not {type(idx).__name__}")
        return int(idx)

    def __getitem__(self, idx: int) -> dict:
        # PERF: the common case (an int in the block read last, not handed out yet) takes no ABC
        # check, cache walk or copy.
        if type(idx) is not int:
            idx = self._index(idx)
        b = self._last
        if b is None or not b.start <= idx < b.end:
            if not 0 <= idx < 2**64:
                raise IndexError(f"{self._name} index {idx} is out of range 0..2**64")
            b = self._last = self._block(idx)
        k = idx - b.start
        entry = b.entries[k]
        if entry is not None:
            b.entries[k] = None
            return entry
        if idx in b.failed:
            raise RuntimeError(f"{self._name} item {idx} could not be made: {b.failed[idx]}")
        # Handed out before: made again (the same item; the first dict is the caller's).
        return self._make(idx, 1).entries[0]

    def __next__(self) -> dict:
        # PERF: reasoning-gym's __next__ with __getitem__'s common case inlined (iteration is
        # how trainers and the peer benchmark read a dataset).
        idx = self._current_idx
        if idx >= self.size:
            raise StopIteration
        b = self._last
        if b is not None and b.start <= idx < b.end:
            entries = b.entries
            k = idx - b.start
            entry = entries[k]
            if entry is not None:
                entries[k] = None
                self._current_idx = idx + 1
                return entry
        entry = self[idx]
        self._current_idx = idx + 1
        return entry

    def score_answer(self, answer: Optional[str], entry: dict) -> float:
        """The Rust scorer of the task: 1.0 for a right answer, a score in [0, 1] for anything
        else (never an exception for an answer; an entry without ``metadata["ground_truth"]``
        raises ``ValueError``)."""
        return _native.score(self._task, [answer], [entry])[0]

    def score_answers(self, answers: list, entries: list) -> list:
        """:meth:`score_answer` on whole lists, in one call into Rust."""
        return _native.score(self._task, answers, entries)


class WarrenMazeStepsDataset(_WarrenDataset):
    """``warren_maze_steps`` items."""


class WarrenMazePathDataset(_WarrenDataset):
    """``warren_maze_path`` items."""


class WarrenGraphColorDataset(_WarrenDataset):
    """``warren_graph_color`` items."""


class WarrenGridStepsDataset(_WarrenDataset):
    """``warren_grid_steps`` items."""


class WarrenColoringPuzzleDataset(_WarrenDataset):
    """``warren_coloring_puzzle`` items."""


class WarrenMazeStepsCurriculum(BaseCurriculum):
    """reasoning-gym's ``maze`` curriculum: distance 5 -> 20, grid 10 -> 100."""

    def __init__(self):
        super().__init__(WarrenMazeStepsCurriculum.__name__, WarrenMazeStepsConfig)
        self._define_attributes(
            RangeAttributeDefinition(
                name="dist",
                levels=[5, 10, 15, 20],
                description="Distance from start to goal",
                lower_field_name="min_dist",
                upper_field_name="max_dist",
                ensure_interval=True,
            ),
            RangeAttributeDefinition(
                name="grid_size",
                levels=[10, 25, 50, 100],
                description="Size of the square grid",
                lower_field_name="min_grid_size",
                upper_field_name="max_grid_size",
                ensure_interval=True,
            ),
        )


class WarrenMazePathCurriculum(BaseCurriculum):
    """reasoning-gym's ``shortest_path`` curriculum (rows and columns 10 -> 100), plus the
    distance band (5 -> 80 steps), which a maze's difficulty follows."""

    def __init__(self):
        super().__init__(WarrenMazePathCurriculum.__name__, WarrenMazePathConfig)
        self._define_attributes(
            RangeAttributeDefinition(
                name="rows",
                levels=[10, 25, 50, 100],
                description="Number of rows in the grid",
                lower_field_name="min_rows",
                upper_field_name="max_rows",
            ),
            RangeAttributeDefinition(
                name="cols",
                levels=[10, 25, 50, 100],
                description="Number of columns in the grid",
                lower_field_name="min_cols",
                upper_field_name="max_cols",
            ),
            RangeAttributeDefinition(
                name="dist",
                levels=[5, 10, 20, 40, 80],
                description="Length of the shortest path",
                lower_field_name="min_dist",
                upper_field_name="max_dist",
                ensure_interval=True,
            ),
        )


class WarrenGraphColorCurriculum(BaseCurriculum):
    """reasoning-gym's ``graph_color`` attributes: 6 -> 25 vertices, and the colours, here the
    proven chromatic number, 3 -> 4 (more is harder; reasoning-gym's allowed colours go 5 -> 3)."""

    def __init__(self):
        super().__init__(WarrenGraphColorCurriculum.__name__, WarrenGraphColorConfig)
        self._define_attributes(
            RangeAttributeDefinition(
                name="num_vertices",
                levels=[6, 10, 20, 25],
                description="Number of vertices in the graph",
                lower_field_name="min_num_vertices",
                upper_field_name="max_num_vertices",
                ensure_interval=True,
            ),
            ScalarAttributeDefinition(
                name="num_colors",
                field_name="num_colors",
                levels=[3, 4],
                description="Chromatic number of the graph",
            ),
        )


class WarrenGridStepsCurriculum(BaseCurriculum):
    """The dungeon's side (dmg source), 30 -> 100 squares: its paths grow with it."""

    def __init__(self):
        super().__init__(WarrenGridStepsCurriculum.__name__, WarrenGridStepsConfig)
        self._define_attributes(
            ScalarAttributeDefinition(
                name="grid_size",
                field_name="grid_size",
                levels=[30, 50, 75, 100],
                description="Width and height of the dungeon",
            ),
        )


class WarrenColoringPuzzleCurriculum(BaseCurriculum):
    """The puzzle graph's point grid, 4 x 3 -> 12 x 10."""

    def __init__(self):
        super().__init__(WarrenColoringPuzzleCurriculum.__name__, WarrenColoringPuzzleConfig)
        self._define_attributes(
            ScalarAttributeDefinition(
                name="width",
                field_name="width",
                levels=[4, 6, 8, 12],
                description="Points across the grid the graph is drawn on",
            ),
            ScalarAttributeDefinition(
                name="height",
                field_name="height",
                levels=[3, 5, 7, 10],
                description="Points down the grid the graph is drawn on",
            ),
        )


#: Every warren dataset: name -> (Dataset, Config, Curriculum).
DATASET_CLASSES = {
    "warren_maze_steps": (WarrenMazeStepsDataset, WarrenMazeStepsConfig, WarrenMazeStepsCurriculum),
    "warren_maze_path": (WarrenMazePathDataset, WarrenMazePathConfig, WarrenMazePathCurriculum),
    "warren_graph_color": (WarrenGraphColorDataset, WarrenGraphColorConfig, WarrenGraphColorCurriculum),
    "warren_grid_steps": (WarrenGridStepsDataset, WarrenGridStepsConfig, WarrenGridStepsCurriculum),
    "warren_coloring_puzzle": (
        WarrenColoringPuzzleDataset,
        WarrenColoringPuzzleConfig,
        WarrenColoringPuzzleCurriculum,
    ),
}


def _register() -> None:
    for name, (dataset, config, curriculum) in DATASET_CLASSES.items():
        # A second import (importlib.reload) finds them registered: reasoning-gym refuses a name
        # twice.
        if name not in DATASETS:
            register_dataset(name, dataset, config, curriculum)


_register()
