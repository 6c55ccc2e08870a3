#!/usr/bin/env python3
"""reasoning-gym's grid and graph tasks beside warren's, in one run, through reasoning-gym's own
API (``reasoning_gym.create_dataset``), as a markdown table.

Installs nothing itself. First, in one environment::

    pip install reasoning-gym==0.1.19
    pip install maturin && maturin develop --release -m python/Cargo.toml   # or pip install ./python

then ``python scripts/reasoning_gym_peers.py`` (``--quick`` for a smoke run).

Per reasoning-gym task and spec (``maze`` at its defaults and at its top curriculum band,
``shortest_path`` at its defaults, ``graph_color`` at its defaults and at 20-25 vertices), for
reasoning-gym's dataset and for the matching warren dataset (``warren_maze_steps``,
``warren_maze_path``, ``warren_graph_color``) made with the same keyword arguments, it prints:

- items/s: every item of a fresh dataset of N items iterated (``for entry in dataset``), one
  thread, the median of 3 runs; by this process's CPU time (what one core does, whatever else
  the machine runs) and by the wall clock;
- the most common answer and its share (graph colouring: the chromatic number, the colours the
  graph needs, computed here by an exact search for reasoning-gym's graphs; warren's items carry
  the one its solver proved);
- the infeasible share (``shortest_path``'s answer ``infeasible``);
- the seed-1/seed-2 overlap: questions of the dataset of seed 2 also in the dataset of seed 1
  (N = 2,000 each; reasoning-gym draws item ``i`` from ``Random(seed + i)``, warren from
  ``mix(seed, i)``).

reasoning-gym's top ``maze`` band makes about 10 items/s (it redraws a random grid until a
distance in the band comes up), so that row uses a small N (``--slow-n``, default 30), said in
the table. Then the batch scoring rate of warren's Rust scorers (``warren.score`` on lists of a
million answers) beside reasoning-gym's own ``score_answer`` in a Python loop.

Numbers depend on the machine: the script prints its CPU count and load average beside them.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import statistics
import sys
import time

try:
    import reasoning_gym
except ImportError:
    sys.exit("reasoning_gym_peers.py needs reasoning-gym: pip install reasoning-gym==0.1.19")
try:
    import warren
    import warren.reasoning_gym  # noqa: F401  (registers warren's datasets)
except ImportError as e:
    sys.exit(f"reasoning_gym_peers.py needs the warren package (maturin develop -m python/Cargo.toml): {e}")

MAZE_TOP = {"min_dist": 15, "max_dist": 20, "min_grid_size": 50, "max_grid_size": 100}
GRAPH_20_25 = {"min_num_vertices": 20, "max_num_vertices": 25}

#: (label, reasoning-gym task, warren task, keyword arguments of both, slow for reasoning-gym)
ROWS = [
    ("`maze` defaults (grid 5-10, distance 5-10)", "maze", "warren_maze_steps", {}, False),
    ("`maze` top band (distance 15-20, grid 50-100)", "maze", "warren_maze_steps", MAZE_TOP, True),
    ("`shortest_path` defaults (5-8 x 5-8)", "shortest_path", "warren_maze_path", {}, False),
    ("`graph_color` defaults (10 vertices, 3 colours)", "graph_color", "warren_graph_color", {}, False),
    ("`graph_color` 20-25 vertices, 3 colours", "graph_color", "warren_graph_color", GRAPH_20_25, False),
]


def rate(name: str, n: int, kwargs: dict, runs: int = 3) -> tuple[float, float]:
    """Items/s iterating a fresh dataset of n items, median of `runs`: (CPU, wall)."""
    cpu, wall = [], []
    for _ in range(runs):
        c0, w0 = time.process_time(), time.perf_counter()
        ds = reasoning_gym.create_dataset(name, size=n, seed=1, **kwargs)
        for _entry in ds:
            pass
        cpu.append(n / max(time.process_time() - c0, 1e-9))
        wall.append(n / max(time.perf_counter() - w0, 1e-9))
    return statistics.median(cpu), statistics.median(wall)


def chromatic_number(vertices: list, edges: list) -> int:
    """The fewest colours of a proper colouring, by exact backtracking (small graphs)."""
    adjacent = {v: set() for v in vertices}
    for u, v in edges:
        adjacent[u].add(v)
        adjacent[v].add(u)
    order = sorted(vertices, key=lambda v: -len(adjacent[v]))

    def colourable(k: int) -> bool:
        colour = {}

        def place(i: int) -> bool:
            if i == len(order):
                return True
            v = order[i]
            used = {colour[u] for u in adjacent[v] if u in colour}
            # Symmetry: a vertex takes at most one colour not used so far.
            for c in range(min(k, max(colour.values(), default=-1) + 2)):
                if c not in used:
                    colour[v] = c
                    if place(i + 1):
                        return True
                    del colour[v]
            return False

        return place(0)

    k = 1 if vertices else 0
    while vertices and not colourable(k):
        k += 1
    return k


def answer_key(entry: dict, task: str) -> str:
    """What the answer-share column counts for an entry."""
    meta = entry["metadata"]
    if task == "graph_color":
        puzzle = meta["puzzle"]
        return f"χ={chromatic_number(puzzle['vertices'], puzzle['edges'])}"
    if task == "warren_graph_color":
        return f"χ={meta['colors']}"
    return str(entry["answer"])


def infeasible(entry: dict, task: str) -> bool:
    if task.startswith("warren_") and "feasible" in entry["metadata"]:
        return entry["metadata"]["feasible"] == 0
    return entry["answer"] == "infeasible"


def balance(name: str, n: int, kwargs: dict) -> dict:
    """Top answer and its share, infeasible share, seed-1/seed-2 overlap, on datasets of n."""
    one = list(reasoning_gym.create_dataset(name, size=n, seed=1, **kwargs))
    two = list(reasoning_gym.create_dataset(name, size=n, seed=2, **kwargs))
    counts = collections.Counter(answer_key(e, name) for e in one)
    top, top_n = counts.most_common(1)[0]
    questions = {e["question"] for e in one}
    return {
        "top": f"{top!r}: {100 * top_n / n:.1f}%" if not top.startswith("χ") else f"{top}: {100 * top_n / n:.1f}%",
        "infeasible": f"{100 * sum(infeasible(e, name) for e in one) / n:.1f}%",
        "overlap": f"{sum(e['question'] in questions for e in two):,} of {n:,}",
    }


def measure(name: str, kwargs: dict, n_rate: int, n_balance: int) -> dict:
    try:
        cpu, wall = rate(name, n_rate, kwargs)
        out = balance(name, n_balance, kwargs)
    except (RuntimeError, ValueError) as e:
        return {"error": f"{type(e).__name__}: {str(e)[:90]}"}
    out.update(cpu=cpu, wall=wall, n_rate=n_rate, n_balance=n_balance)
    return out


def detour(path: str) -> str:
    """A longer path to the same goal: one step out and back first (half marks)."""
    first = path.split()[0]
    back = {"up": "down", "down": "up", "left": "right", "right": "left"}[first]
    return f"{first} {back} {path}"


def timed(score, answers, entries) -> float:
    """Answers/s of one scoring call over lists, median of 3 by CPU time."""
    times = []
    for _ in range(3):
        t0 = time.process_time()
        score(answers, entries)
        times.append(time.process_time() - t0)
    return len(answers) / max(statistics.median(times), 1e-9)


def oracle(entry: dict, task: str) -> str:
    """An entry's oracle answer (reasoning-gym's graph_color keeps its colouring apart)."""
    if task == "graph_color":
        return json.dumps(entry["metadata"]["possible_answer"])
    return entry["answer"]


def scoring(n: int) -> list[tuple[str, float]]:
    """Answers/s of warren.score on lists of n, and of reasoning-gym's score_answer in a loop."""
    out = []
    pairs = (
        ("warren_maze_steps", "maze"),
        ("warren_maze_path", "shortest_path"),
        ("warren_graph_color", "graph_color"),
    )
    for task, rg_task in pairs:
        name = task.removeprefix("warren_").replace("_", "-")
        try:
            entries = list(reasoning_gym.create_dataset(task, size=20_000, seed=1))
        except RuntimeError as e:
            out.append((f"warren `{name}`: {str(e)[:80]}", float("nan")))
            entries = []
        reps = max(1, n // max(len(entries), 1))
        kinds = [("oracle answers", [e["answer"] for e in entries])] if entries else []
        if name == "maze-path":
            kinds.append(("longer paths", [detour(e["answer"]) for e in entries]))
        for what, answers in kinds:
            answers = answers * reps
            truths = [e["metadata"]["ground_truth"] for e in entries] * reps
            for given, how in ((truths, "ground-truth strings"), (entries * reps, "reasoning-gym entries")):
                expected = 1.0 if what == "oracle answers" else 0.5
                assert set(warren.score(name, answers[:1000], given[:1000])) == {expected}
                per_s = timed(lambda a, g: warren.score(name, a, g), answers, given)
                out.append((f"warren `{name}`: `warren.score` on a list of {len(answers):,} {what} ({how})", per_s))
        ds = reasoning_gym.create_dataset(rg_task, size=2000, seed=1)
        theirs = [e for e in ds if e["answer"] != "infeasible"]
        kinds = [("oracle answers", [oracle(e, rg_task) for e in theirs])]
        if rg_task == "shortest_path":
            kinds.append(("longer paths", [detour(e["answer"]) for e in theirs]))
        for what, answers in kinds:
            loop = lambda a, g: [ds.score_answer(x, e) for x, e in zip(a, g)]  # noqa: E731
            assert all(s == (1.0 if what == "oracle answers" else 0.5) for s in loop(answers[:100], theirs[:100]))
            out.append((f"reasoning-gym `{rg_task}`: `score_answer` in a loop, {what}", timed(loop, answers, theirs)))
    return out


def fmt_rate(r: dict) -> str:
    return f"{r['cpu']:,.0f} ({r['wall']:,.0f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=2000, help="items per dataset for shares and overlap (2000)")
    ap.add_argument("--slow-n", type=int, default=30, help="items for reasoning-gym's top maze band (30)")
    ap.add_argument("--warren-n", type=int, default=50_000, help="items per timed warren run (50,000)")
    ap.add_argument("--score-n", type=int, default=1_000_000, help="answers per scoring run (1,000,000)")
    ap.add_argument("--quick", action="store_true", help="small N everywhere: a smoke run")
    args = ap.parse_args()
    if args.quick:
        args.n, args.slow_n, args.warren_n, args.score_n = 200, 5, 5000, 100_000

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"reasoning-gym {getattr(reasoning_gym, '__version__', '?')}, warren {warren.__version__} ({warren.__build__})")
    print(f"{os.cpu_count()} CPUs, load average {load:.2f}; one thread; items/s = median of 3 runs by CPU time (wall clock)\n")

    print("| spec | dataset | N timed | items/s CPU (wall) | top answer | infeasible | seed 1/2 overlap (N) | warren / rg |")
    print("|---|---|---|---|---|---|---|---|")
    for label, rg_task, warren_task, kwargs, slow in ROWS:
        rg_n = args.slow_n if slow else args.n
        theirs = measure(rg_task, kwargs, rg_n, rg_n)
        ours = measure(warren_task, kwargs, args.warren_n // (10 if slow else 1), args.n)
        for name, r in ((rg_task, theirs), (warren_task, ours)):
            if "error" in r:
                print(f"| {label} | `{name}` | - | {r['error']} | | | | |")
                continue
            ratio = ""
            if name == warren_task and "error" not in theirs:
                ratio = f"{r['cpu'] / theirs['cpu']:,.0f}x"
            small = " (small N: slow)" if slow and name == rg_task else ""
            print(
                f"| {label} | `{name}` | {r['n_rate']:,}{small} | {fmt_rate(r)} | {r['top']} | {r['infeasible']} | "
                f"{r['overlap']} | {ratio} |"
            )
    print()
    print("| scoring | answers/s (CPU, median of 3) |")
    print("|---|---|")
    for what, per_s in scoring(args.score_n):
        print(f"| {what} | {per_s:,.0f} |")


if __name__ == "__main__":
    main()
