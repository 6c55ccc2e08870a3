"""``warren.merge`` and ``warren.split`` against the command line's ``merge`` and ``split``
(run in process through ``_native.cli``, so no binary is needed): the same archives byte for
byte, the same refusals as exceptions, and nothing written by a refused merge."""

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import warren
from warren import _native

SMALL = ["--set", "maze.width=6", "--set", "maze.height=6"]


def cli(*args):
    assert _native.cli(["warren", *map(str, args)]) == 0, args


def read(path):
    with pa.memory_map(str(path)) as source:
        return pa.ipc.open_file(source).read_all()


def shards(tmp_path, count, seed, n, *extra):
    paths = []
    for i in range(n):
        path = tmp_path / f"s{i}.arrow"
        cli("generate", "maze", "--quiet", "--count", count, "--seed", seed,
            "--shard", f"{i}/{n}", "--chunk-size", 64, *SMALL, *extra, "--out", path)
        paths.append(path)
    return paths


def test_merge_joins_shards_into_the_whole_run(tmp_path):
    parts = shards(tmp_path, 600, 4, 3)
    whole = tmp_path / "whole.arrow"
    cli("generate", "maze", "--quiet", "--count", 600, "--seed", 4, *SMALL, "--out", whole)
    out = tmp_path / "merged.arrow"
    summary = warren.merge([parts[2], parts[0], str(parts[1])], out)
    assert (summary["shards"], summary["total"], summary["levels"]) == (3, 600, 600)
    assert (summary["failed"], summary["scanned"], summary["resumed"]) == (0, None, None)
    assert summary["bytes"] == out.stat().st_size and not summary["finished_already"]
    merged, single = read(out), read(whole)
    assert merged.schema.equals(single.schema, check_metadata=True)
    assert merged.equals(single)
    # The command line's merge writes the same bytes.
    by_cli = tmp_path / "cli.arrow"
    cli("merge", "--quiet", by_cli, *parts)
    assert by_cli.read_bytes() == out.read_bytes()
    again = warren.merge(parts, out, resume=True)
    assert again["finished_already"] and again["levels"] == 0


def test_merge_with_a_selection_makes_the_rest_of_the_run(tmp_path):
    # 3 x 3 mazes have 82 layouts: the two shards of 30 share some, and the merge makes more.
    tiny = ["--set", "maze.width=3", "--set", "maze.height=3", "--unique"]
    parts = shards(tmp_path, 60, 2, 2, *tiny)
    whole = tmp_path / "whole.arrow"
    cli("generate", "maze", "--quiet", "--count", 60, "--seed", 2, *tiny, "--out", whole)
    out = tmp_path / "merged.arrow"
    summary = warren.merge(parts, out, threads=2)
    assert summary["levels"] == 60 and summary["from_shards"] < 60
    assert summary["scanned"]["duplicates"] > 0 and summary["scanned"]["end"] > 60
    assert read(out).column("layout_hash").equals(read(whole).column("layout_hash"))
    by_cli = tmp_path / "cli.arrow"
    cli("merge", "--quiet", "--threads", 2, by_cli, *parts)
    assert by_cli.read_bytes() == out.read_bytes()
    with pytest.raises(ValueError, match="--resume is for a merge that copies its shards"):
        warren.merge(parts, tmp_path / "again.arrow", resume=True)


def test_refused_merges_raise_and_write_nothing(tmp_path):
    parts = shards(tmp_path, 300, 1, 3)
    out = tmp_path / "merged.arrow"
    with pytest.raises(ValueError, match=r"shard 1/3 of the run is missing \(2 of 3 shards given\)"):
        warren.merge([parts[0], parts[2]], out)
    with pytest.raises(ValueError, match="are both shard 0/3"):
        warren.merge([parts[0], parts[0], parts[1], parts[2]], out)
    with pytest.raises(OSError, match="missing.arrow: cannot open"):
        warren.merge([parts[0], tmp_path / "missing.arrow"], out)
    with pytest.raises(OSError, match="output folder does not exist"):
        warren.merge(parts, tmp_path / "no" / "merged.arrow")
    with pytest.raises(TypeError):
        warren.merge(parts[0], out)
    assert not out.exists() and not (tmp_path / "merged.arrow.tmp").exists()


def test_split_partitions_the_levels_by_hash(tmp_path):
    source = tmp_path / "all.arrow"
    cli("generate", "maze", "--quiet", "--count", 500, "--seed", 9, *SMALL, "--out", source)
    summary = warren.split(source, tmp_path / "ours", train=0.6, val=0.2, test=0.2)
    assert summary["levels"] == 500
    assert [s["name"] for s in summary["splits"]] == ["train", "val", "test"]
    assert sum(s["levels"] for s in summary["splits"]) == 500
    hashes = []
    for s in summary["splits"]:
        table = read(s["path"])
        assert table.num_rows == s["levels"]
        assert table.schema.metadata[b"warren.split"]
        hashes.append(set(table.column("layout_hash").to_pylist()))
    assert not (hashes[0] & hashes[1]) and not (hashes[0] & hashes[2])
    assert set().union(*hashes) == set(read(source).column("layout_hash").to_pylist())
    # The command line's split writes the same archives.
    cli("split", source, "--quiet", "--train", 0.6, "--val", 0.2, "--test", 0.2,
        "--out", tmp_path / "theirs")
    for name in ("train", "val", "test"):
        ours = (tmp_path / "ours" / f"{name}.arrow").read_bytes()
        assert ours == (tmp_path / "theirs" / f"{name}.arrow").read_bytes()


def test_split_to_parquet_and_its_refusals(tmp_path):
    source = tmp_path / "all.arrow"
    cli("generate", "maze", "--quiet", "--count", 200, "--seed", 3, *SMALL, "--out", source)
    summary = warren.split(source, tmp_path / "hub", train=0.5, val=0.5, test=0,
                           format="parquet")
    assert [s["file_name"] for s in summary["splits"]] == ["train", "validation"]
    rows = sum(pq.read_table(p).num_rows for p in (tmp_path / "hub" / "data").glob("*.parquet"))
    assert rows == 200
    with pytest.raises(ValueError, match="add up to 0.7000, not 1"):
        warren.split(source, tmp_path / "bad", train=0.5)
    with pytest.raises(ValueError, match="a share must lie between 0 and 1"):
        warren.split(source, tmp_path / "bad", train=1.5, val=0, test=0)
    with pytest.raises(ValueError, match="format 'csv'"):
        warren.split(source, tmp_path / "bad", format="csv")
    once = warren.split(source, tmp_path / "once")
    with pytest.raises(ValueError, match="already one split of a dataset"):
        warren.split(once["splits"][0]["path"], tmp_path / "twice")
