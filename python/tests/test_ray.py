"""Ray Data on a local Ray instance: read_levels equals the command line's archive row for row,
also when read tasks fail and Ray runs them again."""

import os
import subprocess

import pyarrow as pa
import pytest

ray = pytest.importorskip("ray")
import warren.ray  # noqa: E402  (after the skip)
from ray.data.datasource import ReadTask  # noqa: E402

SMALL = ["maze.width=8", "maze.height=8"]


def test_read_levels_equals_the_cli_archive(local_ray, warren_bin, tmp_path):
    out = tmp_path / "mazes.arrow"
    count = 100_000
    subprocess.run(
        [warren_bin, "generate", "maze", "--count", str(count), "--seed", "5", "--quiet", "--out", str(out)],
        check=True,
    )
    with pa.memory_map(str(out)) as source:
        cli = pa.ipc.open_file(source).read_all()
    ds = warren.ray.read_levels("maze", count, seed=5, blocks=8)
    assert ds.count() == count
    ours = pa.concat_tables(ray.get(ds.to_arrow_refs()))
    ours = ours.sort_by("index")
    assert ours.num_rows == count
    for name in cli.column_names:
        assert ours.column(name).equals(cli.column(name)), name


def test_a_profile_file_and_overrides_reach_the_workers(local_ray, tmp_path):
    profile = tmp_path / "tiny.toml"
    profile.write_text('kind = "maze"\n[maze]\nwidth = 6\nheight = 5\n')
    ds = warren.ray.read_levels(profile, 500, seed=2, blocks=3, set={"maze.braid": 1.0})
    ours = pa.concat_tables(ray.get(ds.to_arrow_refs())).sort_by("index")
    local = warren.generate(profile, 500, seed=2, set={"maze.braid": 1.0})
    assert ours.column("layout_hash").equals(local.column("layout_hash"))
    assert warren.grids(local).shape == (500, 11, 13)


def _failing_once(folder, failing):
    """A WarrenDatasource whose read tasks numbered in ``failing`` raise on their first attempt
    only: the attempt that creates the marker file ``folder/failed-<i>`` (in one folder for all of
    Ray's worker processes) raises, later ones generate. Defined here, not at module level, so
    that Ray's workers get it by value (they cannot import this test module)."""

    def fail_once(read, i):
        def attempt():
            try:
                os.close(os.open(os.path.join(folder, f"failed-{i}"), os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                return read()
            raise RuntimeError(f"injected failure of read task {i}")

        return attempt

    class FailingOnce(warren.ray.WarrenDatasource):
        def get_read_tasks(self, parallelism, **kwargs):
            tasks = super().get_read_tasks(parallelism, **kwargs)
            return [ReadTask(fail_once(t.read_fn, i), t.metadata) if i in failing else t for i, t in enumerate(tasks)]

    return FailingOnce


def test_failed_read_tasks_are_retried_with_the_same_rows(local_ray, tmp_path, monkeypatch, recwarn):
    monkeypatch.setattr(warren.ray, "WarrenDatasource", _failing_once(str(tmp_path), {0, 2}))
    ds = warren.ray.read_levels("maze", 600, seed=3, blocks=4, set=SMALL)
    ours = pa.concat_tables(ray.get(ds.to_arrow_refs())).sort_by("index")
    assert sorted(os.listdir(tmp_path)) == ["failed-0", "failed-2"]  # the failures happened
    local = warren.generate("maze", 600, seed=3, set=SMALL)
    assert ours.num_rows == 600
    for name in local.column_names:
        assert ours.column(name).equals(local.column(name)), name
    assert ours.equals(local)
    assert not [w for w in recwarn if "ray_remote_args" in str(w.message)]


def test_without_retries_an_injected_failure_fails_the_dataset(local_ray, tmp_path, monkeypatch):
    monkeypatch.setattr(warren.ray, "WarrenDatasource", _failing_once(str(tmp_path), {1}))
    with pytest.raises(Exception, match="injected failure of read task 1"):
        ds = warren.ray.read_levels(
            "maze", 600, seed=3, blocks=4, set=SMALL, ray_remote_args={"retry_exceptions": False}
        )
        ray.get(ds.to_arrow_refs())
    assert os.listdir(tmp_path) == ["failed-1"]


def test_bad_input_fails_on_the_driver():
    with pytest.raises(ValueError, match="unknown key"):
        warren.ray.WarrenDatasource("maze", 10, set={"maze.nope": 1})
    with pytest.raises(ValueError, match="blocks"):
        warren.ray.WarrenDatasource("maze", 10, blocks=0)
