#!/usr/bin/env bash
# Reproduces docs/performance.md's tables on this machine:
#   scripts/bench.sh            `warren bench` (every kind, with the allocation counter),
#                               criterion benches, then 1,000,000 mazes end to end and verify,
#                               100,000 grammar levels and verify, 100,000 DMG dungeons and
#                               verify, the demirogue ruleset table,
#                               then a 100,000-vertex `warren layout`
#   scripts/bench.sh --quick    shorter criterion runs and 100,000 mazes
# The archive goes to a temporary folder that is removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."

quick=false
[[ "${1:-}" == "--quick" ]] && quick=true
count=1000000
criterion_args=()
if $quick; then
  count=100000
  criterion_args=(-- --warm-up-time 1 --measurement-time 3)
fi

echo "== machine: $(nproc) cores, $(date -u +%Y-%m-%d)"
echo "== warren bench"
cargo run --release --quiet --features count-allocations -- bench
cargo bench --bench maze "${criterion_args[@]}"
cargo bench --bench archive "${criterion_args[@]}"
cargo bench --bench layout "${criterion_args[@]}"
cargo bench --bench grammar "${criterion_args[@]}"
cargo bench --bench dmg "${criterion_args[@]}"
cargo bench --bench regions "${criterion_args[@]}"
cargo bench --bench coloring "${criterion_args[@]}"
cargo bench --bench pipeline "${criterion_args[@]}"

cargo build --release --quiet
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "== generate maze --count $count"
/usr/bin/time -f "wall %e s, peak RSS %M KB" target/release/warren generate maze --count "$count" --out "$out/m.arrow"
echo "== verify"
/usr/bin/time -f "wall %e s, peak RSS %M KB" target/release/warren verify "$out/m.arrow"
echo "== merging on and off (dead_ends, merges)"
target/release/warren generate maze --count 100000 --out "$out/on.arrow" --quiet
target/release/warren generate maze --count 100000 --out "$out/off.arrow" --quiet --set maze.merge_dead_ends=false
for f in on off; do
  echo "-- merging $f"
  target/release/warren inspect "$out/$f.arrow" | grep -E '^  (dead_ends|merges|mergeable_dead_ends) +[0-9]'
done
echo "== warren layout: 100,000-vertex level-like graph, 300 iterations"
python3 scripts/level_like_graph.py "$out/g100k.txt"
/usr/bin/time -f "wall %e s, peak RSS %M KB" target/release/warren layout "$out/g100k.txt" --iterations 300 --tolerance 0
gcount=$((count / 10))
echo "== generate grammar --count $gcount, then verify"
/usr/bin/time -f "wall %e s, peak RSS %M KB" target/release/warren generate grammar --count "$gcount" --out "$out/g.arrow"
/usr/bin/time -f "wall %e s, peak RSS %M KB" target/release/warren verify "$out/g.arrow"
dcount=$((count / 10))
echo "== generate dmg --count $dcount, then verify"
/usr/bin/time -f "wall %e s, peak RSS %M KB" target/release/warren generate dmg --count "$dcount" --out "$out/d.arrow"
/usr/bin/time -f "wall %e s, peak RSS %M KB" target/release/warren verify "$out/d.arrow"
rm -f "$out/d.arrow"
echo "== seed 000's rulesets, one thread"
scripts/grammar_report.sh "$gcount"
