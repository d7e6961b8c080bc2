#!/bin/sh
# Quick performance check for CI: fails only on a gross slowdown.
#
#   Scripts/bench-check.sh                  # exit 0 unless something is 3x slower
#   BENCH_MAX_SLOWDOWN=5 Scripts/bench-check.sh
#
# Builds the release binary (a debug build is 5-50x slower and would always fail), runs
# `smartstack bench --quick` (the reference workload at 200 people x 14 days and a
# 250,000-row log, best of 3, under 10 s) and compares every strategy's visits/s and the
# CSV and JSON Lines ingest MB/s with Benchmarks/baseline.json. CI machines are noisy,
# so only a measurement more than 3x slower than the baseline fails (exit 1, each one
# named on stderr). A baseline of another workload or build is refused (exit 65).
#
# After an intended change in speed, or on new hardware, refresh the baseline:
#   swift build -c release
#   taskset -c 1 .build/release/smartstack bench --quick --json > Benchmarks/baseline.json
set -eu
cd "$(dirname "$0")/.."

swift build -c release --product smartstack
exec .build/release/smartstack bench --quick \
  --baseline Benchmarks/baseline.json --max-slowdown "${BENCH_MAX_SLOWDOWN:-3}"
