#!/usr/bin/env bash
# Dataset tools at scale: `generate --unique` of every kind's default profile (N levels, the
# maze MAZES), each archive verified (no layout_hash twice) and its rejects counted; then
# `warren split` of the maze archive's first 100,000 levels. Prints one table row per kind and
# the split report. Release build; archives go to a temporary folder deleted at the end.
#
#   scripts/datasets.sh [N] [MAZES]      defaults: 100000 1000000
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-100000}"
mazes="${2:-1000000}"
cargo build --release --quiet
warren=target/release/warren
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warren-datasets.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

printf '| kind | levels kept | seeds tried | duplicates | failed | verify | seconds |\n'
printf '|---|---|---|---|---|---|---|\n'
for kind in $("$warren" kinds --names); do
  count=$n
  [ "$kind" = maze ] && count=$mazes
  out="$tmp/$kind.arrow"
  start=$(date +%s)
  summary=$("$warren" generate "$kind" --count "$count" --unique --out "$out" 2>&1 | grep '^warren: ')
  verdict=$("$warren" verify "$out" | tail -n 1 | sed 's/.*checked, //')
  secs=$(( $(date +%s) - start ))
  kept=$(printf '%s' "$summary" | sed -n 's/^warren: \([0-9,]*\) .*/\1/p')
  failed=$(printf '%s' "$summary" | sed -n 's/.* levels, \([0-9,]*\) failures.*/\1/p')
  tried=$(printf '%s' "$summary" | sed -n 's/.*, \([0-9,]*\) seeds tried.*/\1/p')
  dups=$(printf '%s' "$summary" | sed -n 's/.* \([0-9,]*\) duplicates.*/\1/p')
  printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$kind" "$kept" "$tried" "$dups" "$failed" "$verdict" "$secs"
  [ "$kind" = maze ] || rm -f "$out"
done

echo
"$warren" generate maze --count 100000 --out "$tmp/split-source.arrow" --quiet
"$warren" split "$tmp/split-source.arrow" --train 0.8 --val 0.1 --test 0.1 --out "$tmp/splits"
