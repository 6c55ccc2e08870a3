#!/usr/bin/env python3
"""Counts sliver edges in warren archives, independently of warren's own code: edges that pass
closer than a share of the point spacing to a vertex they do not join (the edge reads as going
through that vertex). Reproduces the sliver figures of docs/coloring.md and docs/maze.md:

    scripts/sliver_report.py ARCHIVE [ARCHIVE ...]

For each archive: levels, edges, and the edges passing an unrelated vertex by less than 4/90 of
the spacing (4 px at the coloring default of 90 px) and by less than 0.25 of it, with the levels
holding any. The spacing is read from the archive's profile (`coloring.spacing`, or 1 cell for
mazes). Needs pyarrow and numpy.
"""
import sys
import tomllib

import numpy as np
import pyarrow as pa


def spacing_of(meta):
    profile = tomllib.loads(meta.get(b"warren.profile", b"").decode())
    if "coloring" in profile:
        return float(profile["coloring"].get("spacing", 90))
    return 1.0


def edge_clearance(x, y, src, dst, near):
    """Least distance from each edge to a vertex it does not join, among `near` candidates
    (an array of vertex ids per edge, -1 for none)."""
    ax, ay, bx, by = x[src], y[src], x[dst], y[dst]
    cx, cy = x[near], y[near]
    abx, aby = (bx - ax)[:, None], (by - ay)[:, None]
    acx, acy = cx - ax[:, None], cy - ay[:, None]
    len2 = abx * abx + aby * aby
    t = np.clip((acx * abx + acy * aby) / np.where(len2 > 0, len2, 1), 0, 1)
    d = np.hypot(acx - t * abx, acy - t * aby)
    unrelated = (near >= 0) & (near != src[:, None]) & (near != dst[:, None])
    return np.where(unrelated, d, np.inf).min(axis=1)


def candidates(x, y, src, dst, spacing):
    """Vertices near each edge: all of them for small graphs, else those of the jittered grid
    cells around the edge's ends (points are one per cell, in row order)."""
    n = len(x)
    if n <= 64:
        return np.broadcast_to(np.arange(n), (len(src), n))
    gx = np.floor(x / spacing).astype(int)
    gy = np.floor(y / spacing).astype(int)
    width, height = gx.max() + 1, gy.max() + 1
    # Cells around both ends and the middle of each edge.
    mx = np.floor((x[src] + x[dst]) / (2 * spacing)).astype(int)
    my = np.floor((y[src] + y[dst]) / (2 * spacing)).astype(int)
    offsets = [(dx, dy) for dx in range(-2, 3) for dy in range(-2, 3)]
    out = []
    for ex, ey in ((gx[src], gy[src]), (gx[dst], gy[dst]), (mx, my)):
        for dx, dy in offsets:
            cx, cy = ex + dx, ey + dy
            ok = (cx >= 0) & (cx < width) & (cy >= 0) & (cy < height)
            out.append(np.where(ok, cy * width + cx, -1))
    return np.stack(out, axis=1)


def report(path):
    reader = pa.ipc.open_file(pa.memory_map(path))
    spacing = spacing_of(reader.schema.metadata or {})
    levels = edges = 0
    tight = loose = 0
    tight_levels = loose_levels = 0
    for b in range(reader.num_record_batches):
        batch = reader.get_batch(b)
        cols = {name: batch.column(name) for name in ("vertex_x", "vertex_y", "edge_src", "edge_dst")}
        for i in range(batch.num_rows):
            x = np.asarray(cols["vertex_x"][i].values, dtype=np.float64)
            y = np.asarray(cols["vertex_y"][i].values, dtype=np.float64)
            src = np.asarray(cols["edge_src"][i].values, dtype=np.int64)
            dst = np.asarray(cols["edge_dst"][i].values, dtype=np.int64)
            near = candidates(x, y, src, dst, spacing)
            d = edge_clearance(x, y, src, dst, near) / spacing
            levels += 1
            edges += len(src)
            a, c = int((d < 4 / 90).sum()), int((d < 0.25).sum())
            tight += a
            loose += c
            tight_levels += a > 0
            loose_levels += c > 0
    print(f"{path}: {levels:,} levels, {edges:,} edges; within 4/90 spacing of an unrelated "
          f"vertex: {tight:,} edges in {tight_levels:,} levels; within 0.25 spacing: {loose:,} "
          f"edges in {loose_levels:,} levels")


for p in sys.argv[1:]:
    report(p)
