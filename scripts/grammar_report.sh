#!/usr/bin/env bash
# Reproduces docs/grammar.md's table for seed 000's seven demirogue rulesets: for each, COUNT seeds
# (default 10,000) on one thread with demirogue's default parameters
# (profiles/grammar-demirogue.toml, tiles of 5 units), then from the archive: levels per
# second, the share of seeds that became a level (the rest fail by a counted reason, listed),
# the share of seeds drawn without two corridors crossing, the share of levels whose corridor
# graph is planar, and the median map size. Needs python3 with pyarrow.
#   scripts/grammar_report.sh [COUNT]
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-10000}"
cargo build --release --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-20s %8s %13s %9s %15s %8s %9s  %s\n' ruleset levels "levels/s/core" success crossing-free planar "map p50" failures
for r in catacomb default quads silly spiral test tree; do
  start=$(date +%s.%N)
  target/release/warren generate profiles/grammar-demirogue.toml --set "grammar.rules=demirogue/$r" \
    --count "$count" --threads 1 --quiet --out "$out/$r.arrow"
  end=$(date +%s.%N)
  python3 - "$out/$r.arrow" "$r" "$start" "$end" "$count" <<'PY'
import sys
import pyarrow as pa, pyarrow.compute as pc
path, name, start, end, seeds = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
f = pa.ipc.open_file(pa.memory_map(path))
t = f.read_all()
n = t.num_rows
planar = pc.sum(pc.equal(t["planar"], 1)).as_py() or 0
clean = pc.sum(pc.equal(t["self_intersecting"], 0)).as_py() or 0
side = pc.max_element_wise(t["grid_width"], t["grid_height"])
median = pc.approximate_median(side).as_py() if n else 0
failures = f.metadata.get(b"warren.failures", b"{}").decode() if f.metadata else "{}"
print(f"{'demirogue/' + name:<20} {n:>8,} {n / (end - start):>13,.0f} {n / seeds:>9.2%} {clean / seeds:>15.2%} "
      f"{planar / max(n, 1):>8.2%} {median:>9.0f}  {failures}")
PY
done
