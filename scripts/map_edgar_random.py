#!/usr/bin/env python3
"""The map builder on Edgar's own random benchmark graphs (issue 49): Edgar-DotNet's
`src/Resources/RandomGraphs/e_K_K_v_A_B.txt` files (cycle rank K = 0..5, A..B rooms for the
bands 10-19, 20-29, 30-39, 40-49; the files its benchmarks read through `GraphLoader`), the first
GRAPHS graphs of each of the 24 sets, LAYOUTS layouts of each (seeds 0..LAYOUTS-1), one thread;
every archive verified. The templates default to `data/map/edgar-basic.json`, the building
blocks Edgar's random-graph benchmark uses (`MapDescriptionUtils.GetBasicRoomTemplates`: a 6 x 6
square, a 6 x 9 rectangle, two Ls and a T with 3-wide arms, doors 1 tile long, every rotation
and mirror), without corridors as in its `RandomGraphs` feature. Prints one JSON line per set
and corridor mode, and a table.

    cargo build --release && scripts/map_edgar_random.py [--git EDGAR_GIT_DIR | --dir RANDOM_GRAPHS_DIR]
        [--graphs 20] [--layouts 10] [--templates LIBRARY] [--corridors none,templates] [--effort 1]
        [--ranks 0,1,2,3,4,5] [--bands 10,20,30,40]
    scripts/map_edgar_random.py --edgar-inputs FILE [--ranks ..] [--bands ..] [--graphs 20]
    scripts/map_edgar_random.py --compare EDGAR_TABLE.md [--with RESULTS.jsonl]

`--edgar-inputs` writes the same graphs for Edgar's own generator under Mono
(`scripts/edgar-mono/Bench.cs`, its `random_*` inputs: the same blocks); `--compare` puts the
graphs Edgar lays out (its Markdown table) beside those warren lays out (this script's JSON
lines), per set.
        [--out docs/map-edgar-random/results.jsonl]

The files come from a git directory of Edgar-DotNet (commit 209490052a48, branch `dev`; default:
the mirror at /work/.mirror/OndrejNepozitek+Edgar-DotNet/repo, else `git clone --bare
https://github.com/OndrejNepozitek/Edgar-DotNet`) or from a folder holding them. Each file is a
list of graphs: a line with the room count, one line `a b` per connection, a blank line.
"""
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WARREN = os.environ.get("WARREN", os.path.join(ROOT, "target", "release", "warren"))
MIRROR = "/work/.mirror/OndrejNepozitek+Edgar-DotNet/repo"
COMMIT = "209490052a4884c854d39d5799f8e43c9f73dda7"
BANDS = [(10, 19), (20, 29), (30, 39), (40, 49)]
# `map.effort` for every run (`--effort`).
EFFORT = 1


def arg(name, default):
    if name in sys.argv:
        return sys.argv[sys.argv.index(name) + 1]
    return default


def read_set(k, band, git, folder):
    name = f"e_{k}_{k}_v_{band[0]}_{band[1]}.txt"
    if folder:
        with open(os.path.join(folder, name)) as f:
            text = f.read()
    else:
        text = subprocess.run(["git", "--git-dir", git, "show",
                               f"{COMMIT}:src/Resources/RandomGraphs/{name}"],
                              capture_output=True, text=True, check=True).stdout
    graphs, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        if not lines[i].strip():
            i += 1
            continue
        n = int(lines[i])
        i += 1
        edges = []
        while i < len(lines) and lines[i].strip():
            a, b = lines[i].split()
            edges.append((int(a), int(b)))
            i += 1
        graphs.append((n, edges))
    return name[:-4], graphs


def level_graph(n, edges):
    return {"rooms": [{"id": f"r{v}"} for v in range(n)],
            "connections": [[f"r{a}", f"r{b}"] for a, b in edges]}


def run(graph, templates, corridors, layouts, out):
    t0 = time.perf_counter()
    p = subprocess.run(
        [WARREN, "generate", "map", "--set", f"map.graph={graph}", "--set",
         f"map.templates={templates}", "--set", f"map.corridors={corridors}", "--set",
         f"map.effort={EFFORT}", "--count", str(layouts), "--threads", "1", "--out", out],
        capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if p.returncode != 0:
        # Refused up front: a proof, named on one line.
        return 0, {p.stderr.strip().split(": ", 2)[-1]: layouts}, wall, "refused"
    line = p.stderr.strip().splitlines()[-1]
    made = int(line.split(" map levels")[0].split()[-1].replace(",", ""))
    failures = {}
    if "{" in line:
        failures = json.loads(line[line.index("{"):line.rindex("}") + 1])
    v = subprocess.run([WARREN, "verify", out], capture_output=True, text=True)
    verdict = v.stdout.strip().splitlines()[-1] if v.returncode == 0 else "FAILED"
    return made, failures, wall, verdict


def edgar_inputs(path, ranks, bands, graphs_per_set, git, folder):
    """Writes the graphs as input lines for `scripts/edgar-mono/Bench.cs` (`random_*`: Edgar's
    random-benchmark blocks), one per graph: `random_K_A_gI ROOMS a-b c-d ...`."""
    with open(path, "w") as f:
        for k in ranks:
            for band in bands:
                _, graphs = read_set(k, band, git, folder)
                for gi, (n, edges) in enumerate(graphs[:graphs_per_set]):
                    f.write(f"random_{k}_{band[0]}_g{gi} {n} "
                            + " ".join(f"{a}-{b}" for a, b in edges) + "\n")


def compare(edgar_md, warren_jsonl):
    """Per set, the graphs Edgar (Bench.cs's table) and warren (this script's JSON lines) lay
    out at least once, and how their sets of graphs agree."""
    edgar = {}
    for line in open(edgar_md):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) > 3 and cells[0].startswith("random_"):
            _, k, lo, g = cells[0].split("_")
            ok, runs = cells[3].split("/")
            edgar[(int(k), int(lo), int(g[1:]))] = (int(ok), int(runs))
    print("| cycle rank | rooms | graphs | Edgar lays out | warren lays out | both | neither "
          "| Edgar only | warren only |")
    print("|---|---|---|---|---|---|---|---|---|")
    total = [0] * 7
    for line in open(warren_jsonl):
        r = json.loads(line)
        k, lo = r["cycle_rank"], int(r["rooms"].split("-")[0])
        failed = {}
        for key, c in r["failures"].items():
            g = int(key.split(":")[0].split()[1])
            failed[g] = failed.get(g, 0) + c
        per = r["layouts"] // r["graphs"]
        keys = [g for (kk, ll, g) in edgar if (kk, ll) == (k, lo)]
        if not keys:
            continue
        e = {g for g in keys if edgar[(k, lo, g)][0] > 0}
        w = {g for g in keys if failed.get(g, 0) < per}
        row = [len(keys), len(e), len(w), len(e & w), len(set(keys) - e - w), len(e - w),
               len(w - e)]
        total = [a + b for a, b in zip(total, row)]
        print(f"| {k} | {r['rooms']} | " + " | ".join(map(str, row)) + " |")
    print("| all | | " + " | ".join(map(str, total)) + " |")


def main():
    if "--compare" in sys.argv:
        compare(arg("--compare", None), arg("--with", os.path.join(
            ROOT, "docs", "map-edgar-random", "results.jsonl")))
        return
    folder = arg("--dir", None)
    git = arg("--git", MIRROR)
    graphs_per_set, layouts = int(arg("--graphs", "20")), int(arg("--layouts", "10"))
    global EFFORT
    EFFORT = int(arg("--effort", "1"))
    out_path = arg("--out", None)
    templates = arg("--templates", os.path.join(ROOT, "data", "map", "edgar-basic.json"))
    modes = arg("--corridors", "none").split(",")
    ranks = [int(k) for k in arg("--ranks", "0,1,2,3,4,5").split(",")]
    bands = [b for b in BANDS if str(b[0]) in arg("--bands", "10,20,30,40").split(",")]
    rows = []
    if "--edgar-inputs" in sys.argv:
        edgar_inputs(arg("--edgar-inputs", None), ranks, bands, graphs_per_set, git, folder)
        return
    with tempfile.TemporaryDirectory() as tmp:
        if not folder and not os.path.isdir(git):
            git = os.path.join(tmp, "edgar.git")
            subprocess.run(["git", "clone", "-q", "--bare",
                            "https://github.com/OndrejNepozitek/Edgar-DotNet", git], check=True)
        for k in ranks:
            for band in bands:
                name, graphs = read_set(k, band, git, folder)
                for corridors in modes:
                    row = {"set": name, "templates": os.path.basename(templates), "cycle_rank": k, "rooms": f"{band[0]}-{band[1]}",
                           "corridors": corridors, "effort": EFFORT, "graphs": 0, "layouts": 0, "made": 0,
                           "failures": {}, "ms_per_layout": [], "verify": []}
                    for gi, (n, edges) in enumerate(graphs[:graphs_per_set]):
                        path = os.path.join(tmp, "g.json")
                        with open(path, "w") as f:
                            json.dump(level_graph(n, edges), f)
                        made, failures, wall, verdict = run(path, templates, corridors, layouts,
                                                            os.path.join(tmp, "m.arrow"))
                        row["graphs"] += 1
                        row["layouts"] += layouts
                        row["made"] += made
                        for reason, c in failures.items():
                            key = f"graph {gi}: {reason}"
                            row["failures"][key] = row["failures"].get(key, 0) + c
                        row["ms_per_layout"].append(round(1000 * wall / layouts, 3))
                        verdict = "0 violations" if "0 violations" in verdict else verdict
                        if verdict not in row["verify"]:
                            row["verify"].append(verdict)
                    print(json.dumps(row), flush=True)
                    rows.append(row)
    if out_path:
        with open(out_path, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")
    print("\n| cycle rank | rooms | corridors | layouts ok | median graph, ms/layout | verify |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        ms = sorted(r["ms_per_layout"])
        print(f"| {r['cycle_rank']} | {r['rooms']} | {r['corridors']} | {r['made']:,}/"
              f"{r['layouts']:,} | {ms[len(ms) // 2]:.2f} | {', '.join(r['verify'])} |")
    for corridors in modes:
        made = sum(r["made"] for r in rows if r["corridors"] == corridors)
        total = sum(r["layouts"] for r in rows if r["corridors"] == corridors)
        print(f"\n{corridors}: {made:,}/{total:,} ({100 * made / total:.2f}%)")


if __name__ == "__main__":
    main()
