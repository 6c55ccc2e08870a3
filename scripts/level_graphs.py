#!/usr/bin/env python3
"""Seeded level graphs for the map builder's scale runs (issue 49), written as level-graph JSON
(`data/map/level-graph.schema.json`). Standard library only.

    scripts/level_graphs.py random ROOMS SEED OUT.json [--cycles C]
    scripts/level_graphs.py grid K OUT.json            # K x K rooms, 4-neighbour grid
    scripts/level_graphs.py ladder K OUT.json          # 2 x K rooms
    scripts/level_graphs.py wheel K OUT.json           # a hub and a ring of K rooms
    scripts/level_graphs.py triangles K OUT.json       # a strip of 2K triangles (K >= 1)

`random`: a planar level graph of ROOMS rooms and cycle rank C (default ROOMS / 10, rounded
down), every room of degree at most 4. How: rooms are the cells of a blob grown on the square
grid (Eden growth: each new cell a random free neighbour of a random blob cell); a random
spanning tree of the blob's grid graph (Wilson's algorithm, uniform over spanning trees)
makes the graph connected, and C more grid edges of the blob, drawn at random among those that
close a cycle of at most 12 rooms and keep both ends at degree 4 or less, add the cycles. Every
graph is a subgraph of the grid, so it is planar, and its cycles are even (4 rooms or more). The
room ids are `r0`..`r{ROOMS-1}` in growth order; `r0` is tagged `start` and the room farthest
from it (fewest connections) `goal`. The same arguments always give the same file.
"""
import json
import os
import random
import sys
from collections import deque

MAX_DEGREE = 4
MAX_CYCLE = 12


def blob(rooms, rng):
    cells = [(0, 0)]
    index = {(0, 0): 0}
    while len(cells) < rooms:
        x, y = cells[rng.randrange(len(cells))]
        dx, dy = rng.choice(((1, 0), (-1, 0), (0, 1), (0, -1)))
        c = (x + dx, y + dy)
        if c not in index:
            index[c] = len(cells)
            cells.append(c)
    return cells, index


def grid_edges(cells, index):
    edges = []
    for i, (x, y) in enumerate(cells):
        for c in ((x + 1, y), (x, y + 1)):
            j = index.get(c)
            if j is not None:
                edges.append((min(i, j), max(i, j)))
    return edges


def wilson_tree(n, adj, rng):
    in_tree = [False] * n
    in_tree[0] = True
    nxt = [-1] * n
    tree = []
    for start in range(n):
        u = start
        while not in_tree[u]:
            nxt[u] = rng.choice(adj[u])
            u = nxt[u]
        u = start
        while not in_tree[u]:
            in_tree[u] = True
            tree.append((min(u, nxt[u]), max(u, nxt[u])))
            u = nxt[u]
    return tree


def distance(adj, a, b, limit):
    seen = {a: 0}
    queue = deque([a])
    while queue:
        u = queue.popleft()
        if seen[u] >= limit:
            continue
        for w in adj[u]:
            if w not in seen:
                seen[w] = seen[u] + 1
                if w == b:
                    return seen[w]
                queue.append(w)
    return None


def random_graph(rooms, seed, cycles):
    rng = random.Random(seed)
    cells, index = blob(rooms, rng)
    host = grid_edges(cells, index)
    host_adj = [[] for _ in range(rooms)]
    for a, b in host:
        host_adj[a].append(b)
        host_adj[b].append(a)
    for a in host_adj:
        a.sort()
    tree = wilson_tree(rooms, host_adj, rng)
    adj = [set() for _ in range(rooms)]
    for a, b in tree:
        adj[a].add(b)
        adj[b].add(a)
    # A tree of degree at most 4 (the grid's own bound) with cycles added one by one.
    chosen = set(tree)
    spare = [e for e in host if e not in chosen]
    rng.shuffle(spare)
    added = 0
    for a, b in spare:
        if added == cycles:
            break
        if len(adj[a]) >= MAX_DEGREE or len(adj[b]) >= MAX_DEGREE:
            continue
        d = distance(adj, a, b, MAX_CYCLE - 1)
        if d is None:
            continue
        adj[a].add(b)
        adj[b].add(a)
        chosen.add((a, b))
        added += 1
    if added < cycles:
        sys.exit(f"level_graphs: only {added} of {cycles} cycles fit {rooms} rooms (seed {seed})")
    return sorted(chosen)


def far_room(n, edges):
    adj = [[] for _ in range(n)]
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    dist = [-1] * n
    dist[0] = 0
    queue = deque([0])
    while queue:
        u = queue.popleft()
        for w in adj[u]:
            if dist[w] < 0:
                dist[w] = dist[u] + 1
                queue.append(w)
    return max(range(n), key=lambda v: (dist[v], -len(adj[v]), -v))


def write(path, name, n, edges, tags=True):
    rooms = [{"id": f"r{i}"} for i in range(n)]
    if tags and n > 1:
        rooms[0]["tags"] = ["start"]
        rooms[far_room(n, edges)]["tags"] = ["goal"]
    doc = {
        "name": name,
        "rooms": rooms,
        "connections": [[f"r{a}", f"r{b}"] for a, b in edges],
    }
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, separators=(",", ":"))
        f.write("\n")
    os.replace(tmp, path)


def grid(k):
    at = lambda x, y: y * k + x
    edges = []
    for y in range(k):
        for x in range(k):
            if x + 1 < k:
                edges.append((at(x, y), at(x + 1, y)))
            if y + 1 < k:
                edges.append((at(x, y), at(x, y + 1)))
    return k * k, edges


def ladder(k):
    edges = [(i, i + 1) for i in range(k - 1)] + [(k + i, k + i + 1) for i in range(k - 1)]
    edges += [(i, k + i) for i in range(k)]
    return 2 * k, edges


def wheel(k):
    edges = [(0, 1 + i) for i in range(k)] + [(1 + i, 1 + (i + 1) % k) for i in range(k)]
    return k + 1, edges


def triangles(k):
    # Two rows of rooms, zig-zag diagonals: 2k triangles over 2(k + 1) rooms.
    top = lambda i: i
    bot = lambda i: k + 1 + i
    edges = [(top(i), top(i + 1)) for i in range(k)] + [(bot(i), bot(i + 1)) for i in range(k)]
    edges += [(top(i), bot(i)) for i in range(k + 1)] + [(top(i), bot(i + 1)) for i in range(k)]
    return 2 * (k + 1), edges


def usage():
    sys.exit(__doc__.split("\n\n")[1])


def main(argv):
    if len(argv) < 3:
        usage()
    kind = argv[0]
    try:
        if kind == "random":
            rooms, seed, out = int(argv[1]), int(argv[2]), argv[3]
            cycles = rooms // 10
            if "--cycles" in argv:
                cycles = int(argv[argv.index("--cycles") + 1])
            if rooms < 2:
                sys.exit("level_graphs: random needs at least 2 rooms")
            edges = random_graph(rooms, seed, cycles)
            name = f"random planar level graph: {rooms} rooms, cycle rank {cycles}, seed {seed}"
            write(out, name, rooms, edges)
            return
        k, out = int(argv[1]), argv[2]
    except (ValueError, IndexError):
        usage()
    shapes = {"grid": grid, "ladder": ladder, "wheel": wheel, "triangles": triangles}
    if kind not in shapes or k < 1 or (kind == "wheel" and k < 3):
        usage()
    n, edges = shapes[kind](k)
    write(out, f"{kind} {k}", n, edges)


if __name__ == "__main__":
    main(sys.argv[1:])
