#!/usr/bin/env bash
# Instructions per routed event on the per-event path (touch motion + frame through two
# recognizers and a five-deep chain; pointer motion with leave and enter; a key to the first
# responder; a pen's motion in contact through the same recognizers and chain), counted by callgrind: repeatable to the instruction whatever else the machine
# does, so a before/after comparison holds on a loaded machine.
#   Benchmarks/callgrind-per-event.sh [REPORT_BINARY ...]
# With no argument it builds and counts this checkout's BenchmarkReport; give several
# binaries (for example one built from an older commit) to compare them in one table.
# The environment goes on to the binary: SEATKIT_RECOGNIZERS=N (N recognizers on the touch
# chain instead of two) and SEATKIT_FAILED_RECOGNIZERS=N (N more that have failed) count what
# each recognizer costs per touch motion; SEATKIT_ALL_FAILED=1 (the two recognizers failed: a
# touch whose recognizers have all settled); SEATKIT_COMPOSED=1 (the two recognizers as one
# simultaneous composite); SEATKIT_ACCESSIBILITY=on|off (the eight accessibility
# filters; with SEATKIT_ACCESSIBILITY_ONLY=touch|bounce|slow|sticky|secondary|dwell|mousekeys|locate
# that one alone; SEATKIT_ACCESSIBILITY_UNDERWAY=1: touch accommodations' fingers held and
# counted, the pointer moving with the primary button held: what touch accommodations and
# simulated secondary click cost while they have something under way), SEATKIT_SPIES=cursor
# (a kiosk's cursor-visibility spy on each router), SEATKIT_READ_VELOCITY=1, SEATKIT_PER_EVENT_CALLS=N (N events a scene
# instead of 100,000: the same counts, sooner). CALLGRIND_RETAINS=0 skips the second run
# (the last column then reads "-").
# The two tap columns (issue 25, fourteenth round): one finger down + frame, up + frame on
# the leaf of a scene with no finger down (four events, counted per tap), through the same
# two recognizers (and the SEATKIT_RECOGNIZERS pans); then the same with the Swift kiosk's
# three-finger window switch on the output (RoutingScene.tapFinger and
# tapFingerBesideSwitch). "-" for a binary from before them. The held tap (issue 25, eighteenth
# round): down, a small move and up, each + frame, on a scene whose leaf has a long press that
# delays touches (the wlroots kiosk's): the down and move held until it fails at the lift
# (RoutingScene.tapFingerHeld; counted per held tap).
set -euo pipefail
cd "$(dirname "$0")"
if [ $# -eq 0 ]; then
  swift build -c release --product BenchmarkReport >/dev/null
  set -- .build/release/BenchmarkReport
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
echo "| binary | touch motion + frame | pointer motion | key press or release | pen motion | tap (down + frame, up + frame) | tap with a three-finger switch | held tap (down, move, up; a delaying long press) | retains / releases per touch motion + frame |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
n=0
for binary in "$@"; do
  n=$((n + 1))
  # valgrind cannot read the Swift toolchain's debug info: count a copy without it, beside
  # the original so that its libraries are found the same way.
  copy="$(dirname "$binary")/.callgrind-copy-$$-$n"
  strip --strip-debug -o "$copy" "$binary"
  # Its shared libraries too (the C API's), found first through LD_LIBRARY_PATH.
  mkdir -p "$out/lib$n"
  for so in "$(dirname "$binary")"/*.so; do [ -e "$so" ] && strip --strip-debug -o "$out/lib$n/$(basename "$so")" "$so"; done
  LD_LIBRARY_PATH="$out/lib$n${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" valgrind --tool=callgrind --callgrind-out-file="$out/cg$n.out" "$copy" --only per-event --rounds 1 \
    >/dev/null 2>"$out/valgrind$n.log" || { rm -f "$copy"; cat "$out/valgrind$n.log" >&2; exit 1; }
  # Again, collecting only inside the touch workload: the reference-counting calls it makes.
  if [ "${CALLGRIND_RETAINS:-1}" != 0 ]; then
    LD_LIBRARY_PATH="$out/lib$n${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" valgrind --tool=callgrind --callgrind-out-file="$out/touch$n.out" \
      --toggle-collect='*moveFinger*' "$copy" --only per-event --rounds 1 >/dev/null 2>>"$out/valgrind$n.log" || { rm -f "$copy"; cat "$out/valgrind$n.log" >&2; exit 1; }
  fi
  rm -f "$copy"
  callgrind_annotate --inclusive=yes --threshold=100 "$out/cg$n.out" > "$out/annotate$n.txt"
  python3 - "$out/cg$n.out" "$out/annotate$n.txt" "$binary" "$out/touch$n.out" <<'PY'
import re, sys
cg, annotate, binary, touch_cg = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3], sys.argv[4]
def inclusive(pattern):
    for line in annotate.splitlines():
        m = re.match(r"^\s*([\d,]+) \([^)]*\)\s+\*?\s*(.*)$", line)
        if m and re.search(pattern, m.group(2)):
            return int(m.group(1).replace(",", ""))
    raise SystemExit(f"{pattern} not found")
# Calls per function, from the raw profile: "calls=N" lines under cfn= entries.
def call_counts(path):
    text = open(path).read()
    names = {}
    for m in re.finditer(r"^(?:fn|cfn)=\((\d+)\)(?: (.*))?$", text, re.M):
        if m.group(2): names[m.group(1)] = m.group(2)
    counts = {}
    current = None
    for line in text.splitlines():
        m = re.match(r"^cfn=\((\d+)\)", line)
        if m: current = names.get(m.group(1), ""); continue
        m = re.match(r"^calls=(\d+)", line)
        if m and current is not None:
            counts[current] = counts.get(current, 0) + int(m.group(1)); current = None
    return counts
calls = call_counts(cg)
def per_call(pattern):
    total = inclusive(pattern)
    n = sum(v for k, v in calls.items() if re.search(pattern, k))
    return total / n
touch = per_call(r"RoutingWorkloads0A5SceneC10moveFinger|RoutingScene\.moveFinger")
pointer = per_call(r"RoutingWorkloads0A5SceneC17movePointerAcross|RoutingScene\.movePointerAcross")
key = per_call(r"RouterC3key_7keycode|RouterC3keyyyAA6RawKeyVF|Router\.key\(")  # key(_:keycode:state:), or key(_: RawKey) from i27x on
# A binary from before the pen workload has none: "-".
try:
    pen_pattern = r"RoutingWorkloads0A5SceneC7movePen|RoutingScene\.movePen"
    pen = f"{per_call(pen_pattern):,.0f}"
except (SystemExit, ZeroDivisionError):
    pen = "-"
taps = []
for tap_pattern in (r"RoutingWorkloads0A5SceneC9tapFinger4step|RoutingScene\.tapFinger\(", r"RoutingWorkloads0A5SceneC21tapFingerBesideSwitch|RoutingScene\.tapFingerBesideSwitch",
                    r"RoutingWorkloads0A5SceneC13tapFingerHeld|RoutingScene\.tapFingerHeld"):
    try:
        taps.append(f"{per_call(tap_pattern):,.0f}")
    except (SystemExit, ZeroDivisionError):
        taps.append("-")
touch_calls = sum(v for k, v in calls.items() if re.search(r"RoutingWorkloads0A5SceneC10moveFinger|RoutingScene\.moveFinger", k))
import os
if os.path.exists(touch_cg):
    inside = call_counts(touch_cg)
    retains = sum(v for k, v in inside.items() if re.fullmatch(r"swift_retain|swift_retain_n|swift_bridgeObjectRetain|swift_unknownObjectRetain", k))
    releases = sum(v for k, v in inside.items() if re.fullmatch(r"swift_release|swift_release_n|swift_bridgeObjectRelease|swift_unknownObjectRelease", k))
    counts = f"{retains / touch_calls:.1f} / {releases / touch_calls:.1f}"
else:
    counts = "-"
print(f"| {binary} | {touch:,.0f} | {pointer:,.0f} | {key:,.0f} | {pen} | {taps[0]} | {taps[1]} | {taps[2]} | {counts} |")
PY
done
