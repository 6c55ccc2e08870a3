"""Ray Data on a local Ray instance: read_levels equals the command line's archive row for row."""

import subprocess

import pyarrow as pa
import pytest

ray = pytest.importorskip("ray")
import warren.ray  # noqa: E402  (after the skip)


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    yield
    ray.shutdown()


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


def test_bad_input_fails_on_the_driver():
    with pytest.raises(ValueError, match="unknown key"):
        warren.ray.WarrenDatasource("maze", 10, set={"maze.nope": 1})
    with pytest.raises(ValueError, match="blocks"):
        warren.ray.WarrenDatasource("maze", 10, blocks=0)
