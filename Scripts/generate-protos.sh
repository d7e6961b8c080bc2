#!/usr/bin/env bash
# Regenerates the committed Swift code of the project's .proto files.
#
#   Scripts/generate-protos.sh
#
# Needs protoc (Debian: apt-get install protobuf-compiler) and protoc-gen-swift of the same
# swift-protobuf version as Package.swift (1.39.0). The plugin is built once, from the
# package mirror, in a scratch package under ${PROTOC_GEN_SWIFT_DIR:-/tmp/protoc-gen-swift}
# (about 2 to 10 minutes on the project machine), unless PROTOC_GEN_SWIFT names a built one.
# The generated files are committed: building the project never needs protoc.
set -euo pipefail
cd "$(dirname "$0")/.."

version=1.39.0
command -v protoc >/dev/null || { echo "protoc not found: apt-get install protobuf-compiler" >&2; exit 69; }

plugin="${PROTOC_GEN_SWIFT:-}"
if [ -z "$plugin" ]; then
  scratch="${PROTOC_GEN_SWIFT_DIR:-/tmp/protoc-gen-swift}"
  mkdir -p "$scratch/Sources/placeholder"
  cat >"$scratch/Package.swift" <<SWIFT
// swift-tools-version: 6.0
import PackageDescription
let package = Package(
  name: "protoc-gen-swift-build",
  dependencies: [.package(url: "https://github.com/apple/swift-protobuf", exact: "$version")],
  targets: [.target(name: "placeholder", dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")])]
)
SWIFT
  echo "public let placeholder = 0" >"$scratch/Sources/placeholder/placeholder.swift"
  echo "== building protoc-gen-swift $version in $scratch" >&2
  swift build --package-path "$scratch" -c release --product protoc-gen-swift >&2
  plugin="$scratch/.build/release/protoc-gen-swift"
fi

# Every .proto under Sources/, generated next to itself.
find Sources -name '*.proto' | sort | while read -r proto; do
  dir="$(dirname "$proto")"
  echo "== $proto" >&2
  protoc --plugin=protoc-gen-swift="$plugin" --proto_path="$dir" \
    --swift_opt=Visibility=Public --swift_out="$dir" "$proto"
done
