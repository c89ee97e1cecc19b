#!/usr/bin/env bash
# Instructions per routed event through the C API (libCSeatKit.so, C callbacks) and through
# the Swift API (Router.inject, Swift responders) on the same scenes: the per-event table of
# docs/BENCHMARKS.md's C API section, free of the machine's timing noise. Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --product BenchmarkReport >/dev/null
out=$(mktemp -d)
strip --strip-debug -o "$out/BenchmarkReport" .build/release/BenchmarkReport
strip --strip-debug -o "$out/libCSeatKit.so" .build/release/libCSeatKit.so
LD_LIBRARY_PATH="$out" valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out/cg.out" \
  "$out/BenchmarkReport" --callgrind --only c-api >/dev/null 2>"$out/valgrind.log"
echo "| event | Swift API instructions/event | C API instructions/event | C / Swift |"
echo "|---|---:|---:|---:|"
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
  ratio=$(awk "BEGIN { printf \"%.2f\", ${per[c]} / ${per[swift]} }")
  echo "| $case | ${per[swift]} | ${per[c]} | ${ratio}× |"
done
rm -rf "$out"
