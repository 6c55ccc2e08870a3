"""The Python package against the command line: same levels for every kind, zero copy, bounded
memory, errors as exceptions, Ctrl-C, forks, and verify."""

import json
import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pyarrow as pa
import pytest

import warren


def cli_table(warren_bin, tmp_path, *args):
    out = tmp_path / "cli.arrow"
    subprocess.run(
        [warren_bin, "generate", *args, "--quiet", "--out", str(out)], check=True
    )
    with pa.memory_map(str(out)) as source:
        return pa.ipc.open_file(source).read_all()


def test_kinds_and_default_profiles():
    assert warren.kinds() == ["maze", "grammar", "dmg", "regions", "coloring", "map", "task"]
    for kind in warren.kinds():
        assert f'kind = "{kind}"' in warren.default_profile(kind)
    with pytest.raises(ValueError, match="unknown generator kind or profile file `nope`"):
        warren.default_profile("nope")


def test_kind_facts_are_the_engine_registry_and_the_command_line_lists_them(warren_bin):
    facts = warren.kind_facts()
    assert [f["name"] for f in facts] == warren.kinds()
    # A task's levels are grids or graphs by its task: the kind promises no grid.
    assert {f["name"] for f in facts if not f["grid"]} == {"coloring", "task"}
    assert all(f["doc"] and f["card"] and f["allocations"] >= 0 for f in facts)
    out = subprocess.run([warren_bin, "kinds", "--json"], check=True, capture_output=True, text=True)
    assert [json.loads(line) for line in out.stdout.splitlines()] == facts
    names = subprocess.run([warren_bin, "kinds", "--names"], check=True, capture_output=True, text=True)
    assert names.stdout.split() == warren.kinds()


@pytest.mark.parametrize("kind", warren.kinds())
def test_every_kind_equals_the_command_line(warren_bin, tmp_path, kind):
    # Small runs: the slow kinds (graph-grammar, regions) make fewer levels.
    count = {"maze": 300, "dmg": 60, "coloring": 60}.get(kind, 30 if kind == "regions" else 40)
    ours = warren.generate(kind, count, seed=11, chunk_size=16)
    theirs = cli_table(warren_bin, tmp_path, kind, "--count", str(count), "--seed", "11")
    # Every column and the schema with its metadata (profile, seed, shard record, legends).
    assert ours.schema.equals(theirs.schema, check_metadata=True)
    assert ours.equals(theirs)
    assert ours.column("layout_hash").equals(theirs.column("layout_hash"))


def test_sets_and_profile_files_and_start(warren_bin, tmp_path):
    profile = tmp_path / "small.toml"
    profile.write_text('kind = "maze"\n[maze]\nwidth = 12\nheight = 9\n')
    ours = warren.generate(profile, 50, seed=2, set={"maze.braid": 0.5, "maze.merge_dead_ends": False})
    theirs = cli_table(
        warren_bin, tmp_path, str(profile), "--count", "50", "--seed", "2",
        "--set", "maze.braid=0.5", "--set", "maze.merge_dead_ends=false",
    )
    assert ours.equals(theirs)
    assert warren.grids(ours).shape == (50, 19, 25)
    # A part of the run from index 20: the same levels as rows 20.. of the whole run.
    part = warren.generate(profile, 30, seed=2, start=20, set=["maze.braid=0.5", "maze.merge_dead_ends=false"])
    assert part.column("index").to_pylist() == list(range(20, 50))
    assert part.drop_columns([]).equals(ours.slice(20).replace_schema_metadata(part.schema.metadata))
    assert b"warren.shard" not in part.schema.metadata


def test_metadata_is_json_and_older_formats_are_refused():
    table = warren.generate("maze", 30, seed=1, set={"maze.width": 8})
    meta = table.schema.metadata
    assert meta[b"warren.format"] == b"3"
    shard = {"index": 0, "count": 1, "total": 30, "start": 0, "end": 30}
    assert json.loads(meta[b"warren.shard"]) == shard
    assert json.loads(meta[b"warren.cell_codes"])["8"] == "void"
    # The layout of warren 0.2: no format number, a prose shard record.
    old = {k: v for k, v in meta.items() if k != b"warren.format"}
    old.update({b"warren.version": b"0.2.0", b"warren.shard": b"0/1 of 30 levels: 0..30"})
    too_old = r"archive format 0\.2 \(warren 0\.2\.0\) is older than this warren reads \(3\)"
    with pytest.raises(ValueError, match=too_old):
        warren.verify(table.replace_schema_metadata(old))


def test_tables_use_the_engines_buffers_without_copying():
    before = pa.total_allocated_bytes()
    table = warren.generate("maze", 4000, seed=5)
    # Imported buffers are not allocated from pyarrow's pool: a copy would show here.
    assert pa.total_allocated_bytes() - before < 0.01 * table.nbytes
    batch = table.to_batches()[0]
    grid = warren.grids(batch)
    assert grid.shape == (batch.num_rows, 65, 65) and grid.dtype == np.uint8
    # Mazes of one size store the grid as Arrow's fixed-shape tensor: the array views its
    # flat child buffer.
    column = batch.column("grid")
    assert isinstance(column.type, pa.FixedShapeTensorType), column.type
    values = column.storage.flatten()
    assert grid.ctypes.data == values.buffers()[1].address + values.offset
    assert not grid.flags.owndata
    np.testing.assert_array_equal(grid, column.to_numpy_ndarray())


def test_grids_refuses_levels_of_several_sizes_or_none():
    # Grammar tile maps vary in size (a binary grid column); mazes of one size are a tensor.
    mixed = warren.generate("grammar", 4)
    assert len(set(mixed.column("grid_width").to_pylist())) > 1
    with pytest.raises(ValueError, match="grids of [0-9]+ sizes"):
        warren.grids(mixed)
    with pytest.raises(ValueError, match="no grid column"):
        warren.grids(warren.generate("maze", 2, set={"maze.topology": "delaunay"}))
    one = mixed.slice(0, 1)
    w, h = one.column("grid_width")[0].as_py(), one.column("grid_height")[0].as_py()
    assert warren.grids(one).shape == (1, h, w)
    small = warren.generate("maze", 3, set={"maze.width": 8, "maze.height": 8})
    assert warren.grids(small).shape == (3, 17, 17)


def test_batches_are_in_index_order_and_bounded(warren_bin):
    run = warren.batches("maze", 10_000, seed=1, chunk_size=1000)
    seen = 0
    for batch in run:
        assert batch.column("index")[0].as_py() == seen
        seen += batch.num_rows
    assert seen == 10_000
    assert run.summary == {"levels": 10_000, "failures": 0, "reasons": {}}


def test_memory_stays_flat_over_many_levels():
    # A child process, its peak RSS window restarted after start-up (Linux keeps `ru_maxrss`
    # across exec, so a large parent would show through it; VmHWM after a reset does not).
    code = textwrap.dedent(
        """
        import warren
        open("/proc/self/clear_refs", "w").write("5")
        n = 0
        for b in warren.batches("maze", 200_000, seed=3):
            n += b.num_rows
        status = open("/proc/self/status").read()
        peak_kb = int(status.split("VmHWM:")[1].split()[0])
        print(n, peak_kb // 1024)
        """
    )
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    levels, peak_mb = map(int, out.stdout.split())
    assert levels == 200_000
    assert peak_mb < 300, f"peak RSS {peak_mb} MB"


def test_bad_arguments_raise_python_exceptions(tmp_path):
    with pytest.raises(ValueError, match="unknown generator kind"):
        warren.generate("nope", 1)
    with pytest.raises(ValueError, match="maze.width"):
        warren.generate("maze", 1, set={"maze.width": 0})
    with pytest.raises(ValueError, match="unknown key `maze.colour`"):
        warren.generate("maze", 1, set={"maze.colour": 1})
    with pytest.raises(ValueError, match="expected key=value"):
        warren.generate("maze", 1, set=["maze.width"])
    with pytest.raises(ValueError, match="count = -1"):
        warren.generate("maze", -1)
    with pytest.raises(TypeError):
        warren.generate("maze", "ten")
    bad = tmp_path / "bad.toml"
    bad.write_text('kind = "maze"\n[maze]\nwidth = "wide"\n')
    with pytest.raises(ValueError, match=r"bad.toml.*line 3|bad.toml:3"):
        warren.generate(bad, 1)
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    with pytest.raises(OSError, match="cannot read"):
        warren.generate(folder, 1)


def test_ctrl_c_stops_a_run_cleanly():
    code = textwrap.dedent(
        """
        import signal, sys, warren
        # A process started in the background by a non-interactive shell inherits SIGINT
        # ignored (and Python then installs no handler): what Ctrl-C does is asked here.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        print("started", flush=True)
        try:
            for b in warren.batches("dmg", 50_000_000, threads=2):
                pass
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
        """
    )
    # faulthandler: should the child not stop, SIGABRT makes it print where its threads are.
    child = subprocess.Popen(
        [sys.executable, "-X", "faulthandler", "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert child.stdout.readline().strip() == "started"
    time.sleep(1.0)
    child.send_signal(signal.SIGINT)
    try:
        out, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        child.send_signal(signal.SIGABRT)
        out, err = child.communicate(timeout=30)
        pytest.fail(f"the run did not stop within 30 s of Ctrl-C; its Python stacks:\n{err}")
    assert "interrupted" in out, err
    assert child.returncode == 3, err


def _child_generates(queue):
    queue.put(warren.generate("maze", 200, seed=4).column("layout_hash").to_pylist())


def test_a_process_forked_after_a_run_can_run_again():
    first = warren.generate("maze", 200, seed=4).column("layout_hash").to_pylist()
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_child_generates, args=(queue,))
    child.start()
    hashes = queue.get(timeout=60)
    child.join(timeout=60)
    assert child.exitcode == 0
    assert hashes == first


def test_verify_passes_made_levels_and_catches_edited_ones():
    table = warren.generate("dmg", 40, seed=9)
    assert warren.verify(table) == {"levels": 40, "violations": 0, "shown": []}
    metrics = table.column("dead_ends").to_numpy().copy()
    metrics[3] += 1
    edited = table.set_column(
        table.schema.get_field_index("dead_ends"),
        table.schema.field("dead_ends"),
        pa.array(metrics, pa.uint32()),
    )
    report = warren.verify(edited)
    assert report["violations"] >= 1
    assert report["shown"][0].startswith("level 3:")
    with pytest.raises(ValueError, match="not made by warren"):
        warren.verify(pa.table({"x": [1, 2]}))
