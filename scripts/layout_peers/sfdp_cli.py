#!/usr/bin/env python3
"""Graphviz sfdp run the classic way, for comparison with scripts/layout_peers/sfdp_layout.c (what
scripts/layout_peers.sh runs by default; `--tools sfdp-cli` runs this one): converts one edge
list to DOT, runs the `sfdp -Tplain` program on it with Graphviz's defaults, and reads the node
positions back.

    scripts/layout_peers/sfdp_cli.py GRAPH OUT.tsv [--seed S] [--keep-dot DOT]

GRAPH: `u v` per line (non-negative integer ids, further columns ignored), `#` comments (the SNAP
format); self-loops are dropped (their vertices kept). The DOT file names every node by its file
id (an undirected `graph`, no attributes but `start=S` (sfdp's random start seed, default 1), so
sfdp runs its defaults otherwise: spring-electrical model, multilevel, Barnes-Hut, overlap
removal as Graphviz sets it by default). OUT.tsv: header `id\\tx\\ty`, one row per vertex with
the file's own id, positions in points as `-Tplain` prints them (inches, to 5 significant digits:
on 100,000 vertices that rounds by about a tenth of an edge, hence sfdp_layout.c) times 72.

sfdp (Graphviz 2.43, Debian 12) prints no time of its layout phase, even with -v, so the time is
that of the whole sfdp process: reading the DOT, layout, writing -Tplain; the conversion to DOT
and back is not counted. stdout: one JSON line {"tool":"sfdp-cli","time_ms":...,
"time_is":"process","process_wall_ms":...,"peak_rss_kb":...} where peak_rss_kb is the sfdp
process's own (from wait4), not this script's.
"""
import json
import os
import subprocess
import sys
import tempfile
import time


def write_dot(graph, dot, seed):
    ids = {}
    vertices = []
    edges = []
    self_loops = 0
    with open(graph) as f:
        for line_no, line in enumerate(f, 1):
            fields = line.replace(",", " ").split()
            if not fields or fields[0].startswith("#"):
                continue
            if len(fields) < 2:
                sys.exit(f"{graph}:{line_no}: expected `u v`")
            u, v = int(fields[0]), int(fields[1])
            for w in (u, v):
                if w not in ids:
                    ids[w] = len(vertices)
                    vertices.append(w)
            if u == v:
                self_loops += 1
            else:
                edges.append(f"{u}--{v}\n")
    with open(dot, "w") as f:
        f.write(f"graph G {{\nstart={seed};\n")
        # Every vertex first, in file order: isolated ones (after dropped self-loops) are kept.
        f.writelines(f"{w};\n" for w in vertices)
        f.writelines(edges)
        f.write("}\n")
    return vertices, len(edges), self_loops


def run_sfdp(dot, plain):
    """Runs sfdp; returns (wall ms, peak RSS in kB) of that process alone."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(["sfdp", "-Tplain", dot, "-o", plain])
    _, status, usage = os.wait4(proc.pid, 0)
    wall = (time.perf_counter() - t0) * 1e3
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        sys.exit(f"sfdp failed with exit code {proc.returncode}")
    return wall, usage.ru_maxrss  # kB on Linux


def read_plain(plain):
    pos = {}
    with open(plain) as f:
        for line in f:
            if line.startswith("node "):
                fields = line.split()
                pos[int(fields[1].strip('"'))] = (float(fields[2]) * 72, float(fields[3]) * 72)
    return pos


def main():
    args = sys.argv[1:]
    seed, keep = 1, None
    for flag in ("--seed", "--keep-dot"):
        if flag in args:
            k = args.index(flag)
            value = args[k + 1]
            del args[k:k + 2]
            if flag == "--seed":
                seed = int(value)
            else:
                keep = value
    if len(args) != 2:
        sys.exit(__doc__)
    graph, out = args
    with tempfile.TemporaryDirectory(prefix="sfdp-") as tmp:
        dot = keep or os.path.join(tmp, "g.dot")
        plain = os.path.join(tmp, "g.plain")
        vertices, edge_count, self_loops = write_dot(graph, dot, seed)
        wall, rss = run_sfdp(dot, plain)
        pos = read_plain(plain)
    missing = [w for w in vertices if w not in pos]
    if missing:
        sys.exit(f"sfdp output lacks {len(missing)} vertices (first: {missing[0]})")
    with open(out, "w") as f:
        f.write("id\tx\ty\n")
        f.writelines(f"{w}\t{pos[w][0]!r}\t{pos[w][1]!r}\n" for w in vertices)
    version = subprocess.run(["sfdp", "-V"], capture_output=True, text=True).stderr.strip()
    print(json.dumps({"tool": "sfdp-cli", "time_ms": round(wall, 3), "time_is": "process",
                      "process_wall_ms": round(wall, 3), "peak_rss_kb": rss,
                      "vertices": len(vertices), "edges": edge_count, "self_loops": self_loops,
                      "seed": seed, "graphviz": version}))


if __name__ == "__main__":
    main()
