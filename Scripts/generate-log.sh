#!/bin/sh
# Writes a realistic synthetic donation log (CSV, DESIGN.md §5) to standard output.
#
#   Scripts/generate-log.sh ROWS [SEED] > big.csv
#
# 40 users, 12 widget kinds with their intents and parameters (some with percent escapes,
# some quoted because they hold a comma), timestamps in UTC with `Z` that never decrease,
# 0-19 s apart from 2026-03-02T00:00:00Z, a few with milliseconds. The same ROWS and SEED always give
# the same bytes: the generator is a Park-Miller LCG written out in awk, so the output
# does not depend on the awk's own rand(). Used to measure reader speed, e.g.
#
#   Scripts/generate-log.sh 1000000 > big.csv
#   swift build -c release && .build/release/smartstack validate big.csv --timing
set -eu

usage() {
  echo "usage: $0 ROWS [SEED] > file.csv" >&2
  exit 64
}
[ $# -ge 1 ] && [ $# -le 2 ] || usage
rows=$1
seed=${2:-1}
case $rows in '' | *[!0-9]*) usage ;; esac
case $seed in '' | *[!0-9]*) usage ;; esac

exec awk -v rows="$rows" -v seed="$seed" '
function rnd() {                       # uniform in [0, 1): Park-Miller, exact in doubles
  state = (state * 16807) % 2147483647
  return (state - 1) / 2147483646
}
function pick(n) { return int(rnd() * n) }
function two(v) { return (v < 10 ? "0" : "") v }
function iso(t, ms,   days, sod, z, era, doe, yoe, y, doy, mp, d, m, text) {
  days = int(t / 86400); sod = t - days * 86400
  z = days + 719468; era = int(z / 146097); doe = z - era * 146097
  yoe = int((doe - int(doe / 1460) + int(doe / 36524) - int(doe / 146096)) / 365)
  y = yoe + era * 400; doy = doe - (365 * yoe + int(yoe / 4) - int(yoe / 100))
  mp = int((5 * doy + 2) / 153); d = doy - int((153 * mp + 2) / 5) + 1
  m = mp < 10 ? mp + 3 : mp - 9; if (m <= 2) y++
  text = y "-" two(m) "-" two(d) "T" two(int(sod / 3600)) ":" two(int(sod / 60) % 60) ":" two(sod % 60)
  if (ms > 0) text = text "." (ms < 100 ? (ms < 10 ? "00" : "0") : "") ms
  return text "Z"
}
BEGIN {
  state = (seed % 2147483646) + 1
  for (i = 0; i < 10; i++) rnd()
  nk = split("RecentPurchases Weather Calendar Music Photos Notes Reminders Fitness News Maps Stocks Podcasts", kind, " ")
  split("ViewRecentPurchases ViewForecast ViewEvent PlayMedia ViewMemory OpenNote ViewList ViewActivity ReadArticle ViewRoute ViewSymbol PlayEpisode", intent, " ")
  split("Acme Bolt Cobalt Delta", card, " ")
  split("Grocery Travel Dining Fuel", category, " ")
  split("Berlin|New York|Paris, France|Tokyo|S%C3%A3o Paulo", city, "|")
  split("Work|Home|Groceries %3B errands|Team%3Dalpha|Books", list, "|")
  split("AAPL MSFT GOOG TSLA", symbol, " ")
  print "timestamp,user,kind,intent,parameters"
  t = 1772409600                       # 2026-03-02T00:00:00Z
  for (r = 0; r < rows; r++) {
    step = pick(20)
    t += step
    if (step > 0) ms = pick(10) == 0 ? pick(1000) : 0   # same second: same instant, so
                                                          # timestamps never decrease
    user = "user-" two(1 + int(40 * rnd() * rnd()))  # some users donate far more
    k = 1 + int(nk * rnd() * rnd())                 # and some kinds are far more popular
    it = intent[k]; p = ""
    if (k == 1) p = "card=" card[1 + pick(4)] ";category=" category[1 + pick(4)]
    else if (k == 2 || k == 10) p = "city=" city[1 + pick(5)]
    else if (k == 7) p = "list=" list[1 + pick(5)]
    else if (k == 11) p = "symbol=" symbol[1 + pick(4)]
    else if (k == 4) p = "playlist=Mix " (1 + pick(30)) ";shuffle=" (pick(2) ? "true" : "false")
    if (pick(8) == 0) { it = ""; p = "" }          # a plain app launch: no intent
    if (index(p, ",") > 0) p = "\"" p "\""
    print iso(t, ms) "," user "," kind[k] "," it "," p
  }
}'
