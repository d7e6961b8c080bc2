#!/usr/bin/env bash
# The full reliability loop of damaged journals: 400 damaged `--resume` journals (80 of
# each kind of damage), each refused or giving the reports of an uninterrupted run byte
# for byte, never other reports (Tests/SmartStackKitTests/Reliability/
# JournalCorruptionTests.swift). `swift test` runs 40 of them, so that the whole suite
# stays under 3 minutes on 2 cores; this runs all 400 (about 2 minutes). .ci/run runs it.
#
#   Scripts/journal-corruption.sh [CASES [SWIFT TEST OPTION...]]     CASES: default 400
#
# Options after CASES go to `swift test`: .ci/run passes --skip-build, since its first
# stage has just built the tests (swift test's no-op build plan took about 10 s in CI).
set -euo pipefail
cd "$(dirname "$0")/.."
SMARTSTACK_JOURNAL_CASES="${1:-400}" swift test "${@:2}" \
  --filter 'JournalCorruptionTests/damagedJournalsAreRefusedOrRecomputedNeverWrong'
