"""Reasoning tasks from Python: warren.tasks, warren.score, warren.reasoning_gym, warren.verl and
the task kind as levels (warren.generate, warren.ray).

The reasoning-gym tests skip without reasoning-gym (pip install reasoning-gym==0.1.19), the Ray
test without Ray. graph-color and coloring-puzzle are covered by name and run once the engine
makes their items."""

import collections
import importlib.util
import json
import time

import pyarrow as pa
import pytest

import warren
import warren.tasks
import warren.verl

ALL_TASKS = ["maze-steps", "maze-path", "grid-steps", "graph-color", "coloring-puzzle"]

#: Small specs per task, quick to make.
SPECS = {
    "maze-steps": {},
    "maze-path": {"infeasible_share": 0.2},
    "grid-steps": {"source": "dmg", "dmg": {"width": 30, "height": 30}},
    "graph-color": {},
    "coloring-puzzle": {},
}

#: reasoning-gym's name of each task.
RG_NAMES = {t: "warren_" + t.replace("-", "_") for t in ALL_TASKS}


def makes_items(task):
    """Whether the engine makes items of `task` (graph-color and coloring-puzzle arrive later)."""
    return not warren.tasks.block(task, 2, seed=1, **SPECS[task])["failed"]


def needs_items(task):
    if not makes_items(task):
        pytest.skip(f"{task} makes no items in this build yet")


@pytest.fixture(scope="module")
def rg():
    rg = pytest.importorskip("reasoning_gym")
    import warren.reasoning_gym  # noqa: F401  (registers the datasets)

    return rg


def test_task_names_are_the_engine_s():
    assert warren.tasks.names() == ALL_TASKS
    assert warren.tasks.task_name("warren_maze_steps") == "maze-steps"
    with pytest.raises(ValueError, match="not one of"):
        warren.tasks.task_name("maze")


@pytest.mark.parametrize("task", ALL_TASKS)
def test_items_are_deterministic_and_equal_across_thread_counts(task):
    needs_items(task)
    count = 600
    one = warren.tasks.block(task, count, seed=11, threads=1, **SPECS[task])
    assert one["failed"] == []
    assert one["index"] == list(range(count))
    for threads in (1, 2, 3, 0):
        assert warren.tasks.block(task, count, seed=11, threads=threads, **SPECS[task]) == one, threads
    # A block from the middle is the same items: item i depends on (seed, i) alone.
    part = warren.tasks.block(task, 20, seed=11, start=count - 30, **SPECS[task])
    assert part["question"] == one["question"][count - 30 : count - 10]
    assert part["ground_truth"] == one["ground_truth"][count - 30 : count - 10]
    other_seed = warren.tasks.block(task, count, seed=12, **SPECS[task])
    assert other_seed["question"] != one["question"]


@pytest.mark.parametrize("task", ["maze-steps", "maze-path"])
def test_splits_of_one_seed_share_no_puzzle(task):
    # maze-path's ground truth is the puzzle itself (grid, start, goal); maze-steps' question
    # shows it. Reasoning-gym's small default spec, where puzzles repeat within a split.
    key = "ground_truth" if task == "maze-path" else "question"
    seen = {}
    for split in warren.tasks.SPLITS:
        seen[split] = set(warren.tasks.block(task, 4000, seed=1, split=split)[key])
    assert not seen["train"] & seen["validation"]
    assert not seen["train"] & seen["test"]
    assert not seen["validation"] & seen["test"]


def test_seeds_1_and_2_share_no_item_where_the_item_space_is_large():
    spec = {"min_rows": 15, "max_rows": 25, "min_cols": 15, "max_cols": 25, "min_dist": 10, "max_dist": 30}
    one = warren.tasks.block("maze-path", 2000, seed=1, **spec)
    two = warren.tasks.block("maze-path", 2000, seed=2, **spec)
    assert not set(one["ground_truth"]) & set(two["ground_truth"])
    assert not set(one["question"]) & set(two["question"])


def test_the_task_kind_as_levels_equals_the_items(tmp_path):
    spec = {"max_dist": 14, "renderings": ["ascii", "coords", "tokens"], "infeasible_share": 0.1}
    profile = tmp_path / "task.toml"
    profile.write_text(warren.tasks.profile_toml("maze-path", **spec))
    table = warren.generate(profile, 300, seed=9)
    block = warren.tasks.block("maze-path", 300, seed=9, **spec)
    for column in ("index", "question", "answer", "ground_truth"):
        assert table.column(column).to_pylist() == block[column], column
    for name, values in block["metrics"].items():
        assert table.column(name).to_pylist() == values, name


# --- answers checked by solvers of our own -------------------------------------------------


def bfs(open_cells, rows, cols, start, goal):
    """Steps of a shortest 4-neighbour path over `open_cells` (a set of (r, c)), or None."""
    dist = {start: 0}
    queue = collections.deque([start])
    while queue:
        r, c = queue.popleft()
        if (r, c) == goal:
            return dist[(r, c)]
        for n in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if n in open_cells and n not in dist:
                dist[n] = dist[(r, c)] + 1
                queue.append(n)
    return None


def parse_ascii(question):
    """The grid of an ascii rendering, from its legend line and rows of glyphs."""
    lines = question.split("\n")
    legend = next(line for line in lines if line.startswith("Legend: "))
    glyph = {}
    for part in legend[len("Legend: ") :].split(", "):
        g, _, what = part.partition(" = ")
        glyph[what] = g.strip("'")
    width = None
    grid = []
    for line in lines[lines.index(legend) + 1 :]:
        if line and set(line) <= set(glyph.values()) and (width is None or len(line) == width):
            width = len(line)
            grid.append(line)
        elif grid:
            break
    cells = {(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch != glyph["wall"]}
    find = lambda g: next((r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == g)  # noqa: E731
    return cells, len(grid), width, find(glyph["start"]), find(glyph["goal"])


def path_truth(ground_truth):
    t = json.loads(ground_truth)
    rows, cols = t["rows"], t["cols"]
    bits = bin(int(t["open"], 16))[2:].zfill(len(t["open"]) * 4)
    cells = {(i // cols, i % cols) for i in range(rows * cols) if bits[i] == "1"}
    return t, cells


def walk(cells, start, moves):
    delta = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}
    r, c = start
    for m in moves:
        r, c = r + delta[m][0], c + delta[m][1]
        if (r, c) not in cells:
            return None
    return (r, c)


def test_maze_steps_answers_equal_our_own_bfs():
    block = warren.tasks.block("maze-steps", 3000, seed=4, min_dist=3, max_dist=40, max_rows=21, max_cols=21)
    for question, answer, distance in zip(block["question"], block["answer"], block["metrics"]["distance"]):
        cells, rows, cols, start, goal = parse_ascii(question)
        assert bfs(cells, rows, cols, start, goal) == int(answer) == distance


def test_maze_path_answers_are_shortest_paths_by_our_own_bfs():
    block = warren.tasks.block("maze-path", 3000, seed=4, infeasible_share=0.3, braid=0.5)
    infeasible = 0
    for answer, truth in zip(block["answer"], block["ground_truth"]):
        t, cells = path_truth(truth)
        start, goal = tuple(t["start"]), tuple(t["goal"])
        shortest = bfs(cells, t["rows"], t["cols"], start, goal)
        if answer == "infeasible":
            infeasible += 1
            assert shortest is None and t["steps"] is None
        else:
            moves = answer.split()
            assert walk(cells, start, moves) == goal
            assert len(moves) == shortest == t["steps"]
    assert infeasible == 900, "exactly the share asked"


def colourable(n, edges, k):
    """Whether the graph on 0..n with `edges` has a proper k-colouring: exact backtracking,
    highest degree first, a new colour tried once (symmetry)."""
    adjacent = [set() for _ in range(n)]
    for a, b in edges:
        adjacent[a].add(b)
        adjacent[b].add(a)
    order = sorted(range(n), key=lambda v: -len(adjacent[v]))
    colour = {}

    def place(i):
        if i == n:
            return True
        v = order[i]
        used = {colour[u] for u in adjacent[v] if u in colour}
        for c in range(min(k, max(colour.values(), default=-1) + 2)):
            if c not in used:
                colour[v] = c
                if place(i + 1):
                    return True
                del colour[v]
        return False

    return place(0)


def test_graph_color_answers_are_proper_and_k_is_the_chromatic_number_by_our_own_search():
    needs_items("graph-color")
    items = warren.tasks.items("graph-color", 300, seed=4, min_vertices=8, max_vertices=16, colors=4)
    for item in items:
        t = json.loads(item["metadata"]["ground_truth"])
        n, k, edges = t["n"], t["k"], [tuple(e) for e in t["edges"]]
        colouring = {int(v): c for v, c in json.loads(item["answer"]).items()}
        assert sorted(colouring) == list(range(n))
        assert set(colouring.values()) <= set(range(1, k + 1))
        assert all(colouring[a] != colouring[b] for a, b in edges)
        assert k == item["metadata"]["colors"] == 4
        assert not colourable(n, edges, k - 1), "k - 1 colours must not suffice"


def test_answers_are_uniform_over_the_band_so_no_answer_passes_5_percent():
    # 40 values: 2.5% each expected. (A band of n values gives 1/n each: 5% needs 20 or more.)
    block = warren.tasks.block("maze-steps", 20_000, seed=5, min_dist=5, max_dist=44, max_rows=31, max_cols=31)
    counts = collections.Counter(block["answer"])
    assert sorted(int(a) for a in counts) == list(range(5, 45))
    assert max(counts.values()) / 20_000 <= 0.05
    assert min(counts.values()) / 20_000 >= 0.015


# --- scoring ---------------------------------------------------------------------------------


@pytest.mark.parametrize("task", ALL_TASKS)
def test_every_oracle_answer_scores_one_and_wrong_answers_less(task):
    needs_items(task)
    count = 20_000 if task in ("maze-steps", "maze-path") else 500
    items = warren.tasks.items(task, count, seed=3, **SPECS[task])
    answers = [i["answer"] for i in items]
    assert warren.score(task, answers, items) == [1.0] * count
    assert warren.score(None, answers, [i["metadata"]["ground_truth"] for i in items]) == [1.0] * count
    # verl's reward_model dicts and rows hold the same ground truth.
    assert warren.score(task, answers[:50], [{"ground_truth": i["metadata"]["ground_truth"]} for i in items[:50]]) == [1.0] * 50
    for wrong in (["", "banana"], [a[: len(a) // 2] for a in answers[:2]]):
        assert all(s < 1 for s in warren.score(task, wrong, items[:2]))
    # Another task's scorer does not accept the item.
    other = next(t for t in ALL_TASKS if t != task)
    assert warren.score(other, answers[:10], items[:10]) == [0.0] * 10


def test_wrong_grid_answers_score_below_one():
    steps = warren.tasks.items("maze-steps", 200, seed=6)
    assert warren.score("maze-steps", [str(int(i["answer"]) + 1) for i in steps], steps) == [0.0] * 200
    assert warren.score("maze-steps", [" " + i["answer"] + ".\n" for i in steps], steps) == [1.0] * 200
    paths = warren.tasks.items("maze-path", 200, seed=6)
    feasible = [i for i in paths if i["answer"] != "infeasible"]
    flip = {"up": "down", "down": "up", "left": "right", "right": "left"}
    # The way back from the goal, walked from the start: it ends at neither.
    back = [" ".join(flip[m] for m in reversed(i["answer"].split())) for i in feasible]
    assert warren.score("maze-path", back, feasible) == [0.0] * len(feasible)
    assert warren.score("maze-path", ["infeasible"] * len(feasible), feasible) == [0.0] * len(feasible)
    # A detour that still reaches the goal: half marks, as reasoning-gym's shortest_path.
    detour = []
    for i in feasible:
        first = i["answer"].split()[0]
        detour.append(f"{first} {flip[first]} {i['answer']}")
    assert warren.score("maze-path", detour, feasible) == [0.5] * len(feasible)


HOSTILE = [
    None,
    0,
    5,
    -1,
    3.0,
    float("nan"),
    True,
    b"5",
    bytearray(b"5"),
    ["5"],
    {"answer": "5"},
    object(),
    "",
    "\x00",
    "5\x00",
    "\ud800",
    "５",
    "٥",
    "5️⃣",
    "🙂" * 1000,
    "right" * 200_000,
    "9" * (10 << 20),
    " " * (10 << 20),
    "[" * 100_000 + "]" * 100_000,
    json.dumps({"a": [[[[{"b": [1, 2, {"c": "5"}]}]]]]}),
    '{"0": 1, "1": 2}' * 10_000,
    "up down left right " * 10_000,
    "infeasible " * 1000,
]


@pytest.mark.parametrize("task", ALL_TASKS)
def test_hostile_answers_score_zero_without_exceptions(task):
    needs_items(task)
    item = warren.tasks.items(task, 1, seed=8, **SPECS[task])[0]
    t0 = time.perf_counter()
    scores = warren.score(task, HOSTILE, [item] * len(HOSTILE))
    assert time.perf_counter() - t0 < 5, "bounded time"
    assert len(scores) == len(HOSTILE)
    assert all(0.0 <= s <= 1.0 for s in scores)
    # None of them is the oracle answer: all score 0 (or a shortest-path scorer's 0.5 at most for
    # a path that happens to reach the goal, which these do not).
    assert scores == [0.0] * len(HOSTILE), [(repr(a)[:30], s) for a, s in zip(HOSTILE, scores) if s]
    assert warren.verl.compute_score("warren", HOSTILE[-5], item["metadata"]["ground_truth"]) == 0.0


def test_score_refuses_what_is_not_an_answer_list():
    items = warren.tasks.items("maze-steps", 2)
    with pytest.raises(ValueError, match="2 answers for 1 entries"):
        warren.score("maze-steps", ["1", "2"], items[:1])
    with pytest.raises(ValueError, match="one string"):
        warren.score("maze-steps", "5", items)
    with pytest.raises(ValueError, match="not one of"):
        warren.score("maze", ["5"], items[:1])
    with pytest.raises(ValueError, match=r"entries\[1\]"):
        warren.score("maze-steps", ["5", "5"], [items[0], {"metadata": {}}])
    # A ground truth that is not JSON is no item: 0, not an exception.
    assert warren.score("maze-steps", ["5"], ["not json"]) == [0.0]
    assert warren.score("maze-steps", (a for a in ["5"]), [items[0]]) in ([0.0], [1.0])


# --- bad specs ---------------------------------------------------------------------------------


BAD_SPECS = [
    ("maze-steps", {"min_dist": 12, "max_dist": 10}, "task.min_dist = 12 is above task.max_dist = 10"),
    ("maze-steps", {"max_rows": 5, "max_cols": 5, "min_dist": 10}, "task.min_dist = 10 cannot be held"),
    ("maze-path", {"infeasible_share": 1.0}, "task.infeasible_share"),
    ("maze-steps", {"infeasible_share": 0.5}, "task.infeasible_share"),
    ("maze-steps", {"renderings": []}, "task.renderings"),
    ("maze-steps", {"algorithms": ["nope"]}, "nope"),
    ("maze-steps", {"min_dst": 3}, "min_dst"),
    ("graph-color", {"colors": 12}, "task.colors = 12"),
    ("graph-color", {"min_vertices": 12, "max_vertices": 10}, "task.min_vertices"),
]


@pytest.mark.parametrize("task,knobs,message", BAD_SPECS)
def test_a_spec_that_cannot_be_met_is_refused_in_one_line_naming_the_key(task, knobs, message):
    with pytest.raises(ValueError) as e:
        warren.tasks.validate(task, **knobs)
    assert message in str(e.value)
    assert "\n" not in str(e.value)
    with pytest.raises(ValueError, match=message.split(" ")[0]):
        warren.tasks.items(task, 10, **knobs)


# --- reasoning-gym ---------------------------------------------------------------------------------


def test_the_datasets_are_registered_with_curricula(rg):
    for name in RG_NAMES.values():
        assert name in rg.factory.DATASETS
        assert rg.factory.has_curriculum(name)


def test_create_dataset_takes_reasoning_gym_s_own_fields(rg):
    ds = rg.create_dataset("warren_maze_steps", size=5000, seed=7, min_dist=8, max_dist=16, min_grid_size=15, max_grid_size=30)
    assert len(ds) == 5000
    entries = list(ds)
    assert len(entries) == 5000
    answers = collections.Counter(int(e["answer"]) for e in entries)
    assert min(answers) == 8 and max(answers) == 16
    sides = {e["metadata"]["rows"] for e in entries}
    assert min(sides) >= 15 and max(sides) <= 29 and all(s % 2 == 1 for s in sides)
    e = entries[4097]
    assert e["metadata"]["source_dataset"] == "warren_maze_steps"
    assert e["metadata"]["source_index"] == 4097
    assert e["metadata"]["difficulty"] == {"dist": (8, 16), "grid_size": (15, 30)}
    # Item idx of the dataset is warren's item idx of master seed `seed`.
    same = warren.tasks.items("maze-steps", 3, seed=7, start=4096, min_dist=8, max_dist=16, min_rows=15, max_rows=30, min_cols=15, max_cols=30)
    assert [x["question"] for x in same] == [entries[i]["question"] for i in (4096, 4097, 4098)]
    assert ds[4097] == e
    path = rg.create_dataset("warren_maze_path", size=10, seed=1, min_rows=9, max_rows=15, min_cols=11, max_cols=21)
    assert {(x["metadata"]["rows"] <= 15, x["metadata"]["cols"] <= 21) for x in path} == {(True, True)}


def test_every_access_is_a_fresh_equal_entry(rg):
    # Entries are built in Rust per block and handed out once: a second access makes the item
    # again, so it is equal and not the same dict, and what a caller does to one changes none
    # other; iteration, indexing and a fresh dataset agree.
    ds = rg.create_dataset("warren_maze_path", size=300, seed=3, trace="bfs")
    first = ds[17]
    again = ds[17]
    assert first == again and first is not again and first["metadata"] is not again["metadata"]
    assert first["metadata"]["difficulty"] is not again["metadata"]["difficulty"]
    first["metadata"]["difficulty"]["dist"] = "changed"
    first["question"] = "changed"
    assert ds[17] == again
    listed = list(ds)
    assert listed[17] == again and listed[17] is not again
    assert list(ds) == listed
    other = rg.create_dataset("warren_maze_path", size=300, seed=3, trace="bfs")
    assert [other[i] for i in reversed(range(300))] == listed[::-1]
    assert listed[299]["metadata"]["source_index"] == 299 and listed[0]["metadata"]["trace"]
    keys = list(listed[5]["metadata"])
    assert keys[:5] == ["source_dataset", "source_index", "ground_truth", "task", "split"]
    assert keys[-2:] == ["trace", "difficulty"]
    # Past the size (reasoning-gym's datasets index on): warren's item of that index.
    assert ds[300]["metadata"]["source_index"] == 300
    assert ds[4096 * 3 + 5] == other[4096 * 3 + 5]


@pytest.mark.parametrize("task", ALL_TASKS)
def test_oracle_answers_score_one_through_reasoning_gym(rg, task):
    needs_items(task)
    name = RG_NAMES[task]
    knobs = {"grid_size": 30} if task == "grid-steps" else {}
    count = 5000 if task.startswith("maze") else 300
    ds = rg.create_dataset(name, size=count, seed=2, **knobs)
    score = rg.get_score_answer_fn(name)
    for e in ds:
        assert ds.score_answer(e["answer"], e) == 1.0
        assert score(e["answer"], e) == 1.0
    entries = [ds[i] for i in range(50)]
    assert ds.score_answers([e["answer"] for e in entries], entries) == [1.0] * 50
    for bad in HOSTILE[:12] + ["", "banana"]:
        assert ds.score_answer(bad, entries[0]) == 0.0
        assert score(bad, entries[0]) == 0.0


def test_reasoning_gym_seeds_1_and_2_share_no_item(rg):
    one = rg.create_dataset("warren_maze_steps", size=2000, seed=1, min_grid_size=15, max_grid_size=25, min_dist=10, max_dist=30)
    two = rg.create_dataset("warren_maze_steps", size=2000, seed=2, min_grid_size=15, max_grid_size=25, min_dist=10, max_dist=30)
    assert not {e["question"] for e in one} & {e["question"] for e in two}


def test_reasoning_gym_splits_share_no_puzzle(rg):
    truths = {}
    for split in warren.tasks.SPLITS:
        ds = rg.create_dataset("warren_maze_path", size=3000, seed=1, split=split)
        truths[split] = {e["metadata"]["ground_truth"] for e in ds}
    assert not truths["train"] & truths["validation"]
    assert not truths["train"] & truths["test"]
    assert not truths["validation"] & truths["test"]


def test_reasoning_gym_infeasible_share_is_exact(rg):
    ds = rg.create_dataset("warren_maze_path", size=1000, seed=4, infeasible_share=0.25)
    assert sum(e["answer"] == "infeasible" for e in ds) == 250


RG_BAD = [
    ("warren_maze_steps", {"min_dist": 12, "max_dist": 10}, "warren_maze_steps: min_dist = 12 is above max_dist = 10"),
    ("warren_maze_steps", {"max_grid_size": 5, "min_dist": 10, "max_dist": 12}, "warren_maze_steps: min_dist = 10 cannot be held"),
    ("warren_maze_steps", {"min_grid_size": 9, "max_grid_size": 7}, "min_grid_size = 9 is above max_grid_size = 7"),
    ("warren_maze_steps", {"min_dist": "5"}, "min_dist = '5' is not an integer"),
    ("warren_maze_path", {"min_rows": 12, "max_rows": 10}, "min_rows = 12 is above max_rows = 10"),
    ("warren_maze_path", {"p_blocked": 0.4}, "p_blocked = 0.4"),
    ("warren_maze_path", {"infeasible_share": 1.5}, "infeasible_share = 1.5"),
    ("warren_graph_color", {"num_colors": 12}, "warren_graph_color: num_colors = 12 cannot be a chromatic number on min_num_vertices = 10"),
    ("warren_graph_color", {"min_num_vertices": 12, "max_num_vertices": 10}, "min_num_vertices = 12 is above max_num_vertices = 10"),
    ("warren_grid_steps", {"source": "cave"}, "source = 'cave'"),
    ("warren_grid_steps", {"grid_size": 8}, "width = 8 is out of range"),
    ("warren_maze_steps", {"split": "dev"}, "split = 'dev'"),
]


@pytest.mark.parametrize("name,kwargs,message", RG_BAD)
def test_reasoning_gym_refuses_a_bad_spec_before_any_item(rg, monkeypatch, name, kwargs, message):
    import warren.reasoning_gym as wrg

    made = []
    real = wrg._native.task_items
    monkeypatch.setattr(wrg._native, "task_items", lambda *a, **k: made.append(a) or real(*a, **k))
    with pytest.raises(ValueError) as e:
        rg.create_dataset(name, size=10, seed=1, **kwargs)
    assert message in str(e.value)
    assert "\n" not in str(e.value)
    assert made == []


def test_curricula_make_valid_configurations_at_every_level(rg):
    from reasoning_gym.coaching.base_curriculum import DefaultCurriculumContext, RangeAttributeMode

    for task, name in RG_NAMES.items():
        curriculum = rg.factory.create_curriculum(name)
        top = max(len(a.levels) for a in curriculum.attributes.values())
        for level in range(top):
            curriculum.set_global_level(level)
            for mode in (RangeAttributeMode.INCLUSIVE, RangeAttributeMode.UPPER_BOUND):
                config = curriculum.generate_configuration({"size": 4, "seed": 1}, DefaultCurriculumContext(mode))
                config.validate()
                if makes_items(task):
                    ds = rg.create_dataset(name, **vars(config))
                    assert len(list(ds)) == 4
    top = rg.factory.create_curriculum("warren_maze_steps")
    top.set_global_level(3)
    config = top.generate_configuration({}, DefaultCurriculumContext(RangeAttributeMode.UPPER_BOUND))
    assert (config.min_dist, config.max_dist, config.min_grid_size, config.max_grid_size) == (15, 20, 50, 100)


# --- verl ---------------------------------------------------------------------------------


def test_verl_compute_score_reads_the_task_from_the_ground_truth():
    for task in ("maze-steps", "maze-path"):
        table = warren.verl.table(task, 300, seed=5)
        assert table.column_names == ["data_source", "prompt", "ability", "reward_model", "extra_info"]
        for row in table.to_pylist():
            truth = row["reward_model"]["ground_truth"]
            answer = row["extra_info"]["answer"]
            assert row["data_source"] == f"warren/{task}"
            assert row["prompt"][0]["role"] == "user"
            assert warren.verl.compute_score(row["data_source"], answer, truth) == 1.0
            tagged = f"Let me think.\n<answer>draft</answer>\nSo:\n<answer> {answer} </answer>"
            assert warren.verl.compute_score(row["data_source"], tagged, truth, {"index": 0}) == 1.0
            assert warren.verl.compute_score(row["data_source"], "<answer>nope</answer>", truth) == 0.0
    assert warren.verl.compute_score("x", "5", "not json") == 0.0
    assert warren.verl.compute_score("x", "5", None) == 0.0
    assert warren.verl.compute_score("x", None, '{"task":"maze-steps","steps":5}') == 0.0
    assert warren.verl.compute_score("x", "5", {"ground_truth": '{"task":"maze-steps","steps":5}'}) == 1.0


def test_verl_table_equals_the_command_line_s_rows(warren_bin, tmp_path):
    import subprocess

    import pyarrow.parquet as pq

    spec = {"max_dist": 16, "infeasible_share": 0.2, "renderings": ["ascii", "coords"]}
    profile = tmp_path / "task.toml"
    profile.write_text(warren.tasks.profile_toml("maze-path", "validation", **spec))
    out = tmp_path / "rows.parquet"
    subprocess.run(
        # NOTE: --split is given, since the command line's default (train) overrides the profile's.
        [warren_bin, "tasks", str(profile), "--split", "validation", "--count", "700", "--seed", "5", "--quiet", "--out", str(out)],
        check=True,
    )
    cli = pq.read_table(out)
    ours = warren.verl.table("maze-path", 700, seed=5, split="validation", **spec)
    assert ours.schema.equals(cli.schema), (ours.schema, cli.schema)
    assert ours.equals(cli)
    rows = cli.to_pylist()
    assert all(
        warren.verl.compute_score(r["data_source"], r["extra_info"]["answer"], r["reward_model"]["ground_truth"]) == 1.0
        for r in rows
    )
    assert sum(r["extra_info"]["answer"] == "infeasible" for r in rows) == 140


# --- Ray ---------------------------------------------------------------------------------


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is not installed")
def test_ray_reads_tasks_as_levels(local_ray):
    import ray

    import warren.ray

    spec = {"max_dist": 18, "infeasible_share": 0.1}
    ds = warren.ray.read_tasks("maze-path", 3000, seed=4, blocks=3, **spec)
    table = pa.concat_tables(ray.get(ds.to_arrow_refs())).sort_by("index")
    block = warren.tasks.block("maze-path", 3000, seed=4, **spec)
    for column in ("index", "question", "answer", "ground_truth"):
        assert table.column(column).to_pylist() == block[column], column
    with pytest.raises(ValueError, match="task.min_dist = 30 is above task.max_dist = 18"):
        warren.ray.read_tasks("maze-path", 10, min_dist=30, max_dist=18)
