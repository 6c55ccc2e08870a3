"""Read a warren archive from Python, memory-mapped (no copy of the level data).

    python3 scripts/read_archive.py mazes.arrow

Prints the level count, the generator, the mean of every metric column, and the first level's
grid as text (for grid generators).
"""
import json
import sys

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

path = sys.argv[1] if len(sys.argv) > 1 else "mazes.arrow"
with pa.memory_map(path, "r") as source:
    table = pa.ipc.open_file(source).read_all()  # zero-copy: buffers point into the mapping
meta = {k.decode(): v.decode() for k, v in table.schema.metadata.items()}
print(f"{table.num_rows} levels from {meta['warren.generator']} (master seed {meta['warren.master_seed']})")
for field in table.schema:
    if field.metadata and b"warren.doc" in field.metadata:
        print(f"  {field.name:<24} mean {pc.mean(table[field.name]).as_py():10.3f}")
if "grid" in table.column_names and table.num_rows:
    w, h = table["grid_width"][0].as_py(), table["grid_height"][0].as_py()
    column = table["grid"].combine_chunks()
    if isinstance(column.type, pa.FixedShapeTensorType):   # one size: an (N, H, W) tensor
        grid = column.to_numpy_ndarray()[0]
    else:                                                  # sizes vary: one binary row each
        grid = np.frombuffer(column[0].as_py(), dtype=np.uint8).reshape(h, w)
    legend = json.loads(meta["warren.cell_codes"])
    chars = {0: "#", 1: " ", 8: "."}
    print(f"level 0 ({w}x{h}, legend {legend['0']}/{legend['1']}):")
    print("\n".join("".join(chars.get(int(c), "?") for c in row) for row in grid))
