#!/usr/bin/env bash
# The scaling curve (issue 31, item 7): wall time and peak RSS of `smartstack replay` and
# `smartstack simulate` against the size of the log, with --jobs 1 and 2.
#
#   Benchmarks/scaling.sh                      # 10k, 100k, 1M, 5M, 20M and 50M visits, 3 rounds
#   Benchmarks/scaling.sh --quick              # 10k and 100k visits only: a check that it works
#   Benchmarks/scaling.sh --sizes 10k,1M --rounds 1 --out /tmp/scaling
#
# For each size S (visits; k = 1,000, M = 1,000,000) it
# 1. generates a log of PEOPLE x 30 days once, PEOPLE = max(1, round(S / 2700)) (about 90
#    visits a person and day: Benchmarks/peers/generate_log.py, seed $SEED, default 1; only
#    the toolkit's files, donations.csv and visits.csv) into a temporary folder, and a
#    scenario of the same PEOPLE x 30 days (Datasets/scenarios/commuter.json with its
#    top-level "days" and its persona's "count" changed);
# 2. runs ROUNDS rounds of four commands, the order rotating each round, each under
#    `/usr/bin/time -v` (peak RSS) with its wall time taken around it (`date +%s%N`):
#      smartstack replay --log donations.csv --visits visits.csv --strategy mfu --jobs J
#      smartstack simulate --scenario SCENARIO --strategy mfu --jobs J
#    for J = 1 and 2, each writing its reports (runs.csv, daily.csv, manifest.json) into a
#    temporary folder; the visits each scored are read from its runs.csv.
# Then it writes into --out (default reports/scaling in the repository; a relative DIR is
# taken from the current folder):
#   scaling.csv       one row per command, jobs and size: people, days, visits (runs.csv),
#                     log_bytes (donations.csv + visits.csv; empty for simulate, which reads
#                     no log), rounds, and the min/median/max of wall seconds and peak RSS MB;
#   measurements.csv  every round of every command;
#   machine.txt       the machine, the binary, the load average before and after;
#   scaling.png       wall time and peak RSS (medians, min-max bars) against visits, log-log.
# The files are written under temporary names and renamed at the end: a failed run leaves
# no half-written report.
#
# The binary: $SMARTSTACK, default .build/release/smartstack (`swift build -c release
# --product smartstack`; this script does not build it). Python 3.11 or later ($PYTHON,
# default python3): Benchmarks/scaling/.venv is created the first time and the pinned
# Benchmarks/scaling/requirements.txt (numpy, matplotlib) installed into it on every run.
# Needs GNU time (/usr/bin/time, Debian package `time`). KEEP=1 keeps the temporary folder
# and every log in it (otherwise each log is removed once its size is measured).
# Disk in $TMPDIR at 50M visits: about 2.7 GB of CSV (docs/performance.md, "Scaling").
# Measure on a quiet machine: the load average is recorded in machine.txt.
set -euo pipefail
caller="$PWD"
cd "$(dirname "$0")/.."
root="$PWD"

usage() {
  echo "usage: Benchmarks/scaling.sh [--quick] [--sizes LIST] [--rounds N] [--out DIR]" >&2
  echo "  LIST: visits per size, comma-separated, each an integer with an optional k or M (default 10k,100k,1M,5M,20M,50M)" >&2
  exit 64
}
sizes="10k,100k,1M,5M,20M,50M"
rounds=3
out="$root/reports/scaling"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) sizes="10k,100k"; shift ;;
    --sizes) [ $# -ge 2 ] || usage; sizes="$2"; shift 2 ;;
    --rounds) [ $# -ge 2 ] || usage; rounds="$2"; shift 2 ;;
    --out) [ $# -ge 2 ] || usage; out="$2"; [[ "$out" = /* ]] || out="$caller/$out"; shift 2 ;;
    -h|--help) usage ;;
    *) echo "scaling.sh: unknown argument '$1'" >&2; usage ;;
  esac
done
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || { echo "scaling.sh: --rounds must be a positive integer (got '$rounds')" >&2; exit 64; }
visit_counts=()
IFS=, read -r -a size_list <<< "$sizes"
for s in "${size_list[@]}"; do
  case "$s" in
    *k) n="${s%k}"; mult=1000 ;;
    *M) n="${s%M}"; mult=1000000 ;;
    *) n="$s"; mult=1 ;;
  esac
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "scaling.sh: a size must be a positive integer with an optional k or M (got '$s')" >&2; exit 64; }
  visit_counts+=($((n * mult)))
done
seed="${SEED:-1}"
days=30

smartstack="${SMARTSTACK:-$root/.build/release/smartstack}"
[ -x "$smartstack" ] || { echo "scaling.sh: no smartstack binary at $smartstack (build it: swift build -c release --product smartstack, or set SMARTSTACK=PATH)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "scaling.sh: needs GNU time at /usr/bin/time (Debian: apt-get install time)" >&2; exit 1; }

. Benchmarks/python-env.sh
python_env scaling.sh Benchmarks/scaling

work="$(mktemp -d "${TMPDIR:-/tmp}/smartstack-scaling.XXXXXX")"
if [ "${KEEP:-0}" = 1 ]; then
  echo "== keeping $work"
else
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"

load() { uptime | sed 's/.*load average: //'; }
{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1), $(awk '/^MemTotal/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo), $(uname -sr)"
  echo "smartstack: $smartstack ($("$smartstack" --version 2>&1 | head -1))"
  echo "sizes (visits asked): ${visit_counts[*]}; $days days; seed $seed; $rounds rounds"
  echo "load average before: $(load)"
} > "$work/machine.txt"
cat "$work/machine.txt"

measurements="$work/measurements.csv"
echo "command,jobs,people,days,visits,log_bytes,round,wall_s,peak_rss_mb" > "$measurements"
configs=("replay 1" "simulate 1" "replay 2" "simulate 2")
for asked in "${visit_counts[@]}"; do
  people=$(((asked + 1350) / 2700))
  [ "$people" -ge 1 ] || people=1
  log="$work/log-$asked"
  echo "== $asked visits asked: $people people x $days days"
  "$py" Benchmarks/peers/generate_log.py --people "$people" --days "$days" --seed "$seed" --out "$log" --toolkit-only
  log_bytes=$(($(stat -c %s "$log/donations.csv") + $(stat -c %s "$log/visits.csv")))
  scenario="$work/scenario-$asked.json"
  "$py" - "$root/Datasets/scenarios/commuter.json" "$scenario" "$people" "$days" <<'EOF'
import json, sys
scenario = json.load(open(sys.argv[1], encoding="utf-8"))
assert len(scenario["people"]) == 1, "commuter.json is expected to have one persona"
scenario["people"][0]["count"] = int(sys.argv[3])
scenario["days"] = int(sys.argv[4])
json.dump(scenario, open(sys.argv[2], "w", encoding="utf-8"), indent=1)
EOF
  for ((r = 1; r <= rounds; r++)); do
    for ((j = 0; j < ${#configs[@]}; j++)); do
      read -r command jobs <<< "${configs[$(((r - 1 + j) % ${#configs[@]}))]}"
      reports="$work/reports"
      if [ "$command" = replay ]; then
        cmd=("$smartstack" replay --log "$log/donations.csv" --visits "$log/visits.csv" --strategy mfu --jobs "$jobs")
        bytes=$log_bytes
      else
        cmd=("$smartstack" simulate --scenario "$scenario" --strategy mfu --jobs "$jobs")
        bytes=
      fi
      rm -rf "$reports"
      start=$(date +%s%N)
      /usr/bin/time -v -o "$work/time.txt" "${cmd[@]}" --out "$reports" --quiet
      end=$(date +%s%N)
      rss_kb=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$work/time.txt")
      visits=$("$py" -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))
assert len(rows) == 1 and rows[0]["strategy"] == "mfu", rows
print(rows[0]["visits"])' "$reports/runs.csv")
      row=$("$py" -c "import sys; s, e, kb = map(int, sys.argv[1:]); print(f'{(e - s) / 1e9:.4f},{kb / 1000:.1f}')" "$start" "$end" "$rss_kb")
      echo "$command,$jobs,$people,$days,$visits,$bytes,$r,$row" >> "$measurements"
      printf '   round %d  %-8s --jobs %s  %10s visits  %9s s  %8s MB\n' "$r" "$command" "$jobs" "$visits" "${row%,*}" "${row#*,}"
    done
  done
  rm -rf "$work/reports"
  [ "${KEEP:-0}" = 1 ] || rm -rf "$log"          # a 50M-visit log is about 2.7 GB
done
echo "load average after: $(load)" >> "$work/machine.txt"

"$py" Benchmarks/scaling/summarize.py "$measurements" "$work/machine.txt" "$work/scaling.csv" "$work/scaling.png"
for f in measurements.csv machine.txt scaling.csv scaling.png; do
  cp "$work/$f" "$out/.$f.partial"
done
for f in measurements.csv machine.txt scaling.csv scaling.png; do
  mv -f "$out/.$f.partial" "$out/$f"
done
echo "== wrote $out/scaling.csv, scaling.png, measurements.csv, machine.txt"
cat "$out/scaling.csv"
