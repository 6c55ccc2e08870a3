#!/usr/bin/env python3
"""The map builder under `map.bounds = [W, H]` (the largest floor plan in tiles, walls included):
for each graph (built-in `map.graph` names; Edgar's paper blocks, no corridors), LAYOUTS
layouts (seeds 0..LAYOUTS-1) on one thread without bounds, then the same with square bounds
[S, S] for S the p50, p10 and p1 percentiles of the unbounded levels' larger side max(w, h) and
0.9, 0.8, 0.7 times p1 (rounded down), all in one run of this script; every archive verified.
Prints one JSON line per run and a table.

    cargo build --release && scripts/map_bounds.py [--graphs edgar-fig8-17,edgar-fig8-41]
        [--layouts 1000] [--timeout 600] [--out FILE]

(`WARREN=PATH` runs another build of warren; `--out FILE` appends the JSON lines to FILE.)

Per run: levels made, failures by reason (from warren's summary line), whole-run wall time over
the requested layouts (ms/layout) and its ratio to the unbounded run's, verify's verdict, and the
levels whose grid_width or grid_height exceeds S, counted from the archive itself (must be 0).
A run longer than `--timeout` seconds is killed and recorded as timed out; the graph's smaller
sides are then skipped (recorded as such). Bounds the rooms provably cannot fit make warren
refuse the run; that is recorded as infeasible with warren's reason.
"""
import json
import math
import os
import subprocess
import sys
import tempfile
import time

import pyarrow.ipc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WARREN = os.environ.get("WARREN", os.path.join(ROOT, "target", "release", "warren"))


def arg(name, default):
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


def percentile(sorted_values, p):
    """Nearest-rank percentile: the smallest value with at least p% of the values at or below it."""
    k = max(1, math.ceil(p / 100 * len(sorted_values)))
    return sorted_values[k - 1]


def summary(stderr):
    """Levels made and failures by reason from warren's last `N map levels, ...` line."""
    lines = [l for l in stderr.strip().splitlines() if " map levels" in l]
    if not lines:
        return None, None
    line = lines[-1]
    made = int(line.split(" map levels")[0].split()[-1].replace(",", ""))
    failures = {}
    if "failures {" in line:
        failures, _ = json.JSONDecoder().raw_decode(line[line.index("failures {") + len("failures "):])
    return made, failures


def run(graph, side, layouts, out, timeout):
    """One `warren generate map` run (and verify); a dict of what it measured."""
    cmd = [WARREN, "generate", "map", "--set", f"map.graph={graph}"]
    if side is not None:
        cmd += ["--set", f"map.bounds=[{side}, {side}]"]
    cmd += ["--count", str(layouts), "--threads", "1", "--out", out]
    r = {"status": "ok", "levels": None, "failures": None, "wall_s": None, "verify": None,
         "out_of_bounds_count": None, "sides": None,
         "command": " ".join(c if "[" not in c else f'"{c}"' for c in cmd)}
    t0 = time.perf_counter()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        r.update(status="timeout", wall_s=round(time.perf_counter() - t0, 2),
                 verify=f"timed out after {timeout} s")
        return r
    wall = time.perf_counter() - t0
    r["wall_s"] = round(wall, 3)
    if p.returncode != 0:
        r.update(status="infeasible" if "map.bounds" in p.stderr else "error", levels=0,
                 verify="not run", error=p.stderr.strip().splitlines()[-1] if p.stderr.strip() else
                 f"exit {p.returncode}")
        return r
    made, failures = summary(p.stderr)
    if made is None:
        sys.exit(f"map_bounds: no summary line from warren on {graph} {side}: {p.stderr.strip()}")
    r.update(levels=made, failures=failures)
    if made:
        v = subprocess.run([WARREN, "verify", out], capture_output=True, text=True)
        r["verify"] = v.stdout.strip().splitlines()[-1] if v.stdout.strip() else v.stderr.strip()
        t = pyarrow.ipc.open_file(out).read_all()
        ws, hs = t.column("grid_width").to_pylist(), t.column("grid_height").to_pylist()
        r["sides"] = [max(w, h) for w, h in zip(ws, hs)]
        if side is not None:
            seeds = t.column("seed").to_pylist()
            bad = [s for s, w, h in zip(seeds, ws, hs) if w > side or h > side]
            r["out_of_bounds_count"] = len(bad)
            if bad:
                r["out_of_bounds_seeds"] = bad[:20]
        else:
            r["out_of_bounds_count"] = 0
    else:
        r["verify"] = "no levels"
    if os.path.exists(out):
        os.remove(out)
    return r


def main():
    graphs = arg("--graphs", "edgar-fig8-17,edgar-fig8-41").split(",")
    layouts = int(arg("--layouts", "1000"))
    timeout = float(arg("--timeout", "600"))
    out_file = arg("--out", None)
    sink = open(out_file, "a") if out_file else None
    rows = []

    def emit(row):
        line = json.dumps(row)
        print(line, flush=True)
        if sink:
            sink.write(line + "\n")
            sink.flush()
        rows.append(row)

    t_start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for graph in graphs:
            out = os.path.join(tmp, "m.arrow")
            base = run(graph, None, layouts, out, timeout)
            if base["status"] != "ok" or not base["levels"]:
                sys.exit(f"map_bounds: unbounded run failed on {graph}: {base}")
            sides = sorted(base.pop("sides"))
            p = {q: percentile(sides, q) for q in (50, 10, 1)}
            base_ms = 1000 * base["wall_s"] / layouts
            emit({"graph": graph, "bounds": None, "percentile": "unbounded", "requested": layouts,
                  **{k: base[k] for k in ("levels", "failures")},
                  "ms_per_layout": round(base_ms, 3), "ratio_to_unbounded": 1.0,
                  "verify": base["verify"], "out_of_bounds_count": 0, "status": "ok",
                  "side_p50": p[50], "side_p10": p[10], "side_p1": p[1],
                  "side_min": sides[0], "side_max": sides[-1], "command": base["command"]})
            # Sides from loosest to tightest; labels sharing a side share its run.
            plan = {}
            for label, s in (("p50", p[50]), ("p10", p[10]), ("p1", p[1]),
                             ("0.9*p1", math.floor(0.9 * p[1])), ("0.8*p1", math.floor(0.8 * p[1])),
                             ("0.7*p1", math.floor(0.7 * p[1]))):
                plan.setdefault(s, []).append(label)
            timed_out = None
            for s in sorted(plan, reverse=True):
                label = "=".join(plan[s])
                row = {"graph": graph, "bounds": [s, s], "percentile": label, "requested": layouts}
                if timed_out is not None:
                    emit({**row, "levels": None, "failures": None, "ms_per_layout": None,
                          "ratio_to_unbounded": None, "verify": "not run",
                          "out_of_bounds_count": None,
                          "status": f"skipped (side {timed_out} timed out)"})
                    continue
                r = run(graph, s, layouts, out, timeout)
                r.pop("sides")
                ms = 1000 * r["wall_s"] / layouts if r["status"] != "timeout" else None
                row.update(levels=r["levels"], failures=r["failures"],
                           ms_per_layout=round(ms, 3) if ms is not None else None,
                           ratio_to_unbounded=round(ms / base_ms, 2) if ms is not None else None,
                           verify=r["verify"], out_of_bounds_count=r["out_of_bounds_count"],
                           status=r["status"], wall_s=r["wall_s"], command=r["command"])
                for k in ("error", "out_of_bounds_seeds"):
                    if k in r:
                        row[k] = r[k]
                emit(row)
                if r["status"] == "timeout":
                    timed_out = s
    total = time.perf_counter() - t_start
    if sink:
        sink.close()

    def fmt(v, spec):
        return "–" if v is None else format(v, spec)

    print()
    print("| graph | bounds | side from | levels ok | failures | ms/layout | × unbounded | verify | out of bounds |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        b = "none" if r["bounds"] is None else f"{r['bounds'][0]} × {r['bounds'][1]}"
        if r["status"] == "ok":
            ok = f"{r['levels']}/{r['requested']}"
            fails = str(sum(r["failures"].values()))
        elif r["status"] == "timeout":
            ok, fails = f"timed out ({r['wall_s']:.0f} s)", "–"
        else:
            ok, fails = r["status"], "–"
        verify = r["verify"] if "violations" not in (r["verify"] or "") else \
            r["verify"].split(": ", 1)[-1].split(", ")[-1]
        print(f"| {r['graph']} | {b} | {r['percentile']} | {ok} | {fails} | "
              f"{fmt(r['ms_per_layout'], '.2f')} | {fmt(r['ratio_to_unbounded'], '.1f')} | "
              f"{verify} | {fmt(r['out_of_bounds_count'], 'd')} |")
    print(f"\ntotal {total:.0f} s")


if __name__ == "__main__":
    main()
