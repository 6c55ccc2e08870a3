"""The ``warren`` command a wheel installs: the Rust command line run in the Python process,
returning its exit status (never exiting the interpreter on a usage error)."""

import subprocess
import sys

import pyarrow as pa

import warren
from warren import _native


def test_statuses_come_back_instead_of_exiting_the_interpreter(capsys):
    assert _native.cli(["warren", "--version"]) == 0
    assert _native.cli(["warren", "no-such-command"]) == 2
    assert _native.cli(["warren", "verify", "/no/such/file.arrow"]) == 2
    # Still here: the interpreter was not exited by clap or by the error.
    assert warren.__version__


def test_the_console_entry_point_generates_and_verifies(tmp_path, warren_bin):
    out = tmp_path / "m.arrow"
    run = [sys.executable, "-m", "warren._cli"]
    gen = subprocess.run([*run, "generate", "maze", "--count", "50", "--quiet", "--out", str(out)],
                         capture_output=True, text=True)
    assert gen.returncode == 0, gen.stderr
    table = pa.ipc.open_file(pa.memory_map(str(out))).read_all()
    assert table.num_rows == 50
    # The same levels as the native binary writes for the same command.
    native = tmp_path / "n.arrow"
    subprocess.run([warren_bin, "generate", "maze", "--count", "50", "--quiet", "--out",
                    str(native)], check=True)
    other = pa.ipc.open_file(pa.memory_map(str(native))).read_all()
    assert table.column("layout_hash").equals(other.column("layout_hash"))
    bad = subprocess.run([*run, "verify", str(tmp_path / "missing.arrow")], capture_output=True,
                         text=True)
    assert bad.returncode == 2 and "missing.arrow" in bad.stderr
