#!/usr/bin/env python3
"""Parquet at scale: writes COUNT mazes as a Parquet dataset (`warren generate --format parquet`)
and, in the same run, an Arrow IPC archive of IPC_COUNT mazes, and prints each one's end-to-end
write rate (levels/s), their ratio, the Parquet run's peak resident memory (the child's
ru_maxrss) and bytes per level. Both outputs are removed afterwards. The IPC run is smaller
only to fit the disk (10,000,000 mazes are 43 GB as IPC, 4.5 GB as Parquet); its rate is the
steady rate of a long run.

    scripts/parquet_scale.py [--warren target/release/warren] [--count 10000000]
                             [--ipc-count 2000000] [--dir /tmp]
"""
import argparse
import os
import resource
import shutil
import subprocess
import tempfile
import time


def run(command):
    """Runs `command`; returns its wall-clock seconds and the peak RSS (bytes) of this child."""
    start = time.perf_counter()
    pid = subprocess.Popen(command).pid
    _, status, usage = os.wait4(pid, 0)
    seconds = time.perf_counter() - start
    if status != 0:
        raise SystemExit(f"{' '.join(command)}: exit status {status}")
    return seconds, usage.ru_maxrss * 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warren", default="target/release/warren")
    parser.add_argument("--count", type=int, default=10_000_000)
    parser.add_argument("--ipc-count", type=int, default=2_000_000)
    parser.add_argument("--dir", default=tempfile.gettempdir())
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="warren-parquet-scale-", dir=args.dir)
    try:
        archive = os.path.join(work, "mazes.arrow")
        ipc_s, ipc_rss = run([args.warren, "generate", "maze", "--count", str(args.ipc_count),
                              "--out", archive, "--quiet"])
        os.remove(archive)
        folder = os.path.join(work, "mazes")
        pq_s, pq_rss = run([args.warren, "generate", "maze", "--count", str(args.count),
                            "--format", "parquet", "--out", folder, "--quiet"])
        data = os.path.join(folder, "data")
        files = sorted(os.listdir(data))
        size = sum(os.path.getsize(os.path.join(data, f)) for f in files)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    ipc_rate, pq_rate = args.ipc_count / ipc_s, args.count / pq_s
    print(f"IPC:     {args.ipc_count:,} mazes in {ipc_s:.1f} s, {ipc_rate:,.0f} levels/s, "
          f"peak RSS {ipc_rss / 1e6:.0f} MB")
    print(f"Parquet: {args.count:,} mazes in {pq_s:.1f} s, {pq_rate:,.0f} levels/s, "
          f"peak RSS {pq_rss / 1e6:.0f} MB, {len(files)} files, {size / args.count:.0f} "
          f"bytes/level")
    print(f"Parquet / IPC write rate: {pq_rate / ipc_rate:.2f}")


if __name__ == "__main__":
    main()
