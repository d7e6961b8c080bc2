#!/usr/bin/env bash
# Fuzz one reader of SmartStackKit with libFuzzer (swiftc -sanitize=fuzzer,address).
#
#   Scripts/fuzz.sh TARGET [SECONDS] [extra libFuzzer flags...]
#   Scripts/fuzz.sh --build TARGET...      (build the library and these targets; no run)
#   TARGET: one of Fuzz/Targets/*.swift (csv jsonl iso8601 scenario segb visits stack
#           timeline config journal tsv app-events gzip tar knowledgec)        SECONDS: default 60
#
# Builds SwiftProtobuf (SmartStackKit's one package dependency, from SwiftPM's checkout in
# .build/checkouts, resolved first when missing) and the library sources once
# (instrumented, -O or SMARTSTACK_FUZZ_OPT, in batch mode on every core, into Fuzz/.build/lib), then the target
# Fuzz/Targets/TARGET.swift against it, and runs it for SECONDS seconds on one core, starting
# from the committed seed corpus Fuzz/Corpus/TARGET (new inputs go to the working corpus
# Fuzz/.build/corpus/TARGET, never into the committed seeds). A crash, a leak, a timeout
# (> 10 s on one input) or an out-of-memory (> 2 GB) stops the run with a non-zero exit and
# leaves the input in Fuzz/.build/crashes/TARGET/; turn it into a regression test.
# The last lines of the run (executions, coverage) are appended to Fuzz/.build/runs.log.
#
# Runs of different targets may go on at the same time (each has its own binary, log,
# corpus and crash folders) once `--build` has built them: two runs that both find the
# library missing would both build it. `--build` links the targets two at a time.
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: Scripts/fuzz.sh TARGET (a file of Fuzz/Targets) [SECONDS] [libFuzzer flags] | --build TARGET..."
[ $# -ge 1 ] || { echo "$usage" >&2; exit 64; }
build_only=false
if [ "$1" = --build ]; then
  build_only=true
  shift
  [ $# -ge 1 ] || { echo "$usage" >&2; exit 64; }
  targets=("$@")
else
  targets=("$1")
  seconds="${2:-60}"
  shift $(( $# >= 2 ? 2 : 1 ))
fi
for target in "${targets[@]}"; do
  [ -f "Fuzz/Targets/$target.swift" ] || { echo "no fuzz target Fuzz/Targets/$target.swift" >&2; exit 64; }
done

out=Fuzz/.build
lib="$out/lib"
mkdir -p "$lib" "$out/bin"
# The optimisation level: -O by default; SMARTSTACK_FUZZ_OPT=-Onone builds the library in
# about a quarter of the CPU (90 s and 155 s of CPU against 314 s and 574 s on the 2-core VM,
# 2026-12-07) and runs about half the inputs a second (csv: 11,732 against 20,962 in 60 s).
# CI's smoke runs use -Onone (.ci/run); a search wants -O. The level is kept in
# $lib/optimisation, and a build of the other level rebuilds the library and the targets.
opt="${SMARTSTACK_FUZZ_OPT:--O}"
case "$opt" in
  -O | -Onone) ;;
  *) echo "SMARTSTACK_FUZZ_OPT must be -O or -Onone, not $opt" >&2; exit 64 ;;
esac
if [ "$(cat "$lib/optimisation" 2>/dev/null || true)" != "$opt" ]; then
  rm -f "$lib"/*.a "$out"/bin/fuzz-*
  echo "$opt" > "$lib/optimisation"
fi
# -package-name: SmartStackKit's `package` declarations compile as they do in SwiftPM.
flags=(-sanitize=fuzzer,address -parse-as-library "$opt" -g -package-name SmartStackLab)
# The two library builds compile their files in batch mode, one batch per core, as SwiftPM
# does: without it swiftc runs one compiler per file, each parsing the whole module again
# (the same object code either way; -wmo was slower still: one optimiser for the module).
# `swiftc -emit-library -static` cannot archive batch-mode objects (Swift 6.3.1 looks for
# them under other names), so the objects go where an output file map says and `ar`
# archives them.
# compile_archive MODULE ARCHIVE [swiftc flags...] -- SOURCES...
compile_archive() {
  local module="$1" archive="$2" objects="$lib/$1.objects" separator="" source
  shift 2
  local extra=()
  while [ "$1" != -- ]; do extra+=("$1"); shift; done
  shift
  rm -rf "$objects" "$archive"
  mkdir -p "$objects"
  {
    echo "{"
    for source in "$@"; do
      printf '%s"%s": {"object": "%s/%s.o"}\n' "$separator" "$source" "$objects" "$(basename "$source" .swift)"
      separator=","
    done
    echo "}"
  } >"$objects/map.json"
  swiftc "${flags[@]}" "${extra[@]}" -enable-batch-mode -j "$(nproc)" -c -output-file-map "$objects/map.json" \
    -module-name "$module" -emit-module -emit-module-path "$lib/$module.swiftmodule" "$@" 2>&1 \
    | grep -v "warning: Cannot export local symbol" || true
  [ "$(find "$objects" -name '*.o' | wc -l)" -eq $# ] || { echo "$module build failed" >&2; exit 1; }
  ar rcs "$archive.tmp" "$objects"/*.o
  mv "$archive.tmp" "$archive"
  rm -rf "$objects"
}
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
  compile_archive SwiftProtobuf "$protobuf" -swift-version 6 -enable-upcoming-feature ExistentialAny \
    -- $(find "$protobuf_src" -name '*.swift' | sort)
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
  compile_archive SmartStackKit "$archive" "${zlib[@]}" -- $(find "$out/src" -name '*.swift' | sort)
fi

# 2. The target, with the helpers every target shares (Fuzz/Support: the zone byte).
support=(Fuzz/Support/*.swift)
build_target() {
  local target="$1" binary="$out/bin/fuzz-$1" source_file="Fuzz/Targets/$1.swift"
  if [ ! -f "$binary" ] || [ "$source_file" -nt "$binary" ] || [ "$archive" -nt "$binary" ] \
    || [ -n "$(find Fuzz/Support -newer "$binary" -name '*.swift' | head -1)" ]; then
    echo "== building $binary"
    rm -f "$binary"
    swiftc "${flags[@]}" "${zlib[@]}" -I "$lib" -L "$lib" -lSmartStackKit -lSwiftProtobuf "$source_file" "${support[@]}" -o "$binary" 2>&1 \
      | grep -v "warning: Cannot export local symbol" || true
    [ -x "$binary" ] || { echo "target $target: build failed" >&2; return 1; }
  fi
}
if $build_only; then
  # Two links at a time (each is one process); every one's exit status is collected.
  pids=()
  failed=0
  for target in "${targets[@]}"; do
    if [ ${#pids[@]} -ge 2 ]; then
      wait "${pids[0]}" || failed=1
      pids=("${pids[@]:1}")
    fi
    build_target "$target" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
  exit $failed
fi
target="${targets[0]}"
binary="$out/bin/fuzz-$target"
build_target "$target"
mkdir -p "$out/corpus/$target" "$out/crashes/$target"

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
