#!/bin/sh
# Tunes hour-of-week's half-life and smart-rotate's weights on a generated 60-day log
# (docs/batch.md, "Tuning"): the simulator writes 60 days of the commuter scenario's 20
# people as a donation log, visit log and stack, and `batch` tunes on the validation
# window (2026-04-06..2026-04-19) by random search and successive halving and reports the
# chosen parameters on the test window (2026-04-20..2026-04-30) with their CIs.
#
#   Scripts/tuning-generated.sh [OUT]      (default OUT: reports/tuning-generated)
#
# The same bytes every time: the log, the draws and the runs are seeded.
set -eu
cd "$(dirname "$0")/.."
out=${1:-reports/tuning-generated}
swift build -c release --product smartstack >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
.build/release/smartstack simulate --scenario Datasets/scenarios/commuter.json --days 60 --strategy static \
  --emit-log "$work/log" --out "$work/sim" --quiet
sed "s|\"../logs/commuter/|\"$work/log/|g; s|\"name\": \"tuning-commuter\"|\"name\": \"tuning-generated\"|;
     s|2026-03-02..2026-03-04|2026-03-02..2026-04-05|; s|2026-03-05..2026-03-06|2026-04-06..2026-04-19|;
     s|2026-03-07..2026-03-08|2026-04-20..2026-04-30|; s|\"commuter-log\"|\"generated-60-days\"|" \
  Datasets/experiments/tuning-commuter.json > "$work/tuning-generated.json"
.build/release/smartstack batch "$work/tuning-generated.json" --out "$out" --overwrite
