#!/usr/bin/env bash
# Regenerates every simulator-made sample log in Datasets/logs/ byte for byte.
# Run from the repository root: Datasets/logs/regenerate.sh
# (Tests/smartstackTests/DatasetsTests.swift runs these same lines and compares bytes.)
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --product smartstack >/dev/null
smartstack() { .build/release/smartstack "$@"; }
export TMPDIR="${TMPDIR:-/tmp}"
out="$(mktemp -d)"
smartstack simulate --scenario Datasets/scenarios/commuter.json --days 7 --strategy static --emit-log Datasets/logs/commuter --out "$out" --quiet
smartstack simulate --scenario Datasets/scenarios/credit-card.json --days 7 --strategy static --emit-log Datasets/logs/credit-card --emit-format jsonl --out "$out" --quiet
smartstack simulate --scenario Datasets/scenarios/shift-worker.json --days 7 --strategy static --emit-log Datasets/logs/shift-worker --out "$out" --quiet
rm -rf "$out"
