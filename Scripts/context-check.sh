#!/usr/bin/env bash
# The claims of docs/context.md, checked with the release build (seconds there, too slow
# for swift test's debug build):
# 1. Datasets/experiments/context.json, paired against mfu and against hour-of-week: on
#    commuter-context, context-mfu and context-bandit beat both on hit_rate with 95 %
#    intervals above 0 (issue 33's done-when).
# 2. context-bandit's exposure log of commuter-context (14 days) evaluates every target,
#    context ones included, and rule replay's hit-rate estimate of each is within 0.005 of
#    its on-policy hits/visits of the same 14 days.
#
# Usage: Scripts/context-check.sh [OUT]   (SMARTSTACK: the binary; default: the release
# build). About 10 seconds on the 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${SMARTSTACK:-$PWD/.build/release/smartstack}"
out="${1:-$(mktemp -d)}"
mkdir -p "$out"
rm -rf "$out/mfu" "$out/how" "$out/logging" "$out/evaluate" "$out/onpolicy" "$out"/ctx-exposures*
"$bin" batch Datasets/experiments/context.json --out "$out/mfu" --quiet
"$bin" batch Datasets/experiments/context.json --baseline hour-of-week --out "$out/how" --quiet
"$bin" simulate --scenario Datasets/scenarios/commuter-context.json --days 14 --strategy context-bandit \
  --emit-exposures "$out/ctx-exposures.csv" --out "$out/logging" --quiet
"$bin" evaluate --exposures "$out/ctx-exposures.csv" --strategy mfu,hour-of-week,context-mfu,context-bandit \
  --out "$out/evaluate" --quiet
"$bin" simulate --scenario Datasets/scenarios/commuter-context.json --days 14 \
  --strategy mfu,hour-of-week,context-mfu,context-bandit --out "$out/onpolicy" --quiet
python3 - "$out" <<'PY'
import csv, sys
out = sys.argv[1]
bad = []
for folder, baseline in (("mfu", "mfu"), ("how", "hour-of-week")):
    rows = [r for r in csv.DictReader(open(f"{out}/{folder}/paired.csv", newline=""))
            if r["source"] == "commuter-context" and r["metric"] == "hit_rate"]
    for strategy in ("context-mfu", "context-bandit"):
        r = next(r for r in rows if r["strategy"] == strategy)
        line = f"{strategy} - {baseline}: {float(r['mean_difference']):+.3f} [{float(r['ci_low']):.3f}, {float(r['ci_high']):.3f}], n={r['n']}"
        print(line)
        if float(r["ci_low"]) <= 0:
            bad.append(line)
truth = {r["strategy"]: int(r["hits"]) / int(r["visits"]) for r in csv.DictReader(open(f"{out}/onpolicy/runs.csv", newline=""))}
for r in csv.DictReader(open(f"{out}/evaluate/estimates.csv", newline="")):
    if r["estimator"] == "rr" and r["metric"] == "hit_rate":
        line = f"rr {r['strategy']}: {float(r['estimate']):.4f}, on-policy {truth[r['strategy']]:.4f}"
        print(line)
        if abs(float(r["estimate"]) - truth[r["strategy"]]) > 0.005:
            bad.append(line)
if bad:
    print("FAILED:", *bad, sep="\n  ")
    sys.exit(1)
print("context-check: ok")
PY
