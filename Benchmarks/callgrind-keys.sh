#!/usr/bin/env bash
# Instructions per key event on each side of the key-to-text comparison (issue 4), counted by
# callgrind, with the part spent inside libxkbcommon: what SeatKit adds of its own, and what
# it saves by asking xkbcommon less. One warm pass, then one counted pass of 200 × the key
# sequence per side (BenchmarkReport --callgrind --only keys).
#   Benchmarks/callgrind-keys.sh
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
# valgrind cannot read the Swift toolchain's debug info: use a copy without it.
strip --strip-debug -o "$out/BenchmarkReport" "$report"
for so in "$(dirname "$report")"/*.so; do [ -e "$so" ] && strip --strip-debug -o "$out/$(basename "$so")" "$so"; done
export LD_LIBRARY_PATH="$out${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out/cg.out" \
  "$out/BenchmarkReport" --callgrind --only keys >/dev/null 2>"$out/valgrind.log"
python3 - "$out" <<'PY'
import glob, re, subprocess, sys
names = {"routed": "SeatKit: router → Keyboard → chain → responder reads the text",
         "interpreted": "Keyboard.interpret alone",
         "direct": "xkbcommon direct, from C"}
rows = {}
for path in glob.glob(sys.argv[1] + "/cg.out*"):
    text = open(path).read()
    name = re.search(r"^desc: Trigger: Client Request: (.*)$", text, re.M)
    total = re.search(r"^(?:summary|totals): (\d+)", text, re.M)
    if not (name and total):
        continue
    # Self cost per function: what ran inside libxkbcommon, wherever it was called from.
    report = subprocess.run(["callgrind_annotate", "--threshold=100", path], capture_output=True, text=True).stdout
    xkb = sum(int(m.group(1).replace(",", "")) for m in
              re.finditer(r"^\s*([\d,]+) \([^)]*\)\s+.*\[[^\]]*libxkbcommon[^\]]*\]\s*$", report, re.M))
    side, events = name.group(1).split()
    rows[side] = (int(total.group(1)), xkb, int(events))
print("| side | instructions/key event | in libxkbcommon | the rest (SeatKit, harness) |")
print("|---|---:|---:|---:|")
for side in ["routed", "interpreted", "direct"]:
    total, xkb, events = rows[side]
    print(f"| {names[side]} | {total / events:.0f} | {xkb / events:.0f} | {(total - xkb) / events:.0f} |")
PY
rm -rf "$out"
