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
# --emit-log writes a log set with its manifest.json (and timelines.json) into a folder of
# its own; the committed folders keep only the donation log, visit log and stack, copied.
emitted="$(mktemp -d)"
smartstack simulate --scenario Datasets/scenarios/commuter.json --days 7 --strategy static --emit-log "$emitted"/commuter --out "$out"/commuter --quiet
smartstack simulate --scenario Datasets/scenarios/credit-card.json --days 7 --strategy static --emit-log "$emitted"/credit-card --emit-format jsonl --out "$out"/credit-card --quiet
smartstack simulate --scenario Datasets/scenarios/shift-worker.json --days 7 --strategy static --emit-log "$emitted"/shift-worker --out "$out"/shift-worker --quiet
for folder in commuter credit-card shift-worker; do
  for file in Datasets/logs/"$folder"/*; do cp "$emitted/$folder/$(basename "$file")" "$file"; done
done
rm -rf "$out" "$emitted"
