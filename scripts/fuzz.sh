#!/usr/bin/env bash
# Long fuzzing run of every input parser: the tests of `tests/fuzz` (rule files, demirogue lua,
# level XML with includes, level lists, edge lists, layout positions files, profiles and --set
# values, DMG tables, archives, the map kind's level graphs and template libraries) in release
# mode with many cases each.
#
#   scripts/fuzz.sh [CASES] [FILTER]
#
# CASES: cases per parser (default 1000000: several hours in all on two cores); FILTER narrows
# the parsers (e.g. `fuzz_archives`). Each run starts from a fresh seed (printed; rerun a
# failure with WARREN_FUZZ_SEED=<seed>); WARREN_FUZZ_TIMEOUT_MS sets the per-case time limit
# (default 2000). Prints "fuzz <parser>: N cases in T s" per parser; a failure prints the
# input that panicked, hung or was rejected without its file and place.
set -euo pipefail
cd "$(dirname "$0")/.."
cases="${1:-1000000}"
filter="${2:-fuzz::}"
seed="${WARREN_FUZZ_SEED:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}"
echo "fuzzing with WARREN_FUZZ_CASES=$cases WARREN_FUZZ_SEED=$seed"
start=$(date +%s)
set +e
WARREN_FUZZ_CASES="$cases" WARREN_FUZZ_SEED="$seed" \
    cargo test --release --test tests "$filter" -- --nocapture --test-threads 2 2>&1 |
    grep --line-buffered -vE '^(running|$)'
status="${PIPESTATUS[0]}"
set -e
echo "total: $(($(date +%s) - start)) s"
exit "$status"
