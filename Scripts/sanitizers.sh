#!/usr/bin/env bash
# Runs the test suite under the sanitizers (docs/reliability.md):
#   address: every test, with AddressSanitizer (use after free, overflows, leaks of C memory)
#   thread:  the batch runner's tests (Batch*, the failing-cell and interrupt tests), with
#            ThreadSanitizer (data races between the parallel cells and the journal)
#
#   Scripts/sanitizers.sh [address|thread|all]     (default: all)
#
# Each sanitizer builds into its own scratch folder (.build-asan, .build-tsan; git-ignored)
# so the normal .build is left alone. A first run builds everything (several minutes on
# 2 cores). Exits non-zero when a test fails or a sanitizer reports a problem.
set -euo pipefail
cd "$(dirname "$0")/.."
which="${1:-all}"

if [ "$which" = address ] || [ "$which" = all ]; then
  echo "== swift test --sanitize=address (every test)"
  ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:halt_on_error=1}" \
    swift test --sanitize=address --scratch-path .build-asan
fi

if [ "$which" = thread ] || [ "$which" = all ]; then
  echo "== swift test --sanitize=thread (the batch runner's tests)"
  TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1}" \
    swift test --sanitize=thread --scratch-path .build-tsan \
    --filter 'Batch|CellFailureTests|InterruptedBatchTests'
fi
echo "== sanitizers passed"
