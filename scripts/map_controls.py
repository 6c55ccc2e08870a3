#!/usr/bin/env python3
"""The designer's controls and the level graph's constraints of the map kind (issue 50) on Edgar's 17- and 41-room graphs: for
each control, LAYOUTS layouts (seeds 0..LAYOUTS-1, one thread) of an input that uses it and of
the same input without it, in one run; every archive verified. Prints one JSON line per run and
a table: layouts made, verify's verdict, ms per layout, and the ratio to the run without the
control.

    cargo build --release && scripts/map_controls.py [--layouts 1000] [--runs 1] [--only corridor]

With `--runs K`, each input and the one without its control run K times, interleaved, and the
table shows the medians (the verdict and the count are the first run's).

(`WARREN=PATH` runs another build of warren.) The inputs are in `data/map/examples/`.
"""
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WARREN = os.environ.get("WARREN", os.path.join(ROOT, "target", "release", "warren"))
EX = os.path.join(ROOT, "data", "map", "examples")


def arg(name, default):
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


def controls(size):
    """(control, [sets with it], [sets without it]) for the graph of `size` rooms."""
    graph = f"edgar-fig8-{size}"
    plain = [f"map.graph={graph}"]
    return [
        ("repeat: map.repeat = no_immediate", plain + ["map.repeat=no_immediate"], plain),
        ("repeat: no_repeat and no_immediate templates (repeat.json)",
         plain + [f"map.templates={EX}/repeat.json"], plain),
        ("sockets by side (sockets.json)", plain + [f"map.templates={EX}/sockets.json"], plain),
        ("directed connections, entrance and exit doors (one-way.json)",
         [f"map.graph={EX}/fig8-{size}-directed.json", f"map.templates={EX}/one-way.json"],
         plain + [f"map.templates={EX}/one-way.json"]),
        ("door lines (rectangles-lines.json) against the simple rule",
         plain + [f"map.templates={EX}/rectangles-lines.json"],
         plain + [f"map.templates={EX}/rectangles.json"]),
        ("map.bounds at the unbounded layouts' 10th percentile",
         plain + ["map.bounds=[69, 69]" if size == 17 else "map.bounds=[156, 156]"], plain),
        ("min_path and max_path start - boss (25th to 90th percentile)",
         [f"map.graph={EX}/fig8-{size}-paths.json"], plain),
        ("locks and keys", [f"map.graph={EX}/fig8-{size}-locks.json"], plain),
        ("corridor templates straight and bend (corridor-rooms.json) against straight 2-tile corridors",
         plain + [f"map.templates={EX}/corridor-rooms.json", "map.corridors=templates",
                  'map.corridor_templates=["straight", "bend"]'],
         plain + [f"map.templates={EX}/corridor-rooms.json", "map.corridors=templates"]),
        ("corridor templates per connection: halls to dead ends, some rooms touching "
         f"(fig8-{size}-corridors.json) against straight 2-tile corridors",
         [f"map.graph={EX}/fig8-{size}-corridors.json", f"map.templates={EX}/corridor-rooms.json",
          "map.corridors=templates", 'map.corridor_templates=["straight", "bend"]'],
         plain + [f"map.templates={EX}/corridor-rooms.json", "map.corridors=templates"]),
        ("fixed rooms: start and boss pinned (fig8-{0}-fixed.json)".format(size),
         [f"map.graph={EX}/fig8-{size}-fixed.json"], plain),
        (f"several graphs: {graph} and fig8-{size}-locks.json, weights 3 : 1",
         [f'map.graph=[{{ graph = "{graph}", weight = 3 }}, "{EX}/fig8-{size}-locks.json"]'],
         plain),
    ]


def run(sets, layouts, out):
    cmd = [WARREN, "generate", "map", "--count", str(layouts), "--threads", "1", "--out", out]
    for s in sets:
        cmd += ["--set", s]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    made = re.search(r"warren: ([\d,]+) map levels", p.stderr)
    made = int(made.group(1).replace(",", "")) if made else 0
    v = subprocess.run([WARREN, "verify", out], capture_output=True, text=True)
    verdict = (v.stdout + v.stderr).strip().splitlines()[-1] if p.returncode == 0 else p.stderr.strip()
    return made, 1000.0 * seconds / layouts, verdict


def main():
    layouts = int(arg("--layouts", "1000"))
    runs = int(arg("--runs", "1"))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "m.arrow")
        for size in (17, 41):
            for name, with_it, without in controls(size):
                if arg("--only", "") not in name:
                    continue
                # Runs of the two inputs interleaved (the machine's speed drifts), medians.
                timed = [(run(with_it, layouts, out), run(without, layouts, out)[1])
                         for _ in range(runs)]
                made, _, verdict = timed[0][0]
                ms = statistics.median(t[0][1] for t in timed)
                base_ms = statistics.median(t[1] for t in timed)
                row = {"graph": f"edgar-fig8-{size}", "control": name, "layouts": made,
                       "requested": layouts, "ms_per_layout": round(ms, 3),
                       "ms_without": round(base_ms, 3), "ratio": round(ms / base_ms, 2),
                       "verify": verdict.split(": ", 1)[-1]}
                print(json.dumps(row), flush=True)
                rows.append(row)
    print("\n| graph | control | layouts | verify | ms/layout | without | ratio |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['graph']} | {r['control']} | {r['layouts']}/{r['requested']} | {r['verify']} "
              f"| {r['ms_per_layout']:.2f} | {r['ms_without']:.2f} | {r['ratio']:.2f}x |")


if __name__ == "__main__":
    main()
