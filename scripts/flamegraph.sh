#!/usr/bin/env bash
# A flamegraph of any run, nothing to install (warren samples itself with pprof):
#   scripts/flamegraph.sh maze            -> maze.svg, from `warren bench maze`
#   scripts/flamegraph.sh dmg out.svg     -> out.svg
# The one-liner it runs:
#   cargo run --release -- bench KIND --flamegraph OUT.svg
# `warren generate KIND --count N --out F.arrow --flamegraph OUT.svg` samples a whole batch run.
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:?usage: scripts/flamegraph.sh KIND [OUT.svg]}"
out="${2:-$kind.svg}"
cargo run --release --quiet -- bench "$kind" --flamegraph "$out"
