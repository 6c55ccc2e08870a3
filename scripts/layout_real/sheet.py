#!/usr/bin/env python3
"""A picture sheet of a scripts/layout_real.sh run: for each chosen graph, warren's drawing beside
s_gd2's (one row per graph, thin grey edges, small dots, each drawing scaled to its own panel),
with the stress warren's scorer gave each; written as a palette PNG to stay small.

    scripts/layout_real/sheet.py RUN_DIR OUT.png GRAPH [GRAPH ...] [--dpi D]

RUN_DIR: target/peers/real/runs/DATE (holds GRAPH.warren.tsv, GRAPH.sgd2.tsv, their .score
files and results.jsonl); the graphs are read from target/peers/real/graphs/GRAPH.txt beside it.
Needs matplotlib (`pip install matplotlib`).
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402
from PIL import Image  # noqa: E402

PANELS = [("warren", "warren"), ("sgd2", "s_gd2")]


def read_positions(path):
    pos = {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) < 3 or not fields[0].lstrip("-").isdigit():
                continue  # the header
            pos[int(fields[0])] = (float(fields[1]), float(fields[2]))
    return pos


def read_edges(path):
    with open(path) as f:
        return [tuple(map(int, line.split()[:2])) for line in f if line[:1].isdigit()]


def stress_of(run, graph, tool):
    try:
        with open(os.path.join(run, f"{graph}.{tool}.score")) as f:
            return json.loads(f.read().strip().splitlines()[-1])["stress"]
    except (OSError, ValueError, KeyError, IndexError):
        return None


def mode_of(run, graph):
    try:
        with open(os.path.join(run, f"{graph}.sgd2.json")) as f:
            return json.loads(f.read().strip().splitlines()[-1]).get("mode", "")
    except (OSError, ValueError, IndexError):
        return ""


def draw(ax, pos, edges, n):
    ids = sorted(pos)
    xy = np.array([pos[i] for i in ids])
    segs = np.array([(pos[u], pos[v]) for u, v in edges])
    # Thinner, fainter lines as the graph grows, so dense parts stay readable.
    width = 0.5 if n < 1000 else 0.25 if n < 20000 else 0.12
    alpha = 0.8 if n < 1000 else 0.5 if n < 20000 else 0.35
    ax.add_collection(LineCollection(segs, colors="0.45", linewidths=width, alpha=alpha))
    size = 6 if n < 200 else 1.5 if n < 2000 else 0.15
    ax.scatter(xy[:, 0], xy[:, 1], s=size, c="black", linewidths=0, zorder=2)
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.set_xticks([])
    ax.set_yticks([])
    for side in ax.spines.values():
        side.set_linewidth(0.4)
        side.set_color("0.7")


def main():
    args = sys.argv[1:]
    dpi = 80
    if "--dpi" in args:
        k = args.index("--dpi")
        dpi = int(args[k + 1])
        del args[k:k + 2]
    if len(args) < 3:
        sys.exit(__doc__)
    run, out, graphs = args[0], args[1], args[2:]
    gdir = os.path.join(run, "..", "..", "graphs")
    fig, axes = plt.subplots(len(graphs), 2, figsize=(10, 5 * len(graphs)), squeeze=False)
    for row, g in enumerate(graphs):
        edges = read_edges(os.path.join(gdir, f"{g}.txt"))
        for col, (tool, name) in enumerate(PANELS):
            pos = read_positions(os.path.join(run, f"{g}.{tool}.tsv"))
            ax = axes[row][col]
            draw(ax, pos, edges, len(pos))
            s = stress_of(run, g, tool)
            extra = f", {mode_of(run, g)}" if tool == "sgd2" else ""
            ax.set_title(f"{g} ({len(pos):,} vertices): {name}{extra}, stress "
                         f"{s:.4f}" if s is not None else f"{g}: {name}", fontsize=10)
    fig.tight_layout()
    tmp = out + ".rgba.png"
    fig.savefig(tmp, dpi=dpi)
    plt.close(fig)
    # A 64-colour palette: the sheet is grey lines and black dots, so nothing is lost.
    Image.open(tmp).convert("RGB").quantize(colors=64).save(out, optimize=True)
    os.remove(tmp)
    print(f"{out}: {os.path.getsize(out) / 1024:.0f} KB")


if __name__ == "__main__":
    main()
