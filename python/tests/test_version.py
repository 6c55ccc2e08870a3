"""The package and the command line name the same build: version, commit and CPU features."""

import re
import subprocess

import warren


def test_the_package_and_the_command_line_name_the_same_build(warren_bin):
    line = subprocess.run([warren_bin, "--version"], capture_output=True, text=True,
                          check=True).stdout.strip()
    assert line == f"warren {warren.__version__} ({warren.__build__})", (
        "the package and the binary are different builds (another commit?): "
        "reinstall the package (pip install ./python) or rebuild the binary")
    # "commit 0123456789ab, x86_64 sse4.2 popcnt avx avx2 fma bmi2" (or "unknown", "baseline")
    assert re.fullmatch(r"commit ([0-9a-f]{12}|unknown), \w+ [\w. ]+", warren.__build__), \
        warren.__build__
