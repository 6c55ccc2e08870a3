#!/usr/bin/env python3
"""Shares of a `perf record --call-graph dwarf` profile of `warren generate`, by thread and by
pipeline stage. Reads `perf script` output on stdin (scripts/pipeline_profile.sh runs both).

A sample belongs to the first stage, walking its stack from the leaf up, whose name pattern a
frame matches: a copy made inside the archive writer's direct-I/O stage counts as the writer's,
a hash computed while a level is pushed into its record batch counts as hashing, and so on."""
import collections
import sys

STAGES = [
    ("writer: checksum (CRC-32)", ["crc32fast"]),
    ("writer: copy into the stage and direct writes", ["DirectFile"]),
    ("writer: IPC framing", ["IpcDataGenerator", "write_record_batch", "arrow_ipc::writer"]),
    ("writer: footer and sync", ["ArchiveWriter::finish", "sync_data", "sync_all"]),
    ("record batch: finish", ["ChunkBuilder::finish"]),
    ("record batch: copy levels into columns", ["ChunkBuilder::push"]),
    ("layout hash", ["core::hash::"]),
    ("metrics", ["metric"]),
    ("raster", ["rasteri"]),
    ("ordering and selection", ["Keeper", "Ordered::write"]),
    ("generation", ["maze::", "dmg::", "grammar::", "regions::", "coloring::", "layout::",
                    "::generate"]),
]


def stage_of(frames):
    for frame in frames:
        for name, keys in STAGES:
            if any(k in frame for k in keys):
                return name
    return None


def main():
    threads, stages = collections.Counter(), collections.Counter()
    total = 0
    sample = []

    def flush():
        nonlocal total
        if not sample:
            return
        comm = sample[0].split()[0]
        total += 1
        if comm == "warren":
            threads["writer (the main thread)"] += 1
        elif comm.startswith("warren-worker"):
            threads["workers"] += 1
        else:
            threads[comm] += 1
        stages[stage_of(sample[1:]) or ("writer: other" if comm == "warren" else "other")] += 1

    for line in sys.stdin:
        if line.strip():
            sample.append(line.strip())
        else:
            flush()
            sample.clear()
    flush()
    if total == 0:
        sys.exit("pipeline_stages: no samples on stdin")
    print(f"{total} samples")
    for name, n in threads.most_common():
        print(f"thread  {name:48} {100 * n / total:5.1f}%")
    for name, n in stages.most_common():
        print(f"stage   {name:48} {100 * n / total:5.1f}%")


if __name__ == "__main__":
    main()
