#!/usr/bin/env bash
# Runs the notebooks headless on a report folder and saves them executed, with their figures.
#
#   Notebooks/run.sh                     # the main job's reports/ (runs it first if needed)
#   Notebooks/run.sh DIR [NAME=VALUE...] # any report folder; NAME=VALUE sets a notebook parameter
#   Notebooks/run.sh --setup             # step 1 only (.ci/run does it at its start)
#
# 1. creates Notebooks/.venv (Python 3.11 or later: $PYTHON, default python3) and installs
#    Notebooks/requirements.txt (pinned) and the package in python/ (editable);
# 2. builds smartstack (release) unless $SMARTSTACK_BIN names one; without DIR, runs the main
#    job into reports/ if it has not run (FRESH=1: again), and the relevance explorer's
#    inputs (a traced replay of the commuter week with its timeline) into
#    reports/relevance-explorer/, and the context day's (a 3-day simulation of
#    commuter-context with --explain, its world emitted into world/) into reports/context-day/;
# 3. executes each notebook with Notebooks/execute.py, which sets the parameters (REPORTS,
#    OUT, and the NAME=VALUE given) and saves NAME.ipynb with its outputs and NAME.html
#    next to the figures, in DIR/notebooks/ ($NOTEBOOKS_OUT to choose another folder).
# estimator-validation runs on a folder of `smartstack evaluate --validate` (validation.csv in it
# or in its subfolders), counterfactual-estimates on one of `smartstack evaluate --exposures`
# (estimates.csv in it or in its subfolders), compare-strategies and learning-curves on one with runs.csv,
# tuning-search on one with tuning.csv (a batch whose config tunes, docs/batch.md "Tuning");
# fit-report on one with fit-report.csv (`smartstack fit LOG --report DIR`, docs/fit.md);
# relevance-explorer runs only where it can: on a folder with trace.csv whose source has
# timelines (manifest.json read as JSON; without DIR: reports/relevance-explorer);
# context-day only on a folder with explain.csv and world/context.csv (`simulate --explain
# --emit-log DIR/world --out DIR`; without DIR: reports/context-day). A
# NAME=VALUE that no notebook of the run takes (a typo: METRC=mrr) is refused, with a
# did-you-mean, before any runs (exit 2). A failing notebook fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

python="${PYTHON:-python3}"
"$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || { echo "Notebooks/run.sh needs Python 3.11 or later; $python is $("$python" --version 2>&1) (set PYTHON=...)"; exit 1; }
venv=Notebooks/.venv
if [ ! -x "$venv/bin/python" ]; then
  echo "== creating $venv"
  "$python" -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r Notebooks/requirements.txt -e ./python
[ "${1:-}" != --setup ] || exit 0

if [ -z "${SMARTSTACK_BIN:-}" ]; then
  swift build -c release --product smartstack
  export SMARTSTACK_BIN="$root/.build/release/smartstack"
fi
smartstack() { "$SMARTSTACK_BIN" "$@"; }

explorer_args=()
if [ $# -eq 0 ]; then
  reports="$root/reports"
  if [ ! -s reports/summary.csv ] || [ "${FRESH:-0}" = 1 ]; then
    echo "== the main job: smartstack batch"
    smartstack batch --quiet
  fi
  echo "== inputs of the relevance explorer: reports/relevance-explorer"
  smartstack batch Datasets/experiments/relevance-explorer.json --out reports/relevance-explorer --quiet
  explorer="$root/reports/relevance-explorer"
  explorer_args=(DAY=2026-03-03)   # the storm warning (weather score 3)
  echo "== inputs of the context day: reports/context-day"
  smartstack simulate --scenario Datasets/scenarios/commuter-context.json --days 3 \
    --strategy mfu,hour-of-week,context-mfu --explain --emit-log reports/context-day/world \
    --out reports/context-day --quiet
  context_day="$root/reports/context-day"
else
  [ -d "$1" ] || { echo "Notebooks/run.sh: $1 is not a folder"; exit 1; }
  reports="$(cd "$1" && pwd)"
  shift
  explorer="$reports"
  context_day="$reports"
fi
# A report set a killed run left half moved into place is finished first (smartstack.load
# would read it anyway; the shell tests below read the folder's own files).
for folder in "$reports" "$explorer" "$context_day"; do smartstack report "$folder" > /dev/null 2>&1 || true; done
validation=0
estimates=0
if [ -s "$reports/validation.csv" ] || compgen -G "$reports/*/validation.csv" > /dev/null; then
  validation=1
fi
if [ -s "$reports/estimates.csv" ] || compgen -G "$reports/*/estimates.csv" > /dev/null; then
  estimates=1
fi
if [ "$validation" = 0 ] && [ "$estimates" = 0 ] && [ ! -s "$reports/runs.csv" ]; then
  echo "Notebooks/run.sh: $reports has no runs.csv (a batch, replay or simulate folder), no validation.csv (evaluate --validate) and no estimates.csv (evaluate --exposures)"
  exit 1
fi
# Whether a traced folder's sources have timelines: its manifest read as JSON (a source
# without them says "timelines": null).
has_timelines() { "$venv/bin/python" Notebooks/execute.py --has-timelines "$1"; }
notebooks=()
[ "$validation" = 1 ] && notebooks+=(estimator-validation)
[ "$estimates" = 1 ] && notebooks+=(counterfactual-estimates)
[ -s "$reports/runs.csv" ] && notebooks+=(compare-strategies learning-curves)
[ -s "$reports/tuning.csv" ] && notebooks+=(tuning-search)
[ -s "$reports/fit-report.csv" ] && notebooks+=(fit-report)
explorer_ok=0
if has_timelines "$explorer"; then
  explorer_ok=1
  notebooks+=(relevance-explorer)
fi
# The context day needs what each visit showed (explain.csv) and the world's context.
context_ok=0
if [ -s "$context_day/explain.csv" ] && [ -s "$context_day/world/context.csv" ]; then
  context_ok=1
  notebooks+=(context-day)
fi
# A NAME=VALUE that none of these notebooks takes is refused before anything runs.
paths=()
for name in "${notebooks[@]}"; do paths+=("Notebooks/$name.ipynb"); done
"$venv/bin/python" Notebooks/execute.py --check "${paths[@]}" -- "$@" \
  || { echo "Notebooks/run.sh: the notebooks were not run"; exit 2; }
out="${NOTEBOOKS_OUT:-$reports/notebooks}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"

run_notebook() {  # NAME FOLDER NAME=VALUE...
  local name="$1" folder="$2"
  shift 2
  echo "== $name.ipynb on $folder"
  local log="$out/$name.log"
  if ! "$venv/bin/python" Notebooks/execute.py "Notebooks/$name.ipynb" "$out" \
      "REPORTS=$folder" "OUT=$out" "$@" > "$log" 2>&1; then
    grep -v "Kernel is running over TCP without encryption" "$log" || true
    echo "$name.ipynb failed; its outputs so far: $out/$name.html"
    exit 1
  fi
  grep -v "Kernel is running over TCP without encryption" "$log" || true
  rm -f "$log"
}
if [ "$validation" = 1 ]; then
  run_notebook estimator-validation "$reports" "$@"
fi
if [ "$estimates" = 1 ]; then
  run_notebook counterfactual-estimates "$reports" "$@"
fi
if [ -s "$reports/runs.csv" ]; then
  run_notebook compare-strategies "$reports" "$@"
  run_notebook learning-curves "$reports" "$@"
else
  echo "== compare-strategies.ipynb and learning-curves.ipynb skipped: $reports has no runs.csv"
fi
if [ -s "$reports/tuning.csv" ]; then
  run_notebook tuning-search "$reports" "$@"
fi
if [ -s "$reports/fit-report.csv" ]; then
  run_notebook fit-report "$reports" "$@"
fi
if [ "$explorer_ok" = 1 ]; then
  run_notebook relevance-explorer "$explorer" "${explorer_args[@]}" "$@"
else
  echo "== relevance-explorer.ipynb skipped: $explorer has no trace.csv from a source with timelines"
fi
if [ "$context_ok" = 1 ]; then
  run_notebook context-day "$context_day" "$@"
else
  echo "== context-day.ipynb skipped: $context_day has no explain.csv and world/context.csv (simulate --explain --emit-log DIR/world --out DIR)"
fi
echo "== notebooks ran; in $out: $(ls "$out" | tr '\n' ' ')"
