#!/usr/bin/env bash
# Regenerates the map of the house in docs/ARCHITECTURE.md (the layers as a Mermaid drawing of
# the top-level modules and their imports, and one line per module from its `//!` overview),
# computed from the source by the layering test; the same test fails while it is out of date.
#
#   scripts/module_graph.sh
set -euo pipefail
cd "$(dirname "$0")/.."
WARREN_WRITE_MODULE_MAP=1 cargo test --quiet --test tests \
    layering::the_architecture_chapter_draws_the_modules_as_they_are
echo "docs/ARCHITECTURE.md: module map written"
