#!/usr/bin/env bash
# Two warren binaries timed in one run: `warren bench --json` of every kind, alternating A and B
# RUNS times each, then per kind the median levels/s per core of each and B / A. For checking that
# a change leaves the rates where they were (hosts differ; the ratio is measured in the same run).
#
#   scripts/bench_ab.sh BEFORE_BIN AFTER_BIN [RUNS]      default RUNS: 5
set -euo pipefail
a="$1"
b="$2"
runs="${3:-5}"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warren-ab.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for i in $(seq 1 "$runs"); do
  "$a" bench --json > "$tmp/a$i.json" 2>/dev/null
  "$b" bench --json > "$tmp/b$i.json" 2>/dev/null
done
python3 - "$tmp" "$runs" <<'PY'
import json, statistics, sys
tmp, runs = sys.argv[1], int(sys.argv[2])
rates = {"a": {}, "b": {}}
for side in "ab":
    for i in range(1, runs + 1):
        for k in json.load(open(f"{tmp}/{side}{i}.json"))["kinds"]:
            rates[side].setdefault(k["profile"], []).append(k["levels_per_second_per_core"])
print(f"| kind | A levels/s/core (median of {runs}) | B levels/s/core | B / A |")
print("|---|---:|---:|---:|")
for kind, a in rates["a"].items():
    b = rates["b"].get(kind)
    if not b:
        continue
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"| {kind} | {ma:,.0f} | {mb:,.0f} | {mb / ma:.3f} |")
PY
