#!/usr/bin/env bash
# SmartStackLab against its peers, end to end (Benchmarks/peers/README.md).
#
#   Benchmarks/peers/run_peers.sh [--visits | --donations] [PEOPLE DAYS RUNS]   # defaults --visits 2000 30 5
#
# --visits (the default; issue 31's workload): the replay has a separate visit stream,
#   `smartstack replay --log donations.csv --visits visits.csv --strategy mfu` at the
#   default horizon (300 s), against `pandas_mfu.py ... --visits ...`;
# --donations: visits made from donations, `replay --strategy mfu --horizon 0`, against
#   `pandas_mfu.py` without --visits.
#
# 1. creates Benchmarks/peers/.venv (Python 3.11 or later: $PYTHON, default python3) once
#    and installs the pinned Benchmarks/peers/requirements.txt into it on every run;
# 2. generates a log of PEOPLE x DAYS (generate_log.py, seed $SEED, default 1) into a
#    temporary folder: the toolkit's donation and visit logs and their numeric exports;
# 3. checks that the toolkit's replay and the pandas peer, on the numeric exports and on
#    the ISO/string logs, each with pandas' C reader and with pyarrow's (--engine pyarrow),
#    count the same visits, target visits (--visits) and hits (exit 1 otherwise);
# 4. runs RUNS interleaved rounds of the five sides (smartstack, pandas-numeric,
#    pandas-iso, pandas-numeric-arrow, pandas-iso-arrow), end to end, each under
#    `/usr/bin/time -v` (peak RSS) with its wall time taken around it (nanoseconds), the
#    order rotating each round; prints min/median/max of wall time and peak RSS per side
#    and the peers' ratios to smartstack;
# 5. runs simpy_stack.py and `smartstack bench --quick --strategy mfu --no-relevance` (the
#    same workload shape, 200 people x 14 days, best of 3) and prints the events/s ratio;
#    `bench --quick --strategy mfu` with relevance timelines is printed for reference.
#
# The binary: $SMARTSTACK, default .build/release/smartstack (built by
# `swift build -c release --product smartstack`; this script does not build it).
# KEEP=1 keeps the temporary folder. Measure on a quiet machine: this script prints the
# load average before and after.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
mode=visits
case "${1:-}" in
  --visits) mode=visits; shift ;;
  --donations) mode=donations; shift ;;
  -*) echo "run_peers.sh: unknown option '$1' (--visits or --donations)"; exit 2 ;;
esac
people="${1:-2000}"
days="${2:-30}"
runs="${3:-5}"
seed="${SEED:-1}"
for n in "$people" "$days" "$runs"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "run_peers.sh: PEOPLE DAYS RUNS must be positive integers (got '$n')"; exit 2; }
done
smartstack="${SMARTSTACK:-$root/.build/release/smartstack}"
[ -x "$smartstack" ] || { echo "run_peers.sh: no smartstack binary at $smartstack (build it: swift build -c release --product smartstack, or set SMARTSTACK=PATH)"; exit 1; }
[ -x /usr/bin/time ] || { echo "run_peers.sh: needs GNU time at /usr/bin/time (Debian: apt-get install time)"; exit 1; }

. Benchmarks/python-env.sh
python_env run_peers.sh Benchmarks/peers
peers="$root/Benchmarks/peers"

work="$(mktemp -d "${TMPDIR:-/tmp}/smartstack-peers.XXXXXX")"
if [ "${KEEP:-0}" = 1 ]; then
  echo "== keeping $work"
else
  trap 'rm -rf "$work"' EXIT
fi

echo "== machine: $(nproc) cores, $(uptime | sed 's/.*load average/load average/')"
echo "== smartstack: $smartstack ($("$smartstack" --version 2>&1 | head -1))"
echo "== mode: $mode; generating $people people x $days days (seed $seed)"
"$py" "$peers/generate_log.py" --people "$people" --days "$days" --seed "$seed" --out "$work/log"
log="$work/log/donations.csv"
numeric="$work/log/donations-numeric.csv"
visits="$work/log/visits.csv"
visits_numeric="$work/log/visits-numeric.csv"
echo "   donations: $(($(wc -l < "$log") - 1)) rows, $(du -h "$log" | cut -f1) (ISO/string), $(du -h "$numeric" | cut -f1) (numeric)"
echo "   visits:    $(($(wc -l < "$visits") - 1)) rows, $(du -h "$visits" | cut -f1) (ISO/string), $(du -h "$visits_numeric" | cut -f1) (numeric)$([ "$mode" = visits ] || echo ' (not replayed: --donations)')"

# The sides: side_cmd NAME ROUND sets `cmd`, the side's command line. The peer runs with
# each of its CSV readers: pandas' C engine (pd.read_csv, pd.to_datetime for ISO times) and
# pyarrow (pandas_mfu.py --engine pyarrow).
side_names=(smartstack pandas-numeric pandas-iso pandas-numeric-arrow pandas-iso-arrow)
side_cmd() {
  local engine=c
  case "$1" in *-arrow) engine=pyarrow ;; esac
  if [ "$mode" = visits ]; then
    case "$1" in
      smartstack) cmd=("$smartstack" replay --log "$log" --visits "$visits" --strategy mfu --out "$work/replay-$2" --quiet --overwrite) ;;
      pandas-numeric*) cmd=("$py" "$peers/pandas_mfu.py" numeric "$numeric" --visits "$visits_numeric" --engine "$engine") ;;
      pandas-iso*) cmd=("$py" "$peers/pandas_mfu.py" iso "$log" --visits "$visits" --engine "$engine") ;;
    esac
  else
    case "$1" in
      smartstack) cmd=("$smartstack" replay --log "$log" --strategy mfu --horizon 0 --out "$work/replay-$2" --quiet --overwrite) ;;
      pandas-numeric*) cmd=("$py" "$peers/pandas_mfu.py" numeric "$numeric" --engine "$engine") ;;
      pandas-iso*) cmd=("$py" "$peers/pandas_mfu.py" iso "$log" --engine "$engine") ;;
    esac
  fi
}

if [ "$mode" = visits ]; then
  echo "== equality of hit counts (replay --visits visits.csv --strategy mfu, default horizon 300 s)"
else
  echo "== equality of hit counts (replay --strategy mfu --horizon 0)"
fi
side_cmd smartstack check
"${cmd[@]}"
toolkit="$("$py" -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert len(rows) == 1 and rows[0]["strategy"] == "mfu", rows
r = rows[0]
print("visits=" + r["visits"] + (" target_visits=" + r["target_visits"] if sys.argv[2] == "visits" else "")
      + " hits=" + r["hits"])' "$work/replay-check/runs.csv" "$mode")"
printf '   %-22s %s\n' "smartstack (runs.csv)" "$toolkit"
differ=0
for name in "${side_names[@]:1}"; do
  side_cmd "$name"
  got="$("${cmd[@]}")"
  printf '   %-22s %s\n' "$name" "${got% hit_rate=*}"
  [ "$toolkit" = "${got% hit_rate=*}" ] || differ=1
done
if [ "$differ" = 1 ]; then
  echo "run_peers.sh: the hit counts differ: the peer is not the toolkit's mfu replay"
  exit 1
fi
echo "   equal"

echo "== $runs interleaved rounds (wall time, peak RSS)"
measurements="$work/measurements.tsv"
printf 'round\tside\twall_s\tpeak_rss_kb\n' > "$measurements"
for ((r = 1; r <= runs; r++)); do
  for ((j = 0; j < ${#side_names[@]}; j++)); do
    name="${side_names[$(((r - 1 + j) % ${#side_names[@]}))]}"
    side_cmd "$name" "$r"
    start=$(date +%s%N)
    /usr/bin/time -v -o "$work/time.txt" "${cmd[@]}" > "$work/out.txt"
    end=$(date +%s%N)
    rss=$(sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): //p' "$work/time.txt")
    wall=$("$py" -c "print(f'{($end - $start) / 1e9:.4f}')")
    printf '%s\t%s\t%s\t%s\n' "$r" "$name" "$wall" "$rss" >> "$measurements"
    printf '   round %d  %-21s %8.3f s  %8.1f MB\n' "$r" "$name" "$wall" "$("$py" -c "print($rss / 1000)")"
  done
  rm -rf "$work/replay-$r"
done

echo "== simpy_stack.py and smartstack bench --quick --strategy mfu (200 people x 14 days, best of 3)"
"$py" "$peers/simpy_stack.py" --json > "$work/simpy.json"
"$smartstack" bench --quick --strategy mfu --no-relevance --ingest-rows 1 --json --quiet > "$work/bench.json"
"$smartstack" bench --quick --strategy mfu --ingest-rows 1 --json --quiet > "$work/bench-relevance.json"

echo "== summary ($mode): $people people x $days days, $runs rounds; $(uptime | sed 's/.*load average/load average/')"
"$py" - "$measurements" "$work/simpy.json" "$work/bench.json" "$work/bench-relevance.json" <<'EOF'
import csv, json, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
sides = ["smartstack", "pandas-numeric", "pandas-iso", "pandas-numeric-arrow", "pandas-iso-arrow"]
wall = {s: [float(r["wall_s"]) for r in rows if r["side"] == s] for s in sides}
rss = {s: [int(r["peak_rss_kb"]) / 1000 for r in rows if r["side"] == s] for s in sides}
print(f"{'side':<22}{'wall min':>10}{'median':>10}{'max':>10}   {'RSS MB min':>10}{'median':>10}{'max':>10}")
for s in sides:
    w, m = wall[s], rss[s]
    print(f"{s:<22}{min(w):>10.3f}{statistics.median(w):>10.3f}{max(w):>10.3f}   "
          f"{min(m):>10.1f}{statistics.median(m):>10.1f}{max(m):>10.1f}")
base_w = statistics.median(wall["smartstack"])
base_m = statistics.median(rss["smartstack"])
for s in sides[1:]:
    print(f"{s} / smartstack: wall {statistics.median(wall[s]) / base_w:.2f}x (medians; "
          f"min {min(wall[s]) / min(wall['smartstack']):.2f}x), peak RSS {statistics.median(rss[s]) / base_m:.2f}x")
simpy = json.load(open(sys.argv[2]))
bench = json.load(open(sys.argv[3]))["strategies"]["mfu"]
bench_rel = json.load(open(sys.argv[4]))["strategies"]["mfu"]
print(f"{'events/s (mfu)':<40}{'events/s':>14}{'hit rate':>10}")
print(f"{'smartstack bench --quick --no-relevance':<40}{bench['events_per_s']:>14,}{bench['hit_rate']:>10.4f}")
print(f"{'simpy_stack.py (SimPy ' + simpy['simpy'] + ')':<40}{simpy['events_per_s']:>14,}{simpy['hit_rate']:>10.4f}")
print(f"smartstack / SimPy: {bench['events_per_s'] / simpy['events_per_s']:.1f}x events/s")
print(f"(for reference: smartstack bench --quick with relevance timelines: {bench_rel['events_per_s']:,} events/s, "
      "entries counted as events; SimPy has no timelines)")
EOF
