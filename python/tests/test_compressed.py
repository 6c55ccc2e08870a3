"""Archives written with `warren generate --compression zstd|lz4` read as the uncompressed
archive does: in pyarrow, and in the package's loaders that take an archive (maze-dataset,
MiniGrid, Hugging Face datasets), each where its extra is installed."""

import subprocess

import pyarrow as pa
import pytest

SETS = ["--set", "maze.width=8", "--set", "maze.height=8"]


def archive(warren_bin, path, compression):
    subprocess.run(
        [warren_bin, "generate", "maze", "--count", "64", "--seed", "5", "--chunk-size", "16",
         *SETS, "--compression", compression, "--quiet", "--out", str(path)],
        check=True,
    )
    return str(path)


@pytest.fixture(scope="module")
def archives(warren_bin, tmp_path_factory):
    folder = tmp_path_factory.mktemp("compressed")
    return {c: archive(warren_bin, folder / f"{c}.arrow", c) for c in ("none", "zstd", "lz4")}


@pytest.mark.parametrize("compression", ["zstd", "lz4"])
def test_pyarrow_reads_the_same_table(archives, compression):
    plain = pa.ipc.open_file(pa.memory_map(archives["none"])).read_all()
    packed = pa.ipc.open_file(pa.memory_map(archives[compression])).read_all()
    assert packed.num_rows == 64 and packed.equals(plain)
    assert packed.schema.metadata == plain.schema.metadata


@pytest.mark.parametrize("compression", ["zstd", "lz4"])
def test_maze_dataset_reads_a_compressed_archive(archives, compression):
    pytest.importorskip("maze_dataset")
    import warren.maze_dataset as wmd

    ours = wmd.solved_mazes(archives["none"])
    theirs = wmd.solved_mazes(archives[compression])
    assert len(theirs) == 64 and all(a == b for a, b in zip(ours, theirs))


@pytest.mark.parametrize("compression", ["zstd", "lz4"])
def test_minigrid_lays_out_a_compressed_archive(archives, compression):
    pytest.importorskip("minigrid")
    import warren.minigrid as wm

    plain, packed = wm.WarrenEnv(archives["none"]), wm.WarrenEnv(archives[compression])
    for _ in range(10):
        _, a = plain.reset()
        _, b = packed.reset()
        assert a == b
        assert (plain.grid.encode() == packed.grid.encode()).all()


def test_hugging_face_reads_a_compressed_archive(archives):
    pytest.importorskip("datasets")
    import warren.hf

    table = pa.ipc.open_file(archives["zstd"]).read_all()
    ds = warren.hf.from_table(table)
    assert ds.num_rows == 64 and ds[3]["index"] == 3
