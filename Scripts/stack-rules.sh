#!/usr/bin/env bash
# The full stack-rules loop: every built-in strategy but the oracle on every bundled
# scenario under every variant (as bundled, Smart Rotate off, a tight rotation limit) keeps
# the stack rules (Tests/SmartStackKitTests/Scenario/StackRulesScenarioTests.swift).
# `swift test` checks each scenario under one variant, a third of the work, so that the
# whole suite stays within 3 minutes on 2 cores; this runs all of it. .ci/run runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
SMARTSTACK_STACK_RULES=all swift test \
  --filter 'StackRulesScenarioTests/noBuiltInStrategyButTheOracleBreaksAStackRule'
