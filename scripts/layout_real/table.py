#!/usr/bin/env python3
"""The Markdown table of scripts/layout_real.sh (standard library only): one row per graph with
its size, each tool's stress (warren's scorer) and layout-call time, warren's stress over s_gd2's
and s_gd2's time over warren's, then a summary of the ratios.

    table.py RESULTS --index INDEX.tsv [--header F] [--elapsed SECONDS]

RESULTS: the JSON lines scripts/layout_peers/report.py records; INDEX.tsv: the graph list
scripts/real_graphs.py writes (name, source, vertices, edges, ...).
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "layout_peers"))
from report import fmt_ms  # noqa: E402  (the peer table's time format)

TOOLS = [("warren", "warren"), ("sgd2", "s_gd2"), ("fme", "FME 1t"), ("fme2", "FME 2t")]


def fmt_stress(v):
    return "n/a" if v is None else f"{v:.4f}" if v < 1 else f"{v:.3g}"


def median(sorted_values):
    k = len(sorted_values)
    return (sorted_values[(k - 1) // 2] + sorted_values[k // 2]) / 2


def main():
    argv = sys.argv[1:]
    if not argv or argv[0].startswith("-"):
        sys.exit(__doc__)
    opts = {}
    for flag in ("--index", "--header", "--elapsed"):
        if flag in argv:
            opts[flag] = argv[argv.index(flag) + 1]
    with open(argv[0]) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    sizes = {}
    if "--index" in opts:
        with open(opts["--index"]) as f:
            for line in list(f)[1:]:
                r = line.rstrip("\n").split("\t")
                sizes[r[0]] = (int(r[2]), int(r[3]))
    by = {(r["graph"], r["tool"]): r for r in rows}
    graphs = list(dict.fromkeys(r["graph"] for r in rows))
    present = [(t, name) for t, name in TOOLS if any(r["tool"] == t for r in rows)]

    out = []
    if "--header" in opts:
        with open(opts["--header"]) as f:
            out += [f.read().rstrip("\n"), ""]
    head = ["graph", "vertices", "edges"]
    for _, name in present:
        head += [f"{name} stress", f"{name} time"]
    both = any(t == "warren" for t, _ in present) and any(t == "sgd2" for t, _ in present)
    if both:
        head += ["warren / s_gd2 stress", "s_gd2 / warren time"]
    out += ["| " + " | ".join(head) + " |",
            "|" + "---|" * 3 + "---:|" * (len(head) - 3)]
    ratios, speedups = [], []
    for g in graphs:
        n, m = sizes.get(g, (None, None))
        cells = [g, f"{n:,}" if n else "?", f"{m:,}" if m else "?"]
        stress, time = {}, {}
        for t, _ in present:
            r = by.get((g, t))
            if r is None or r["status"] != "ok":
                what = "not run" if r is None else r["status"]
                cells += [what, ""]
                continue
            stress[t] = (r.get("score") or {}).get("stress")
            time[t] = (r.get("layout") or {}).get("time_ms")
            mark = " (sparse)" if (r.get("layout") or {}).get("mode") == "sparse" else ""
            cells += [fmt_stress(stress[t]) + mark, fmt_ms(time[t])]
        if both:
            if stress.get("warren") and stress.get("sgd2"):
                ratio = stress["warren"] / stress["sgd2"]
                ratios.append((ratio, g))
                cells.append(f"{ratio:.2f}")
            else:
                cells.append("n/a")
            if time.get("warren") and time.get("sgd2"):
                speed = time["sgd2"] / time["warren"]
                speedups.append(speed)
                cells.append(f"{speed:,.0f}x" if speed >= 10 else f"{speed:.1f}x")
            else:
                cells.append("n/a")
        out.append("| " + " | ".join(cells) + " |")
    if ratios:
        values = sorted(v for v, _ in ratios)
        geo = math.exp(sum(math.log(v) for v in values) / len(values))
        lo, hi = min(ratios), max(ratios)
        below = sum(1 for v in values if v < 1)
        out += ["", f"warren / s_gd2 stress over {len(values)} graphs: geometric mean "
                f"{geo:.2f}, median {median(values):.2f}, from {lo[0]:.2f} ({lo[1]}) to "
                f"{hi[0]:.2f} ({hi[1]}); warren below s_gd2 on {below}."]
    if speedups:
        geo = math.exp(sum(math.log(v) for v in speedups) / len(speedups))
        out.append(f"s_gd2 / warren layout-call time: geometric mean {geo:,.0f}x, from "
                   f"{min(speedups):,.1f}x to {max(speedups):,.0f}x.")
    if "--elapsed" in opts:
        out.append(f"The whole run (every tool, scoring included) took "
                   f"{fmt_ms(float(opts['--elapsed']) * 1e3)}.")
    print("\n".join(out))


if __name__ == "__main__":
    main()
