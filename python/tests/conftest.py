"""Shared fixtures: the `warren` command-line binary the package is compared with, and a local
Ray cluster."""

import os
import pathlib
import shutil

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def warren_bin() -> str:
    """The CLI: $WARREN_BIN (set by `cargo test`), else a build in target/, else the PATH."""
    candidates = [
        os.environ.get("WARREN_BIN"),
        ROOT / "target" / "release" / "warren",
        ROOT / "target" / "debug" / "warren",
        shutil.which("warren"),
    ]
    for c in candidates:
        if c and pathlib.Path(c).is_file():
            return str(c)
    pytest.skip("no warren binary: build it (cargo build) or set WARREN_BIN")


@pytest.fixture(scope="session")
def local_ray():
    """A two-CPU local Ray cluster, started once for every test that reads through Ray (its
    start takes seconds)."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    yield
    ray.shutdown()
