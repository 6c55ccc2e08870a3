"""verl's custom reward function for warren's task rows.

In verl's trainer config::

    custom_reward_function:
      path: <site-packages>/warren/verl.py     # python -c "import warren.verl; print(warren.verl.__file__)"
      name: compute_score

Rows carry ``reward_model = {"style": "rule", "ground_truth": <the item's ground truth>}``
(warren's ground truth is a JSON object naming its task), so one function scores every warren
task, with the task's Rust scorer.

:func:`table` makes such rows in Python, the same as ``warren tasks TASK --format verl`` writes
(``pyarrow.parquet.write_table(warren.verl.table("maze-steps", 100_000), "train.parquet")``).

The model's answer is the text of the last ``<answer>...</answer>`` in its response, as
reasoning-gym's ``extract_answer`` takes it, or the whole response when it has no such tag.
"""

from __future__ import annotations

from typing import Any, Optional

from . import _native
from . import tasks as _tasks

__all__ = ["compute_score", "extract_answer", "rows", "table"]

_OPEN = "<answer>"
_CLOSE = "</answer>"


def extract_answer(response: Any) -> Any:
    """The text of the last ``<answer>...</answer>`` of ``response`` (stripped), or ``response``
    itself when it has none (or is not a string). Linear in the response's length."""
    if not isinstance(response, str):
        return response
    end = response.rfind(_CLOSE)
    if end < 0:
        return response
    begin = response.rfind(_OPEN, 0, end)
    if begin < 0:
        return response
    return response[begin + len(_OPEN) : end].strip()


def compute_score(
    data_source: Optional[str],
    solution_str: Any,
    ground_truth: Any,
    extra_info: Optional[dict] = None,
    **kwargs: Any,
) -> float:
    """verl's reward: the score in [0, 1] of the model's response ``solution_str`` for the item
    whose ground truth is ``ground_truth`` (a string, or a dict holding ``ground_truth``), by the
    scorer of the task the ground truth names. ``data_source`` and ``extra_info`` are not needed.
    Never raises for a response; a ground truth that is no warren task's scores 0."""
    del data_source, extra_info, kwargs
    if isinstance(ground_truth, (bytes, bytearray)):
        ground_truth = bytes(ground_truth).decode("utf-8", "replace")
    if not isinstance(ground_truth, (str, dict)):
        return 0.0
    try:
        return _native.score(None, [extract_answer(solution_str)], [ground_truth])[0]
    except ValueError:
        # A dict without a ground truth: nothing to score against.
        return 0.0


#: Level columns that are no metric of an item.
_NOT_METRICS = ("index", "seed", "layout_hash", "canonical_hash", "grid_width", "grid_height")


def table(
    task: str,
    count: int,
    seed: int = 0,
    split: str = "train",
    start: int = 0,
    threads: Optional[int] = None,
    **knobs: Any,
):
    """``count`` items of ``task`` (knobs as :func:`warren.tasks.items`) as verl's rows, a
    ``pyarrow.Table`` with the columns and values ``warren tasks TASK --format verl`` writes:
    ``data_source`` (``warren/<task>``), ``prompt`` (one user message: the question, after
    ``<image>`` for a png rendering), ``ability``, ``reward_model`` (``style`` ``rule``,
    ``ground_truth``), ``extra_info`` (``split``, ``index``, ``seed``, ``answer`` and every
    metric) and, for png renderings, ``images``. Made on the batch engine with ``threads``
    workers (None: every core)."""
    import os
    import tempfile

    from . import generate

    name = _tasks.task_name(task)
    with tempfile.TemporaryDirectory(prefix="warren-verl-") as folder:
        profile = os.path.join(folder, "task.toml")
        with open(profile, "w", encoding="utf-8") as f:
            f.write(_tasks.profile_toml(name, split, **knobs))
        levels = generate(profile, count, seed=seed, start=start, threads=threads)
    return rows(levels, name, split)


def rows(levels, task: str, split: str = "train"):
    """A table of ``task`` levels (``warren.generate`` of a ``task`` profile) as verl's rows
    (see :func:`table`)."""
    import pyarrow as pa

    n = levels.num_rows
    name = _tasks.task_name(task)
    question = levels.column("question").to_pylist()
    image = levels.column("image").to_pylist() if "image" in levels.column_names else None
    if image is not None:
        question = [f"<image>{q}" if im else q for q, im in zip(question, image)]
    message = pa.struct([pa.field("role", pa.string(), False), pa.field("content", pa.string(), False)])
    prompt = pa.array([[{"role": "user", "content": q}] for q in question], pa.list_(pa.field("item", message)))
    reward = pa.StructArray.from_arrays(
        [pa.array(["rule"] * n, pa.string()), levels.column("ground_truth").combine_chunks()],
        fields=[pa.field("style", pa.string(), False), pa.field("ground_truth", pa.string(), False)],
    )
    metrics = [
        f
        for f in levels.schema
        if f.name not in _NOT_METRICS and f.type in (pa.uint32(), pa.float32())
    ]
    extra_arrays = [
        pa.array([split] * n, pa.string()),
        levels.column("index").combine_chunks(),
        levels.column("seed").combine_chunks(),
        levels.column("answer").combine_chunks(),
    ] + [levels.column(f.name).combine_chunks() for f in metrics]
    extra_fields = [
        pa.field("split", pa.string(), False),
        pa.field("index", pa.uint64(), False),
        pa.field("seed", pa.uint64(), False),
        pa.field("answer", pa.string(), False),
    ] + [pa.field(f.name, f.type, False) for f in metrics]
    columns = {
        "data_source": pa.array([f"warren/{name}"] * n, pa.string()),
        "prompt": prompt,
        "ability": pa.array(["graph" if name in ("graph-color", "coloring-puzzle") else "spatial"] * n, pa.string()),
        "reward_model": reward,
        "extra_info": pa.StructArray.from_arrays(extra_arrays, fields=extra_fields),
    }
    fields = [
        pa.field("data_source", pa.string(), False),
        pa.field("prompt", prompt.type, False),
        pa.field("ability", pa.string(), False),
        pa.field("reward_model", reward.type, False),
        pa.field("extra_info", columns["extra_info"].type, False),
    ]
    if image is not None:
        item = pa.struct([pa.field("bytes", pa.binary(), False)])
        columns["images"] = pa.array([[{"bytes": im}] if im else [] for im in image], pa.list_(pa.field("item", item)))
        fields.append(pa.field("images", columns["images"].type, False))
    return pa.Table.from_arrays(list(columns.values()), schema=pa.schema(fields))
