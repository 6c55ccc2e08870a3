#!/usr/bin/env python3
"""Writes a level-like edge list for `warren layout`: a tree in which each vertex attaches to
one of the 10 before it, plus short extra edges (span 2 to 19), fixed by a seed.

    scripts/level_like_graph.py OUT.txt [VERTICES] [EXTRA_EDGES] [SEED]

Defaults: 100,000 vertices, 25,000 extra edges, seed 12345 (the figures of docs/layout.md).
"""
import random
import sys


def main() -> None:
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
    extra = int(sys.argv[3]) if len(sys.argv) > 3 else 25_000
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 12345
    rng = random.Random(seed)
    edges = set()
    lines = [f"# level-like graph: {n} vertices, recent-attachment tree + {extra} short chords, seed {seed}"]
    for i in range(1, n):
        j = i - 1 - rng.randrange(min(i, 10))
        edges.add((j, i))
        lines.append(f"{j}\t{i}")
    while len(edges) < n - 1 + extra:
        i = rng.randrange(20, n)
        j = i - rng.randrange(2, 20)
        if (j, i) in edges:
            continue
        edges.add((j, i))
        lines.append(f"{j} {i}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
