#!/usr/bin/env bash
# Same-run comparison of `warren layout` with the strongest graph-layout peers:
# OGDF's FME (FastMultipoleMultilevelEmbedder) and FM³ (FMMMLayout), Graphviz sfdp, igraph's DrL
# and Fruchterman-Reingold. Every positions file is scored by warren's own quality code
# (`warren layout GRAPH --positions POS.tsv --json`), so all tools are measured alike.
#
#   scripts/layout_peers.sh                  all graphs: level-like 10^3, 10^4, 10^5, 10^6
#                                            vertices, the 316 x 316 grid, Barabasi-Albert 10^5
#   scripts/layout_peers.sh --quick          only the 1,000 and 10,000-vertex level-like graphs
#   scripts/layout_peers.sh --sizes 1k,100k,grid   chosen graphs (1k 10k 100k 1m | 1000 ... |
#                                            grid | ba | the names graphs.py takes)
#   options: --tools warren,fme,fme2,fmmm,sfdp,drl,fr (the default; also warren-ml: warren's
#            force drawing alone, --algorithm multilevel; sfdp-cli: the sfdp program on a DOT
#            file, whole-process time), --timeout SEC (each process, default
#            900), --seed S (every tool's seed, default 1)
#   WARREN=path/to/warren  the binary to test and score with (default target/release/warren,
#                          built with `cargo build --release` when missing)
#
# Run from anywhere inside the repository, as root or with the tools already installed: what is
# missing is installed first (apt-get: graphviz, libgraphviz-dev, time, g++; pip: ogdf-wheel,
# igraph). The OGDF and sfdp harnesses (scripts/layout_peers/*.c*) are compiled once into
# target/peers/. Graphs go to target/peers/graphs/ (scripts/layout_peers/graphs.py, fixed seeds),
# each run's positions, raw JSON and logs to target/peers/runs/DATE/ (results.jsonl: one line per
# graph and tool with the tool's JSON, GNU time's figures and the score), and the tables to
# stdout and target/peers/table.md.
#
# Columns: call time = the layout call alone, as each tool times it (warren: its `time_ms`, the
# relax; OGDF: call(); sfdp: gvLayout(); igraph: the layout_* call); process wall = the whole
# process (reading the graph, the layout, writing positions; for warren also its own quality
# figures); peak RSS from GNU time. Warren runs with --threads 2, FME at its default (1 thread)
# and with maxNumThreads 2 (both with OGDF's thread pinning made a no-op: it pins its main
# thread to CPU 0, and on 2 cores its second thread too; see ogdf_layout.cpp), the others
# single-threaded (they have no thread setting). A peer that would
# take more than ~10 minutes on a graph is skipped and says why; a process still running after
# --timeout is stopped and reported as timed out.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
here=$root/scripts/layout_peers

quick=false
sizes=()
tools=warren,fme,fme2,fmmm,sfdp,drl,fr
timeout_s=900
seed=1
while (($#)); do
  case $1 in
    --quick) quick=true; shift ;;
    --sizes)
      shift
      while (($#)) && [[ $1 != --* ]]; do
        IFS=', ' read -r -a parts <<<"$1"
        sizes+=("${parts[@]}")
        shift
      done ;;
    --tools) tools=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "layout_peers.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

# Graph names, and their vertex counts for the skip rules.
declare -A vertices=([level-1k]=1000 [level-10k]=10000 [level-100k]=100000 [level-1m]=1000000
                     [grid-316]=99856 [ba-100k]=100000)
graph_name() {
  case ${1,,} in
    1k|1000|level-1k) echo level-1k ;;
    10k|10000|level-10k) echo level-10k ;;
    100k|100000|level-100k) echo level-100k ;;
    1m|1000000|level-1m) echo level-1m ;;
    grid|grid-316) echo grid-316 ;;
    ba|ba-100k) echo ba-100k ;;
    *) echo "layout_peers.sh: unknown graph '$1'" >&2; return 1 ;;
  esac
}
graphs=()
if ((${#sizes[@]})); then
  for s in "${sizes[@]}"; do graphs+=("$(graph_name "$s")"); done
elif $quick; then
  graphs=(level-1k level-10k)
else
  graphs=(level-1k level-10k level-100k grid-316 ba-100k level-1m)
fi
IFS=, read -r -a tool_list <<<"$tools"
has_tool() { [[ ,$tools, == *,$1,* ]]; }
for t in "${tool_list[@]}"; do
  case $t in warren|warren-ml|fme|fme2|fmmm|sfdp|sfdp-cli|drl|fr) ;;
    *) echo "layout_peers.sh: unknown tool '$t'" >&2; exit 2 ;; esac
done

# --- what the run needs, installed when missing ----------------------------------------------
apt_need=()
[[ -x /usr/bin/time ]] || apt_need+=(time)
command -v timeout >/dev/null || apt_need+=(coreutils)
if has_tool fme || has_tool fme2 || has_tool fmmm; then
  command -v g++ >/dev/null || apt_need+=(g++)
fi
if has_tool sfdp; then
  command -v gcc >/dev/null || apt_need+=(gcc)
  command -v pkg-config >/dev/null || apt_need+=(pkg-config)
  pkg-config --exists libgvc 2>/dev/null || apt_need+=(libgraphviz-dev graphviz)
fi
if has_tool sfdp-cli; then command -v sfdp >/dev/null || apt_need+=(graphviz); fi
if ((${#apt_need[@]})); then
  echo "== installing ${apt_need[*]} (apt-get)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y "${apt_need[@]}" >&2 || { apt-get update >&2 && apt-get install -y "${apt_need[@]}" >&2; }
fi
pip_need=()
if has_tool fme || has_tool fme2 || has_tool fmmm; then
  python3 -c 'import importlib.metadata as m; m.version("ogdf-wheel")' 2>/dev/null || pip_need+=(ogdf-wheel)
fi
if has_tool drl || has_tool fr; then
  python3 -c 'import igraph' 2>/dev/null || pip_need+=(igraph)
fi
if ((${#pip_need[@]})); then
  echo "== installing ${pip_need[*]} (pip)" >&2
  python3 -m pip install --quiet "${pip_need[@]}" >&2
fi

warren=${WARREN:-target/release/warren}
if [[ ! -x $warren ]]; then
  if [[ -n ${WARREN:-} ]]; then echo "layout_peers.sh: WARREN=$WARREN is not an executable" >&2; exit 2; fi
  echo "== cargo build --release (no $warren yet)" >&2
  cargo build --release >&2
fi
warren=$(realpath "$warren")
layout_help=$("$warren" layout --help)
warren_threads=(--threads 2)
warren_env=()
if ! grep -q -- '--threads' <<<"$layout_help"; then
  # An older binary: rayon's pool is sized by its environment variable instead.
  warren_threads=()
  warren_env=(RAYON_NUM_THREADS=2)
fi

# --- the harnesses, compiled once into target/peers/ -------------------------------------------
mkdir -p target/peers
build_once() { # OUT COMMAND...: compile unless OUT is newer than its source and the command is the same
  local out=$1; shift
  local cmd="$*" src
  for src in "$@"; do [[ $src == *.c || $src == *.cpp ]] && break; done
  if [[ -x $out && $out -nt $src && -f $out.cmd && $(cat "$out.cmd") == "$cmd" ]]; then return; fi
  echo "== $cmd" >&2
  "$@"
  echo "$cmd" >"$out.cmd"
}
if has_tool fme || has_tool fme2 || has_tool fmmm; then
  # ogdf-wheel puts libOGDF.so/libCOIN.so in PREFIX/lib and the headers in PREFIX/include
  # (+ PREFIX/include/ogdf-release for the build's config_autogen.h), PREFIX = the Python prefix
  # pip installed into; its file list says where.
  ogdf_prefix=$(python3 -c 'import importlib.metadata as m
f = [p for p in m.files("ogdf-wheel") if p.name == "libOGDF.so"][0]
print(f.locate().resolve().parent.parent)')
  build_once target/peers/ogdf_layout g++ -O2 -std=c++17 -I"$ogdf_prefix/include/ogdf-release" \
    -I"$ogdf_prefix/include" "$here/ogdf_layout.cpp" -L"$ogdf_prefix/lib" \
    -Wl,-rpath,"$ogdf_prefix/lib" -lOGDF -lCOIN -pthread -o target/peers/ogdf_layout
fi
if has_tool sfdp; then
  # shellcheck disable=SC2046
  build_once target/peers/sfdp_layout gcc -O2 "$here/sfdp_layout.c" $(pkg-config --cflags --libs libgvc) \
    -o target/peers/sfdp_layout
fi

# --- graphs, header ----------------------------------------------------------------------------
python3 "$here/graphs.py" target/peers/graphs "${graphs[@]}"

stamp=$(date -u +%Y%m%dT%H%M%SZ)
run=target/peers/runs/$stamp
mkdir -p "$run"
results=$run/results.jsonl
: >"$results"
{
  echo "## warren layout vs. peers, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "- machine: $(nproc) cores ($(lscpu | sed -n 's/^Model name: *//p' | head -1)), load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- warren: $("$warren" --version) (\`$warren\`), ${warren_threads[*]:-${warren_env[*]} (no --threads in this binary)}"
  has_tool fme || has_tool fme2 || has_tool fmmm &&
    echo "- OGDF: ogdf-wheel $(python3 -c 'import importlib.metadata as m; print(m.version("ogdf-wheel"))'); FME at its defaults (maxNumThreads 1) and with maxNumThreads 2, both with its CPU pinning turned off (it pins the main thread to CPU 0, and on 2 cores its second thread too); FM³ with useHighLevelOptions, qualityVersusSpeed BeautifulAndFast (its default)"
  has_tool sfdp || has_tool sfdp-cli &&
    echo "- Graphviz: $( (sfdp -V 2>&1 || echo "sfdp: not installed") | head -1) (sfdp defaults, start=$seed; call time = gvLayout() through libgvc)"
  has_tool drl || has_tool fr &&
    echo "- igraph: python-igraph $(python3 -c 'import igraph; print(igraph.__version__)') (layout_drl and layout_fruchterman_reingold at their defaults)"
  echo "- seed $seed for every tool; scored by \`warren layout GRAPH --positions POS.tsv --json\`; raw figures in \`$run/results.jsonl\`"
} >"$run/header.md"
cat "$run/header.md"
echo

# --- runs --------------------------------------------------------------------------------------
skip_reason() { # GRAPH TOOL: a reason to skip, or nothing
  local n=${vertices[$1]}
  # From this machine's level-100k run: sfdp 121 s, DrL 197 s (each about n log n or worse, so
  # over 20 min at 10^6); FR 14 s, FM³ 28 s, FME 1 s.
  case $2 in
    sfdp|sfdp-cli) ((n < 1000000)) || echo "sfdp: 2 min at 10^5 vertices, est. over 20 min at 10^6" ;;
    drl) ((n < 1000000)) || echo "igraph DrL: 3.3 min at 10^5 vertices, est. over 30 min at 10^6" ;;
  esac
}
set_command() { # GRAPH TOOL POS: sets cmd, the command line
  local g=$1 pos=$3
  case $2 in
    warren) cmd=(env "${warren_env[@]}" "$warren" layout "$g" --json --out "$pos" --seed "$seed" "${warren_threads[@]}") ;;
    warren-ml) cmd=(env "${warren_env[@]}" "$warren" layout "$g" --json --out "$pos" --seed "$seed" "${warren_threads[@]}" --algorithm multilevel) ;;
    fme) cmd=(target/peers/ogdf_layout fme "$g" "$pos" --seed "$seed" --no-affinity) ;;
    fme2) cmd=(target/peers/ogdf_layout fme "$g" "$pos" --seed "$seed" --threads 2 --no-affinity) ;;
    fmmm) cmd=(target/peers/ogdf_layout fmmm "$g" "$pos" --seed "$seed") ;;
    sfdp) cmd=(target/peers/sfdp_layout "$g" "$pos" --seed "$seed") ;;
    sfdp-cli) cmd=(python3 "$here/sfdp_cli.py" "$g" "$pos" --seed "$seed") ;;
    drl) cmd=(python3 "$here/igraph_layout.py" "$g" drl "$pos" --seed "$seed") ;;
    fr) cmd=(python3 "$here/igraph_layout.py" "$g" fr "$pos" --seed "$seed") ;;
  esac
}
for g in "${graphs[@]}"; do
  gfile=target/peers/graphs/$g.txt
  for t in "${tool_list[@]}"; do
    base=$run/$g.$t
    reason=$(skip_reason "$g" "$t")
    if [[ -n $reason ]]; then
      echo "-- $g $t: skipped ($reason)"
      python3 "$here/report.py" record "$results" --graph "$g" --tool "$t" --status skipped --reason "$reason"
      continue
    fi
    set_command "$gfile" "$t" "$base.tsv"
    echo "-- $g $t: ${cmd[*]}"
    load=$(cut -d' ' -f1 /proc/loadavg)
    t0=$(date +%s%N)
    set +e
    timeout -k 10 "$timeout_s" /usr/bin/time -v -o "$base.time" "${cmd[@]}" >"$base.json" 2>"$base.err"
    rc=$?
    set -e
    wall_ms=$((($(date +%s%N) - t0) / 1000000))
    status=ok
    if ((rc == 124 || rc == 137)); then status=timeout; elif ((rc != 0)); then status=failed; fi
    cat "$base.json"
    score=()
    if [[ $status == ok ]]; then
      set +e
      timeout -k 10 "$timeout_s" "$warren" layout "$gfile" --positions "$base.tsv" --json >"$base.score" 2>"$base.score.err"
      src=$?
      set -e
      if ((src == 0)); then
        score=(--score-json "$base.score")
        cat "$base.score"
      else
        echo "   score: n/a ($(tail -c 300 "$base.score.err" | tr '\n' ' '))"
      fi
    else
      echo "   $status (exit code $rc): $(tail -c 300 "$base.err" | tr '\n' ' ')"
    fi
    extra=()
    [[ $status == timeout ]] && extra=(--reason "still running after ${timeout_s} s")
    python3 "$here/report.py" record "$results" --graph "$g" --tool "$t" --status "$status" \
      --exit-code "$rc" --load "$load" --layout-json "$base.json" --time-v "$base.time" --wall-ms "$wall_ms" \
      "${score[@]}" "${extra[@]}"
  done
done

echo
python3 "$here/report.py" table "$results" --header "$run/header.md" | tee "$run/table.md"
cp "$run/table.md" target/peers/table.md
echo
echo "(tables also in target/peers/table.md and $run/table.md)"
