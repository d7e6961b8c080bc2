#!/usr/bin/env bash
# Peak memory of the device importers on hostile stores (issue 30, item 9; the table in
# docs/reliability.md, "Peak memory of the device importers"): each must stay within
# 1.5 × input + 100 MB (the input: the database, or the SEGB file).
#
#   Scripts/import-memory.sh            (uses $SMARTSTACK, else .build/release/smartstack)
#
# Inputs, made in a temporary folder and deleted afterwards:
# - kc-blob.db: the knowledgeC fixture with one serialized interaction of 100,000,000
#   bytes (bplist00 and random bytes);
# - kc-generated.db: the fixture with a virtual column hex(zeroblob(499999999)) NOT NULL;
# - pl-generated.db: the PowerLog fixture with the same column (without NOT NULL) in its
#   widget table, which --widgets-out reads;
# - App.Intent/local/1: a SEGB (version 2) file of one App.Intent record whose interaction
#   is 100,000,000 bytes (bplist00 and random bytes).
# Needs sqlite3, python3 and /usr/bin/time. Prints one line per input; exits 1 when one is
# over its bound.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bin="${SMARTSTACK:-$root/.build/release/smartstack}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fixtures="$root/Tests/Fixtures/importers"
{ cat "$fixtures/knowledgeC-ios.sql"
  echo "UPDATE ZSTRUCTUREDMETADATA SET Z_DKINTENTMETADATAKEY__SERIALIZEDINTERACTION = x'62706c6973743030' || randomblob(100000000) WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZSTRUCTUREDMETADATA);"
} | sqlite3 kc-blob.db
{ cat "$fixtures/knowledgeC-ios.sql"
  echo "ALTER TABLE ZOBJECT ADD COLUMN ZHUGE TEXT GENERATED ALWAYS AS (hex(zeroblob(499999999))) VIRTUAL NOT NULL;"
} | sqlite3 kc-generated.db
{ cat "$fixtures/powerlog.sql"
  echo "ALTER TABLE PLTestAgent_Aggregate_Widgets ADD COLUMN huge TEXT GENERATED ALWAYS AS (hex(zeroblob(499999999))) VIRTUAL;"
} | sqlite3 pl-generated.db
mkdir -p biome/App.Intent/local
python3 - biome/App.Intent/local/1 <<'PY'
import os, struct, sys, zlib
def varint(n):
    out = b""
    while True:
        byte, n = n & 0x7F, n >> 7
        out += bytes([byte | (0x80 if n else 0)])
        if not n:
            return out
def field(number, kind, data):
    return varint(number << 3 | kind) + data
interaction = b"bplist00" + os.urandom(100_000_000 - 8)
payload = (field(1, 1, struct.pack("<d", 794131200.0)) + field(2, 2, varint(9) + b"com.a.app")
           + field(4, 2, varint(6) + b"Intent") + field(8, 2, varint(len(interaction)) + interaction))
body = struct.pack("<Ii", zlib.crc32(payload), 0) + payload
end = len(body)
body += b"\0" * (-len(body) % 4)
header = b"SEGB" + struct.pack("<id", 1, 7.0) + b"\0" * 16
trailer = struct.pack("<iid", end, 1, 794131200.0)
with open(sys.argv[1], "wb") as f:
    f.write(header + body + trailer)
PY
failed=0
measure() {  # NAME INPUT ARGS...
  local name=$1 input=$2; shift 2
  local size; size=$(stat -c %s "$input")
  /usr/bin/time -v "$bin" "$@" 2> time.txt >/dev/null
  local status=$?
  local rss; rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' time.txt)
  local wall; wall=$(awk -F'): ' '/Elapsed \(wall clock\)/ {print $2}' time.txt)
  local bound=$(( (size * 3 / 2 + 100 * 1000 * 1000) / 1024 ))
  local met=yes; [ "$rss" -le "$bound" ] || { met=no; failed=1; }
  echo "$name | $size bytes | exit $status | $wall | peak RSS $rss KB | bound $bound KB | met $met"
}
measure kc-blob kc-blob.db import knowledgec kc-blob.db --out kc-blob.csv
measure kc-generated kc-generated.db import knowledgec kc-generated.db --out kc-generated.csv
measure pl-generated pl-generated.db import powerlog pl-generated.db --out pl.csv --widgets-out pl-widgets.csv
measure biome-interaction biome/App.Intent/local/1 import biome biome/App.Intent/local/1 --out biome.csv
exit $failed
