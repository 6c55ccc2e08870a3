"""``warren.stream(...)``: levels as an iterable dataset for data loaders, split by worker.

In a PyTorch ``DataLoader`` with ``num_workers=k``, each worker process iterates the same
``Stream`` object; the stream asks ``torch.utils.data.get_worker_info()`` which worker it is in
and generates only its own contiguous part of the index range, so the workers together yield
every level exactly once and never the same level twice. When torch has been imported before
the first ``warren.stream`` call, ``Stream`` is a ``torch.utils.data.IterableDataset`` (as
``DataLoader`` requires); warren never imports torch itself.
"""

from __future__ import annotations

import sys
from typing import Iterator, Optional, Tuple, Union

import pyarrow as pa

import warren

_torch = sys.modules.get("torch")
_Base = _torch.utils.data.IterableDataset if _torch is not None else object


def _worker() -> Tuple[int, int]:
    """(this worker, workers) of the data loader iterating here, (0, 1) outside one."""
    torch = sys.modules.get("torch")
    if torch is None:
        return 0, 1
    info = torch.utils.data.get_worker_info()
    return (0, 1) if info is None else (int(info.id), int(info.num_workers))


class Stream(_Base):  # type: ignore[misc, valid-type]
    """``count`` levels of a kind or profile, iterated as dict rows (``rows=True``) or
    ``pyarrow.RecordBatch`` es, each data loader worker making its own share of the indices.

    ``worker=(i, n)`` overrides the worker detection (for other frameworks); ``threads``
    defaults to 1 per worker when there are several workers, all cores otherwise.
    """

    def __init__(
        self,
        kind_or_profile,
        count: int,
        *,
        seed: int = 0,
        set=None,
        rows: bool = True,
        chunk_size: int = 256,
        threads: Optional[int] = None,
        worker: Optional[Tuple[int, int]] = None,
    ) -> None:
        self.kind_or_profile = kind_or_profile
        self.count = warren._index(count, "count")
        self.seed = warren._index(seed, "seed")
        self.sets = warren._sets(set)
        self.rows = rows
        self.chunk_size = warren._index(chunk_size, "chunk_size", 1)
        self.threads = threads
        if worker is not None and not (0 <= worker[0] < worker[1]):
            raise ValueError(f"worker = {worker!r}: need 0 <= i < n")
        self.worker = worker
        # A bad profile or override fails here, not in a worker.
        warren.batches(kind_or_profile, 0, set=self.sets).close()

    def share(self) -> range:
        """The indices this worker makes."""
        i, n = self.worker or _worker()
        return range(self.count * i // n, self.count * (i + 1) // n)

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Union[dict, pa.RecordBatch]]:
        part = self.share()
        workers = (self.worker or _worker())[1]
        threads = self.threads if self.threads is not None else (1 if workers > 1 else None)
        with warren.batches(
            self.kind_or_profile,
            len(part),
            seed=self.seed,
            start=part.start,
            threads=threads,
            set=self.sets,
            chunk_size=self.chunk_size,
        ) as run:
            for batch in run:
                if self.rows:
                    yield from batch.to_pylist()
                else:
                    yield batch
