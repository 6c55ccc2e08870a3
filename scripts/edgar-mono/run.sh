#!/usr/bin/env bash
# Builds Edgar-DotNet (dev branch, pinned commit) with Debian's Mono `mcs` and times its
# GraphBasedGeneratorGrid2D on the paper / docs inputs (see README.md in this folder).
#
# Usage: scripts/edgar-mono/run.sh [--build-only]
# Env knobs:
#   WORK=dir         work directory (default: a new mktemp -d); the table goes to $WORK/results.md
#   RUNS=n           counted layouts per input (default 100)
#   BUDGET=s         seconds per input (default 60)
#   FILTER=substr    only time inputs whose name contains substr (default: all)
#   EDGAR_GIT, GPT_GIT, RANGETREE_GIT, BENCHUTILS_GIT
#                    git directories of the four source repositories (default: $MIRROR/<owner>+<name>/repo
#                    if present, else a `git clone --bare` from https://github.com/<owner>/<name> into $WORK/git)
#   MIRROR=dir       where to look for those mirrors (default /work/.mirror)
# Needs: apt-get install -y mono-devel libnewtonsoft-json-cil-dev
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
BUILD_ONLY=0
for a in "$@"; do
  case "$a" in
    --build-only) BUILD_ONLY=1 ;;
    -h|--help) sed -n '2,15p' "$0"; exit 0 ;;
    *) echo "unknown argument: $a (use --build-only)" >&2; exit 1 ;;
  esac
done

# Pinned sources.
EDGAR_COMMIT=209490052a4884c854d39d5799f8e43c9f73dda7      # Edgar-DotNet dev, 2023-12-15 "Do not serialize sockets"
GPT_COMMIT=cb3d3771af55904fd9a21298e320f5f493584c81        # GraphPlanarityTesting master (NuGet 1.0.0)
RANGETREE_TAG=v1.0.0
RANGETREE_COMMIT=c19e6d06d7b3ac92dcaa20f188faf725fdfb5ef5  # = tag v1.0.0
BENCHUTILS_COMMIT=d4b2aabb6ec60253dc882504b364607ebe3c37fd # BenchmarkUtils master (1.2.3)

WORK=${WORK:-$(mktemp -d)}
mkdir -p "$WORK"
WORK=$(cd "$WORK" && pwd)
echo "work dir: $WORK"

# Tools.
if ! command -v mcs >/dev/null 2>&1 || ! command -v mono >/dev/null 2>&1; then
  echo "mcs and mono are needed:"
  echo "apt-get install -y mono-devel libnewtonsoft-json-cil-dev"
  exit 2
fi
NEWTONSOFT=""
for f in /usr/lib/mono/gac/Newtonsoft.Json/*/Newtonsoft.Json.dll; do
  [ -f "$f" ] && NEWTONSOFT=$f
done
if [ -z "$NEWTONSOFT" ]; then
  echo "Newtonsoft.Json.dll not found under /usr/lib/mono/gac/Newtonsoft.Json/*/:"
  echo "apt-get install -y mono-devel libnewtonsoft-json-cil-dev"
  exit 2
fi
echo "mcs: $(mcs --version); Newtonsoft.Json: $NEWTONSOFT"

# Source repositories: env var, else the local mirror, else a bare clone from GitHub.
repo_dir() { # $1 = env value, $2 = owner, $3 = name
  if [ -n "$1" ]; then echo "$1"; return; fi
  local m="${MIRROR:-/work/.mirror}/$2+$3/repo"
  if [ -d "$m" ]; then echo "$m"; return; fi
  local c="$WORK/git/$3.git"
  if [ ! -d "$c" ]; then
    echo "cloning https://github.com/$2/$3 into $c" >&2
    git clone --quiet --bare "https://github.com/$2/$3" "$c" >&2
  fi
  echo "$c"
}
EDGAR_GIT=$(repo_dir "${EDGAR_GIT:-}" OndrejNepozitek Edgar-DotNet)
GPT_GIT=$(repo_dir "${GPT_GIT:-}" OndrejNepozitek GraphPlanarityTesting)
RANGETREE_GIT=$(repo_dir "${RANGETREE_GIT:-}" mbuchetics RangeTree)
BENCHUTILS_GIT=$(repo_dir "${BENCHUTILS_GIT:-}" OndrejNepozitek BenchmarkUtils)

check_commit() { # $1 = git dir, $2 = rev, $3 = expected full hash
  local got
  got=$(git --git-dir="$1" rev-parse --verify --quiet "$2^{commit}") || { echo "$1: $2 not found" >&2; exit 1; }
  if [ "$got" != "$3" ]; then echo "$1: $2 is $got, expected $3" >&2; exit 1; fi
}
check_commit "$EDGAR_GIT" "$EDGAR_COMMIT" "$EDGAR_COMMIT"
check_commit "$GPT_GIT" "$GPT_COMMIT" "$GPT_COMMIT"
check_commit "$RANGETREE_GIT" "$RANGETREE_TAG" "$RANGETREE_COMMIT"
check_commit "$BENCHUTILS_GIT" "$BENCHUTILS_COMMIT" "$BENCHUTILS_COMMIT"

cd "$WORK"
rm -rf src deps build bench
mkdir -p src deps/gpt deps/rangetree deps/benchmarkutils build bench

# 1. Sources, blob by blob: `git archive` fails (or prints "invalid object") in the mirrors because a
#    few blobs outside the needed folders are absent there (Edgar's src/Resources/Images/texture_*.png,
#    GraphPlanarityTesting.Tests/Resources/*.txt). Only the library folders are extracted.
extract() { # $1 = git dir, $2 = commit, $3 = folder in the repository, $4 = destination
  local n=0 mode type sha path
  while read -r mode type sha path; do
    [ "$type" = blob ] || continue
    mkdir -p "$4/$(dirname "$path")"
    if git --git-dir="$1" cat-file blob "$sha" > "$4/$path" 2>/dev/null; then
      n=$((n + 1))
    else
      echo "  missing blob, skipped: $path"; rm -f "$4/$path"
    fi
  done < <(git --git-dir="$1" ls-tree -r "$2" -- "$3/")
  echo "  $3 @ ${2:0:8}: $n files"
  [ "$n" -gt 0 ] || { echo "nothing extracted from $1 $3" >&2; exit 1; }
}
echo "extracting sources"
extract "$EDGAR_GIT" "$EDGAR_COMMIT" src/Edgar src
extract "$GPT_GIT" "$GPT_COMMIT" GraphPlanarityTesting deps/gpt
extract "$RANGETREE_GIT" "$RANGETREE_COMMIT" RangeTree deps/rangetree
extract "$BENCHUTILS_GIT" "$BENCHUTILS_COMMIT" BenchmarkUtils deps/benchmarkutils
(cd src/src/Edgar && patch -p3 --quiet < "$HERE/edgar-mono.patch")

# 2. Dependency assemblies: NuGet packages rebuilt from source, plus the ImmutableArray shim.
echo "compiling dependencies"
mcs -langversion:experimental -target:library -optimize+ -nowarn:1591 \
  -out:build/GraphPlanarityTesting.dll -recurse:'deps/gpt/GraphPlanarityTesting/*.cs' > build/mcs-gpt.log 2>&1 \
  || { cat build/mcs-gpt.log; exit 1; }
mcs -target:library -optimize+ -nowarn:0414,1591 \
  -out:build/RangeTree.dll -recurse:'deps/rangetree/RangeTree/*.cs' > build/mcs-rangetree.log 2>&1 \
  || { cat build/mcs-rangetree.log; exit 1; }
mcs -langversion:experimental -target:library -optimize+ -nowarn:1591 \
  -out:build/BenchmarkUtils.dll -recurse:'deps/benchmarkutils/BenchmarkUtils/*.cs' > build/mcs-benchmarkutils.log 2>&1 \
  || { cat build/mcs-benchmarkutils.log; exit 1; }
mcs -target:library -optimize+ \
  -out:build/System.Collections.Immutable.dll "$HERE/ImmutableArrayShim.cs" > build/mcs-immutable.log 2>&1 \
  || { cat build/mcs-immutable.log; exit 1; }

# 3. Edgar.dll: src/Edgar minus the files in exclude-regex.txt (drawing, YAML loading, evolution tooling).
EXCL=$(cat "$HERE/exclude-regex.txt")
(cd src/src/Edgar && find . -name '*.cs' | grep -v -E "$EXCL" | sort) > build/edgar-files.txt
echo "compiling Edgar.dll ($(wc -l < build/edgar-files.txt) files)"
(cd src/src/Edgar && mcs -langversion:experimental -target:library -optimize+ -debug- \
  -nowarn:1591,0618,0168,0219,0414,0649,0169 -out:"$WORK/build/Edgar.dll" \
  -r:"$WORK/build/GraphPlanarityTesting.dll" -r:"$WORK/build/RangeTree.dll" \
  -r:"$WORK/build/BenchmarkUtils.dll" -r:"$WORK/build/System.Collections.Immutable.dll" \
  -r:"$NEWTONSOFT" -r:System.Drawing -r:System.Numerics -r:System.Runtime.Serialization -r:System.Net.Http \
  @"$WORK/build/edgar-files.txt") > build/mcs-edgar.log 2>&1 \
  || { grep -v warning build/mcs-edgar.log; exit 1; }
test -f build/Edgar.dll

# 4. Harness.
cp build/*.dll "$NEWTONSOFT" bench/
cp "$HERE/Bench.cs" "$HERE/inputs.txt" bench/
(cd bench && mcs -optimize+ -out:Bench.exe -r:Edgar.dll -r:System.Collections.Immutable.dll Bench.cs) \
  > build/mcs-bench.log 2>&1 || { cat build/mcs-bench.log; exit 1; }
echo "built: $WORK/bench/Bench.exe (compiler logs in $WORK/build/mcs-*.log)"

if [ "$BUILD_ONLY" = 1 ]; then
  echo "run later with: cd $WORK/bench && mono Bench.exe inputs.txt ${RUNS:-100} ${BUDGET:-60} 20"
  exit 0
fi

# 5. Timing: <= RUNS layouts or BUDGET s per input (after 2 warm-up layouts), 20 s per-layout cutoff.
cd bench
echo "running: mono Bench.exe inputs.txt ${RUNS:-100} ${BUDGET:-60} 20 ${FILTER:-}"
mono Bench.exe inputs.txt "${RUNS:-100}" "${BUDGET:-60}" 20 ${FILTER:+"$FILTER"} 2> "$WORK/bench.err" | tee "$WORK/results.md"
[ -s "$WORK/bench.err" ] && { echo "stderr of the run ($WORK/bench.err):"; cat "$WORK/bench.err"; }
echo "table: $WORK/results.md"
