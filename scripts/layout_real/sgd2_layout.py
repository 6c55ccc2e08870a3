#!/usr/bin/env python3
"""s_gd2 harness of scripts/layout_real.sh: lays out one edge list by stress majorization with
stochastic gradient descent (PyPI's `s-gd2`, Zheng, Pawar and Goodman, arXiv:1710.04626), times
only the layout call, writes the positions as TSV and prints one JSON line.

    scripts/layout_real/sgd2_layout.py GRAPH OUT.tsv [--mode full|sparse] [--pivots P] [--seed S]

GRAPH: `u v` per line (non-negative integer ids, further columns ignored), `#` comments (the SNAP
format); ids are renumbered in first-appearance order, self-loops and repeated edges dropped.
--mode full (the default) is `s_gd2.layout(I, J)`: every pair's shortest path, the stress
optimum s_gd2 is known for; sparse is `s_gd2.layout_sparse(I, J, P)` (Ortmann et al.'s pivot
approximation, P = 200 unless --pivots). Both at s_gd2's defaults otherwise (t_max 30, eps 0.01)
with random_seed S (default 1). OUT.tsv: header `id\\tx\\ty`, one row per vertex with the file's
own id. stdout: {"tool":"s_gd2","time_ms":...,"mode":...,...}, time_ms the layout call alone.
"""
import json
import sys
import time

import numpy as np
import s_gd2


def read_edges(path):
    ids, vertices, pairs = {}, [], set()
    with open(path) as f:
        for line_no, line in enumerate(f, 1):
            fields = line.replace(",", " ").split()
            if not fields or fields[0].startswith("#"):
                continue
            if len(fields) < 2:
                sys.exit(f"sgd2_layout: {path}:{line_no}: expected `u v`")
            ends = []
            for w in (int(fields[0]), int(fields[1])):
                if w not in ids:
                    ids[w] = len(vertices)
                    vertices.append(w)
                ends.append(ids[w])
            u, v = ends
            if u != v:
                pairs.add((u, v) if u < v else (v, u))
    edges = sorted(pairs)
    I = np.array([u for u, _ in edges], dtype=np.int32)
    J = np.array([v for _, v in edges], dtype=np.int32)
    return vertices, I, J


def package_version():
    try:
        import importlib.metadata
        return importlib.metadata.version("s-gd2")
    except Exception:  # a source checkout without metadata: the figures stand without it
        return None


def main():
    args = sys.argv[1:]
    opts = {"--mode": "full", "--pivots": "200", "--seed": "1"}
    for flag in list(opts):
        if flag in args:
            k = args.index(flag)
            opts[flag] = args[k + 1]
            del args[k:k + 2]
    if len(args) != 2 or opts["--mode"] not in ("full", "sparse"):
        sys.exit(__doc__)
    graph, out = args
    seed, pivots = int(opts["--seed"]), int(opts["--pivots"])
    vertices, I, J = read_edges(graph)
    t0 = time.perf_counter()
    if opts["--mode"] == "full":
        X = s_gd2.layout(I, J, random_seed=seed)
    else:
        X = s_gd2.layout_sparse(I, J, min(pivots, len(vertices)), random_seed=seed)
    ms = (time.perf_counter() - t0) * 1e3
    with open(out, "w") as f:
        f.write("id\tx\ty\n")
        f.writelines(f"{w}\t{float(X[k, 0])!r}\t{float(X[k, 1])!r}\n" for k, w in enumerate(vertices))
    info = {"tool": "s_gd2", "time_ms": round(ms, 3), "time_is": "layout call",
            "mode": opts["--mode"], "vertices": len(vertices), "edges": len(I), "seed": seed,
            "s_gd2": package_version()}
    if opts["--mode"] == "sparse":
        info["pivots"] = min(pivots, len(vertices))
    print(json.dumps(info))


if __name__ == "__main__":
    main()
