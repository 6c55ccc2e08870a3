#!/usr/bin/env python3
"""Every shipped grammar profile drawn by the map builder, beside seed 000's own tile map.

For each grammar profile and each `grammar.corridors` mode (`drawn`, the default, and the map
builder's `none`, `templates`, `routed`), with the builder's rooms from the rules' own sizes
(`grammar.templates = "rules"`) and from Edgar's building blocks (`edgar-paper`): generate
COUNT seeds on one thread, verify them, and report the share of seeds that made a level, the
failure reasons, the whole run's time per seed, and the median longest corridor and corridor
share. Prints a Markdown table (docs/grammar.md's) and writes the rows as JSON lines.

Usage: scripts/grammar_builder.py [--count 1000] [--warren target/release/warren]
                                  [--json docs/grammar-builder/results.jsonl]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

PROFILES = [
    "grammar",
    "grammar-dungeon",
    "grammar-keylock",
    "grammar-ring",
    "grammar-demirogue",
    "grammar-catacomb",
]
MODES = ["drawn", "none", "templates", "routed"]
LIBRARIES = ["rules", "edgar-paper"]


def run(cmd):
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{out.stderr}")
    return out


def metric_median(warren, archive, name):
    for line in run([warren, "inspect", archive]).stdout.splitlines():
        fields = line.split()
        if fields and fields[0] == name and len(fields) >= 6:
            return float(fields[5])
    return None


def measure(warren, profile, mode, library, count, tmp):
    out = os.path.join(tmp, f"{profile}-{mode}-{library}.arrow")
    cmd = [
        warren, "generate", f"profiles/{profile}.toml",
        "--set", f"grammar.corridors={mode}",
        "--set", f"grammar.templates={library}",
        "--count", str(count), "--threads", "1", "--out", out,
    ]
    start = time.perf_counter()
    res = run(cmd)
    seconds = time.perf_counter() - start
    summary = res.stderr.strip().splitlines()[-1]
    made = int(re.search(r"warren: ([\d,]+) grammar levels", summary).group(1).replace(",", ""))
    reasons = re.search(r"failures (\{.*?\})", summary)
    row = {
        "profile": profile,
        "corridors": mode,
        "templates": library if mode != "drawn" else "-",
        "count": count,
        "levels": made,
        "failures": json.loads(reasons.group(1)) if reasons else {},
        "ms_per_seed": seconds * 1000 / count,
    }
    if made:
        verify = run([warren, "verify", out]).stdout.strip().splitlines()[-1]
        row["violations"] = int(re.search(r"(\d+) violations", verify).group(1))
        row["corridor_max_median"] = metric_median(warren, out, "corridor_max")
        row["corridor_share_median"] = metric_median(warren, out, "corridor_share")
    os.remove(out)
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--warren", default="target/release/warren")
    ap.add_argument("--json", default="docs/grammar-builder/results.jsonl")
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for profile in PROFILES:
            for mode in MODES:
                for library in LIBRARIES if mode != "drawn" else ["rules"]:
                    row = measure(args.warren, profile, mode, library, args.count, tmp)
                    rows.append(row)
                    print(json.dumps(row), file=sys.stderr)
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    with open(args.json, "w") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    print("| profile | corridors | rooms | levels | ms per seed | x drawn | verify | longest corridor | corridor share | failures |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---|")
    drawn = {r["profile"]: r["ms_per_seed"] for r in rows if r["corridors"] == "drawn"}
    for r in rows:
        pct = 100.0 * r["levels"] / r["count"]
        fails = ", ".join(f"{k} {v}" for k, v in r["failures"].items()) or "-"
        med = lambda k, fmt: fmt.format(r[k]) if r.get(k) is not None else "-"
        print(
            f"| {r['profile']} | {r['corridors']} | {r['templates']} | {pct:.1f}% "
            f"| {r['ms_per_seed']:.2f} | {r['ms_per_seed'] / drawn[r['profile']]:.1f} "
            f"| {r.get('violations', '-')} | {med('corridor_max_median', '{:.0f}')} "
            f"| {med('corridor_share_median', '{:.3f}')} | {fails} |"
        )


if __name__ == "__main__":
    main()
