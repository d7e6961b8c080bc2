#!/usr/bin/env bash
# Runs the test suite under the sanitizers (docs/reliability.md):
#   address: every library test (SmartStackKitTests) and the command-line tests that feed the
#            binary hostile files (the bad-input corpus, the importers), with AddressSanitizer
#            (use after free, overflows); the other command-line tests run without it in
#            `swift test`: they drive the same library code and took most of the 11 minutes
#            that every test took under AddressSanitizer in CI
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
  echo "== swift test --sanitize=address (the library tests, the bad-input corpus and the importers through the binary)"
  ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:halt_on_error=1}" \
    swift test --sanitize=address --scratch-path .build-asan \
    --filter '^SmartStackKitTests\.|BadInputCorpusTests|Import'
fi

if [ "$which" = thread ] || [ "$which" = all ]; then
  echo "== swift test --sanitize=thread (the batch runner's tests)"
  TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1}" \
    swift test --sanitize=thread --scratch-path .build-tsan \
    --filter 'Batch|CellFailureTests|InterruptedBatchTests'
fi
echo "== sanitizers passed"
