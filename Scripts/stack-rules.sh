#!/usr/bin/env bash
# The full stack-rules loop: every built-in strategy but the oracle on every bundled
# scenario under every variant (as bundled, Smart Rotate off, a tight rotation limit) keeps
# the stack rules (Tests/SmartStackKitTests/Scenario/StackRulesScenarioTests.swift).
# `swift test` checks each scenario under one variant, a third of the work, so that the
# whole suite stays within 3 minutes on 2 cores; this runs all of it. .ci/run runs it.
#
#   Scripts/stack-rules.sh [SWIFT TEST OPTION...]
#
# The options go to `swift test`: .ci/run passes --skip-build, since its first stage has
# just built the tests (swift test's no-op build plan took about 10 s in CI).
set -euo pipefail
cd "$(dirname "$0")/.."
SMARTSTACK_STACK_RULES=all swift test "$@" \
  --filter 'StackRulesScenarioTests/noBuiltInStrategyButTheOracleBreaksAStackRule'
