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
# so the normal .build is left alone. (Its index store stays: on Linux, SwiftPM finds the
# tests through it; `--disable-index-store` makes `swift test` fail.) A first run builds
# everything (several minutes on 2 cores). `all` runs the two sanitizers at the same time
# (each builds, then tests): the builds' one-process steps (each layer's module, the links)
# and the tests' waits leave a core idle that the other fills. Each line is prefixed with
# its sanitizer ([address] or [thread]). Exits non-zero when a test fails or a sanitizer
# reports a problem (in `all`, after both have ended).
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

case "$which" in
  address) address ;;
  thread) thread ;;
  all)
    (address 2>&1 | sed -u 's/^/[address] /') &
    address_pid=$!
    (thread 2>&1 | sed -u 's/^/[thread] /') &
    thread_pid=$!
    failed=()
    wait "$address_pid" || failed+=(address)
    wait "$thread_pid" || failed+=(thread)
    if [ ${#failed[@]} -gt 0 ]; then echo "sanitizers failed: ${failed[*]}" >&2; exit 1; fi
    ;;
  *) echo "usage: Scripts/sanitizers.sh [address|thread|all]" >&2; exit 64 ;;
esac
echo "== sanitizers passed"
