"""The package and the command line name the same build: version and commit (their CPU features
may differ: the wheel is built for baseline x86-64, `cargo build` for `.cargo/config.toml`'s
x86-64-v3)."""

import re
import subprocess

import warren

# "warren 0.2.0 (commit 0123456789ab, x86_64 sse4.2 popcnt avx avx2 fma bmi2)"; the commit may
# be "unknown" and the features "baseline".
BUILD = r"commit ([0-9a-f]{12}|unknown), \w+ [\w. ]+"


def test_the_package_and_the_command_line_name_the_same_build(warren_bin):
    line = subprocess.run([warren_bin, "--version"], capture_output=True, text=True,
                          check=True).stdout.strip()
    assert re.fullmatch(BUILD, warren.__build__), warren.__build__
    binary = re.fullmatch(r"warren (\S+) \((" + BUILD + r")\)", line)
    assert binary, line
    commit = warren.__build__.split(",")[0]
    assert (binary.group(1), binary.group(2).split(",")[0]) == (warren.__version__, commit), (
        f"the package ({warren.__version__}, {warren.__build__}) and the binary ({line}) are "
        "different builds (another commit?): reinstall the package (pip install ./python) or "
        "rebuild the binary")
