#!/usr/bin/env bash
# Runs the Wayland Conformance Suites (Debian's wlcs 1.5) against SeatKit's Wayland layer:
# builds the integration module (libSeatKitWLCS.so, Sources/SeatKitWLCS), runs the plain and
# the AddressSanitizer runner, and compares each run's failures with
# Tests/wlcs/expected-failures. Exits non-zero on a failure not listed there, and on a listed
# test that now passes (take it off the list), so that the list only shrinks.
#
#   scripts/wlcs.sh                 both runners, every test
#   scripts/wlcs.sh plain|asan      one runner
#   scripts/wlcs.sh tsan            the integration module built with ThreadSanitizer (its
#                                   server runs on its own thread, wlcs calls from another),
#                                   run by the plain runner with the toolchain's TSan runtime
#                                   preloaded (Debian's wlcs.tsan uses gcc's, which a Swift
#                                   module cannot link against); any race report fails
#   WLCS_FILTER='PointerConstraints.*' scripts/wlcs.sh plain    a gtest filter (no list check
#                                   for tests outside it)
# Logs and JSON results: $WLCS_OUT (default /tmp/seatkit-wlcs).
set -euo pipefail
cd "$(dirname "$0")/.."

runners_dir=/usr/lib/x86_64-linux-gnu/wlcs
[ -x "$runners_dir/wlcs" ] || { echo "wlcs: $runners_dir/wlcs missing: apt-get install wlcs (scripts/setup.sh does)" >&2; exit 2; }
which=${1:-all}
case "$which" in all|plain|asan|tsan) ;; *) echo "usage: scripts/wlcs.sh [all|plain|asan|tsan]" >&2; exit 2 ;; esac
out=${WLCS_OUT:-/tmp/seatkit-wlcs}
mkdir -p "$out"
filter=${WLCS_FILTER:-*}

if [ "$which" = tsan ]; then
  swift build --product SeatKitWLCS --sanitize=thread --scratch-path .build-tsan
  module="$(swift build --sanitize=thread --scratch-path .build-tsan --show-bin-path)/libSeatKitWLCS.so"
  swift_lib="$(dirname "$(dirname "$(command -v swift)")")/lib"
  tsan_runtime=$(ls "$swift_lib"/clang/*/lib/linux/libclang_rt.tsan-x86_64.so | head -1)
else
  swift build --product SeatKitWLCS
  module="$(swift build --show-bin-path)/libSeatKitWLCS.so"
fi
expected=Tests/wlcs/expected-failures

# Test names from the expected-failures file: the first field of each non-comment line.
{ grep -v '^[[:space:]]*#' "$expected" || true; } | { grep -v '^[[:space:]]*$' || true; } | cut -d'|' -f1 \
  | sed 's/[[:space:]]*$//' | sort -u > "$out/expected.txt"

# Entries whose reason starts with "crashes the runner": not run at all (an abort in wlcs's
# own client code ends the whole run, so they cannot merely fail).
excluded=$({ grep -v '^[[:space:]]*#' "$expected" || true; } | { grep -i '| *crashes the runner' || true; } \
  | cut -d'|' -f1 | sed 's/[[:space:]]*$//' | paste -sd: -)
if [ -n "$excluded" ]; then
  case "$filter" in *-*) filter="$filter:$excluded" ;; *) filter="$filter-$excluded" ;; esac
fi

status=0
run() {
  local name=$1 runner=$2
  echo "wlcs: $name runner ($runner)"
  local start=$SECONDS
  # wlcs exits non-zero when any test fails; the comparison below decides.
  # The module's Swift runtime keeps allocations alive until exit: leak checking is off.
  local preload= backtrace=
  # The TSan runtime needs libdispatch's symbols, which the runner does not load itself;
  # Swift's crash backtracer cannot suspend threads under TSan, so TSan reports instead.
  if [ "$name" = tsan ]; then
    preload="$tsan_runtime $swift_lib/swift/linux/libdispatch.so"
    backtrace=enable=no
  fi
  ASAN_OPTIONS=detect_leaks=0 LD_PRELOAD="$preload" SWIFT_BACKTRACE="$backtrace" "$runner" "$module" --gtest_filter="$filter" \
    --gtest_output="json:$out/$name.json" > "$out/$name.log" 2>&1 || true
  if grep -q 'WARNING: ThreadSanitizer' "$out/$name.log"; then
    echo "wlcs: ThreadSanitizer reported a race; see $out/$name.log" >&2
    grep -A30 -m1 'WARNING: ThreadSanitizer' "$out/$name.log" >&2
    status=1
  fi
  if [ ! -s "$out/$name.json" ]; then
    echo "wlcs: the $name run ended without results (crash?); see $out/$name.log" >&2
    tail -20 "$out/$name.log" >&2
    status=1
    return
  fi
  python3 - "$out/$name.json" "$out/expected.txt" "$filter" docs/CONFORMANCE.md <<'PY' || status=1
import fnmatch, json, re, sys
results, expected_path, gfilter, conformance = sys.argv[1:5]
data = json.load(open(results))
expected = {l.strip() for l in open(expected_path) if l.strip()}
counts = {"passed": 0, "failed": 0, "skipped": 0}
failed, passed = set(), set()
for suite in data["testsuites"]:
    for t in suite["testsuite"]:
        name = suite["name"] + "." + t["name"]
        # wlcs skips a test that needs an extension the descriptor does not list: gtest
        # records it as failed, with the property wlcs-skip-test.
        if "wlcs-skip-test" in t or t.get("result") == "SKIPPED" or t.get("status") == "NOTRUN":
            counts["skipped"] += 1
        elif t.get("failures"):
            counts["failed"] += 1
            failed.add(name)
        else:
            counts["passed"] += 1
            passed.add(name)
print(f"wlcs: {counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped")
unexpected = sorted(failed - expected)
fixed = sorted(n for n in expected & passed)
for n in unexpected:
    print(f"wlcs: UNEXPECTED FAILURE {n}")
for n in fixed:
    print(f"wlcs: now passes, take it off Tests/wlcs/expected-failures: {n}")
# docs/CONFORMANCE.md says what a whole run gives: its headline and its per-suite table
# (whose columns must add up to the headline) must match this run.
stale = []
if gfilter.split("-")[0] == "*":
    text = open(conformance).read()
    m = re.search(r"\*\*(\d+) passed, (\d+) failed \(all listed\), (\d+) skipped\*\*", text)
    if not m or tuple(map(int, m.groups())) != (counts["passed"], counts["failed"], counts["skipped"]):
        stale.append(f"its headline says {m.group(0) if m else 'nothing'}")
    table = text.split("| Suite | passed | failed (listed) | skipped | not run |", 1)[-1].split("\n\n", 1)[0]
    sums = [0, 0, 0]
    for row in table.splitlines():
        cells = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cells) == 5 and cells[1].isdigit():
            for i in range(3):
                sums[i] += int(cells[i + 1])
    if tuple(sums) != (counts["passed"], counts["failed"], counts["skipped"]):
        stale.append(f"its table adds up to {sums[0]} passed, {sums[1]} failed, {sums[2]} skipped")
for why in stale:
    print(f"wlcs: docs/CONFORMANCE.md does not match this run: {why}")
sys.exit(1 if unexpected or fixed or stale else 0)
PY
  echo "wlcs: $name run took $((SECONDS - start)) s"
}

if [ "$which" = all ] || [ "$which" = plain ]; then run plain "$runners_dir/wlcs"; fi
if [ "$which" = all ] || [ "$which" = asan ]; then run asan "$runners_dir/wlcs.asan"; fi
if [ "$which" = tsan ]; then run tsan "$runners_dir/wlcs"; fi
exit $status
