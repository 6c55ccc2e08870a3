#!/usr/bin/env python3
"""Bookkeeping of scripts/layout_peers.sh (standard library only): gathers what one run of one
tool on one graph left behind into a line of RESULTS (JSON lines), and prints the Markdown tables.

    report.py record RESULTS --graph G --tool T --status ok|failed|timeout|skipped
              [--reason TEXT] [--layout-json F] [--time-v F] [--wall-ms MS] [--score-json F]
              [--exit-code N] [--load LOADAVG]
    report.py table RESULTS --header F        (Markdown on stdout)

record: F files may be missing or empty (a tool that failed prints nothing). --layout-json is the
tool's one JSON line (time_ms = its layout call; sfdp-cli adds its own process wall and peak RSS,
which win over the wrapper's), --time-v is GNU time's -v report (peak RSS, CPU times), --wall-ms
the process wall measured by the driver, --score-json what `warren layout GRAPH --positions
POS.tsv --json` printed.
"""
import json
import re
import sys

TOOL_NAMES = {
    "warren": "warren",
    "warren-ml": "warren, force drawing alone",
    "fme": "OGDF FME",
    "fme2": "OGDF FME, 2 threads",
    "fmmm": "OGDF FM³",
    "sfdp": "Graphviz sfdp",
    "sfdp-cli": "Graphviz sfdp (program)",
    "drl": "igraph DrL",
    "fr": "igraph FR",
}


def read_json_line(path):
    if not path:
        return None
    try:
        with open(path) as f:
            for line in reversed(f.read().splitlines()):
                line = line.strip()
                if line.startswith("{"):
                    return json.loads(line)
    except (OSError, ValueError):
        pass
    return None


def read_time_v(path):
    """The figures of GNU time -v that are kept."""
    keys = {
        "Maximum resident set size (kbytes)": ("peak_rss_kb", int),
        "User time (seconds)": ("user_s", float),
        "System time (seconds)": ("sys_s", float),
        "Percent of CPU this job got": ("cpu_percent", lambda s: int(s.rstrip("%") or 0)),
        "Exit status": ("exit_status", int),
    }
    out = {}
    if not path:
        return out
    try:
        with open(path) as f:
            for line in f:
                name, _, value = line.strip().rpartition(": ")
                if name in keys:
                    key, conv = keys[name]
                    try:
                        out[key] = conv(value.strip())
                    except ValueError:
                        pass
    except OSError:
        pass
    return out


def record(argv):
    results = argv[0]
    opts = {}
    it = iter(argv[1:])
    for flag in it:
        if not flag.startswith("--"):
            sys.exit(f"record: unexpected {flag}")
        opts[flag[2:].replace("-", "_")] = next(it)
    row = {"graph": opts["graph"], "tool": opts["tool"], "status": opts["status"]}
    if "reason" in opts:
        row["reason"] = opts["reason"]
    if "load" in opts:  # the 1-minute load average just before the run
        row["load_before"] = float(opts["load"])
    if "exit_code" in opts:
        row["exit_code"] = int(opts["exit_code"])
    layout = read_json_line(opts.get("layout_json"))
    if layout is not None:
        row["layout"] = layout
    row.update(read_time_v(opts.get("time_v")))
    if "wall_ms" in opts:
        row["process_wall_ms"] = float(opts["wall_ms"])
    if layout and "process_wall_ms" in layout:  # sfdp-cli: the sfdp process's own figures
        row["process_wall_ms"] = layout["process_wall_ms"]
        row["peak_rss_kb"] = layout["peak_rss_kb"]
    score = read_json_line(opts.get("score_json"))
    if score is not None:
        row["score"] = score
    with open(results, "a") as f:
        f.write(json.dumps(row) + "\n")


def fmt_ms(ms):
    if ms is None:
        return "n/a"
    if ms < 1000:
        return f"{ms:.0f} ms" if ms >= 10 else f"{ms:.1f} ms"
    s = ms / 1000
    if s < 600:
        return f"{s:.2f} s" if s < 10 else f"{s:.1f} s"
    return f"{s / 60:.1f} min"


def fmt_kb(kb):
    if kb is None:
        return "n/a"
    mb = kb / 1024
    return f"{mb:.0f} MB" if mb >= 10 else f"{mb:.1f} MB"


def fmt_num(v):
    if v is None:
        return "n/a"
    if isinstance(v, bool):
        return str(v).lower()
    if isinstance(v, int):
        return f"{v:,}"
    if v == 0:
        return "0"
    return f"{v:.4g}"


def table(argv):
    results = argv[0]
    header = None
    if "--header" in argv:
        header = argv[argv.index("--header") + 1]
    rows = []
    with open(results) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    out = []
    if header:
        with open(header) as f:
            out.append(f.read().rstrip("\n"))
        out.append("")
    graphs = []
    for r in rows:
        if r["graph"] not in graphs:
            graphs.append(r["graph"])
    for g in graphs:
        mine = [r for r in rows if r["graph"] == g]
        size = next((r["layout"] for r in mine if r.get("layout", {}).get("vertices")), None)
        title = f"### {g}"
        if size:
            title += f" ({size['vertices']:,} vertices, {size['edges']:,} edges)"
        out += [title, "",
                "| tool | call time | process wall | peak RSS | stress | crossings | edge CV |",
                "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
        for r in mine:
            name = TOOL_NAMES.get(r["tool"], r["tool"])
            if r["status"] != "ok":
                what = {"skipped": "skipped", "timeout": "timed out", "failed": "failed"}
                reason = r.get("reason", "")
                if r["status"] == "failed" and "exit_code" in r:
                    reason = f"exit code {r['exit_code']}" + (f"; {reason}" if reason else "")
                text = what[r["status"]] + (f" ({reason})" if reason else "")
                out.append(f"| {name} | {text} | | | | | |")
                continue
            layout = r.get("layout", {})
            call = fmt_ms(layout.get("time_ms"))
            if layout.get("time_is") == "process":
                call += " (whole process)"
            score = r.get("score")
            if score:
                stress = fmt_num(score.get("stress"))
                crossings = fmt_num(score.get("crossings"))
                if score.get("crossings_sampled"):
                    crossings = f"~{crossings} (sampled)"
                cv = fmt_num(score.get("edge_length_cv"))
            else:
                stress = crossings = cv = "n/a"
            out.append(f"| {name} | {call} | {fmt_ms(r.get('process_wall_ms'))} | "
                       f"{fmt_kb(r.get('peak_rss_kb'))} | {stress} | {crossings} | {cv} |")
        out.append("")
    print("\n".join(out).rstrip("\n"))


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ("record", "table"):
        sys.exit(__doc__)
    {"record": record, "table": table}[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
