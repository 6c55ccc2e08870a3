"""`warren card`: the dataset card is one the Hub's own libraries read. `huggingface_hub` parses
its front matter, and `datasets.load_dataset` loads the folder it describes with the grid as an
`Array2D`, holding the same levels as an archive of the same run. Skipped without `datasets`
and `huggingface_hub`.
"""

import pathlib
import subprocess

import pytest

datasets = pytest.importorskip("datasets")
huggingface_hub = pytest.importorskip("huggingface_hub")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

# Mazes 10 rooms wide and 6 high: grids of 13 rows of 21 cells (not square, so a transposed
# shape shows).
SMALL = ["--set", "maze.width=10", "--set", "maze.height=6"]
SHAPE = (13, 21)
COUNT = 300


def run(warren_bin, *args):
    subprocess.run([warren_bin, *map(str, args)], check=True, capture_output=True)


@pytest.fixture(scope="module")
def made(tmp_path_factory, warren_bin) -> pathlib.Path:
    """One run written twice, as a Parquet dataset folder with its card and as an archive."""
    root = tmp_path_factory.mktemp("card")
    common = ["--count", COUNT, "--seed", 3, "--quiet", *SMALL]
    run(warren_bin, "generate", "maze", *common, "--format", "parquet", "--out", root / "ds")
    run(warren_bin, "generate", "maze", *common, "--out", root / "levels.arrow")
    run(warren_bin, "card", root / "ds", "--quiet")
    return root


def load(folder: pathlib.Path, cache: pathlib.Path):
    return datasets.load_dataset(str(folder), split="train", cache_dir=str(cache))


def assert_same_table(loaded: "pa.Table", archive: "pa.Table"):
    assert loaded.column_names == archive.column_names
    assert loaded.num_rows == archive.num_rows
    for name in archive.column_names:
        ours, theirs = loaded[name].combine_chunks(), archive[name].combine_chunks()
        if name == "grid" and isinstance(theirs.type, pa.FixedShapeTensorType):
            # Array2D stores lists of lists, the archive a fixed-shape tensor: compare cells.
            assert ours.storage.flatten().flatten().equals(theirs.storage.flatten())
        else:
            assert ours.equals(theirs), name


def test_huggingface_hub_parses_the_card(made):
    card = huggingface_hub.DatasetCard.load(made / "ds" / "README.md")
    data = card.data
    assert data.license == "cc0-1.0"
    assert data.pretty_name == "Warren maze levels"
    assert data.size_categories == ["n<1K"]
    assert data.task_categories == ["reinforcement-learning"]
    assert "maze" in data.tags
    assert data.configs == [
        {
            "config_name": "default",
            "data_files": [{"split": "train", "path": "data/train-*.parquet"}],
        }
    ]
    info = data.dataset_info
    files = sorted((made / "ds" / "data").glob("train-*.parquet"))
    schema = pq.read_schema(files[0])
    assert [f["name"] for f in info["features"]] == schema.names
    grid = next(f for f in info["features"] if f["name"] == "grid")
    assert grid["dtype"] == {"array2_d": {"shape": list(SHAPE), "dtype": "uint8"}}
    assert {"name": "seed", "dtype": "uint64"} in info["features"]
    [split] = info["splits"]
    assert split["name"] == "train" and split["num_examples"] == COUNT
    assert split["num_bytes"] > 0
    assert info["download_size"] == sum(f.stat().st_size for f in files)
    assert (made / "ds" / "sample.png").read_bytes().startswith(b"\x89PNG")


def test_datasets_loads_the_grid_as_array2d_with_the_archives_rows(made, tmp_path):
    levels = load(made / "ds", tmp_path)
    assert levels.features["grid"] == datasets.Array2D(shape=SHAPE, dtype="uint8")
    grids = levels.with_format("numpy")[:]["grid"]
    assert grids.shape == (COUNT, *SHAPE)
    archive = pa.ipc.open_file(made / "levels.arrow").read_all()
    assert (grids == archive["grid"].combine_chunks().to_numpy_ndarray()).all()
    assert_same_table(levels.with_format("arrow")[:], archive)


def test_datasets_reads_an_archive_the_card_points_at(warren_bin, tmp_path):
    # Graph levels have no one-size grid, so `datasets`' arrow builder reads the archive itself.
    folder = tmp_path / "coloring"
    folder.mkdir()
    archive = folder / "levels.arrow"
    run(warren_bin, "generate", "coloring", "--count", 40, "--quiet", "--out", archive)
    run(warren_bin, "card", archive, "--quiet")
    data = huggingface_hub.DatasetCard.load(folder / "README.md").data
    assert data.configs[0]["data_files"] == [{"split": "train", "path": "levels.arrow"}]
    levels = load(folder, tmp_path / "cache")
    assert levels.num_rows == 40
    assert_same_table(levels.with_format("arrow")[:], pa.ipc.open_file(archive).read_all())
