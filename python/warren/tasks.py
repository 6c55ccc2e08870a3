"""Reasoning tasks: questions with exact answers and Rust scorers, for training language models
with verifiable rewards (RLVR).

>>> import warren.tasks
>>> items = warren.tasks.items("maze-steps", 1000, seed=7, min_dist=5, max_dist=20)
>>> items[0]["question"], items[0]["answer"]              # the prompt, the oracle answer
>>> warren.score("maze-steps", [items[0]["answer"], "oops"], items[:2])  # a float in [0, 1] each
[1.0, 0.0]

Items are made in Rust in blocks (``threads`` workers, the same items for any count): item
``i`` of a run with master seed ``S`` in split ``p`` depends only on ``(S, p, i)``, through
warren's ``mix(S, i)``, so the datasets of two seeds share no item and the three splits of one
seed share no puzzle. The knobs are the ``[task]`` keys of a ``task`` profile (``min_dist``,
``max_dist``, ``min_rows``, ``algorithms``, ``braid``, ``infeasible_share``, ``renderings``,
``trace``, ``min_vertices``, ``colors``, ``greedy_fails``, ``source``, ...); see
``docs/tasks.md``. A knob out of range, or a spec no item can meet, raises ``ValueError`` in one
line naming the key before any item is made.

The scorers take untrusted answers: anything that is not a string, a string over 1 MiB, nested
JSON, binary or unicode junk scores 0 and never raises.
"""

from __future__ import annotations

import itertools
import json
import numbers
from typing import Any, Iterable, Iterator, Optional, Sequence

from . import _native

__all__ = ["block", "config_json", "items", "names", "profile_toml", "score", "validate"]

#: Splits an item may be drawn for.
SPLITS = ("train", "validation", "test")


def names() -> list[str]:
    """The task names: ``maze-steps``, ``maze-path``, ``grid-steps``, ``graph-color``,
    ``coloring-puzzle``."""
    return list(_native.task_names())


def task_name(task: str) -> str:
    """``task`` as the engine spells it: ``maze_steps`` and ``warren_maze_steps`` are
    ``maze-steps``. Raises ``ValueError`` for a name that is no task."""
    if not isinstance(task, str):
        raise TypeError(f"task must be a string, not {type(task).__name__}")
    name = task.removeprefix("warren_").replace("_", "-")
    if name not in _native.task_names():
        raise ValueError(f"task `{task}` is not one of {', '.join(_native.task_names())}")
    return name


def _json_default(value: Any) -> Any:
    # numpy scalars and other numbers given as knobs.
    if isinstance(value, bool):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, (tuple, set, frozenset)):
        return list(value)
    raise TypeError(f"cannot use a {type(value).__name__} as a task knob")


def config_json(task: str, split: str = "train", **knobs: Any) -> str:
    """The task configuration as the engine reads it: the ``[task]`` keys as JSON."""
    if split not in SPLITS:
        raise ValueError(f"split = {split!r} is not one of {', '.join(SPLITS)}")
    cfg = {"task": task_name(task), "split": split}
    cfg.update({k: v for k, v in knobs.items() if v is not None})
    try:
        return json.dumps(cfg, default=_json_default, separators=(",", ":"), sort_keys=True)
    except TypeError as e:
        bad = next((k for k, v in knobs.items() if _unjsonable(v)), "?")
        raise TypeError(f"task.{bad}: {e}") from None


def _unjsonable(value: Any) -> bool:
    try:
        json.dumps(value, default=_json_default)
        return False
    except TypeError:
        return True


def _toml_value(key: str, value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, numbers.Real):
        value = float(value)
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"task.{key} = {value} is not a finite number")
        return repr(value)
    if isinstance(value, str):
        # A JSON string is a TOML basic string (the same escapes).
        return json.dumps(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(key, v) for v in value) + "]"
    raise TypeError(f"task.{key}: cannot write a {type(value).__name__} into a profile")


def _toml_table(header: str, table: dict, out: list) -> None:
    out.append(f"[{header}]")
    nested = []
    for key, value in table.items():
        if value is None:
            continue
        if isinstance(value, dict):
            nested.append((key, value))
        else:
            out.append(f"{key} = {_toml_value(key, value)}")
    for key, value in nested:
        out.append("")
        _toml_table(f"{header}.{key}", value, out)


def profile_toml(task: str, split: str = "train", **knobs: Any) -> str:
    """The ``task`` profile of a spec, as TOML: what ``warren generate PROFILE`` and
    ``warren.generate`` / ``warren.ray.read_levels`` take to make the same items as levels (with
    the grid or graph beside the question, answer and ground truth)."""
    cfg = json.loads(config_json(task, split, **knobs))
    out = ['kind = "task"', ""]
    _toml_table("task", cfg, out)
    return "\n".join(out) + "\n"


def validate(task: str, split: str = "train", **knobs: Any) -> None:
    """Checks a task spec as the engine does; ``ValueError`` naming the key if it cannot be met."""
    _native.task_validate(config_json(task, split, **knobs))


def _count(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{what} must be an integer, not {type(value).__name__}")
    value = int(value)
    if not 0 <= value < 2**64:
        raise ValueError(f"{what} = {value} is out of range 0..2**64")
    return value


def block(
    task: str,
    count: int,
    seed: int = 0,
    split: str = "train",
    start: int = 0,
    threads: int = 1,
    **knobs: Any,
) -> dict:
    """Items ``start .. start + count`` as columns: a dict of lists (``index``, ``question``,
    ``answer``, ``ground_truth``, ``metrics`` as a dict of lists, ``trace`` and ``image`` or
    None, ``failed`` as ``(index, reason)`` pairs of items that could not be made)."""
    return _native.task_items(
        config_json(task, split, **knobs),
        _count(seed, "seed"),
        _count(start, "start"),
        _count(count, "count"),
        _count(threads, "threads"),
    )


def rows(columns: dict, task: str, split: str) -> Iterator[dict]:
    """The items of a block as dicts: ``question``, ``answer``, ``metadata`` (``task``,
    ``split``, ``index``, ``ground_truth``, every metric, and ``trace`` when there is one) and
    ``image`` (PNG bytes) for a png rendering."""
    metric_names = list(columns["metrics"])
    metric_rows = zip(*columns["metrics"].values()) if metric_names else itertools.repeat(())
    trace = columns["trace"]
    image = columns["image"]
    for k, (index, question, answer, truth, metrics) in enumerate(
        zip(columns["index"], columns["question"], columns["answer"], columns["ground_truth"], metric_rows)
    ):
        metadata = {"task": task, "split": split, "index": index, "ground_truth": truth}
        metadata.update(zip(metric_names, metrics))
        if trace is not None:
            metadata["trace"] = trace[k]
        item = {"question": question, "answer": answer, "metadata": metadata}
        if image is not None:
            item["image"] = image[k]
        yield item


def items(
    task: str,
    count: int,
    seed: int = 0,
    split: str = "train",
    start: int = 0,
    threads: int = 1,
    **knobs: Any,
) -> list[dict]:
    """``count`` items of ``task`` from index ``start`` with master seed ``seed``, as dicts
    (see :func:`rows`). Raises ``ValueError`` for a bad knob (naming it) and ``RuntimeError``
    when an item cannot be made (naming it and why)."""
    name = task_name(task)
    columns = block(name, count, seed=seed, split=split, start=start, threads=threads, **knobs)
    if columns["failed"]:
        index, reason = columns["failed"][0]
        raise RuntimeError(
            f"{name} item {index} could not be made: {reason} "
            f"({len(columns['failed'])} of {count} items failed)"
        )
    return list(rows(columns, name, split))


def score(task: Optional[str], answers: Sequence[Any], entries: Iterable[Any]) -> list[float]:
    """Scores of ``answers`` against ``entries``, one float in [0, 1] per answer, by the Rust
    scorer of ``task`` (None: the task each ground truth names).

    An entry is a ground-truth string, an item (a dict with ``metadata["ground_truth"]``, as
    :func:`items` and reasoning-gym give them) or verl's ``reward_model`` dict (with
    ``ground_truth``). An answer may be anything: a non-string scores 0, never an exception.
    Raises ``ValueError`` for an unknown task, lists of different lengths, or an entry without a
    ground truth."""
    name = None if task is None else task_name(task)
    return _native.score(name, answers, entries)
