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
#   Scripts/sanitizers.sh [address|thread|all|build|tests]     (default: all)
#
# `build` makes the two builds at the same time and runs no test; `tests` then runs the
# address tests and the thread tests one after the other (their `swift test` finds the builds
# done). `all` is `build` then `tests`. CI starts `build` in the background in the idle
# scheduling class (`chrt --idle 0`) when it starts, so it uses what the other stages leave
# idle, and runs `tests` once it has finished (.ci/run).
#
# Each sanitizer builds into its own scratch folder (.build-asan, .build-tsan; git-ignored)
# so the normal .build is left alone. (Its index store stays: on Linux, SwiftPM finds the
# tests through it; `--disable-index-store` makes `swift test` fail.) A first run builds
# everything (several minutes on 2 cores). `all` runs the two builds at the same time (a
# SwiftPM build leaves a core idle at each layer's module step and at the links; the other
# build fills it; each line prefixed [address] or [thread]; both exit statuses collected),
# then the address tests, then the thread tests, alone as before. Exits non-zero when a
# build or a test fails or a sanitizer reports a problem.
set -euo pipefail
cd "$(dirname "$0")/.."
which="${1:-all}"

address() {
  echo "== swift test --sanitize=address (the library tests, the bad-input corpus and the importers through the binary)"
  ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:halt_on_error=1}" \
    swift test --sanitize=address --scratch-path .build-asan \
    --filter '^SmartStackKitTests\.|BadInputCorpusTests|Import'
}

thread() {
  echo "== swift test --sanitize=thread (the batch runner's tests)"
  TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1}" \
    swift test --sanitize=thread --scratch-path .build-tsan \
    --filter 'Batch|CellFailureTests|InterruptedBatchTests'
}

# The two builds at the same time, each line prefixed [address] or [thread]; both exit
# statuses collected.
build() {
  echo "== swift build --build-tests, --sanitize=address and --sanitize=thread at the same time"
  (swift build --build-tests --sanitize=address --scratch-path .build-asan 2>&1 | sed -u 's/^/[address] /') &
  local address_pid=$!
  (swift build --build-tests --sanitize=thread --scratch-path .build-tsan 2>&1 | sed -u 's/^/[thread] /') &
  local thread_pid=$!
  local failed=()
  wait "$address_pid" || failed+=(address)
  wait "$thread_pid" || failed+=(thread)
  if [ ${#failed[@]} -gt 0 ]; then echo "sanitizer builds failed: ${failed[*]}" >&2; exit 1; fi
  echo "== sanitizer builds done"
}

case "$which" in
  address) address ;;
  thread) thread ;;
  build) build; exit 0 ;;
  # The two test runs one after the other, never side by side: a test run beside the other
  # one made a timing test of the library fail under ASan (40,000 keys read in 5.4 s, its
  # limit 5 s).
  tests) address; thread ;;
  all) build; address; thread ;;
  *) echo "usage: Scripts/sanitizers.sh [address|thread|all|build|tests]" >&2; exit 64 ;;
esac
echo "== sanitizers passed"
