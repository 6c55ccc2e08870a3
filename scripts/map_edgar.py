#!/usr/bin/env python3
"""Edgar's published inputs through `warren generate map`, as issue 31's acceptance asks.

For each of the four built-in graphs transcribed from Edgar's paper and docs
(`data/map/graphs/`), with Edgar's building blocks (`edgar-paper`), once with
`map.corridors = "none"` and once with 2-tile corridors (`templates`, lengths [2]):
generate COUNT layouts on one thread (`--threads 1`), verify them, and time the whole run
(wall clock of the process, median of REPEATS runs) divided by the levels. Prints a Markdown
table with Edgar's published median beside ours and writes the rows as JSON lines.

Edgar's figures are published ones (Nepozitek & Gemrot 2018, Table 1; one core of a 2.7 GHz
CPU of 2018), not measured here: Edgar is a .NET program this machine cannot install.

Usage: scripts/map_edgar.py [--count 1000] [--repeats 3] [--warren target/release/warren]
                            [--json docs/map-edgar/results.jsonl]
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

# Edgar's published median seconds per layout (../shared/corpus/edgar-inputs/README.md).
INPUTS = [
    # (built-in graph, rooms, Edgar median without corridors, with 2-tile corridors)
    ("edgar-basics", 5, 0.01, None),
    ("edgar-fig1", 9, 0.00, 0.01),
    ("edgar-fig8-17", 17, 0.08, 0.54),
    ("edgar-fig8-41", 41, 0.36, 1.35),
]


def target(edgar_s):
    """The acceptance bound in ms: 1/50 of Edgar's median where it is at least 0.02 s, else 1 ms."""
    if edgar_s is not None and edgar_s >= 0.02:
        return edgar_s * 1000 / 50
    return 1.0


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{out.stderr}")
    return out


def metric_median(warren, archive, name):
    text = run([warren, "inspect", archive]).stdout
    for line in text.splitlines():
        fields = line.split()
        if fields and fields[0] == name and len(fields) >= 6:
            return float(fields[5])
    return None


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--count", type=int, default=1000)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--warren", default="target/release/warren")
    p.add_argument("--json", default=None, help="also write the rows here (JSON lines)")
    a = p.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for graph, rooms, edgar_none, edgar_corr in INPUTS:
            for mode, edgar in (("none", edgar_none), ("templates", edgar_corr)):
                archive = os.path.join(tmp, f"{graph}-{mode}.arrow")
                cmd = [a.warren, "generate", "map", "--threads", "1", "--quiet",
                       "--count", str(a.count), "--out", archive,
                       "--set", f"map.graph={graph}", "--set", f"map.corridors={mode}",
                       "--set", "map.corridor_lengths=[2]"]
                times = []
                for _ in range(a.repeats):
                    t0 = time.perf_counter()
                    run(cmd)
                    times.append(time.perf_counter() - t0)
                verify = run([a.warren, "verify", archive]).stdout.strip()
                m = re.search(r"([\d,]+) levels checked, ([\d,]+) violations", verify)
                levels = int(m.group(1).replace(",", ""))
                violations = int(m.group(2).replace(",", ""))
                ms = statistics.median(times) * 1000 / a.count
                row = {
                    "graph": graph, "rooms": rooms, "corridors": mode,
                    "levels": levels, "failures": a.count - levels, "violations": violations,
                    "ms_per_layout": round(ms, 4),
                    "run_seconds": [round(t, 3) for t in times],
                    "edgar_median_s": edgar,
                    "target_ms": target(edgar),
                    "attempts_median": metric_median(a.warren, archive, "attempts"),
                    "longest_corridor_median": metric_median(a.warren, archive, "longest_corridor"),
                    "compactness_median": metric_median(a.warren, archive, "compactness"),
                }
                rows.append(row)
                print(json.dumps(row), file=sys.stderr)
    print("| input | rooms | corridors | layouts ok | verify | warren ms/layout (1 thread) "
          "| Edgar median (published) | Edgar / warren | bound | compactness |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        edgar = r["edgar_median_s"]
        ratio = f"{edgar * 1000 / r['ms_per_layout']:,.0f}x" if edgar else "-"
        shown = f"{edgar:.2f} s" if edgar is not None else "not published"
        ok = "yes" if r["ms_per_layout"] <= r["target_ms"] else "NO"
        print(f"| {r['graph']} | {r['rooms']} | {r['corridors']} "
              f"| {r['levels']:,}/{a.count:,} | {r['violations']} violations "
              f"| {r['ms_per_layout']:.3f} | {shown} | {ratio} "
              f"| {r['target_ms']:.1f} ms ({ok}) | {r['compactness_median']} |")
    if a.json:
        os.makedirs(os.path.dirname(a.json) or ".", exist_ok=True)
        with open(a.json, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
