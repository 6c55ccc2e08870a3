#!/usr/bin/env bash
# Reproduces the upscaling figures of docs/grammar.md: for every `grammar.upscale` from 1 to 4, COUNT
# seeds (default 10,000) of the default grammar profile, then from the archive the share of
# levels whose longest corridor is within 4 times the median (`corridor_spread`), the worst
# spread, and the failed seeds. Needs python3 with pyarrow.
#   scripts/grammar_upscale.sh [COUNT]
set -euo pipefail
cd "$(dirname "$0")/.."
count="${1:-10000}"
cargo build --release --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-8s %8s %14s %11s  %s\n' upscale levels "spread <= 4" "worst" failures
for u in 1 1.5 2 3 4; do
  target/release/warren generate grammar --set "grammar.upscale=$u" --count "$count" --quiet \
    --out "$out/u.arrow"
  python3 - "$out/u.arrow" "$u" <<'PY'
import sys
import pyarrow as pa, pyarrow.compute as pc
path, upscale = sys.argv[1], sys.argv[2]
f = pa.ipc.open_file(pa.memory_map(path))
t = f.read_all()
n = t.num_rows
within = pc.sum(pc.less_equal(t["corridor_spread"], 4.0)).as_py() or 0
worst = pc.max(t["corridor_spread"]).as_py() if n else 0.0
failures = f.metadata.get(b"warren.failures", b"{}").decode() if f.metadata else "{}"
print(f"{upscale:<8} {n:>8,} {within / max(n, 1):>14.2%} {worst:>11.2f}  {failures}")
PY
done
