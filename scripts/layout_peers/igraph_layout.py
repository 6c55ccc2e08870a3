#!/usr/bin/env python3
"""igraph harness of scripts/layout_peers.sh: lays out one edge list with python-igraph (PyPI
`igraph`) and times only the layout call.

    scripts/layout_peers/igraph_layout.py GRAPH drl|fr OUT.tsv [--seed S]

GRAPH: `u v` per line (non-negative integer ids, further columns ignored), `#` comments (the SNAP
format). Ids are renumbered in first-appearance order; self-loops are dropped. METHOD: `drl`
runs Graph.layout_drl(), `fr` Graph.layout_fruchterman_reingold(), both with igraph's defaults
(DrL: options "default"; FR: 500 iterations, grid "auto", i.e. the grid variant from 1,000
vertices on). igraph draws its random numbers from Python's `random` module, seeded with S
(default 1) before the call. OUT.tsv: header `id\\tx\\ty`, one row per vertex with the file's
own id. stdout: one JSON line {"tool":"igraph-drl","time_ms":...,...}, time_ms the
time.perf_counter() time of the layout call alone.
"""
import json
import random
import sys
import time

import igraph

METHODS = {"drl": "layout_drl", "fr": "layout_fruchterman_reingold"}


def read_edge_list(path):
    index = {}
    ids = []
    edges = []
    self_loops = 0

    def vertex(token):
        i = int(token)
        v = index.get(i)
        if v is None:
            v = index[i] = len(ids)
            ids.append(i)
        return v

    with open(path) as f:
        for line_no, line in enumerate(f, 1):
            fields = line.replace(",", " ").split()
            if not fields or fields[0].startswith("#"):
                continue
            if len(fields) < 2:
                sys.exit(f"{path}:{line_no}: expected `u v`")
            a, b = vertex(fields[0]), vertex(fields[1])
            if a == b:
                self_loops += 1
            else:
                edges.append((a, b))
    return ids, edges, self_loops


def main():
    args = sys.argv[1:]
    seed = 1
    if "--seed" in args:
        k = args.index("--seed")
        seed = int(args[k + 1])
        del args[k:k + 2]
    if len(args) != 3 or args[1] not in METHODS:
        sys.exit(__doc__)
    path, method, out = args
    ids, edges, self_loops = read_edge_list(path)
    g = igraph.Graph(n=len(ids), edges=edges)
    lay_out = getattr(g, METHODS[method])
    random.seed(seed)
    t0 = time.perf_counter()
    layout = lay_out()
    ms = (time.perf_counter() - t0) * 1e3
    with open(out, "w") as f:
        f.write("id\tx\ty\n")
        f.writelines(f"{i}\t{x!r}\t{y!r}\n" for i, (x, y) in zip(ids, layout.coords))
    print(json.dumps({"tool": f"igraph-{method}", "time_ms": round(ms, 3), "vertices": len(ids),
                      "edges": len(edges), "self_loops": self_loops, "seed": seed,
                      "igraph": igraph.__version__}))


if __name__ == "__main__":
    main()
