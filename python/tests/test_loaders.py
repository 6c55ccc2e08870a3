"""Data loader and Hugging Face paths: worker shares that never repeat a level, datasets that
load warren levels directly."""

import pyarrow as pa
import numpy as np
import pytest

import warren


def test_stream_workers_share_the_indices_without_repeats():
    count, workers = 1000, 3
    seen = []
    for i in range(workers):
        rows = list(warren.stream("maze", count, seed=4, worker=(i, workers), set={"maze.width": 6}))
        seen.extend(r["index"] for r in rows)
    assert sorted(seen) == list(range(count))
    whole = warren.generate("maze", count, seed=4, set={"maze.width": 6})
    row = next(iter(warren.stream("maze", count, seed=4, worker=(2, 3), set={"maze.width": 6})))
    assert row == whole.slice(count * 2 // 3, 1).to_pylist()[0]
    batches = list(warren.stream("maze", 10, rows=False, set={"maze.width": 6}))
    assert sum(b.num_rows for b in batches) == 10 and isinstance(batches[0], pa.RecordBatch)
    with pytest.raises(ValueError, match="worker"):
        warren.stream("maze", 10, worker=(3, 3))
    with pytest.raises(ValueError, match="unknown key"):
        warren.stream("maze", 10, set={"maze.nope": 1})


def test_stream_asks_torch_for_its_worker(monkeypatch):
    import sys
    import types

    info = types.SimpleNamespace(id=1, num_workers=4)
    fake = types.ModuleType("torch")
    fake.utils = types.SimpleNamespace(data=types.SimpleNamespace(get_worker_info=lambda: info))
    monkeypatch.setitem(sys.modules, "torch", fake)
    s = warren.stream("maze", 100, set={"maze.width": 6})
    assert s.share() == range(25, 50)
    assert [r["index"] for r in s] == list(range(25, 50))


def test_hugging_face_datasets_load_warren_levels():
    datasets = pytest.importorskip("datasets")
    import warren.hf

    ds = warren.hf.dataset("maze", 300, seed=2, set={"maze.width": 8})
    assert isinstance(ds, datasets.Dataset) and len(ds) == 300
    local = warren.generate("maze", 300, seed=2, set={"maze.width": 8})
    assert ds[5]["layout_hash"] == local.column("layout_hash")[5].as_py()
    assert ds.with_format("numpy")["grid_width"][:3].tolist() == [17, 17, 17]
    # A lattice maze's grid is an Array2D feature: (N, H, W) cells, the same as pyarrow's.
    assert ds.features["grid"] == datasets.Array2D(shape=(65, 17), dtype="uint8")
    cells = ds.with_format("numpy", dtype=np.uint8)[:]["grid"]
    assert cells.shape == (300, 65, 17) and cells.dtype == np.uint8
    assert np.array_equal(cells, local.column("grid").combine_chunks().to_numpy_ndarray())

    stream = warren.hf.dataset("maze", 300, seed=2, set={"maze.width": 8}, streaming=True, shards=4)
    assert isinstance(stream, datasets.IterableDataset)
    assert stream.num_shards == 4
    indices = [row["index"] for row in stream]
    assert sorted(indices) == list(range(300))
    assert len(set(indices)) == 300
    # Streamed rows carry the same feature, so they come out as (H, W) arrays too.
    assert stream.features["grid"] == datasets.Array2D(shape=(65, 17), dtype="uint8")
    first = next(iter(stream.with_format("numpy")))
    assert first["grid"].shape == (65, 17)
    # Grammar grids vary in size: bytes beside their width and height.
    assert warren.hf.dataset("grammar", 3, seed=2).features["grid"] == datasets.Value("binary")
