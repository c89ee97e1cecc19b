#!/usr/bin/env bash
# Reproduces every figure of docs/BENCHMARKS.md, release builds, in about ten minutes.
# Needs libwlroots-dev 0.15 (scripts/setup.sh installs it). Run as: Benchmarks/run-all.sh
set -euo pipefail
cd "$(dirname "$0")"

echo "== SeatKit and wlroots side by side, per-event path, memory (writes docs/hit-testing.svg)"
swift build -c release --product BenchmarkReport
.build/release/BenchmarkReport --svg ../docs/hit-testing.svg

echo "== instructions per query under callgrind (repeatable, unlike time)"
./callgrind-counts.sh

echo "== wlroots alone, from C"
make -s -C WlrootsHarness
WlrootsHarness/wlroots-hit-test

echo "== ordo-one/benchmark suites: time and heap allocations"
swift package --disable-sandbox benchmark --no-progress
