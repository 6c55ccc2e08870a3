#!/usr/bin/env python3
"""What compression costs and saves, per kind: bytes per level of an archive written as it is,
with zstd and with lz4 (`warren generate --compression`) and as a Parquet dataset (`--format
parquet`), the end-to-end write rate, and the read rate of pyarrow and polars over the whole
file (or every Parquet file). Each figure is the median of --rounds
rounds, the three encodings taking turns within a round. Prints docs/archive-format.md's table
and writes the rows as JSON lines.

    scripts/archive_sizes.py [--warren target/release/warren] [--kinds maze,dmg,...]
                             [--scale 1.0] [--rounds 3] [--threads 0]
                             [--out docs/archive-sizes/results.jsonl]

Needs pyarrow and polars (pip install pyarrow polars).
"""
import argparse
import datetime
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time

import glob

import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq

# Levels per kind at --scale 1: about two seconds of writing each on two cores.
COUNTS = {
    "maze": 200_000,
    "grammar": 5_000,
    "dmg": 40_000,
    "regions": 5_000,
    "coloring": 40_000,
    "map": 5_000,
}
ENCODINGS = ["none", "zstd", "lz4", "parquet"]


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def parquet_files(path):
    return sorted(glob.glob(os.path.join(path, "data", "*.parquet")))


def read_pyarrow(path, mapped):
    if os.path.isdir(path):
        return sum(pq.read_table(f).num_rows for f in parquet_files(path))
    source = pa.memory_map(path) if mapped else pa.OSFile(path)
    return pa.ipc.open_file(source).read_all().num_rows


def read_polars(path, _mapped):
    if os.path.isdir(path):
        return pl.read_parquet(parquet_files(path)).height
    return pl.read_ipc(path).height


def size_of(path):
    if os.path.isdir(path):
        return sum(os.path.getsize(f) for f in parquet_files(path))
    return os.path.getsize(path)


def measure(warren, kind, count, encoding, threads, work):
    if encoding == "parquet":
        path = os.path.join(work, f"{kind}-parquet")
        options = ["--format", "parquet"]
    else:
        path = os.path.join(work, f"{kind}-{encoding}.arrow")
        options = ["--compression", encoding]
    command = [warren, "generate", kind, "--count", str(count), "--out", path, "--quiet"]
    command += options
    if threads:
        command += ["--threads", str(threads)]
    write_s, _ = timed(lambda: subprocess.run(command, check=True))
    size = size_of(path)
    mapped = encoding == "none"
    # The second read of each is timed: the file is then in the page cache for every encoding.
    read_pyarrow(path, mapped)
    pyarrow_s, rows = timed(lambda: read_pyarrow(path, mapped))
    read_polars(path, mapped)
    polars_s, rows_pl = timed(lambda: read_polars(path, mapped))
    if os.path.isdir(path):
        shutil.rmtree(path)
    else:
        os.remove(path)
    # Seeds a profile's limits refuse are counted, not written: rates are of levels written.
    if rows != rows_pl or rows == 0:
        raise SystemExit(f"{kind} {encoding}: pyarrow read {rows} rows, polars {rows_pl}")
    return {
        "bytes_per_level": size / rows,
        "write_levels_per_s": rows / write_s,
        "pyarrow_levels_per_s": rows / pyarrow_s,
        "polars_levels_per_s": rows / polars_s,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warren", default="target/release/warren")
    parser.add_argument("--kinds", default=",".join(COUNTS))
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", type=int, default=0)
    parser.add_argument("--out", default="docs/archive-sizes/results.jsonl")
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    rows = []
    with tempfile.TemporaryDirectory(prefix="warren-sizes-") as work:
        for kind in kinds:
            count = max(100, int(COUNTS[kind] * args.scale))
            rounds = {e: [] for e in ENCODINGS}
            for _ in range(args.rounds):
                for encoding in ENCODINGS:
                    rounds[encoding].append(measure(args.warren, kind, count, encoding,
                                                    args.threads, work))
            for encoding in ENCODINGS:
                row = {"kind": kind, "encoding": encoding, "levels": count, "when": when}
                for key in rounds[encoding][0]:
                    row[key] = statistics.median(r[key] for r in rounds[encoding])
                rows.append(row)
    os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
    with open(args.out, "a") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    print("| kind | archive | bytes per level | vs. uncompressed | write, levels/s | "
          "pyarrow read, levels/s | polars read, levels/s |")
    print("|---|---|---:|---:|---:|---:|---:|")
    plain = {r["kind"]: r["bytes_per_level"] for r in rows if r["encoding"] == "none"}
    for r in rows:
        name = {"none": "IPC", "zstd": "IPC zstd", "lz4": "IPC lz4",
                "parquet": "Parquet (zstd)"}[r["encoding"]]
        print(f"| {r['kind']} | {name} | {r['bytes_per_level']:,.0f} | "
              f"{r['bytes_per_level'] / plain[r['kind']]:.2f} | "
              f"{r['write_levels_per_s']:,.0f} | {r['pyarrow_levels_per_s']:,.0f} | "
              f"{r['polars_levels_per_s']:,.0f} |")


if __name__ == "__main__":
    main()
