#!/usr/bin/env python3
"""How fast the Python library maze-dataset 1.4.2 makes SIZE x SIZE lattice mazes, for comparison.

For each of `LatticeMazeGenerators.gen_dfs`, `gen_kruskal` and `gen_wilson` (default arguments):
one untimed warm-up maze, then COUNT mazes of grid shape (SIZE, SIZE) in one single-threaded
loop timed with time.perf_counter, so the rate is for one core. Maze i is made from seed i:
these generators draw from Python's global `random` and numpy's legacy global `np.random`
(not a Generator object), so both are re-seeded before each maze and runs are reproducible;
the seeding is inside the timed loop (microseconds, next to milliseconds a maze). The first
maze of each generator is checked to be a spanning tree of the lattice (SIZE*SIZE - 1 open
connections in `connection_list`, a bool array of shape (2, SIZE, SIZE), and all cells
reachable); the script exits non-zero if not. Prints a Markdown table and, with --json, writes
one JSON line per generator.

Install (the script installs nothing itself):

    python3 -m pip install maze-dataset==1.4.2 muutils==0.8.12 zanj==0.5.2

The two pins are needed: with the newest muutils (0.9.x) and zanj (0.6.x) that pip picks by
default, `import maze_dataset` fails with "cannot import name '_FORMAT_KEY' from
'muutils.json_serialize.util'" (maze-dataset issue #82). No other pin is needed (checked in a
clean venv with numpy 2.4). Note that maze-dataset depends on jupyter, so the line pulls in
about 60 packages (jupyterlab, ipykernel, ...).

Usage: scripts/maze_dataset_rates.py [--count 500] [--size 32] [--json PATH]

At 32 x 32, gen_wilson is slow (about 1 maze/s here), so the default 500 takes about 10 minutes
for it alone; gen_dfs and gen_kruskal take seconds. Use --count 50 for a quick run.
"""

import argparse
import importlib.metadata
import json
import random
import sys
import time

import numpy as np

try:
    from maze_dataset.generation import LatticeMazeGenerators
except ImportError as err:
    sys.exit(f"cannot import maze_dataset ({err}); install it with:\n"
             "  python3 -m pip install maze-dataset==1.4.2 muutils==0.8.12 zanj==0.5.2")

GENERATORS = ["gen_dfs", "gen_kruskal", "gen_wilson"]
WARMUP_SEED = 1_000_000  # not one of the timed seeds 0..COUNT-1


def seed_all(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)


def spanning_tree_problem(connections: np.ndarray, size: int) -> str | None:
    """None if `connections` (the maze's connection_list) is a spanning tree of the lattice."""
    if connections.shape != (2, size, size) or connections.dtype != np.bool_:
        return f"connection_list has shape {connections.shape}, dtype {connections.dtype}"
    edges = int(connections.sum())
    if edges != size * size - 1:
        return f"{edges} open connections, a spanning tree has {size * size - 1}"
    # connection_list[0][r, c]: (r, c) <-> (r+1, c); connection_list[1][r, c]: (r, c) <-> (r, c+1)
    seen, stack = {(0, 0)}, [(0, 0)]
    while stack:
        r, c = stack.pop()
        steps = [
            (r + 1, c, r + 1 < size and connections[0, r, c]),
            (r - 1, c, r > 0 and connections[0, r - 1, c]),
            (r, c + 1, c + 1 < size and connections[1, r, c]),
            (r, c - 1, c > 0 and connections[1, r, c - 1]),
        ]
        for nr, nc, open_ in steps:
            if open_ and (nr, nc) not in seen:
                seen.add((nr, nc))
                stack.append((nr, nc))
    if len(seen) != size * size:
        return f"only {len(seen)} of {size * size} cells reachable from (0, 0)"
    return None


def measure(name: str, size: int, count: int) -> dict:
    generate = getattr(LatticeMazeGenerators, name)
    shape = (size, size)
    seed_all(WARMUP_SEED)
    generate(shape)  # warm-up, not timed
    first = None
    start = time.perf_counter()
    for seed in range(count):
        seed_all(seed)
        maze = generate(shape)
        if first is None:
            first = maze
    seconds = time.perf_counter() - start
    problem = spanning_tree_problem(np.asarray(first.connection_list), size)
    if problem is not None:
        sys.exit(f"{name}: first maze (seed 0) is not a spanning tree of the "
                 f"{size}x{size} lattice: {problem}")
    return {"generator": name, "size": size, "count": count, "seconds": round(seconds, 3),
            "per_s": round(count / seconds, 2),
            "maze_dataset": importlib.metadata.version("maze-dataset")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=500, help="timed mazes per generator")
    parser.add_argument("--size", type=int, default=32, help="grid is SIZE x SIZE cells")
    parser.add_argument("--json", metavar="PATH", help="write one JSON object per line here")
    args = parser.parse_args()
    if args.count < 1 or args.size < 2:
        parser.error("need --count >= 1 and --size >= 2")

    version = importlib.metadata.version("maze-dataset")
    print(f"maze-dataset {version}, {args.size}x{args.size} mazes, {args.count} per generator, "
          "one thread\n", flush=True)
    rows = [measure(name, args.size, args.count) for name in GENERATORS]

    print("| generator | mazes | seconds | mazes/s |")
    print("| --- | ---: | ---: | ---: |")
    for row in rows:
        print(f"| {row['generator']} | {row['count']} | {row['seconds']:.2f} | {row['per_s']:.2f} |")
    if args.json:
        with open(args.json, "w") as out:
            for row in rows:
                out.write(json.dumps(row) + "\n")


if __name__ == "__main__":
    main()
