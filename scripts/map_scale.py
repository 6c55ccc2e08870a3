#!/usr/bin/env python3
"""The map builder on random planar level graphs (issue 49): for each size, GRAPHS graphs from
`scripts/level_graphs.py random ROOMS SEED` (seeds 1..GRAPHS), LAYOUTS layouts of each (seeds
0..LAYOUTS-1) with Edgar's paper blocks, one thread, without corridors and with 2-tile corridor
rooms; every archive verified. Prints one JSON line per run and a table. `--effort N` sets
`map.effort` (a factor on each attempt's work bound; 1 by default).

    cargo build --release && scripts/map_scale.py [--sizes 100,300] [--graphs 20] [--layouts 10]
        [--corridors none,templates] [--effort 1] [--one-by-one]

`--one-by-one` runs every layout alone (`--count 1 --seed K`, K = 0..LAYOUTS-1) and prints the
median and 99th percentile of those runs' wall times over all layouts of a size (each run
reads the graph and makes its stress drawing and plan too, so these bound a layout's time).

(`WARREN=PATH` runs another build of warren.)

Per graph: levels made, failures by reason, whole-run wall time over the levels (ms/layout;
the run includes reading the graph and its stress drawing, made once), verify's verdict.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WARREN = os.environ.get("WARREN", os.path.join(ROOT, "target", "release", "warren"))
# `map.effort` for every run (`--effort`).
EFFORT = 1


def arg(name, default):
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


def run(graph, corridors, layouts, out, seed=None):
    t0 = time.perf_counter()
    seeding = [] if seed is None else ["--seed", str(seed)]
    p = subprocess.run(
        [WARREN, "generate", "map", "--set", f"map.graph={graph}", "--set",
         f"map.corridors={corridors}", "--set", f"map.effort={EFFORT}", "--count", str(layouts),
         "--threads", "1", "--out", out] + seeding,
        capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"map_scale: warren failed on {graph}: {p.stderr.strip()}")
    line = p.stderr.strip().splitlines()[-1]
    made = int(line.split(" map levels")[0].split()[-1].replace(",", ""))
    failures = {}
    if "failures {" in line:
        failures = json.loads(line[line.index("{"):line.index("}") + 1])
    v = subprocess.run([WARREN, "verify", out], capture_output=True, text=True)
    verdict = v.stdout.strip().splitlines()[-1] if v.stdout.strip() else v.stderr.strip()
    return made, failures, wall, verdict


def main():
    sizes = [int(s) for s in arg("--sizes", "100,300").split(",")]
    graphs = int(arg("--graphs", "20"))
    layouts = int(arg("--layouts", "10"))
    modes = arg("--corridors", "none,templates").split(",")
    global EFFORT
    EFFORT = int(arg("--effort", "1"))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for rooms in sizes:
            for corridors in modes:
                per = []
                for seed in range(1, graphs + 1):
                    g = os.path.join(tmp, f"g{rooms}-{seed}.json")
                    subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "level_graphs.py"),
                                    "random", str(rooms), str(seed), g], check=True)
                    if "--one-by-one" in sys.argv:
                        made, failures, walls, verdicts = 0, {}, [], []
                        for k in range(layouts):
                            m, f, w, v = run(g, corridors, 1, os.path.join(tmp, "m.arrow"), seed=k)
                            made += m
                            for reason, count in f.items():
                                failures[reason] = failures.get(reason, 0) + count
                            walls.append(round(1000 * w, 1))
                            if m:
                                verdicts.append(v)
                        bad = [v for v in verdicts if "0 violations" not in v]
                        verdict = bad[0] if bad else f"{len(verdicts)} runs: 0 violations"
                        row = {"rooms": rooms, "corridors": corridors, "effort": EFFORT,
                               "graph_seed": seed, "layouts": layouts, "made": made,
                               "failures": failures, "ms_per_layout": round(sum(walls) / layouts, 2),
                               "ms_each": walls, "verify": verdict}
                        print(json.dumps(row), flush=True)
                        per.append(row)
                        continue
                    made, failures, wall, verdict = run(g, corridors, layouts, os.path.join(tmp, "m.arrow"))
                    row = {"rooms": rooms, "corridors": corridors, "effort": EFFORT,
                           "graph_seed": seed, "layouts": layouts, "made": made, "failures": failures,
                           "ms_per_layout": round(1000 * wall / layouts, 2), "verify": verdict}
                    print(json.dumps(row), flush=True)
                    per.append(row)
                rows.append(per)
    print()
    print("| rooms | corridors | layouts ok | graphs all ok | ms/layout, median graph | ms/layout, slowest graph | verify |")
    print("|---|---|---|---|---|---|---|")
    for per in rows:
        ok = sum(r["made"] for r in per)
        total = sum(r["layouts"] for r in per)
        allok = sum(r["made"] == r["layouts"] for r in per)
        ms = sorted(r["ms_per_layout"] for r in per)
        bad = sum("0 violations" not in r["verify"] for r in per if r["made"])
        print(f"| {per[0]['rooms']} | {per[0]['corridors']} | {ok}/{total} | {allok}/{len(per)} | "
              f"{ms[len(ms) // 2]:.1f} | {ms[-1]:.1f} | {'0 violations' if bad == 0 else f'{bad} runs with violations'} |")
        each = sorted(w for r in per for w in r.get("ms_each", []))
        if each:
            p99 = each[min(len(each) - 1, int(0.99 * len(each)))]
            print(f"  one run per layout, {len(each)} runs: p50 {each[len(each) // 2]:.0f} ms, "
                  f"p99 {p99:.0f} ms, slowest {each[-1]:.0f} ms")


if __name__ == "__main__":
    main()
