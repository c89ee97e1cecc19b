#!/usr/bin/env python3
# The PyYAML side of the recording-parse benchmark, kept running beside BenchmarkReport so
# that both sides are timed in the same run, interleaved, without interpreter start-up.
# Reads lines "path repeats" on stdin; loads the file's text (read once, cached) `repeats`
# times with PyYAML's C loader and answers with the seconds per load on stdout.
import sys, time, yaml

texts = {}
for line in sys.stdin:
    path, repeats = line.rsplit(" ", 1)
    if path not in texts:
        with open(path, encoding="utf-8") as f:
            texts[path] = f.read()
    text = texts[path]
    start = time.perf_counter()
    for _ in range(int(repeats)):
        yaml.load(text, Loader=yaml.CSafeLoader)
    print((time.perf_counter() - start) / int(repeats), flush=True)
