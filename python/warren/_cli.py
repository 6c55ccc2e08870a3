"""The ``warren`` command of an installed wheel: the same Rust command line as ``cargo install``
gives, run inside this Python process (``warren generate maze --count 1000 --out m.arrow``)."""

import signal
import sys

from . import _native


def main() -> None:
    """Run ``warren`` with this process's arguments and exit with its status."""
    # Python's own SIGINT handler would only set a flag the Rust code never reads: give Ctrl-C
    # back its default, ending the process as it ends the native binary (a generate run leaves
    # its FILE.tmp, as there).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    sys.exit(_native.cli(["warren", *sys.argv[1:]]))


if __name__ == "__main__":
    main()
