#!/usr/bin/env python3
"""Real graphs for scripts/layout_real.sh: the networks Debian ships in `python3-graph-tool` (its
`graph_tool/collection/*.gt.gz`) and the finite-element meshes of `libmetis-doc` (METIS's
`examples/graphs/*.graph`), each reduced to its largest connected component, simple and
undirected, written as the SNAP edge list `warren layout` reads. Standard library only; no
graph-tool install is needed.

    scripts/real_graphs.py [--out DIR] [--max-vertices N] [NAME ...]

DIR (default the repository's target/peers/real) gets debs/ (the two .deb files, fetched with `apt-get download`,
after one `apt-get update` if the first try fails), deb/ (their data, `dpkg-deb -x`), graphs/NAME.txt
(`u v` per line, vertices 0..n-1 in the order of the source file, a `#` header naming the source)
and graphs/index.tsv (name, source, vertices and edges of the component, of the whole file, and a
skip reason). Everything already there is reused: a .deb is not downloaded twice, a graph file
whose header line is current is not rewritten. NAME picks graphs (default: all); a graph whose
largest component has more than N vertices (default 100,000) is listed as skipped, not written.

The graph-tool binary format (graph-tool's documentation, "The gt file format"): the magic bytes
`\\xe2\\x9b\\xbe gt` ("⛾ gt"), a version byte (1), an endianness byte (0 little, 1 big), a uint64
comment length and the comment, a directedness byte, the uint64 vertex count N, then per vertex a
uint64 out-degree and the out-neighbours, each 1, 2, 4 or 8 bytes wide as N fits in 8, 16, 32 or
64 bits (an undirected edge is stored once). Property maps follow; only the structure is read.

The METIS format: `%` comment lines, a header `n m [fmt [ncon]]`, then one line per vertex: its
size if fmt's hundreds digit is 1, ncon weights if its tens digit is 1, then its neighbours
(1-based), each followed by an edge weight if its units digit is 1.
"""
import array
import gzip
import lzma
import os
import subprocess
import sys

PACKAGES = ["python3-graph-tool", "libmetis-doc"]
GT_DIR = "usr/lib/python3/dist-packages/graph_tool/collection"
METIS_DIR = "usr/share/doc/libmetis-dev/examples/graphs"
GT_MAGIC = b"\xe2\x9b\xbe gt"
WIDTH_CODES = {1: "B", 2: "H", 4: "I", 8: "Q"}


class Failure(Exception):
    """An expected failure (no network, no dpkg-deb, a malformed file): printed, no traceback."""


def log(msg):
    print(f"real_graphs: {msg}", file=sys.stderr)


# --- the packages ----------------------------------------------------------------------------
def download(debs):
    """The .deb of each package in debs/, fetched once."""
    os.makedirs(debs, exist_ok=True)
    have = {p: find_deb(debs, p) for p in PACKAGES}
    missing = [p for p, f in have.items() if f is None]
    if missing:
        log(f"apt-get download {' '.join(missing)} (into {debs})")
        if run_quiet(["apt-get", "download", *missing], debs) != 0:
            log("apt-get download failed; apt-get update, then once more")
            run_quiet(["apt-get", "update"], debs)
            if run_quiet(["apt-get", "download", *missing], debs) != 0:
                raise Failure(f"could not download {' '.join(missing)} with apt-get (no network to "
                              "a Debian mirror, or no such package in this system's sources)")
        have = {p: find_deb(debs, p) for p in PACKAGES}
    for p, f in have.items():
        if f is None:
            raise Failure(f"apt-get download reported success but no {p}_*.deb is in {debs}")
    return have


def find_deb(debs, package):
    names = sorted(f for f in os.listdir(debs) if f.startswith(package + "_") and f.endswith(".deb"))
    return os.path.join(debs, names[-1]) if names else None


def run_quiet(cmd, cwd):
    try:
        proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    except FileNotFoundError:
        raise Failure(f"{cmd[0]} is not installed (a Debian system is needed)") from None
    if proc.returncode != 0:
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        for line in tail:
            log(f"  {cmd[0]}: {line}")
    return proc.returncode


def extract(deb_files, root):
    """Each .deb's data under root, extracted once (a stamp file names the .deb)."""
    os.makedirs(root, exist_ok=True)
    for deb in deb_files.values():
        stamp = os.path.join(root, "." + os.path.basename(deb) + ".extracted")
        if os.path.exists(stamp):
            continue
        log(f"dpkg-deb -x {os.path.basename(deb)}")
        if run_quiet(["dpkg-deb", "-x", deb, root], root) != 0:
            raise Failure(f"dpkg-deb -x {deb} failed (a truncated download? delete it and rerun)")
        open(stamp, "w").close()


# --- the readers -----------------------------------------------------------------------------
def open_maybe_compressed(path):
    if path.endswith(".gz"):
        return gzip.open(path, "rb")
    if path.endswith(".xz"):
        return lzma.open(path, "rb")
    return open(path, "rb")


def read_gt(path):
    """(vertex count, edge list) of a graph-tool .gt file; the property maps are not read."""
    with open_maybe_compressed(path) as f:
        data = f.read()
    if not data.startswith(GT_MAGIC):
        raise Failure(f"{path}: not a graph-tool file (no '⛾ gt' magic)")
    version, big = data[6], data[7]
    if version != 1:
        raise Failure(f"{path}: .gt version {version}, only version 1 is known")
    order = ">" if big else "<"
    pos = 8
    comment_len = int.from_bytes(data[pos:pos + 8], "big" if big else "little")
    pos += 8 + comment_len
    pos += 1  # directed or not: the layout treats every graph as undirected
    n = int.from_bytes(data[pos:pos + 8], "big" if big else "little")
    pos += 8
    width = 1 if n < 1 << 8 else 2 if n < 1 << 16 else 4 if n < 1 << 32 else 8
    code = WIDTH_CODES[width]
    swap = (order == ">") != (sys.byteorder == "big")
    edges = []
    for u in range(n):
        k = int.from_bytes(data[pos:pos + 8], "big" if big else "little")
        pos += 8
        if k:
            nbrs = array.array(code, data[pos:pos + k * width])
            if swap:
                nbrs.byteswap()
            pos += k * width
            edges.extend((u, v) for v in nbrs)
        if pos > len(data):
            raise Failure(f"{path}: truncated adjacency list at vertex {u}")
    return n, edges


def read_metis(path):
    """(vertex count, edge list) of a METIS graph file (0-based)."""
    with open(path) as f:
        lines = [line for line in f if not line.startswith("%")]
    header = lines[0].split()
    n = int(header[0])
    fmt = header[2].zfill(3) if len(header) > 2 else "000"
    has_size, has_vwgt, has_ewgt = fmt[0] == "1", fmt[1] == "1", fmt[2] == "1"
    ncon = int(header[3]) if len(header) > 3 else (1 if has_vwgt else 0)
    skip = int(has_size) + (ncon if has_vwgt else 0)
    step = 2 if has_ewgt else 1
    body = lines[1:n + 1]
    if len(body) < n:
        raise Failure(f"{path}: {n} vertices announced, {len(body)} lines found")
    edges = []
    for u, line in enumerate(body):
        fields = line.split()[skip:]
        edges.extend((u, int(v) - 1) for v in fields[::step])
    return n, edges


# --- largest component, simple and undirected ------------------------------------------------
def largest_component(n, edges):
    """(component vertex count, sorted simple edges renumbered 0..c-1, simple edge count of the
    whole graph)."""
    simple = {(u, v) if u < v else (v, u) for u, v in edges if u != v}
    adj = [[] for _ in range(n)]
    for u, v in simple:
        adj[u].append(v)
        adj[v].append(u)
    comp = [-1] * n
    best, best_size = -1, 0
    for s in range(n):
        if comp[s] >= 0:
            continue
        comp[s] = s
        stack, size = [s], 0
        while stack:
            u = stack.pop()
            size += 1
            for v in adj[u]:
                if comp[v] < 0:
                    comp[v] = s
                    stack.append(v)
        if size > best_size:
            best, best_size = s, size
    new_id = {}
    for u in range(n):
        if comp[u] == best:
            new_id[u] = len(new_id)
    kept = sorted((new_id[u], new_id[v]) for u, v in simple if comp[u] == best)
    return best_size, kept, len(simple)


# --- the graph list --------------------------------------------------------------------------
def sources(root):
    """(name, description, path, reader) of every graph the two packages ship."""
    out = []
    gt_dir = os.path.join(root, GT_DIR)
    metis_dir = os.path.join(root, METIS_DIR)
    for d in (gt_dir, metis_dir):
        if not os.path.isdir(d):
            raise Failure(f"{d} is missing: the packages' layout changed? (delete {root} to "
                          "extract them again)")
    for f in sorted(os.listdir(gt_dir)):
        for ext in (".gt.gz", ".gt.xz", ".gt"):
            if f.endswith(ext):
                out.append((f[:-len(ext)], f"graph-tool collection, {f}", os.path.join(gt_dir, f),
                            read_gt))
                break
    for f in sorted(os.listdir(metis_dir)):
        if f.endswith(".graph") or f.endswith(".mgraph"):
            name = f.rsplit(".", 1)[0]
            name = "metis-test" if name == "test" else name  # test.mgraph, METIS's toy graph
            out.append((name, f"METIS example, {f}", os.path.join(metis_dir, f), read_metis))
    return out


def write_graph(path, header, edges):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(header + "\n")
        f.writelines(f"{u} {v}\n" for u, v in edges)
    os.replace(tmp, path)


def current_header(path):
    try:
        with open(path) as f:
            return f.readline().rstrip("\n")
    except OSError:
        return None


def main():
    args = sys.argv[1:]
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "peers", "real")
    out, max_vertices = os.path.normpath(out), 100_000
    names = []
    while args:
        a = args.pop(0)
        if a in ("-h", "--help"):
            print(__doc__)
            return 0
        if a == "--out" and args:
            out = args.pop(0)
        elif a == "--max-vertices" and args:
            max_vertices = int(args.pop(0))
        elif a.startswith("-"):
            raise Failure(f"unknown argument {a} (see --help)")
        else:
            names.append(a)
    debs = download(os.path.join(out, "debs"))
    root = os.path.join(out, "deb")
    extract(debs, root)
    graphs = os.path.join(out, "graphs")
    os.makedirs(graphs, exist_ok=True)
    known = sources(root)
    unknown = set(names) - {name for name, *_ in known}
    if unknown:
        raise Failure(f"no graph named {', '.join(sorted(unknown))}; the packages ship "
                      + ", ".join(name for name, *_ in known))
    rows = []
    for name, what, path, reader in known:
        if names and name not in names:
            continue
        target = os.path.join(graphs, name + ".txt")
        index_row = read_index_row(graphs, name)
        if index_row and index_row[-1] and index_row[-1].startswith("over"):
            # Skipped before for its size under a larger or equal limit: not read again.
            if int(index_row[2]) > max_vertices:
                rows.append(index_row)
                continue
        if index_row and not index_row[-1] and os.path.exists(target) and \
                current_header(target) == index_row[6]:
            rows.append(index_row)
            continue
        n, edges = reader(path)
        c, kept, m = largest_component(n, edges)
        header = (f"# {name}: largest connected component of {what} ({c} of {n} vertices, "
                  f"{len(kept)} of {m} simple undirected edges), vertices renumbered 0..{c - 1}")
        skip = ""
        if c > max_vertices:
            skip = f"over {max_vertices} vertices ({c}); --max-vertices raises the limit"
            log(f"{name}: skipped, {skip}")
        else:
            write_graph(target, header, kept)
            log(f"{name}: {c} vertices, {len(kept)} edges -> {target}")
        rows.append([name, what, str(c), str(len(kept)), str(n), str(m), header, skip])
    rows.sort(key=lambda r: (int(r[2]), r[0]))
    write_index(graphs, rows, names)
    for r in rows:
        print(f"{r[0]}\t{r[2]}\t{r[3]}" + (f"\tskipped: {r[7]}" if r[7] else ""))
    return 0


INDEX_COLUMNS = ["name", "source", "vertices", "edges", "file_vertices", "file_edges", "header",
                 "skipped"]


def read_index(graphs):
    try:
        with open(os.path.join(graphs, "index.tsv")) as f:
            return [line.rstrip("\n").split("\t") for line in f][1:]
    except OSError:
        return []


def read_index_row(graphs, name):
    return next((r for r in read_index(graphs) if r[0] == name and len(r) == 8), None)


def write_index(graphs, rows, names):
    """The index keeps the rows of graphs not asked for this time."""
    if names:
        rows = rows + [r for r in read_index(graphs) if r[0] not in names]
        rows.sort(key=lambda r: (int(r[2]), r[0]))
    path = os.path.join(graphs, "index.tsv")
    with open(path + ".tmp", "w") as f:
        f.write("\t".join(INDEX_COLUMNS) + "\n")
        f.writelines("\t".join(r) + "\n" for r in rows)
    os.replace(path + ".tmp", path)


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Failure as e:
        log(str(e))
        sys.exit(1)
    except KeyboardInterrupt:
        sys.exit(130)
