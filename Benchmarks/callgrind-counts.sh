#!/usr/bin/env bash
# Instructions per hit-test query, SeatKit and wlroots, counted by callgrind: unlike time,
# they do not move with machine load. One pass of 1,024 queries per side and case.
#   Benchmarks/callgrind-counts.sh ["10 nested"]
set -euo pipefail
cd "$(dirname "$0")"
# REPORT=PATH counts an already built BenchmarkReport (one built from another commit, to
# compare before and after) instead of building this checkout's.
report=${REPORT:-}
if [ -z "$report" ]; then
  swift build -c release --product BenchmarkReport >/dev/null
  report=.build/release/BenchmarkReport
fi
out=$(mktemp -d)
args=(--callgrind)
if [ $# -gt 0 ]; then args+=(--filter "$1"); fi
# valgrind cannot read the Swift toolchain's debug info ("possibly corrupted"): use a copy
# without it.
strip --strip-debug -o "$out/BenchmarkReport" "$report"
for so in "$(dirname "$report")"/*.so; do [ -e "$so" ] && strip --strip-debug -o "$out/$(basename "$so")" "$so"; done
export LD_LIBRARY_PATH="$out${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out/cg.out" \
  "$out/BenchmarkReport" "${args[@]}" >/dev/null 2>"$out/valgrind.log"
python3 - "$out" <<'PY'
import glob, re, sys
counts = {}
for path in glob.glob(sys.argv[1] + "/cg.out*"):
    text = open(path).read()
    name = re.search(r"^desc: Trigger: Client Request: (.*)$", text, re.M)
    total = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
    if name and total:
        side, case = name.group(1).split(" ", 1)
        counts.setdefault(case, {})[side] = int(total.group(1)) / 1024
def order(case):
    n, shape, points = case.split()
    return (int(n), shape, ["hit", "miss", "random"].index(points))
print("| rects | tree | points | SeatKit instr/query | wlroots instr/query | wlroots ÷ SeatKit |")
print("|---:|---|---|---:|---:|---:|")
for case in sorted(counts, key=order):
    s, w = counts[case]["seatkit"], counts[case]["wlroots"]
    n, shape, points = case.split()
    print(f"| {n} | {shape} | {points} | {s:.0f} | {w:.0f} | {w / s:.2f}× |")
PY
rm -rf "$out"
