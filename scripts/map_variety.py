#!/usr/bin/env python3
"""The `map.variety` knob measured (issue 49): for each of Edgar's built-in level graphs and each
value, LEVELS layouts (seeds 0..LEVELS-1, 2 threads; the archive does not depend on the thread
count), then `warren inspect`'s variety lines: distinct layouts up to the 8 grid symmetries
(`canonical_hash`) and the room spread (a room's mean distance between two of the first 256
layouts, centred, under the symmetry that brings them closest; in tiles and as a share of the
mean room radius). Prints one JSON line per run and a table.

    cargo build --release && scripts/map_variety.py [--levels 2000] [--values 0,0.25,0.5,0.75,1]
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WARREN = os.path.join(ROOT, "target", "release", "warren")
GRAPHS = ["edgar-basics", "edgar-fig1", "edgar-fig8-17", "edgar-fig8-41"]


def arg(name, default):
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


def measure(graph, value, levels, out):
    p = subprocess.run(
        [WARREN, "generate", "map", "--set", f"map.graph={graph}", "--set",
         f"map.variety={value}", "--count", str(levels), "--threads", "2", "--quiet",
         "--out", out], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"map_variety: warren failed on {graph}: {p.stderr.strip()}")
    text = subprocess.run([WARREN, "inspect", out], capture_output=True, text=True,
                          check=True).stdout
    v = re.search(r"^variety\s+([\d,]+) distinct of ([\d,]+) levels", text, re.M)
    s = re.search(r"^room spread\s+([\d.]+) tiles, ([\d.]+)% of the mean room radius "
                  r"\(([\d.]+) tiles\)", text, re.M)
    if not v or not s:
        sys.exit(f"map_variety: no variety lines in inspect's output for {graph}")
    distinct, made = (int(x.replace(",", "")) for x in v.groups())
    return {"graph": graph, "variety": value, "levels": made, "distinct": distinct,
            "spread_tiles": float(s.group(1)), "spread_share": float(s.group(2)),
            "radius_tiles": float(s.group(3))}


def main():
    levels = int(arg("--levels", "2000"))
    values = [float(v) for v in arg("--values", "0,0.25,0.5,0.75,1").split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "v.arrow")
        for graph in GRAPHS:
            for value in values:
                row = measure(graph, value, levels, out)
                print(json.dumps(row), flush=True)
                rows.append(row)
    print(f"\n| graph | variety | distinct of {levels} | room spread, tiles | "
          "share of mean radius |")
    print("|---|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['graph']} | {r['variety']:g} | {r['distinct']:,} "
              f"({100 * r['distinct'] / r['levels']:.2f}%) | {r['spread_tiles']:.2f} | "
              f"{r['spread_share']:.1f}% |")


if __name__ == "__main__":
    main()
