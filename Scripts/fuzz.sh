#!/usr/bin/env bash
# Fuzz one reader of SmartStackKit with libFuzzer (swiftc -sanitize=fuzzer,address).
#
#   Scripts/fuzz.sh TARGET [SECONDS] [extra libFuzzer flags...]
#   TARGET: one of Fuzz/Targets/*.swift (csv jsonl iso8601 scenario segb visits stack
#           timeline config journal tsv app-events gzip tar knowledgec)        SECONDS: default 60
#
# Builds SwiftProtobuf (SmartStackKit's one package dependency, from SwiftPM's checkout in
# .build/checkouts, resolved first when missing) and the library sources once
# (instrumented, -O, into Fuzz/.build/lib), then the target
# Fuzz/Targets/TARGET.swift against it, and runs it for SECONDS seconds on one core, starting
# from the committed seed corpus Fuzz/Corpus/TARGET (new inputs go to the working corpus
# Fuzz/.build/corpus/TARGET, never into the committed seeds). A crash, a leak, a timeout
# (> 10 s on one input) or an out-of-memory (> 2 GB) stops the run with a non-zero exit and
# leaves the input in Fuzz/.build/crashes/TARGET/; turn it into a regression test.
# The last lines of the run (executions, coverage) are appended to Fuzz/.build/runs.log.
set -euo pipefail
cd "$(dirname "$0")/.."

target="${1:?usage: Scripts/fuzz.sh TARGET (a file of Fuzz/Targets) [SECONDS] [libFuzzer flags]}"
seconds="${2:-60}"
shift $(( $# >= 2 ? 2 : 1 ))
source_file="Fuzz/Targets/$target.swift"
[ -f "$source_file" ] || { echo "no fuzz target $source_file" >&2; exit 64; }

out=Fuzz/.build
lib="$out/lib"
mkdir -p "$lib" "$out/bin" "$out/corpus/$target" "$out/crashes/$target"
# -package-name: SmartStackKit's `package` declarations compile as they do in SwiftPM.
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -package-name SmartStackLab)
# SmartStackKit imports the system zlib and SQLite as the modules CZlib and CSQLite
# (Sources/C*/module.modulemap) and SwiftProtobuf (built below); these flags go to every
# compile and link.
zlib=(-I Sources/CZlib -lz -I Sources/CSQLite -lsqlite3)

# 0. SwiftProtobuf, the version Package.swift pins, as SwiftPM checked it out.
protobuf_src=.build/checkouts/swift-protobuf/Sources/SwiftProtobuf
[ -d "$protobuf_src" ] || swift package resolve
protobuf="$lib/libSwiftProtobuf.a"
if [ ! -f "$protobuf" ] || [ -n "$(find "$protobuf_src" -name '*.swift' -newer "$protobuf" | head -1)" ]; then
  echo "== building SwiftProtobuf for fuzzing (a few minutes)"
  rm -f "$protobuf"
  swiftc "${flags[@]}" -swift-version 6 -enable-upcoming-feature ExistentialAny \
    -module-name SwiftProtobuf -emit-module -emit-module-path "$lib/SwiftProtobuf.swiftmodule" \
    -emit-library -static -o "$protobuf.tmp" $(find "$protobuf_src" -name '*.swift' | sort) 2>&1 \
    | grep -v "warning: Cannot export local symbol" || true
  [ -f "$protobuf.tmp" ] || { echo "SwiftProtobuf build failed" >&2; exit 1; }
  mv "$protobuf.tmp" "$protobuf"
fi
zlib+=(-I "$lib" -L "$lib" -lSwiftProtobuf)

# 1. The library, rebuilt when any of its sources (or SwiftProtobuf) is newer than the
# archive. The library's layers (Package.swift) are compiled together as one module
# named SmartStackKit: the fuzz targets' `import SmartStackKit` then finds every reader,
# and the layers' imports of one another are dropped from the snapshot.
layers=(SmartStackBase SmartStackData SmartStackEngine SmartStackStrategies SmartStackWorld SmartStackExperiments SmartStackCounterfactual)
layer_dirs=("${layers[@]/#/Sources/}")
archive="$lib/libSmartStackKit.a"
if [ ! -f "$archive" ] || [ "$protobuf" -nt "$archive" ] || [ -n "$(find "${layer_dirs[@]}" Sources/CZlib Sources/CSQLite -type f -newer "$archive" | head -1)" ]; then
  echo "== building SmartStackKit for fuzzing (a few minutes)"
  # Compile a snapshot, so editing the sources meanwhile cannot break the build.
  rm -rf "$out/src" "$archive"
  mkdir -p "$out/src"
  for dir in "${layer_dirs[@]}"; do cp -R "$dir" "$out/src/"; done
  layer_pattern="$(IFS='|'; echo "${layers[*]}")"
  find "$out/src" -name '*.swift' -exec sed -i -E "/^import ($layer_pattern)\$/d" {} +
  swiftc "${flags[@]}" "${zlib[@]}" -module-name SmartStackKit -emit-module -emit-module-path "$lib/SmartStackKit.swiftmodule" \
    -emit-library -static -o "$archive.tmp" $(find "$out/src" -name '*.swift' | sort) 2>&1 \
    | grep -v "warning: Cannot export local symbol" || true
  [ -f "$archive.tmp" ] || { echo "library build failed" >&2; exit 1; }
  mv "$archive.tmp" "$archive"
fi

# 2. The target, with the helpers every target shares (Fuzz/Support: the zone byte).
binary="$out/bin/fuzz-$target"
support=(Fuzz/Support/*.swift)
if [ ! -f "$binary" ] || [ "$source_file" -nt "$binary" ] || [ "$archive" -nt "$binary" ] \
  || [ -n "$(find Fuzz/Support -newer "$binary" -name '*.swift' | head -1)" ]; then
  echo "== building $binary"
  swiftc "${flags[@]}" "${zlib[@]}" -I "$lib" -L "$lib" -lSmartStackKit -lSwiftProtobuf "$source_file" "${support[@]}" -o "$binary" 2>&1 \
    | grep -v "warning: Cannot export local symbol" || true
  [ -x "$binary" ] || { echo "target build failed" >&2; exit 1; }
fi

# 3. The run.
# segb: leak detection off. swift-corelibs-foundation's PropertyListSerialization leaks
# a CFError (about 460 bytes) each time it fails to parse (the importer hands it archived
# interactions); that leak is Foundation's, not the reader's (docs/reliability.md).
# Both libFuzzer's per-input check and AddressSanitizer's check at exit are turned off.
target_flags=()
asan_options="${ASAN_OPTIONS:-}"
if [ "$target" = segb ]; then
  target_flags=(-detect_leaks=0)
  asan_options="detect_leaks=0${asan_options:+:$asan_options}"
fi
echo "== fuzzing $target for $seconds s"
log="$out/$target.log"
set +e
ASAN_OPTIONS="$asan_options" "$binary" "$out/corpus/$target" "Fuzz/Corpus/$target" \
  -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=4194304 \
  -artifact_prefix="$out/crashes/$target/" -print_final_stats=1 ${target_flags[@]+"${target_flags[@]}"} "$@" >"$log" 2>&1
status=$?
set -e
executions="$(grep -E '^stat::number_of_executed_units' "$log" | tr -s ' ' || true)"
coverage="$(grep -aE '^#[0-9]+[[:space:]]' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' || true)"
done_line="$(grep -E '^Done [0-9]+ runs' "$log" || true)"
summary="$(date -u +%Y-%m-%dT%H:%M:%SZ) $target ${seconds}s exit=$status ${executions:-no stats} | ${coverage} | ${done_line}"
echo "$summary" | tee -a "$out/runs.log"
if [ $status -ne 0 ]; then
  grep -E "ERROR|Fatal error|SUMMARY|Test unit written" "$log" | head -20 >&2
  echo "fuzz target $target failed; see $log and $out/crashes/$target/" >&2
fi
exit $status
