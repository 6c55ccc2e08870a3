#!/usr/bin/env bash
# The README's quick start from the wheel, where no Rust exists: a fresh virtual environment,
# a PATH with neither cargo nor rustc (checked: the script fails if either is reachable), the
# wheel installed with pip, then the README's "Without Rust" shell block and its Python reading
# block run as written, the level count scaled to $WARREN_QUICKSTART_COUNT (default 1000).
#
# Usage: scripts/wheel_quickstart.sh target/wheels/warren-*.whl
set -euo pipefail
wheel=$(realpath "$1")
root=$(cd "$(dirname "$0")/.." && pwd)
count=${WARREN_QUICKSTART_COUNT:-1000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/venv"
# Only the venv and the system's own directories: no ~/.cargo/bin, no rustup.
export PATH="$work/venv/bin:/usr/local/bin:/usr/bin:/bin"
if command -v cargo >/dev/null || command -v rustc >/dev/null; then
    echo "wheel_quickstart: cargo or rustc is still on the PATH ($(command -v cargo rustc))" >&2
    exit 1
fi

# The README's blocks: the shell block after the "Without Rust" heading, and the Python block
# after "Reading an archive from Python" (each its first fenced block; the shell block is marked
# not-run for the docs test, which leaves it to this script).
block() { # heading, language
    awk -v h="$1" -v lang="$2" '
        index($0, h) == 1 { found = 1; next }
        found && !inside && ($0 == "```" lang || index($0, "```" lang " ") == 1) { inside = 1; next }
        inside && $0 == "```" { exit }
        inside { print }' "$root/README.md"
}
shell=$(block "### Without Rust: the wheel" "sh")
python=$(block "## Reading an archive from Python" "python")
[ -n "$shell" ] && [ -n "$python" ] || { echo "wheel_quickstart: README blocks not found" >&2; exit 1; }
# The wheel's file name is this build's; the count is scaled down.
shell=${shell//warren-0.2.0-cp39-abi3-manylinux_2_35_x86_64.whl/$wheel}
shell=${shell//--count 100000/--count $count}

cd "$work"
echo "+ $shell" | sed 's/^/  /'
bash -euo pipefail -c "$shell"
echo "$python" | python -
python -c "import warren; print('warren', warren.__version__, '(' + warren.__build__ + ')')"
echo "wheel_quickstart: the quick start ran from $(basename "$wheel") without cargo or rustc"
