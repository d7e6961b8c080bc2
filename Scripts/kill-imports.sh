#!/usr/bin/env bash
# kill -9 of `smartstack import knowledgec` at random moments (issue 30, items 3 and 15).
#
#   Scripts/kill-imports.sh [SEED] [KILLS]        (defaults: 7, 20)
#
# A knowledgeC database (the test fixture, padded with a 30 MB table so the copy takes a
# while) is imported with its own TMPDIR and killed after a random 0-0.15 s
# (bash's RANDOM seeded with SEED). After every kill the evidence (database, -wal, -shm)
# must keep its bytes and modification time; after the last, one import that runs to its
# end must leave no copy of the evidence in TMPDIR (no smartstack-sqlite-* folder: the
# copies killed runs left are removed by it) and no hidden file beside its outputs (no
# staged file, record or temporary record). Uses $SMARTSTACK, else .build/debug/smartstack
# (run `swift build` first), and python3 (its sqlite3 module). About 0.3 s a kill.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bin="${SMARTSTACK:-$root/.build/debug/smartstack}"
seed="${1:-7}"
kills="${2:-20}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir ev out tmp
python3 - "$root/Tests/Fixtures/importers/knowledgeC-ios.sql" ev/e.db <<'PY' || exit 1
import sqlite3, sys
db = sqlite3.connect(sys.argv[2])
db.executescript(open(sys.argv[1]).read()
                 + "CREATE TABLE PAD (x BLOB); INSERT INTO PAD VALUES (randomblob(30000000));")
db.commit()
db.close()
PY
state() { for f in ev/*; do printf '%s %s\n' "$(sha256sum < "$f")" "$(stat -c %y "$f")"; done; }
before=$(state)
RANDOM=$seed
leaked=0
for i in $(seq 1 "$kills"); do
  TMPDIR="$work/tmp" "$bin" import knowledgec ev/e.db --out out/d.csv --visits-out out/v.csv 2>/dev/null &
  pid=$!
  sleep "0.$(printf %03d $((RANDOM % 150)))"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  [ "$(state)" = "$before" ] || { echo "kill $i: the evidence changed"; exit 1; }
  leaked=$(find tmp -maxdepth 1 -name 'smartstack-sqlite-*' | wc -l)
done
TMPDIR="$work/tmp" "$bin" import knowledgec ev/e.db --out out/d.csv --visits-out out/v.csv 2>/dev/null \
  || { echo "the import after the kills failed"; exit 1; }
[ "$(state)" = "$before" ] || { echo "the evidence changed"; exit 1; }
left=$(find tmp -maxdepth 1 -name 'smartstack-sqlite-*' | wc -l)
hidden=$(find out -name '.*' | wc -l)
echo "kill-imports: $kills kills, $leaked copies of the evidence left before the last run, $left after it, $hidden hidden files beside the outputs"
[ "$hidden" -eq 0 ] || find out -name ".*"
[ "$left" -eq 0 ] && [ "$hidden" -eq 0 ] || exit 1
