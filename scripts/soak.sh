#!/usr/bin/env bash
# Soak: generate and verify N levels of every shipped profile (or of the profiles/kinds named),
# with a release build, and print one table row per profile: levels written, failed seeds by
# reason, verify violations, panics, and the time taken.
#
#   scripts/soak.sh N [PROFILE|KIND ...]     e.g. scripts/soak.sh 1000000
#                                            or   scripts/soak.sh 10000 maze dmg
#
# A panic anywhere (exit status 101 or "panicked" on stderr) is counted and the run goes on.
# Archives are written to a temporary folder and deleted after their row (SOAK_KEEP=1 keeps
# them). Exit status: 0 when there were no panics and no violations, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."

n="${1:?usage: scripts/soak.sh N [PROFILE|KIND ...]}"
shift
if [ $# -gt 0 ]; then
  targets=("$@")
else
  targets=(profiles/*.toml)
fi

cargo build --release --quiet || exit 2
warren=target/release/warren
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warren-soak.XXXXXX")
trap '[ "${SOAK_KEEP:-0}" = 1 ] || rm -rf "$tmp"' EXIT

printf '| profile | levels | failed seeds (by reason) | verify violations | panics | seconds |\n'
printf '|---|---|---|---|---|---|\n'
bad=0
for target in "${targets[@]}"; do
  name=$(basename "$target" .toml)
  out="$tmp/$name.arrow"
  start=$(date +%s)
  gen_err="$tmp/$name.gen.err"
  "$warren" generate "$target" --count "$n" --out "$out" >"$tmp/$name.gen.out" 2>"$gen_err"
  gen_status=$?
  panics=0
  if [ $gen_status -eq 101 ] || grep -q "panicked" "$gen_err"; then panics=$((panics + 1)); fi
  summary=$(grep -h "^warren: " "$gen_err" "$tmp/$name.gen.out" | tail -n 1)
  levels=$(printf '%s' "$summary" | sed -n 's/^warren: \([0-9,]*\) .*/\1/p')
  failures=$(printf '%s' "$summary" | sed -n 's/.* levels, \([0-9,]*\) failures\( {[^}]*}\)\{0,1\}.*/\1\2/p')
  violations="-"
  if [ $gen_status -eq 0 ]; then
    ver_err="$tmp/$name.ver.err"
    "$warren" verify "$out" >"$tmp/$name.ver.out" 2>"$ver_err"
    ver_status=$?
    if [ $ver_status -eq 101 ] || grep -q "panicked" "$ver_err"; then panics=$((panics + 1)); fi
    violations=$(sed -n 's/.* levels checked, \([0-9,]*\) violations.*/\1/p' "$tmp/$name.ver.out" "$ver_err" | tail -n 1)
    [ -n "$violations" ] || violations="? (verify: $(head -c 200 "$ver_err" | tr '\n' ' '))"
  else
    failures="generate failed: $(head -c 200 "$gen_err" | tr '\n' ' ')"
  fi
  secs=$(( $(date +%s) - start ))
  printf '| %s | %s | %s | %s | %s | %s |\n' "$name" "${levels:-0}" "${failures:--}" "$violations" "$panics" "$secs"
  if [ "$panics" -ne 0 ] || { [ "$violations" != "0" ] && [ "$violations" != "-" ]; } || [ $gen_status -ne 0 ]; then
    bad=1
  fi
  [ "${SOAK_KEEP:-0}" = 1 ] || rm -f "$out"
done
exit $bad
