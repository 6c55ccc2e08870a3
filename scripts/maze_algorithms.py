#!/usr/bin/env python3
"""Every `maze.algorithm` at 32 x 32 rooms: speed, dead ends and solution length.

For each algorithm (dead-end merging off, so each shows its own texture; seed 001 also with
its default merging on): `warren bench` on one thread (COUNT levels, levels/s per core and the
median microseconds per level, and the end-to-end rate of the same levels written to an
archive), ROUNDS times, the algorithms taking turns so a slow spell of the host falls on all
of them, and the median round kept; then a 2,000-level archive read with pyarrow for the share of rooms that are dead
ends and the mean `path_length` (grid steps on the solution from start to goal, the ends of the
tree's longest path: two per passage). With `--maze-dataset`, maze-dataset's own generators are timed in the
same run by `scripts/maze_dataset_rates.py` (install line in its docstring).

Prints docs/maze.md's Markdown table and writes the rows as JSON lines.

Usage: scripts/maze_algorithms.py [--count 20000] [--rounds 5] [--warren target/release/warren]
                                  [--maze-dataset] [--json docs/maze-algorithms/results.jsonl]
"""

import argparse
import json
import os
import subprocess
import sys
import statistics
import tempfile

import pyarrow.ipc as ipc

ALGORITHMS = [
    "seed001", "dfs", "wilson", "aldous-broder", "kruskal", "prim", "prim-simplified",
    "eller", "hunt-and-kill", "sidewinder", "binary-tree", "recursive-division", "growing-tree",
]


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{out.stderr}")
    return out


def profile(tmp, algorithm, merge):
    path = os.path.join(tmp, f"{algorithm}-{'merge' if merge else 'plain'}.toml")
    with open(path, "w") as f:
        f.write(f'kind = "maze"\n\n[maze]\nalgorithm = "{algorithm}"\n')
        f.write(f"merge_dead_ends = {'true' if merge else 'false'}\n")
    return path


def bench(warren, tmp, algorithm, merge, count):
    prof = profile(tmp, algorithm, merge)
    return json.loads(run([warren, "bench", prof, "--count", str(count), "--threads", "1",
                           "--json"]).stdout)["kinds"][0]


def shape(warren, tmp, algorithm, merge):
    prof = profile(tmp, algorithm, merge)
    out = os.path.join(tmp, "levels.arrow")
    run([warren, "generate", prof, "--count", "2000", "--out", out])
    table = ipc.open_file(out).read_all()
    rooms = table.column("rooms").to_pylist()
    dead = table.column("dead_ends").to_pylist()
    path_length = table.column("path_length").to_pylist()
    os.remove(out)
    return {
        "dead_end_share": sum(d / r for d, r in zip(dead, rooms)) / len(rooms),
        "mean_path_length": sum(path_length) / len(path_length),
    }


def measure(warren, tmp, runs, count, rounds):
    """One row per (algorithm, merge) of `runs`: the median of `rounds` interleaved benches."""
    benches = {run_: [] for run_ in runs}
    for _ in range(rounds):
        for algorithm, merge in runs:
            benches[(algorithm, merge)].append(bench(warren, tmp, algorithm, merge, count))
    rows = []
    for (algorithm, merge), got in benches.items():
        row = {
            "algorithm": algorithm,
            "merge_dead_ends": merge,
            "levels": count,
            "rounds": rounds,
            "per_core": statistics.median(b["levels_per_second_per_core"] for b in got),
            "per_core_rounds": [round(b["levels_per_second_per_core"]) for b in got],
            "us_median": statistics.median(b["us_median"] for b in got),
            "end_to_end_one_thread": statistics.median(
                b["one_thread_levels_per_second"] for b in got),
        }
        row.update(shape(warren, tmp, algorithm, merge))
        print(json.dumps(row), file=sys.stderr)
        rows.append(row)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--warren", default="target/release/warren")
    ap.add_argument("--maze-dataset", action="store_true")
    ap.add_argument("--json", default="docs/maze-algorithms/results.jsonl")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        runs = [(a, m) for a in ALGORITHMS for m in ([False, True] if a == "seed001" else [False])]
        rows = measure(args.warren, tmp, runs, args.count, args.rounds)
        peers = []
        if args.maze_dataset:
            peer_json = os.path.join(tmp, "peers.jsonl")
            here = os.path.dirname(os.path.abspath(__file__))
            # 100 mazes each: maze-dataset's Wilson takes about a second per maze.
            run([sys.executable, os.path.join(here, "maze_dataset_rates.py"), "--size", "32",
                 "--count", "100", "--json", peer_json])
            with open(peer_json) as f:
                peers = [json.loads(line) for line in f if line.strip()]
    os.makedirs(os.path.dirname(args.json) or ".", exist_ok=True)
    with open(args.json, "w") as f:
        for row in rows + peers:
            f.write(json.dumps(row) + "\n")
    print(f"Medians of {args.rounds} rounds of {args.count:,} levels.")
    print("| algorithm | levels/s per core | us per level (median) | end to end, one thread | "
          "dead ends | mean path_length |")
    print("|---|---:|---:|---:|---:|---:|")
    for r in rows:
        name = r["algorithm"] + (" (merge on)" if r["merge_dead_ends"] else "")
        print(f"| `{name}` | {r['per_core']:,.0f} | {r['us_median']:.1f} "
              f"| {r['end_to_end_one_thread']:,.0f} | {100 * r['dead_end_share']:.1f}% "
              f"| {r['mean_path_length']:.1f} |")
    for p in peers:
        print(f"| maze-dataset {p.get('maze_dataset', '')} `{p['generator']}` | "
              f"{p['per_s']:,.1f} | {1e6 / p['per_s']:,.0f} | | | |")


if __name__ == "__main__":
    main()
