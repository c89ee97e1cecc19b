#!/usr/bin/env bash
# Reproduces every figure of docs/BENCHMARKS.md, release builds, in about twenty minutes.
# Needs the project's packages (scripts/setup.sh: libwlroots-dev 0.15, umockdev, xkbcommon)
# and two used only here, installed below when missing (as root) or named if not root:
# valgrind (callgrind-counts.sh) and python3-yaml (PyYAML's C loader, the parse peer).
# Run as: Benchmarks/run-all.sh. The replay figures read the shared recordings in
# ../shared/recordings beside the repository, or $SEATKIT_RECORDINGS.
set -euo pipefail
cd "$(dirname "$0")"

missing=()
command -v valgrind >/dev/null || missing+=(valgrind)
python3 -c 'import yaml; yaml.CSafeLoader' 2>/dev/null || missing+=(python3-yaml)
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    echo "run-all: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  else
    echo "run-all: needs ${missing[*]} (apt-get install ${missing[*]}, or run as root to install them)" >&2
    exit 1
  fi
fi
export SEATKIT_RECORDINGS="${SEATKIT_RECORDINGS:-$(cd .. && pwd)/../shared/recordings}"
if [ ! -d "$SEATKIT_RECORDINGS" ]; then
  echo "run-all: no recordings at $SEATKIT_RECORDINGS (set SEATKIT_RECORDINGS)" >&2
  exit 1
fi

# The replay worker (seatkit replay-worker) is found beside BenchmarkReport.
swift build -c release --product BenchmarkReport
swift build -c release --product seatkit

echo "== hit-testing against wlroots, per-event path, key to text against xkbcommon, replay and parse against PyYAML, memory (writes docs/hit-testing.svg)"
.build/release/BenchmarkReport --svg ../docs/hit-testing.svg

echo "== memory over a replay of a million libinput events (about five minutes)"
.build/release/BenchmarkReport --only replay-memory

echo "== instructions per query under callgrind (repeatable, unlike time)"
./callgrind-counts.sh

echo "== instructions per key event under callgrind, and xkbcommon's share"
./callgrind-keys.sh

echo "== instructions per event through the C API and the Swift API (issue 13)"
./callgrind-capi.sh

echo "== wlroots alone, from C"
make -s -C WlrootsHarness
WlrootsHarness/wlroots-hit-test

echo "== ordo-one/benchmark suites: time and heap allocations"
swift package --disable-sandbox benchmark --no-progress
