"""verl's custom reward function for warren's task rows.

In verl's trainer config::

    custom_reward_function:
      path: <site-packages>/warren/verl.py     # python -c "import warren.verl; print(warren.verl.__file__)"
      name: compute_score

Rows carry ``reward_model = {"style": "rule", "ground_truth": <the item's ground truth>}``
(warren's ground truth is a JSON object naming its task), so one function scores every warren
task, with the task's Rust scorer.

:func:`table` makes such rows in Python (``warren.verl.table("maze-steps", 100_000).to_parquet``
is one ``pyarrow.parquet.write_table`` away).

The model's answer is the text of the last ``<answer>...</answer>`` in its response, as
reasoning-gym's ``extract_answer`` takes it, or the whole response when it has no such tag.
"""

from __future__ import annotations

from typing import Any, Optional

from . import _native
from . import tasks as _tasks

__all__ = ["compute_score", "extract_answer", "table"]

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


def table(
    task: str,
    count: int,
    seed: int = 0,
    split: str = "train",
    start: int = 0,
    threads: int = 1,
    data_source: Optional[str] = None,
    **knobs: Any,
):
    """``count`` items of ``task`` as verl's rows, a ``pyarrow.Table``: ``data_source``
    (default ``warren/<task>``), ``prompt`` (one user message: the question), ``ability``
    (``reasoning``), ``reward_model`` (``style`` ``rule``, ``ground_truth``) and ``extra_info``
    (``split``, ``index``, ``answer``). Knobs as :func:`warren.tasks.items`."""
    import pyarrow as pa

    name = _tasks.task_name(task)
    columns = _tasks.block(name, count, seed=seed, split=split, start=start, threads=threads, **knobs)
    if columns["failed"]:
        index, reason = columns["failed"][0]
        raise RuntimeError(f"{name} item {index} could not be made: {reason}")
    n = len(columns["index"])
    source = data_source if data_source is not None else f"warren/{name}"
    prompts = [[{"role": "user", "content": q}] for q in columns["question"]]
    return pa.table(
        {
            "data_source": pa.array([source] * n, pa.string()),
            "prompt": pa.array(
                prompts, pa.list_(pa.struct([("role", pa.string()), ("content", pa.string())]))
            ),
            "ability": pa.array(["reasoning"] * n, pa.string()),
            "reward_model": pa.StructArray.from_arrays(
                [pa.array(["rule"] * n, pa.string()), pa.array(columns["ground_truth"], pa.string())],
                names=["style", "ground_truth"],
            ),
            "extra_info": pa.StructArray.from_arrays(
                [
                    pa.array([split] * n, pa.string()),
                    pa.array(columns["index"], pa.uint64()),
                    pa.array(columns["answer"], pa.string()),
                ],
                names=["split", "index", "answer"],
            ),
        }
    )
