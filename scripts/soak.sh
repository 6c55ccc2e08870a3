#!/usr/bin/env bash
# Soak: generate and verify N levels of every shipped profile (or of the profiles/kinds named),
# with a release build, and print one table row per profile: levels written, failed seeds by
# reason, verify violations, panics, and the time taken.
#
#   scripts/soak.sh N [PROFILE|KIND ...]     e.g. scripts/soak.sh 1000000
#                                            or   scripts/soak.sh 10000 maze dmg
#
# The run of N levels is made as SOAK_SHARDS shards (`--shard I/S`, default: one shard per
# 100,000 levels), each generated, verified and deleted before the next, so the disk never holds
# more than one shard's archive (a grammar level takes 30-80 KB: a million of them would not fit).
# The shards together are exactly the run of N levels.
#
# A panic anywhere (exit status 101 or "panicked" on stderr) is counted and the run goes on.
# Archives are written to a temporary folder and deleted after use (SOAK_KEEP=1 keeps them).
# Exit status: 0 when there were no panics and no violations, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."

n="${1:?usage: scripts/soak.sh N [PROFILE|KIND ...]}"
shift
if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=(profiles/*.toml)
fi
shards="${SOAK_SHARDS:-$(( (n + 99999) / 100000 ))}"

cargo build --release --quiet || exit 2
warren=target/release/warren
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warren-soak.XXXXXX")
trap '[ "${SOAK_KEEP:-0}" = 1 ] || rm -rf "$tmp"' EXIT

# Sums the failure maps ({"reason":count,...}) given one per line.
sum_failures() {
  python3 -c '
import json, sys
total = {}
for line in sys.stdin:
    for reason, count in json.loads(line.strip() or "{}").items():
        total[reason] = total.get(reason, 0) + count
print(f"{sum(total.values()):,}", json.dumps(dict(sorted(total.items())), separators=(",", ":")) if total else "")
'
}

printf '| profile | levels | failed seeds (by reason) | verify violations | panics | seconds |\n'
printf '|---|---|---|---|---|---|\n'
bad=0
for target in "${targets[@]}"; do
  name=$(basename "$target" .toml)
  start=$(date +%s)
  levels=0 violations=0 panics=0 problem=""
  : >"$tmp/$name.failures"
  for ((s = 0; s < shards; s++)); do
    out="$tmp/$name.$s.arrow"
    gen_err="$tmp/$name.$s.gen.err"
    "$warren" generate "$target" --count "$n" --shard "$s/$shards" --out "$out" \
      >"$tmp/$name.$s.gen.out" 2>"$gen_err"
    gen_status=$?
    if [ $gen_status -eq 101 ] || grep -q "panicked" "$gen_err"; then panics=$((panics + 1)); fi
    if [ $gen_status -ne 0 ]; then
      problem="shard $s/$shards: generate failed: $(head -c 200 "$gen_err" | tr '\n' ' ')"
      break
    fi
    summary=$(grep -h "^warren: " "$gen_err" "$tmp/$name.$s.gen.out" | tail -n 1)
    shard_levels=$(printf '%s' "$summary" | sed -n 's/^warren: \([0-9,]*\) .*/\1/p' | tr -d ,)
    levels=$((levels + ${shard_levels:-0}))
    # The summary line names the failures by reason as a JSON object (absent when none).
    printf '%s\n' "$(printf '%s' "$summary" | sed -n 's/.* failures \({[^}]*}\).*/\1/p')" \
      >>"$tmp/$name.failures"
    ver_err="$tmp/$name.$s.ver.err"
    "$warren" verify "$out" >"$tmp/$name.$s.ver.out" 2>"$ver_err"
    ver_status=$?
    if [ $ver_status -eq 101 ] || grep -q "panicked" "$ver_err"; then panics=$((panics + 1)); fi
    shard_violations=$(sed -n 's/.* levels checked, \([0-9,]*\) violations.*/\1/p' \
      "$tmp/$name.$s.ver.out" "$ver_err" | tail -n 1 | tr -d ,)
    if [ -z "$shard_violations" ]; then
      problem="shard $s/$shards: verify: $(head -c 200 "$ver_err" | tr '\n' ' ')"
      break
    fi
    violations=$((violations + shard_violations))
    [ "${SOAK_KEEP:-0}" = 1 ] || rm -f "$out"
  done
  read -r failed reasons < <(sum_failures <"$tmp/$name.failures")
  secs=$(( $(date +%s) - start ))
  if [ -n "$problem" ]; then
    printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$levels" "$problem" "-" "$panics" "$secs"
    bad=1
    continue
  fi
  levels_shown=$(python3 -c 'import sys; print(f"{int(sys.argv[1]):,}")' "$levels")
  printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "$levels_shown" \
    "${failed:-0}${reasons:+ $reasons}" "$violations" "$panics" "$secs"
  if [ "$panics" -ne 0 ] || [ "$violations" != "0" ]; then
    bad=1
  fi
done
exit $bad
