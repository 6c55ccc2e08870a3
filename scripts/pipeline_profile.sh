#!/usr/bin/env bash
# Where the time of an end-to-end `warren generate` goes, stage by stage: samples the whole run
# with `perf` (call graphs from DWARF) and sorts every sample into a pipeline stage by the
# frames on its stack (see scripts/pipeline_stages.py).
#
#   scripts/pipeline_profile.sh maze 200000     -> shares for 200,000 default mazes
#   scripts/pipeline_profile.sh dmg 100000
#
# Needs `perf` (Debian: linux-perf) and the permission to sample (perf_event_paranoid <= 2).
# The archive goes to a temporary folder that is removed afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:?usage: scripts/pipeline_profile.sh KIND COUNT}"
count="${2:-100000}"
command -v perf >/dev/null || { echo "pipeline_profile: perf is not installed" >&2; exit 2; }
cargo build --release --quiet
tmp=$(mktemp -d "${TMPDIR:-/tmp}/warren-profile.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
perf record -q -F 999 --call-graph dwarf,16384 -o "$tmp/perf.data" -- \
  target/release/warren generate "$kind" --count "$count" --quiet --out "$tmp/levels.arrow"
perf script -i "$tmp/perf.data" 2>/dev/null | python3 scripts/pipeline_stages.py
