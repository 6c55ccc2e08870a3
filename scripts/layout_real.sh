#!/usr/bin/env bash
# Real graphs against the stress optimum: `warren layout` beside s_gd2 (stress by stochastic
# gradient descent, the reference for low stress) and OGDF's fast multipole embedder on the
# networks of Debian's python3-graph-tool and the meshes of libmetis-doc (issue 48, item 5).
# Every drawing is scored by warren's own code (`warren layout GRAPH --positions POS.tsv
# --json`, its `stress`), so all tools are measured alike.
#
#   scripts/layout_real.sh                       every graph the two packages ship up to 100,000
#                                                vertices (largest connected components)
#   scripts/layout_real.sh --graphs karate,power,4elt    chosen graphs (names as in
#                                                target/peers/real/graphs/index.tsv)
#   options: --tools warren,sgd2,fme,fme2 (the default), --pivots P (s_gd2's sparse pivots,
#            default 200), --full-max N (s_gd2 runs its full all-pairs stress up to N vertices,
#            sparse above; default 10000), --timeout SEC (each process, default 900), --seed S
#            (every tool's seed, default 1)
#            --warren-args "ARGS" (appended to warren's layout command, e.g. "--algorithm stress")
#   WARREN=path/to/warren  the binary to test and score with (default target/release/warren,
#                          built with `cargo build --release` when missing)
#
# What is missing is installed first (apt-get: time, g++; pip: s-gd2, ogdf-wheel). The graphs
# come from scripts/real_graphs.py (apt-get download of the two .deb files, dpkg-deb -x, both into
# target/peers/real/ and reused on later runs). OGDF's harness is scripts/layout_peers/ogdf_layout.cpp,
# compiled once into target/peers/ as scripts/layout_peers.sh does; s_gd2's is
# scripts/layout_real/sgd2_layout.py. Each run's positions, tool JSON, scores and logs go to
# target/peers/real/runs/DATE/ (results.jsonl in the format of scripts/layout_peers/report.py),
# the table to stdout and target/peers/real_table.md.
#
# Times are each tool's layout call alone, as the tool times it (warren: its `time_ms`; s_gd2:
# the s_gd2.layout / layout_sparse call; OGDF: call()), in one run, one tool after the other.
# warren runs with --threads 2, FME at its defaults (1 thread) and with maxNumThreads 2 (both with
# OGDF's CPU pinning made a no-op, see ogdf_layout.cpp), s_gd2 single-threaded (it has no thread
# setting).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
here=$root/scripts/layout_real
peers=$root/scripts/layout_peers

graphs_arg=
warren_args=()
tools=warren,sgd2,fme,fme2
pivots=200
full_max=10000
timeout_s=900
seed=1
while (($#)); do
  case $1 in
    --graphs) graphs_arg=$2; shift 2 ;;
    --tools) tools=$2; shift 2 ;;
    --pivots) pivots=$2; shift 2 ;;
    --full-max) full_max=$2; shift 2 ;;
    --timeout) timeout_s=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --warren-args) read -r -a warren_args <<<"$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "layout_real.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
IFS=, read -r -a tool_list <<<"$tools"
has_tool() { [[ ,$tools, == *,$1,* ]]; }
for t in "${tool_list[@]}"; do
  case $t in warren|sgd2|fme|fme2) ;;
    *) echo "layout_real.sh: unknown tool '$t' (warren, sgd2, fme, fme2)" >&2; exit 2 ;; esac
done

# --- what the run needs, installed when missing ----------------------------------------------
apt_need=()
[[ -x /usr/bin/time ]] || apt_need+=(time)
command -v timeout >/dev/null || apt_need+=(coreutils)
command -v dpkg-deb >/dev/null || apt_need+=(dpkg)
if has_tool fme || has_tool fme2; then command -v g++ >/dev/null || apt_need+=(g++); fi
if ((${#apt_need[@]})); then
  echo "== installing ${apt_need[*]} (apt-get)" >&2
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y "${apt_need[@]}" >&2; then
    apt-get update >&2 && apt-get install -y "${apt_need[@]}" >&2 ||
      { echo "layout_real.sh: could not install ${apt_need[*]} with apt-get" >&2; exit 1; }
  fi
fi
pip_need=()
if has_tool sgd2; then python3 -c 'import s_gd2' 2>/dev/null || pip_need+=(s-gd2); fi
if has_tool fme || has_tool fme2; then
  python3 -c 'import importlib.metadata as m; m.version("ogdf-wheel")' 2>/dev/null || pip_need+=(ogdf-wheel)
fi
if ((${#pip_need[@]})); then
  echo "== installing ${pip_need[*]} (pip)" >&2
  python3 -m pip install --quiet "${pip_need[@]}" >&2 ||
    { echo "layout_real.sh: pip could not install ${pip_need[*]}" >&2; exit 1; }
fi

warren=${WARREN:-target/release/warren}
if [[ ! -x $warren ]]; then
  if [[ -n ${WARREN:-} ]]; then echo "layout_real.sh: WARREN=$WARREN is not an executable" >&2; exit 2; fi
  echo "== cargo build --release (no $warren yet)" >&2
  cargo build --release >&2
fi
warren=$(realpath "$warren")

mkdir -p target/peers
if has_tool fme || has_tool fme2; then
  # As scripts/layout_peers.sh builds it (the same command, so either script reuses the binary).
  ogdf_prefix=$(python3 -c 'import importlib.metadata as m
f = [p for p in m.files("ogdf-wheel") if p.name == "libOGDF.so"][0]
print(f.locate().resolve().parent.parent)')
  ogdf_cmd=(g++ -O2 -std=c++17 -I"$ogdf_prefix/include/ogdf-release" -I"$ogdf_prefix/include"
            "$peers/ogdf_layout.cpp" -L"$ogdf_prefix/lib" -Wl,-rpath,"$ogdf_prefix/lib" -lOGDF
            -lCOIN -pthread -o target/peers/ogdf_layout)
  out=target/peers/ogdf_layout
  if ! [[ -x $out && $out -nt $peers/ogdf_layout.cpp && -f $out.cmd && $(cat "$out.cmd") == "${ogdf_cmd[*]}" ]]; then
    echo "== ${ogdf_cmd[*]}" >&2
    "${ogdf_cmd[@]}"
    echo "${ogdf_cmd[*]}" >"$out.cmd"
  fi
fi

# --- graphs --------------------------------------------------------------------------------------
gdir=target/peers/real/graphs
selected=()
[[ -n $graphs_arg ]] && IFS=', ' read -r -a selected <<<"$graphs_arg"
python3 scripts/real_graphs.py "${selected[@]}" >/dev/null
declare -A nverts=()
graphs=()
while IFS=$'\t' read -r name _source n _m _fn _fm _header skip; do
  [[ $name == name ]] && continue
  if ((${#selected[@]})) && [[ " ${selected[*]} " != *" $name "* ]]; then continue; fi
  if [[ -n $skip ]]; then echo "-- $name: skipped ($skip)"; continue; fi
  graphs+=("$name")
  nverts[$name]=$n
done <"$gdir/index.tsv"

stamp=$(date -u +%Y%m%dT%H%M%SZ)
run=target/peers/real/runs/$stamp
mkdir -p "$run"
results=$run/results.jsonl
: >"$results"
{
  echo "## Real graphs: warren layout vs. s_gd2 and OGDF FME, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "- machine: $(nproc) cores ($(lscpu | sed -n 's/^Model name: *//p' | head -1)), load average at start $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- warren: $("$warren" --version) (\`$warren\`), --threads 2"
  has_tool sgd2 &&
    echo "- s_gd2: s-gd2 $(python3 -c 'import importlib.metadata as m; print(m.version("s-gd2"))'), full (\`s_gd2.layout\`) up to $full_max vertices, sparse (\`s_gd2.layout_sparse\`, $pivots pivots) above; t_max 30, eps 0.01 (its defaults)"
  has_tool fme || has_tool fme2 &&
    echo "- OGDF: ogdf-wheel $(python3 -c 'import importlib.metadata as m; print(m.version("ogdf-wheel"))'); FME at its defaults (1 thread) and with maxNumThreads 2, CPU pinning off"
  echo "- graphs: largest connected components of Debian's python3-graph-tool collection and libmetis-doc examples (\`scripts/real_graphs.py\`)"
  echo "- warren: \`warren layout GRAPH --threads 2 ${warren_args[*]}\`"
  echo "- seed $seed for every tool; stress = \`warren layout GRAPH --positions POS.tsv --json\`'s \`stress\`; times = each tool's layout call; raw figures in \`$run/results.jsonl\`"
} >"$run/header.md"
cat "$run/header.md"
echo

# --- runs ----------------------------------------------------------------------------------------
set_command() { # GRAPH-FILE TOOL POS N: sets cmd
  local g=$1 pos=$3 n=$4
  case $2 in
    warren) cmd=("$warren" layout "$g" --json --out "$pos" --seed "$seed" --threads 2 "${warren_args[@]}") ;;
    sgd2)
      if ((n <= full_max)); then
        cmd=(python3 "$here/sgd2_layout.py" "$g" "$pos" --mode full --seed "$seed")
      else
        cmd=(python3 "$here/sgd2_layout.py" "$g" "$pos" --mode sparse --pivots "$pivots" --seed "$seed")
      fi ;;
    fme) cmd=(target/peers/ogdf_layout fme "$g" "$pos" --seed "$seed" --no-affinity) ;;
    fme2) cmd=(target/peers/ogdf_layout fme "$g" "$pos" --seed "$seed" --threads 2 --no-affinity) ;;
  esac
}
t_start=$(date +%s)
for g in "${graphs[@]}"; do
  gfile=$gdir/$g.txt
  for t in "${tool_list[@]}"; do
    base=$run/$g.$t
    set_command "$gfile" "$t" "$base.tsv" "${nverts[$g]}"
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
    score=()
    if [[ $status == ok ]]; then
      set +e
      timeout -k 10 "$timeout_s" "$warren" layout "$gfile" --positions "$base.tsv" --json >"$base.score" 2>"$base.score.err"
      src=$?
      set -e
      if ((src == 0)); then
        score=(--score-json "$base.score")
        echo "   $(python3 -c 'import json,sys; a,b=(json.loads(open(f).read().strip().splitlines()[-1]) for f in sys.argv[1:]); print("time %.1f ms, stress %.4g" % (a["time_ms"], b["stress"]))' "$base.json" "$base.score")"
      else
        echo "   score: n/a ($(tail -c 300 "$base.score.err" | tr '\n' ' '))"
      fi
    else
      echo "   $status (exit code $rc): $(tail -c 300 "$base.err" | tr '\n' ' ')"
    fi
    extra=()
    [[ $status == timeout ]] && extra=(--reason "still running after ${timeout_s} s")
    python3 "$peers/report.py" record "$results" --graph "$g" --tool "$t" --status "$status" \
      --exit-code "$rc" --load "$load" --layout-json "$base.json" --time-v "$base.time" --wall-ms "$wall_ms" \
      "${score[@]}" "${extra[@]}"
  done
done
elapsed=$(($(date +%s) - t_start))

echo
python3 "$here/table.py" "$results" --index "$gdir/index.tsv" --header "$run/header.md" \
  --elapsed "$elapsed" | tee "$run/table.md"
cp "$run/table.md" target/peers/real_table.md
echo
echo "(table also in target/peers/real_table.md and $run/table.md)"
