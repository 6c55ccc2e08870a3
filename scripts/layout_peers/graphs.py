#!/usr/bin/env python3
"""Writes the benchmark graphs of scripts/layout_peers.sh as edge lists (`u v` per line, `#`
comments: the SNAP format `warren layout` reads). Standard library only; the same bytes for the
same seeds.

    scripts/layout_peers/graphs.py OUTDIR [NAME ...]

With no NAME every graph is written; names (and the files OUTDIR/NAME.txt):

    level-1k, level-10k, level-100k, level-1m
        level-like graphs of 10^3..10^6 vertices made by scripts/level_like_graph.py (a
        recent-attachment tree plus n/4 short chords), seed 12345 (docs/layout.md's seed; level-100k
        is the very graph of docs/performance.md's `warren layout` row)
    grid-316
        a 316 x 316 grid (2D mesh): 99,856 vertices, 199,080 edges, vertex r*316+c
    ba-100k
        preferential attachment (Barabasi-Albert, m = 2) on 100,000 vertices, seed 4242: a
        triangle 0-1-2 to start, then each new vertex links to 2 distinct earlier vertices picked
        with probability proportional to degree

A file that already exists is rewritten only if its first line (which names the graph and its
seed) differs, so the driver can call this every run.
"""
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LEVEL_LIKE = os.path.join(HERE, "..", "level_like_graph.py")
LEVEL_SEED = 12345
BA_SEED = 4242

LEVEL_SIZES = {"level-1k": 1_000, "level-10k": 10_000, "level-100k": 100_000, "level-1m": 1_000_000}
ALL = list(LEVEL_SIZES) + ["grid-316", "ba-100k"]


def level_header(n: int) -> str:
    # The first line level_like_graph.py writes; used to tell an up-to-date file.
    return (f"# level-like graph: {n} vertices, recent-attachment tree + {n // 4} short chords, "
            f"seed {LEVEL_SEED}")


def write_level(path: str, n: int) -> None:
    # The existing generator itself, so these stay its graphs (the guide's figures included).
    subprocess.run([sys.executable, LEVEL_LIKE, path, str(n), str(n // 4), str(LEVEL_SEED)],
                   check=True)


def grid_header(side: int) -> str:
    return f"# grid graph: {side} x {side} mesh, {side * side} vertices, vertex r*{side}+c"


def write_grid(path: str, side: int) -> None:
    lines = [grid_header(side)]
    for r in range(side):
        for c in range(side):
            v = r * side + c
            if c + 1 < side:
                lines.append(f"{v} {v + 1}")
            if r + 1 < side:
                lines.append(f"{v} {v + side}")
    write_lines(path, lines)


def ba_header(n: int, m: int) -> str:
    return f"# preferential attachment (Barabasi-Albert): {n} vertices, m = {m}, seed {BA_SEED}"


def write_ba(path: str, n: int, m: int = 2) -> None:
    rng = random.Random(BA_SEED)
    lines = [ba_header(n, m)]
    # `ends` holds each vertex once per edge end: a uniform pick from it is a pick by degree.
    ends = []
    start = m + 1
    for u in range(start):  # a clique on the first m + 1 vertices (a triangle for m = 2)
        for v in range(u + 1, start):
            lines.append(f"{u} {v}")
            ends += [u, v]
    for v in range(start, n):
        targets = []
        while len(targets) < m:
            t = ends[rng.randrange(len(ends))]
            if t not in targets:
                targets.append(t)
        for t in targets:
            lines.append(f"{t} {v}")
            ends += [t, v]
    write_lines(path, lines)


def write_lines(path: str, lines: list) -> None:
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, path)


def first_line(path: str) -> str:
    try:
        with open(path) as f:
            return f.readline().rstrip("\n")
    except OSError:
        return ""


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    names = sys.argv[2:] or ALL
    unknown = [x for x in names if x not in ALL]
    if unknown:
        sys.exit(f"unknown graph(s) {unknown}; known: {ALL}")
    os.makedirs(out, exist_ok=True)
    for name in names:
        path = os.path.join(out, name + ".txt")
        if name in LEVEL_SIZES:
            n = LEVEL_SIZES[name]
            header, make = level_header(n), lambda p, n=n: write_level(p, n)
        elif name == "grid-316":
            header, make = grid_header(316), lambda p: write_grid(p, 316)
        else:
            header, make = ba_header(100_000, 2), lambda p: write_ba(p, 100_000, 2)
        if first_line(path) == header:
            print(f"{path}: up to date", file=sys.stderr)
            continue
        make(path)
        print(f"{path}: written", file=sys.stderr)


if __name__ == "__main__":
    main()
