#!/usr/bin/env bash
# The full crash-consistency loop: 50 seeded cases of `kill -9` at seeded points of a batch
# that replaces an earlier report set, each followed by a command of another kind and
# `--resume` (Tests/smartstackTests/CrashConsistencyTests.swift; docs/reliability.md).
# `swift test` runs the first 12 of them, so that the whole suite stays within 3 minutes on
# 2 cores; this runs all 50 (about 40 s idle). .ci/run runs it.
#
#   Scripts/crash-consistency.sh [CASES [SWIFT TEST OPTION...]]     CASES: default 50
#
# Options after CASES go to `swift test`: .ci/run passes --skip-build, since its first
# stage has just built the tests (swift test's no-op build plan took about 10 s in CI).
set -euo pipefail
cd "$(dirname "$0")/.."
SMARTSTACK_CRASH_CASES="${1:-50}" swift test "${@:2}" \
  --filter 'CrashConsistencyTests/seededKillsLeaveAWholeSetAndResumeToTheSameBytes'
