#!/usr/bin/env bash
# Reproduces the README's table for seed 000's seven demirogue rulesets: for each, COUNT levels
# (default 10,000) on one thread with demirogue's default parameters
# (profiles/grammar-demirogue.toml), then from the archive: levels per second, the share of
# levels whose rooms overlap, the share whose corridor graph is planar, and among those the
# share drawn without two corridors crossing. Needs python3 with pyarrow.
#   scripts/grammar_report.sh [COUNT]
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-10000}"
cargo build --release --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-20s %9s %12s %9s %8s %22s\n' ruleset levels "levels/s/core" overlaps planar "crossing-free|planar"
for r in catacomb default quads silly spiral test tree; do
  start=$(date +%s.%N)
  target/release/warren generate profiles/grammar-demirogue.toml --set "grammar.rules=demirogue/$r" \
    --count "$count" --threads 1 --quiet --out "$out/$r.arrow"
  end=$(date +%s.%N)
  python3 - "$out/$r.arrow" "$r" "$start" "$end" <<'PY'
import sys
import pyarrow as pa, pyarrow.compute as pc
path, name, start, end = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
t = pa.ipc.open_file(pa.memory_map(path)).read_all()
n = t.num_rows
planar = pc.equal(t["planar"], 1)
clean = pc.and_(planar, pc.equal(t["self_intersecting"], 0))
overlaps = pc.sum(pc.greater(t["room_overlaps"], 0)).as_py() or 0
p = pc.sum(planar).as_py() or 0
c = pc.sum(clean).as_py() or 0
print(f"{'demirogue/' + name:<20} {n:>9,} {n / (end - start):>12,.0f} {overlaps / n:>9.2%} {p / n:>8.2%} {c / max(p, 1):>22.2%}")
PY
done
