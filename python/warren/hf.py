"""Hugging Face ``datasets`` from warren levels, with nothing written to disk.

>>> import warren.hf
>>> ds = warren.hf.dataset("maze", 100_000, seed=7)                   # datasets.Dataset
>>> stream = warren.hf.dataset("dmg", 10_000_000, streaming=True)       # datasets.IterableDataset

``streaming=False`` wraps the table ``warren.generate`` returns (Arrow in memory, no
conversion); ``streaming=True`` is an ``IterableDataset.from_generator`` whose shards are
contiguous index ranges (``shards`` of them), which ``datasets`` spreads over data loader
workers, so every level comes once. Either way the rows are those of ``warren generate`` for
the same profile and seed. (``datasets.Dataset.from_file`` opens Arrow IPC *stream* files and
warren's archives are IPC *files*: read an archive with ``pyarrow`` and wrap it the same way,
``warren.hf.from_table(pa.ipc.open_file(...).read_all())``.)
"""

from __future__ import annotations

import os
from typing import Iterator, List, Optional, Tuple

import pyarrow as pa

try:
    import datasets
    from datasets.table import InMemoryTable
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("warren.hf needs Hugging Face datasets: pip install datasets") from e

import warren

__all__ = ["dataset", "from_table"]


def _plain(data):
    """``data`` with its tensor grid columns as their storage, fixed-size lists of the H*W
    cells (row-major; ``grid_height`` and ``grid_width`` give the shape): datasets has no
    dtype for Arrow's fixed-shape tensor type. No cells are copied."""
    for i, field in enumerate(data.schema):
        if isinstance(field.type, pa.FixedShapeTensorType):
            column = data.column(i)
            if isinstance(data, pa.Table):
                storage = pa.chunked_array([c.storage for c in column.chunks], type=field.type.storage_type)
            else:
                storage = column.storage
            data = data.set_column(i, pa.field(field.name, field.type.storage_type, field.nullable), storage)
    return data


def from_table(table: pa.Table) -> "datasets.Dataset":
    """A ``datasets.Dataset`` over an Arrow table (no copy, no cache file). A grid column of
    one size (a fixed-shape tensor) becomes a fixed-length sequence of its H*W cells."""
    return datasets.Dataset(InMemoryTable(_plain(table)))


def _rows(kind: str, seed: int, sets: Tuple[str, ...], chunk_size: int, ranges: List[Tuple[int, int]]) -> Iterator[dict]:
    for lo, hi in ranges:
        with warren.batches(kind, hi - lo, seed=seed, start=lo, threads=1, set=list(sets), chunk_size=chunk_size) as run:
            for batch in run:
                yield from _plain(batch).to_pylist()


def dataset(
    kind_or_profile,
    count: int,
    *,
    seed: int = 0,
    set=None,
    streaming: bool = False,
    shards: Optional[int] = None,
    chunk_size: int = 256,
):
    """``count`` levels as a ``datasets.Dataset`` (in memory) or, with ``streaming``, a
    ``datasets.IterableDataset`` of ``shards`` contiguous index ranges (default: one per core).
    """
    sets = warren._sets(set)
    if not streaming:
        return from_table(warren.generate(kind_or_profile, count, seed=seed, set=sets))
    count = warren._index(count, "count")
    n = shards or max(1, min(count, os.cpu_count() or 1))
    ranges = [(count * i // n, count * (i + 1) // n) for i in range(n)]
    kind = os.fspath(kind_or_profile)
    warren.batches(kind, 0, set=sets).close()  # a bad profile or override fails here
    return datasets.IterableDataset.from_generator(
        _rows,
        # Only `ranges` is a list: the shards; the rest are tuples, which datasets does not split.
        gen_kwargs={"kind": kind, "seed": seed, "sets": tuple(sets), "chunk_size": chunk_size, "ranges": ranges},
    )
