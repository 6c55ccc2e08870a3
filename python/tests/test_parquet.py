"""Datasets written with `warren generate --format parquet` (the Hugging Face Hub's layout,
`DIR/data/train-0000K-of-0000N.parquet`) read as the same run's archive does: in Hugging Face
`datasets` (rows equal, grids as an (N, H, W) array), in pyarrow and in polars (grids as an
`Array(UInt8, (H, W))`)."""

import glob
import subprocess

import pyarrow as pa
import pytest

COUNT = 300
WIDTH, HEIGHT = 8, 6
# A lattice maze of w x h cells is a grid of 2w+1 x 2h+1 tiles.
GRID_H, GRID_W = 2 * HEIGHT + 1, 2 * WIDTH + 1
RUN = ["maze", "--count", str(COUNT), "--seed", "11", "--chunk-size", "64",
       "--set", f"maze.width={WIDTH}", "--set", f"maze.height={HEIGHT}", "--quiet"]


@pytest.fixture(scope="module")
def run(warren_bin, tmp_path_factory):
    """The same run as an archive and as a Parquet dataset folder."""
    folder = tmp_path_factory.mktemp("parquet")
    archive, dataset = folder / "mazes.arrow", folder / "mazes"
    subprocess.run([warren_bin, "generate", *RUN, "--out", str(archive)], check=True)
    subprocess.run([warren_bin, "generate", *RUN, "--format", "parquet", "--out", str(dataset)],
                   check=True)
    table = pa.ipc.open_file(pa.memory_map(str(archive))).read_all()
    return table, dataset


def stored_grids(table):
    """The archive's grids (a fixed-shape tensor column) as an (N, H, W) array."""
    return table["grid"].combine_chunks().to_numpy_ndarray()


def data_files(dataset):
    files = sorted(glob.glob(str(dataset / "data" / "train-*.parquet")))
    assert files, f"no data files in {dataset}"
    return files


def test_hugging_face_datasets_loads_the_archive_rows(run):
    datasets = pytest.importorskip("datasets")
    table, dataset = run
    ds = datasets.load_dataset("parquet", data_dir=str(dataset / "data"), split="train",
                               cache_dir=str(dataset.parent / "hf-cache"))
    assert ds.num_rows == COUNT
    assert ds.column_names == table.column_names
    # Arrow tables, not numpy: numpy widens uint64 and loses nothing here only by luck.
    ours = ds.with_format("arrow")[:]
    for name in table.column_names:
        if name == "grid":
            continue
        assert ours[name].combine_chunks().equals(table[name].combine_chunks()), name
    grids = ds.with_format("numpy")[:]["grid"]
    assert grids.shape == (COUNT, GRID_H, GRID_W)
    assert (grids == stored_grids(table)).all()


def test_pyarrow_reads_the_dataset_with_the_run_metadata(run):
    pq = pytest.importorskip("pyarrow.parquet")
    table, dataset = run
    read = pa.concat_tables([pq.read_table(f) for f in data_files(dataset)])
    assert read.num_rows == COUNT
    grid = read.schema.field("grid").type
    assert pa.types.is_fixed_size_list(grid) and grid.list_size == GRID_H
    assert pa.types.is_fixed_size_list(grid.value_type) and grid.value_type.list_size == GRID_W
    assert grid.value_type.value_type == pa.uint8()
    for name in table.column_names:
        if name != "grid":
            assert read[name].combine_chunks().equals(table[name].combine_chunks()), name
    flat = read["grid"].combine_chunks().flatten().flatten()
    assert flat.equals(pa.array(stored_grids(table).ravel()))
    metadata = read.schema.metadata
    assert metadata[b"warren.generator"] == b"maze"
    assert metadata[b"warren.profile"] == table.schema.metadata[b"warren.profile"]
    footer = pq.ParquetFile(data_files(dataset)[-1]).metadata.metadata
    assert footer[b"warren.levels"] == str(COUNT).encode()


def test_polars_reads_grids_as_a_two_dimensional_array(run):
    pl = pytest.importorskip("polars")
    table, dataset = run
    frame = pl.read_parquet(data_files(dataset))
    assert frame.height == COUNT
    assert frame.schema["grid"] == pl.Array(pl.UInt8, (GRID_H, GRID_W))
    assert frame["index"].to_list() == table["index"].to_pylist()
    assert frame["seed"].dtype == pl.UInt64
    grids = frame["grid"].to_numpy()
    assert grids.shape == (COUNT, GRID_H, GRID_W)
    assert (grids == stored_grids(table)).all()
