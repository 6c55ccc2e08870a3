"""warren: procedural game levels by the million, generated in process into Arrow tables.

The levels are exactly those ``warren generate`` writes for the same profile, master seed and
indices (same columns, same values, same schema metadata); the engine runs on its own threads
with the interpreter released, and pyarrow wraps the buffers it filled without copying them.

>>> import warren
>>> table = warren.generate("maze", 1000, seed=7)        # a pyarrow.Table
>>> grids = warren.grids(table)                           # numpy uint8, (1000, 65, 65)
>>> for batch in warren.batches("dmg", 10_000_000):       # memory stays flat
...     ...
>>> warren.merge(["s0.arrow", "s1.arrow"], "all.arrow")   # shards of one run -> the whole run
>>> warren.split("all.arrow", "splits")                   # train/val/test, no layout in two
>>> items = warren.tasks.items("maze-steps", 1000)        # reasoning tasks (warren.tasks)
>>> warren.score("maze-steps", answers, items)            # Rust scorers on whole lists

Errors are Python exceptions carrying the command line's one-line messages: a bad kind,
profile, key, value or argument raises ``ValueError``, a profile file that cannot be read
``OSError``, a run that fails ``RuntimeError``; Ctrl-C raises ``KeyboardInterrupt`` and stops
the engine.
"""

from __future__ import annotations

import os
from typing import Iterator, Mapping, Optional, Sequence, Union

import numpy as np
import pyarrow as pa

from . import _native, tasks

__all__ = [
    "Batches",
    "batches",
    "default_profile",
    "generate",
    "grids",
    "kind_facts",
    "kinds",
    "merge",
    "score",
    "split",
    "stream",
    "tasks",
    "verify",
]

__version__: str = _native.__version__

#: The engine's commit and the CPU features it was compiled for, as ``warren --version`` prints
#: them: ``warren {__version__} ({__build__})``.
__build__: str = _native.__build__

#: Profile overrides: a mapping ``{"maze.width": 64}`` or ``"key=value"`` strings.
Sets = Union[Mapping[str, object], Sequence[str], str, None]

#: A generator kind (``"maze"``) or a profile file.
ProfileArg = Union[str, "os.PathLike[str]"]


def kinds() -> list[str]:
    """The generator kinds: ``["maze", "grammar", "dmg", "regions", "coloring", "map", "task"]``."""
    return list(_native.kinds())


def kind_facts() -> list[dict]:
    """What the engine's kind registry says of every kind, in the order of :func:`kinds`.

    Each is a dict: ``name``, ``doc`` (one line), ``card`` (what a dataset card calls its
    levels), ``grid`` (its levels are tile grids with a start and a goal, as JaxUED and MiniGrid
    take them) and ``allocations`` (heap allocations a level may make once a worker is warm).
    """
    keys = ("name", "doc", "card", "grid", "allocations")
    return [dict(zip(keys, facts)) for facts in _native.kind_facts()]


def default_profile(kind: str) -> str:
    """The built-in profile of ``kind`` as TOML (the text of ``profiles/<kind>.toml``'s values).

    Raises ``ValueError`` for an unknown kind.
    """
    return _native.default_profile(_text(kind, "kind"))


def _text(value: object, what: str) -> str:
    if isinstance(value, (str, os.PathLike)):
        return os.fspath(value)
    raise TypeError(f"{what} must be a string or a path, not {type(value).__name__}")


def _index(value: object, what: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}")
    value = int(value)
    if value < low or value >= 2**64:
        raise ValueError(f"{what} = {value} is out of range {low}..2**64")
    return value


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float, np.integer, np.floating)):
        return repr(value.item() if isinstance(value, np.generic) else value)
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    raise TypeError(f"cannot use a {type(value).__name__} as a profile value")


def _sets(sets: Sets) -> list[str]:
    if sets is None:
        return []
    if isinstance(sets, str):
        return [sets]
    if isinstance(sets, Mapping):
        return [f"{key}={_toml_value(value)}" for key, value in sets.items()]
    out = []
    for s in sets:
        if not isinstance(s, str):
            raise TypeError(f"set entries must be 'key=value' strings, not {type(s).__name__}")
        out.append(s)
    return out


class Batches:
    """The record batches of a run, in index order (an iterator of ``pyarrow.RecordBatch``).

    Generation runs ahead by a bounded number of batches, so memory stays flat however many
    levels are asked for. ``schema`` is known before the first batch. ``close()`` (or leaving
    a ``with`` block, or dropping the iterator) stops the engine.
    """

    def __init__(
        self,
        kind_or_profile: ProfileArg,
        count: int,
        *,
        seed: int = 0,
        start: int = 0,
        threads: Optional[int] = None,
        set: Sets = None,
        chunk_size: int = 2048,
    ) -> None:
        self._run = _native.Run(
            _text(kind_or_profile, "kind_or_profile"),
            _index(count, "count"),
            _index(seed, "seed"),
            _index(start, "start"),
            0 if threads is None else _index(threads, "threads", 1),
            _sets(set),
            _index(chunk_size, "chunk_size", 1),
        )
        self.schema: pa.Schema = pa.schema(self._run)

    def __iter__(self) -> "Batches":
        return self

    def __next__(self) -> pa.RecordBatch:
        batch = self._run.next_batch()
        if batch is None:
            raise StopIteration
        return pa.record_batch(batch)

    def close(self) -> None:
        """Stops the run (the engine finishes the batches in its hands and exits)."""
        self._run.close()

    def __enter__(self) -> "Batches":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def summary(self) -> Optional[dict]:
        """Once the run is done: ``{"levels": n, "failures": n, "reasons": {reason: n}}``."""
        s = self._run.summary()
        if s is None:
            return None
        levels, failures, reasons = s
        return {"levels": levels, "failures": failures, "reasons": dict(reasons)}


def batches(
    kind_or_profile: ProfileArg,
    count: int,
    *,
    seed: int = 0,
    start: int = 0,
    threads: Optional[int] = None,
    set: Sets = None,
    chunk_size: int = 2048,
) -> Batches:
    """Levels ``start .. start + count`` of ``kind_or_profile`` (a kind or a profile file) with
    master seed ``seed``, as an iterator of ``pyarrow.RecordBatch`` in index order, memory
    bounded. ``threads``: worker threads (default: all cores); ``set``: profile overrides,
    ``{"maze.width": 64}``; ``chunk_size``: levels per batch (2048, as the command line).

    Seeds that fail to make a level (a few grammar seeds) are skipped, as in an archive.
    """
    return Batches(
        kind_or_profile,
        count,
        seed=seed,
        start=start,
        threads=threads,
        set=set,
        chunk_size=chunk_size,
    )


def generate(
    kind_or_profile: ProfileArg,
    count: int,
    *,
    seed: int = 0,
    start: int = 0,
    threads: Optional[int] = None,
    set: Sets = None,
    chunk_size: int = 2048,
) -> pa.Table:
    """Levels ``start .. start + count`` as one ``pyarrow.Table``: the same levels, columns and
    schema metadata ``warren generate`` writes for the same profile and seed (with ``start``
    other than 0 the table is part of a run and has no ``warren.shard`` record). The table's
    buffers are the engine's own; nothing is copied.
    """
    run = batches(
        kind_or_profile,
        count,
        seed=seed,
        start=start,
        threads=threads,
        set=set,
        chunk_size=chunk_size,
    )
    with run:
        return pa.Table.from_batches(list(run), schema=run.schema)


def grids(data: Union[pa.Table, pa.RecordBatch]) -> np.ndarray:
    """The ``grid`` column as a numpy ``uint8`` array of shape (N, H, W).

    Without copying for a record batch or a one-batch table (the array views the batch's
    buffer); a table of several batches is joined into one array first (one copy). Raises
    ``ValueError`` when the levels have no grid (graph levels) or grids of different sizes.
    """
    if not isinstance(data, (pa.Table, pa.RecordBatch)):
        raise TypeError(f"grids takes a pyarrow Table or RecordBatch, not {type(data).__name__}")
    if "grid" not in data.schema.names:
        raise ValueError("these levels have no grid column (their kind stores graphs)")
    if data.num_rows == 0:
        return np.zeros((0, 0, 0), np.uint8)
    widths = np.asarray(data.column("grid_width").to_numpy())
    heights = np.asarray(data.column("grid_height").to_numpy())
    if (widths != widths[0]).any() or (heights != heights[0]).any():
        sizes = sorted({(int(w), int(h)) for w, h in zip(widths, heights)})
        shown = ", ".join(f"{w} x {h}" for w, h in sizes[:4])
        raise ValueError(
            f"grids of {len(sizes)} sizes ({shown}{', ...' if len(sizes) > 4 else ''}): "
            "an (N, H, W) array needs one size"
        )
    if isinstance(data, pa.Table):
        chunks = [b for b in data.to_batches() if b.num_rows]
        if len(chunks) != 1:
            return np.concatenate([grids(b) for b in chunks])
        data = chunks[0]
    n = data.num_rows
    h, w = int(heights[0]), int(widths[0])
    column = data.column("grid")
    if column.null_count:
        raise ValueError("some levels have no grid")
    # Kinds of one grid size store a fixed-shape tensor: its flat child is the array.
    storage = column.storage if isinstance(column, pa.ExtensionArray) else column
    if pa.types.is_fixed_size_list(storage.type):
        if storage.type.list_size != h * w:
            raise ValueError("a grid's size disagrees with its grid_width and grid_height")
        return storage.flatten().to_numpy(zero_copy_only=True).reshape(n, h, w)
    if column.type == pa.large_binary():
        width = np.int64
    elif column.type == pa.binary():
        width = np.int32
    else:
        raise ValueError(f"the grid column is {column.type}, not binary or a fixed-shape tensor")
    _, offsets_buf, values = column.buffers()
    offsets = np.frombuffer(offsets_buf, width, count=n + 1, offset=column.offset * width().itemsize)
    if not (np.diff(offsets) == h * w).all():
        raise ValueError("a grid's size disagrees with its grid_width and grid_height")
    array = np.frombuffer(values, np.uint8, count=n * h * w, offset=int(offsets[0]))
    return array.reshape(n, h, w)


def verify(data: Union[pa.Table, pa.RecordBatch, pa.RecordBatchReader], show: int = 10) -> dict:
    """Checks levels made by warren (a table, batch or reader with warren's schema metadata):
    ascending indices, seeds, every generator invariant, and a fresh generation of every seed
    (when this version of warren made them). Returns ``{"levels": n, "violations": n,
    "shown": [the first `show` violations]}``.
    """
    if isinstance(data, pa.RecordBatch):
        data = pa.Table.from_batches([data])
    levels, violations, shown = _native.verify(data, _index(show, "show"))
    return {"levels": levels, "violations": violations, "shown": list(shown)}


def stream(
    kind_or_profile: ProfileArg,
    count: int,
    *,
    seed: int = 0,
    set: Sets = None,
    rows: bool = True,
    chunk_size: int = 256,
    threads: Optional[int] = None,
    worker: Optional[tuple] = None,
):
    """``count`` levels as an iterable for data loaders (a ``torch.utils.data.IterableDataset``
    when torch is imported): each loader worker makes its own contiguous share of the indices,
    so no level comes twice. Yields dict rows, or record batches with ``rows=False``.
    ``worker=(i, n)`` sets the share by hand (for loaders other than PyTorch's).
    """
    from ._stream import Stream

    return Stream(
        kind_or_profile,
        count,
        seed=seed,
        set=set,
        rows=rows,
        chunk_size=chunk_size,
        threads=threads,
        worker=worker,
    )


#: A file or folder path.
PathArg = Union[str, "os.PathLike[str]"]


def merge(
    parts: Sequence[PathArg],
    out: PathArg,
    *,
    unique: bool = False,
    threads: Optional[int] = None,
    resume: bool = False,
    progress: bool = False,
) -> dict:
    """Joins the shard archives ``parts`` of one run (``warren generate --shard I/N``, in any
    order) into the archive ``out``, holding the levels of the unsharded run in index order:
    what ``warren merge OUT PARTS...`` does, with the same checks, messages and bytes.

    Every shard is checked before anything is written (same warren version, generator,
    profile, master seed, run size and shard count; none twice, none missing, each whole); the
    archive is written atomically, so a refused or failed merge leaves no ``out``. Shards made
    with ``--unique`` or ``--where`` (or any shards with ``unique=True``) are merged in index
    order leaving out repeated layouts, and the rest of the run is made with its stored profile
    until it holds its full count (on ``threads`` worker threads, default all cores).
    ``resume=True`` goes on from a killed plain merge's ``OUT.tmp``, or from one a full disk
    stopped (its ``OSError`` says how many levels it kept there). ``progress`` shows the
    engine's progress bar on stderr while levels are made.

    Returns ``{"shards", "total", "levels", "from_shards", "failed", "failures": {reason: n},
    "scanned": None or {"start", "end", "duplicates", "filtered"}, "bytes", "resumed": None
    or {"temp", "batches", "levels", "bytes", "dropped_bytes"}, "finished_already"}``.
    Shards that are not one run raise ``ValueError`` naming the file, files that cannot be
    read or written ``OSError``, a failure while making levels ``RuntimeError``.
    """
    if isinstance(parts, (str, os.PathLike)):
        raise TypeError("parts must be a list of shard paths, not one path")
    paths = [_text(p, "each part") for p in parts]
    return _native.merge(
        paths,
        _text(out, "out"),
        bool(unique),
        0 if threads is None else _index(threads, "threads", 1),
        bool(resume),
        bool(progress),
    )


def split(
    archive: PathArg,
    out: PathArg,
    *,
    train: float = 0.8,
    val: float = 0.1,
    test: float = 0.1,
    format: str = "arrow",
) -> dict:
    """Splits ``archive`` into train, val and test by content into the folder ``out`` (made if
    missing): what ``warren split ARCHIVE --out OUT`` does, with the same files and messages.

    Each level goes to the split its ``canonical_hash`` draws, so no layout, mirror image,
    rotation or renumbering is in two splits and a level's split never changes as the archive
    grows; the shares must lie in [0, 1] and add
    up to 1, and a split with share 0 is not written. ``format="arrow"`` writes
    ``out/{train,val,test}.arrow``; ``"parquet"`` a Hugging Face dataset folder,
    ``out/data/{train,validation,test}-*.parquet``. Every split carries a ``warren.split``
    record that ``warren verify`` checks.

    Returns ``{"levels": n, "splits": [{"name", "file_name", "share", "levels", "bytes",
    "path"}, ...]}`` (one per split written, in train, val, test order). Bad shares or an
    archive that is already a split raise ``ValueError``, files that cannot be read or written
    ``OSError``.
    """
    if format not in ("arrow", "parquet"):
        raise ValueError(f"format {format!r}: expected 'arrow' or 'parquet'")
    return _native.split(
        _text(archive, "archive"),
        _text(out, "out"),
        float(train),
        float(val),
        float(test),
        format,
    )


def score(task: Optional[str], answers: Sequence[object], entries: Sequence[object]) -> list[float]:
    """Scores of ``answers`` (model outputs, untrusted) against ``entries`` (ground-truth strings,
    task items, or verl ``reward_model`` dicts), one float in [0, 1] each, by the Rust scorer of
    ``task`` (``"maze-steps"``, ...; None: the task each ground truth names). See
    :func:`warren.tasks.score`."""
    return tasks.score(task, answers, entries)
