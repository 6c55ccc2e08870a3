#!/usr/bin/env bash
# How long `warren merge` takes to join big shards, beside the time to generate them: the
# measurement behind `warren merge --resume`. COUNT mazes (default 2,000,000) in 4 shards,
# uncompressed and with zstd; prints seconds and levels/s for both steps of each.
#
#   scripts/merge_time.sh [COUNT] [DIR]        # WARREN names the binary (target/release/warren)
#
# DIR (default /tmp/warren-merge-time) needs twice the archive's size free: 17 GB for the
# default count uncompressed. Everything in it is removed at the end.
set -euo pipefail

count=${1:-2000000}
dir=${2:-/tmp/warren-merge-time}
warren=${WARREN:-target/release/warren}
mkdir -p "$dir"
trap 'rm -rf "$dir"' EXIT

now() { date +%s.%N; }
rate() { python3 -c "import sys; c, s = int(sys.argv[1]), float(sys.argv[2]); print(f'{s:.1f} s, {c / s:,.0f} levels/s')" "$@"; }

for compression in none zstd; do
    start=$(now)
    for i in 0 1 2 3; do
        "$warren" generate maze --count "$count" --shard "$i/4" --compression "$compression" \
            --quiet --out "$dir/shard-$i.arrow"
    done
    generated=$(python3 -c "print($(now) - $start)")
    start=$(now)
    "$warren" merge --quiet "$dir/merged.arrow" "$dir"/shard-*.arrow
    merged=$(python3 -c "print($(now) - $start)")
    size=$(stat -c %s "$dir/merged.arrow")
    echo "compression $compression: $count mazes, $(python3 -c "print(f'{$size / 1e9:.2f}')") GB"
    echo "  generate 4 shards: $(rate "$count" "$generated")"
    echo "  merge them:        $(rate "$count" "$merged")"
    rm -f "$dir"/*.arrow
done
