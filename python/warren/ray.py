"""warren levels as a Ray Data dataset, generated where Ray schedules its read tasks.

>>> import ray, warren.ray
>>> ray.init(address="auto")                                  # or ray.init() on one machine
>>> ds = warren.ray.read_levels("maze", 10_000_000, blocks=64)
>>> ds.write_parquet("s3://bucket/mazes/")                     # or feed a trainer: ds.iter_torch_batches()

Each read task generates one contiguous index range (levels ``lo..hi`` of the run, on one core
of whichever worker runs it), so the rows are exactly those of ``warren.generate`` (and of
``warren generate`` on the command line) for the same profile and seed, whatever the cluster.
Ray Data may deliver blocks out of order; the ``index`` column gives each row's place (sort by
it, or set ``DataContext.get_current().execution_options.preserve_order = True``).

A read task that fails is run again: ``read_levels`` gives Ray ``max_retries=3,
retry_exceptions=True`` for its read tasks (its ``ray_remote_args`` overrides them; Ray Data's
own default retries a lost worker, not an exception raised in the task), and a retried task
regenerates exactly its index range, so the rows are the same: level ``i`` depends only on the
profile, the seed and ``i``.

Reasoning tasks are levels of the ``task`` kind: ``read_tasks("maze-path", n, seed=1,
max_dist=20)`` reads them with their question, answer and ground truth columns, the same items
as ``warren.tasks.items`` for the same seed.

Ray is an optional extra: ``pip install "./python[ray]"``.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import warnings
from typing import Any, Dict, Iterable, Iterator, List, Optional

import pyarrow as pa

try:
    import ray.data
    from ray.data.block import BlockMetadata
    from ray.data.datasource import Datasource, ReadTask
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "warren.ray needs Ray Data: pip install 'ray[data]' (or the package's [ray] extra)"
    ) from e

import warren

__all__ = ["WarrenDatasource", "read_levels", "read_tasks"]

# Ray options for read_levels' read tasks, under the caller's ``ray_remote_args``. Ray Data's
# default (``max_retries=-1`` with ``retry_exceptions=[RaySystemError]``, in
# ray/data/_internal/remote_fn.py) reruns a task whose worker died, without limit, but fails the
# dataset on the first exception raised in a task. One budget of ``max_retries`` covers both kinds
# of failure, so it is bounded: an error that recurs (a bug) fails the dataset after 4 attempts.
_RETRIES = {"max_retries": 3, "retry_exceptions": True}


def _profile_text(kind_or_profile) -> Optional[str]:
    """The text of a profile file (read tasks may run where the file does not exist), or None
    for a kind name."""
    path = os.fspath(kind_or_profile)
    if path in warren.kinds():
        return None
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError as e:
        raise OSError(f"{path}: cannot read: {e.strerror}") from e


@contextlib.contextmanager
def _profile_path(kind: str, text: Optional[str]) -> Iterator[str]:
    """The kind name, or the profile text written to a temporary file for the duration."""
    if text is None:
        yield kind
        return
    with tempfile.TemporaryDirectory(prefix="warren-ray-") as folder:
        path = os.path.join(folder, os.path.basename(kind) or "profile.toml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        yield path


def _generate_range(kind, text, lo, hi, seed, sets, chunk_size) -> List[pa.Table]:
    with _profile_path(kind, text) as profile:
        return [
            warren.generate(
                profile, hi - lo, seed=seed, start=lo, threads=1, set=sets, chunk_size=chunk_size
            )
        ]


class WarrenDatasource(Datasource):
    """A ``ray.data.Datasource`` of ``count`` levels of a kind or profile: read task ``i`` of
    ``n`` generates levels ``count * i // n .. count * (i + 1) // n``, the same rows however
    often it runs. Ray takes a task's retry options from ``ray.data.read_datasource``, not from
    the datasource: ``read_levels`` passes retries; given to ``read_datasource`` directly, pass
    ``ray_remote_args={"max_retries": 3, "retry_exceptions": True}`` for the same."""

    def __init__(
        self,
        kind_or_profile,
        count: int,
        *,
        seed: int = 0,
        set=None,
        blocks: Optional[int] = None,
        chunk_size: int = 2048,
    ) -> None:
        self._kind = os.fspath(kind_or_profile)
        self._text = _profile_text(kind_or_profile)
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(f"count = {count!r} is not a number of levels")
        if blocks is not None and (isinstance(blocks, bool) or not isinstance(blocks, int) or blocks < 1):
            raise ValueError(f"blocks = {blocks!r} is not a positive number of blocks")
        self._count = count
        self._seed = seed
        self._sets = warren._sets(set)
        self._blocks = blocks
        self._chunk_size = chunk_size
        # Fail here, on the driver, for a bad profile or override, not in every task.
        with _profile_path(self._kind, self._text) as profile:
            warren.batches(profile, 0, seed=seed, set=self._sets).close()

    def estimate_inmemory_data_size(self) -> Optional[int]:
        return None

    def get_name(self) -> str:
        return "Warren"

    def get_read_tasks(self, parallelism: int, **kwargs) -> List[ReadTask]:
        n = max(1, min(self._blocks or parallelism, self._count or 1))
        kind, text, seed, sets, chunk = self._kind, self._text, self._seed, self._sets, self._chunk_size
        tasks = []
        for i in range(n):
            lo, hi = self._count * i // n, self._count * (i + 1) // n

            def read(lo=lo, hi=hi) -> Iterable[pa.Table]:
                return _generate_range(kind, text, lo, hi, seed, sets, chunk)

            metadata = BlockMetadata(num_rows=None, size_bytes=None, input_files=None, exec_stats=None)
            tasks.append(ReadTask(read, metadata))
        return tasks


def read_levels(
    kind_or_profile,
    count: int,
    *,
    seed: int = 0,
    blocks: Optional[int] = None,
    set=None,
    chunk_size: int = 2048,
    ray_remote_args: Optional[Dict[str, Any]] = None,
) -> "ray.data.Dataset":
    """``count`` levels of ``kind_or_profile`` with master seed ``seed`` as a Ray dataset of
    ``blocks`` read tasks (default: Ray's parallelism), each generating one contiguous index
    range on the worker that runs it. ``set`` takes profile overrides as ``warren.generate``.

    A read task that raises (a transient error) or whose worker dies (a preempted node) is run
    again, up to 3 times: ``ray_remote_args`` (options of ``ray.remote`` for the read tasks,
    passed to ``ray.data.read_datasource``) goes over the default ``{"max_retries": 3,
    "retry_exceptions": True}``; ``{"retry_exceptions": False, "max_retries": -1}`` restores
    Ray Data's own (a worker's death retried without limit, any exception fatal). A retried task
    regenerates exactly its index range, so the rows are those of a run without failures."""
    source = WarrenDatasource(kind_or_profile, count, seed=seed, set=set, blocks=blocks, chunk_size=chunk_size)
    remote_args = {**_RETRIES, **(ray_remote_args or {})}
    read_args = {"override_num_blocks": blocks} if blocks else {}
    with warnings.catch_warnings():
        # Ray 2.60 marks a read's ray_remote_args deprecated (to go in 2.64), with no named
        # option for retries in its place; the warning would name this line, not the caller's.
        warnings.filterwarnings("ignore", message="`ray_remote_args` is deprecated")
        return ray.data.read_datasource(source, ray_remote_args=remote_args, **read_args)


def read_tasks(
    task: str,
    count: int,
    *,
    seed: int = 0,
    split: str = "train",
    blocks: Optional[int] = None,
    chunk_size: int = 2048,
    ray_remote_args: Optional[Dict[str, Any]] = None,
    **knobs,
) -> "ray.data.Dataset":
    """``count`` items of the reasoning task ``task`` (knobs as ``warren.tasks.items``) as a Ray
    dataset of levels of the ``task`` kind: the question, answer and ground truth columns beside
    the grid or graph and the metrics. A spec that cannot be met raises ``ValueError`` here, on
    the driver."""
    import warren.tasks

    text = warren.tasks.profile_toml(task, split, **knobs)
    with tempfile.TemporaryDirectory(prefix="warren-ray-") as folder:
        path = os.path.join(folder, "task.toml")
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        # The datasource keeps the profile's text; the file may go once it is made.
        return read_levels(
            path,
            count,
            seed=seed,
            blocks=blocks,
            chunk_size=chunk_size,
            ray_remote_args=ray_remote_args,
        )
