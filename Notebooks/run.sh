#!/usr/bin/env bash
# Runs every notebook headless, after the main job.
#
#   Notebooks/run.sh           # from the repository root (or anywhere)
#
# 1. creates Notebooks/.venv and installs Notebooks/requirements.txt (pinned);
# 2. builds smartstack (release) and runs the main job into reports/ if it has not run
#    (`swift run -c release smartstack batch`), plus the small inputs of the relevance
#    explorer (a relevance grid and a traced replay) into reports/relevance-explorer/;
# 3. executes each notebook with nbclient (`jupyter execute`), which fails on any error.
# Figures are written to Notebooks/figures/*.png. The committed notebooks stay without
# outputs: `jupyter execute` does not write the executed copy back.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${PYTHON:-python3}"
venv=Notebooks/.venv
if [ ! -x "$venv/bin/python" ]; then
  echo "== creating $venv"
  "$python" -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check -r Notebooks/requirements.txt

swift build -c release --product smartstack
smartstack() { .build/release/smartstack "$@"; }
if [ ! -s reports/summary.csv ] || [ "${FRESH:-0}" = 1 ]; then
  echo "== the main job: smartstack batch"
  smartstack batch --quiet
fi
echo "== inputs of the relevance explorer"
mkdir -p reports/relevance-explorer
smartstack relevance Datasets/timelines/commuter.json --from 2026-03-02T00:00:00Z \
  --to 2026-03-09T00:00:00Z --step 300 --out reports/relevance-explorer/grid.csv
smartstack batch Datasets/experiments/relevance-explorer.json --out reports/relevance-explorer --quiet

mkdir -p Notebooks/figures
cd Notebooks
for notebook in compare-strategies learning-curves relevance-explorer; do
  echo "== $notebook.ipynb"
  log="figures/$notebook.log"
  if ! .venv/bin/jupyter execute --timeout=300 "$notebook.ipynb" > "$log" 2>&1; then
    cat "$log"
    echo "$notebook.ipynb failed"
    exit 1
  fi
  grep -v "Kernel is running over TCP without encryption" "$log" || true
done
for png in compare-hit-rate compare-paired compare-tradeoff learning-curves-drift learning-before-after relevance-explorer; do
  test -s "figures/$png.png" || { echo "missing Notebooks/figures/$png.png"; exit 1; }
done
echo "== notebooks ran; figures in Notebooks/figures/: $(ls figures | tr '\n' ' ')"
