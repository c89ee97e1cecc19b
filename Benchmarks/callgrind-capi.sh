#!/usr/bin/env bash
# Instructions per routed event through the C API (libCSeatKit.so, C callbacks) and through
# the Swift API (Router.inject, Swift responders) on the same scenes: the per-event table of
# docs/BENCHMARKS.md's C API section, free of the machine's timing noise. Needs valgrind.
#
#   ./callgrind-capi.sh                  builds this checkout's BenchmarkReport (release) and
#                                        measures it
#   ./callgrind-capi.sh BASE AFTER       measures two prebuilt builds, one after the other:
#                                        each a directory holding BenchmarkReport and the
#                                        libCSeatKit.so it was built with (a release
#                                        `.build/release`, or a copy of those two files)
set -euo pipefail
# Prebuilt directories named relative to the caller's directory, resolved before the cd below.
args=()
for dir in "$@"; do args+=("$(realpath "$dir")"); done
set -- "${args[@]}"
cd "$(dirname "$0")"

# Prints "touch pointer key" lines of "event swift c" for the build in directory $1.
measure() {
  local dir=$1 out
  out=$(mktemp -d)
  strip --strip-debug -o "$out/BenchmarkReport" "$dir/BenchmarkReport"
  strip --strip-debug -o "$out/libCSeatKit.so" "$dir/libCSeatKit.so"
  LD_LIBRARY_PATH="$out" valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out/cg.out" \
    "$out/BenchmarkReport" --callgrind --only c-api >/dev/null 2>"$out/valgrind.log"
  for case in touch pointer key; do
    declare -A per=()
    for side in swift c; do
      for f in "$out"/cg.out*; do
        if grep -q "^desc: Trigger: Client Request: $side-$case " "$f"; then
          total=$(sed -n 's/^\(summary\|totals\): \([0-9]*\).*/\2/p' "$f" | head -n 1)
          events=$(sed -n "s/^desc: Trigger: Client Request: $side-$case \([0-9]*\)$/\1/p" "$f")
          per[$side]=$((total / events))
        fi
      done
    done
    echo "$case ${per[swift]} ${per[c]}"
  done
  rm -rf "$out"
}

ratio() { awk "BEGIN { printf \"%.2f\", $1 / $2 }"; }

if [ $# -eq 0 ]; then
  swift build -c release --product BenchmarkReport >/dev/null
  echo "| event | Swift API instructions/event | C API instructions/event | C / Swift |"
  echo "|---|---:|---:|---:|"
  measure .build/release | while read -r case swift c; do
    echo "| $case | $swift | $c | $(ratio "$c" "$swift")× |"
  done
elif [ $# -eq 2 ]; then
  base=$(measure "$1")
  after=$(measure "$2")
  echo "| event | Swift API: base | C API: base | C / Swift: base | Swift API: after | C API: after | C / Swift: after |"
  echo "|---|---:|---:|---:|---:|---:|---:|"
  paste -d ' ' <(echo "$base") <(echo "$after") | while read -r case bs bc _ as ac; do
    echo "| $case | $bs | $bc | $(ratio "$bc" "$bs")× | $as | $ac | $(ratio "$ac" "$as")× |"
  done
else
  echo "usage: $0 [BASE-DIR AFTER-DIR]  (each holding BenchmarkReport and libCSeatKit.so)" >&2
  exit 2
fi
