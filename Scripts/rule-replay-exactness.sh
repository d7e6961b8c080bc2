#!/usr/bin/env bash
# Rule replay is exact on a strategy's own exposure log: for every bundled scenario (as
# bundled, all its days and people) and every deterministic built-in X, `evaluate
# --estimator rr` on X's own log with target X gives `simulate`'s tap rate (taps/visits)
# and hit rate (hits/visits) for X, to the six decimals estimates.csv prints (and
# context-mfu on the scenarios whose people carry context, through NAME.context.csv). The unit
# test RuleReplayTests checks the same at full precision on one day of each scenario;
# this runs the whole scenarios (issue 28's done-when).
#
# Usage: Scripts/rule-replay-exactness.sh [OUT]   (SMARTSTACK: the binary; default: the
# release build). The pairs run as many at a time as there are cores: about 45 s on the
# 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${SMARTSTACK:-$PWD/.build/release/smartstack}"
out="${1:-$(mktemp -d)}"
mkdir -p "$out"
targets="static round-robin mru mfu hour-of-day hour-of-week markov relevance smart-rotate oracle"

# check SCENARIO STRATEGY: simulate, evaluate rr on its own log, and write the verdict ("ok"
# or what differs) to OUT/NAME-STRATEGY/verdict; a failed command (the comparison's too)
# leaves no verdict, and its message in OUT/NAME-STRATEGY/errors.
check() {
  local scenario="$1" x="$2" name dir
  name="$(basename "$scenario" .json)"
  dir="$out/$name-$x"
  rm -rf "$dir"
  mkdir -p "$dir"
  exec 2> "$dir/errors"
  "$bin" simulate --scenario "$scenario" --strategy "$x" --out "$dir/sim" \
    --emit-exposures "$dir/exposures.csv" --quiet
  "$bin" evaluate --exposures "$dir/exposures.csv" --strategy "$x" --estimator rr \
    --out "$dir/est" --quiet
  local verdict
  verdict="$(python3 - "$dir/sim/runs.csv" "$dir/est/estimates.csv" <<'PY'
import csv, sys
run = next(csv.DictReader(open(sys.argv[1], newline="")))
visits = int(run["visits"])
want = {"tap_rate": int(run["taps"]) / visits, "hit_rate": int(run["hits"]) / visits}
got = {r["metric"]: r["estimate"] for r in csv.DictReader(open(sys.argv[2], newline="")) if r["estimator"] == "rr"}
bad = [f"{m}: rr {got.get(m)} simulate {want[m]:.6f}" for m in want if got.get(m) != f"{want[m]:.6f}"]
print("; ".join(bad) if bad else "ok")
PY
)"
  echo "$verdict" > "$dir/verdict"
}

# The pairs, in a fixed order; they run as many at a time as there are cores (each is a
# few single-threaded processes), and the verdicts are read in that order afterwards.
# (Scenario paths have no spaces.)
pairs=()
for scenario in Datasets/scenarios/*.json; do
  # A watch shows several cards per raise, which an exposure log cannot record.
  if grep -q '"platform": "watchOS"' "$scenario"; then continue; fi
  # context-mfu where the people carry context (elsewhere evaluate refuses it).
  extra=""
  if grep -q '"context"' "$scenario"; then extra="context-mfu"; fi
  for x in $targets $extra; do pairs+=("$scenario $x"); done
done
# xargs runs `check` on each pair, as many at a time as there are cores; a pair whose check
# failed has no verdict, and is reported below with its message.
export -f check
export bin out
printf '%s\n' "${pairs[@]}" | xargs -P "$(nproc)" -n 2 bash -euo pipefail -c 'check "$1" "$2"' check || true

checked=0
failed=0
for pair in "${pairs[@]}"; do
  scenario="${pair% *}"
  x="${pair#* }"
  name="$(basename "$scenario" .json)"
  verdict="$(cat "$out/$name-$x/verdict" 2>/dev/null \
    || echo "a command failed: $(tr '\n' ' ' < "$out/$name-$x/errors")")"
  checked=$((checked + 1))
  if [ "$verdict" != ok ]; then
    echo "MISMATCH $name $x: $verdict"
    failed=$((failed + 1))
  fi
done
echo "rule replay on a strategy's own log: $((checked - failed)) of $checked (scenario, strategy) pairs exact"
[ "$failed" -eq 0 ]
