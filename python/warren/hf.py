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

Grids of one size (lattice mazes, DMG, regions) are an ``Array2D`` feature of shape (H, W):

>>> ds.with_format("numpy", dtype=np.uint8)[:]["grid"].shape              # (100000, 65, 65)

(``datasets``' numpy format widens integers to int64 unless a ``dtype`` is given.) Grammar
levels, whose grids vary in size, keep ``grid`` as bytes beside ``grid_width``/``grid_height``.
"""

from __future__ import annotations

import os
from typing import Iterator, List, Optional, Tuple

import numpy as np
import pyarrow as pa

try:
    import datasets
    from datasets.features.features import Array2DExtensionType
    from datasets.table import InMemoryTable
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("warren.hf needs Hugging Face datasets: pip install datasets") from e

import warren

__all__ = ["dataset", "from_table"]


def _grid_type(field: pa.Field):
    """The ``datasets`` type for ``field``: ``Array2D`` (shape (H, W), uint8) for a tensor grid,
    None for every other column."""
    if isinstance(field.type, pa.FixedShapeTensorType):
        return Array2DExtensionType(shape=tuple(field.type.shape), dtype=str(field.type.value_type))
    return None


def _array2d(tensor: pa.Array, hf_type) -> List[pa.Array]:
    """A tensor array as ``datasets``' ``Array2D`` arrays, whose storage is a list of H lists of W
    cells. The cells stay where they are; only the two offset arrays (one 32-bit integer per row
    of a grid and one per grid) are made, in slices small enough for 32-bit offsets."""
    h, w = hf_type.shape
    cells = tensor.storage.flatten()
    n = len(tensor)
    step = max(1, (2**31 - 1) // (h * w))
    parts = []
    for lo in range(0, n, step):
        hi = min(n, lo + step)
        rows = pa.ListArray.from_arrays(
            pa.array(np.arange(0, (hi - lo) * h * w + 1, w, dtype=np.int32)), cells.slice(lo * h * w, (hi - lo) * h * w)
        )
        grids = pa.ListArray.from_arrays(pa.array(np.arange(0, (hi - lo) * h + 1, h, dtype=np.int32)), rows)
        parts.append(pa.ExtensionArray.from_storage(hf_type, grids))
    return parts


def _plain_schema(schema: pa.Schema) -> pa.Schema:
    """``schema`` with its tensor grid columns typed as ``datasets``' ``Array2D``."""
    for i, field in enumerate(schema):
        hf_type = _grid_type(field)
        if hf_type is not None:
            schema = schema.set(i, pa.field(field.name, hf_type, field.nullable))
    return schema


def _plain(data):
    """``data`` with its tensor grid columns as ``datasets``' ``Array2D`` (H, W), which
    ``with_format("numpy")`` hands out as (N, H, W) arrays. No cells are copied."""
    for i, field in enumerate(data.schema):
        hf_type = _grid_type(field)
        if hf_type is None:
            continue
        column = data.column(i)
        chunks = column.chunks if isinstance(data, pa.Table) else [column]
        parts = [part for chunk in chunks for part in _array2d(chunk, hf_type)]
        if isinstance(data, pa.Table):
            column = pa.chunked_array(parts, type=hf_type)
        else:
            column = parts[0] if len(parts) == 1 else pa.concat_arrays(parts)
        data = data.set_column(i, pa.field(field.name, hf_type, field.nullable), column)
    return data


def from_table(table: pa.Table) -> "datasets.Dataset":
    """A ``datasets.Dataset`` over an Arrow table (no copy of the cells, no cache file). A grid
    column of one size (a fixed-shape tensor) becomes an ``Array2D`` feature of shape (H, W):
    ``ds.with_format("numpy", dtype=np.uint8)[:]["grid"]`` is an (N, H, W) array."""
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
    with warren.batches(kind, 0, set=sets) as probe:  # a bad profile or override fails here
        features = datasets.Features.from_arrow_schema(_plain_schema(probe.schema))
    return datasets.IterableDataset.from_generator(
        _rows,
        features=features,
        # Only `ranges` is a list: the shards; the rest are tuples, which datasets does not split.
        gen_kwargs={"kind": kind, "seed": seed, "sets": tuple(sets), "chunk_size": chunk_size, "ranges": ranges},
    )
