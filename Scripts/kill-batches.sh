#!/usr/bin/env bash
# kill -9 from outside at random moments: the timing-based companion of
# CrashConsistencyTests (which kills at exact points through SMARTSTACK_CRASH_AT).
#
#   Scripts/kill-batches.sh [SEED] [KILLS]        (defaults: 7, 40)
#
# A 6-cell batch (the tiny scenario, 14 days, 3 strategies, 2 replicates) with seed 2 runs
# over a folder holding seed 1's reports and is killed after a random 0-0.8 s (bash's
# RANDOM seeded with SEED). After each kill, `smartstack report` must accept the folder
# and its four CSVs must be seed 1's or seed 2's; then `--resume` must exit 0 with seed
# 2's uninterrupted bytes and leave only .journal and the five reports (a run killed before
# it wrote its journal's header left seed 1's journal, which --resume refuses with exit 65
# as a journal of another experiment: then the same command without --resume). Uses
# $SMARTSTACK, else .build/debug/smartstack (run `swift build` first). About 1 s a kill.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bin="${SMARTSTACK:-$root/.build/debug/smartstack}"
seed="${1:-7}"
kills="${2:-40}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cat > exp.json <<JSON
{"name": "kills", "seed": 1, "replicates": 2,
 "sources": [{"name": "world", "scenario": "$root/Datasets/scenarios/tiny.json", "days": 14}],
 "strategies": ["mfu", "random", "hour-of-week"]}
JSON
"$bin" batch exp.json --out previous --quiet || exit 1
"$bin" batch exp.json --out new --seed 2 --quiet || exit 1
csvs() { for f in runs daily summary paired; do cat "$1/$f.csv"; done; }
RANDOM=$seed
ok=0 bad=0 previous=0 new=0 early=0
for i in $(seq 1 "$kills"); do
  rm -rf k && cp -r previous k
  "$bin" batch exp.json --out k --seed 2 --quiet &
  pid=$!
  sleep "0.$(printf %02d $((RANDOM % 80)))"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  seen=none
  if "$bin" report k >/dev/null 2>&1; then
    if cmp -s <(csvs k) <(csvs previous); then seen=previous; previous=$((previous + 1))
    elif cmp -s <(csvs k) <(csvs new); then seen=new; new=$((new + 1)); fi
  fi
  "$bin" batch exp.json --out k --seed 2 --resume --quiet 2>err.txt
  status=$?
  if [ "$status" = 65 ] && grep -q "was written by a different experiment" err.txt; then
    # Killed before the new run wrote its journal's header: the journal is still seed 1's,
    # which --resume rightly refuses; the same command without --resume starts over.
    early=$((early + 1))
    "$bin" batch exp.json --out k --seed 2 --quiet
    status=$?
  fi
  left=$(ls -A k | tr '\n' ' ')
  if [ "$seen" != none ] && [ "$status" = 0 ] && cmp -s <(csvs k) <(csvs new) \
    && [ "$left" = ".journal daily.csv manifest.json paired.csv runs.csv summary.csv " ]; then
    ok=$((ok + 1))
  else
    bad=$((bad + 1))
    echo "kill $i: set seen after the kill: $seen; resume exit $status; left: $left"
  fi
done
echo "kill -9 at random moments: $ok of $kills passed ($previous left the previous set, $new the new one; $early were killed before the new journal's header, so --resume refused seed 1's journal and the run started over without it)"
[ "$bad" = 0 ]
