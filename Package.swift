// swift-tools-version: 6.0
//
// SmartStackLab: a laboratory for the iPhone Smart Stack.
//
// The library `SmartStackKit` depends on Foundation, the system zlib (the design card says
// "packages: none": the system's own C libraries come first) and apple/swift-protobuf, the
// standard protobuf runtime, for the Biome importer's payloads. The commands
// (`SmartStackCommands`, run by the `smartstack` tool) use apple/swift-argument-parser,
// the ecosystem's standard. Nothing else is linked; see README.md, "Dependencies".
import PackageDescription

let package = Package(
  name: "SmartStackLab",
  platforms: [.macOS(.v13)],
  products: [
    .library(name: "SmartStackKit", targets: ["SmartStackKit"]),
    // `StrategyConformance`: checks a strategy's fast paths, for strategy authors' tests.
    .library(name: "SmartStackTesting", targets: ["SmartStackTesting"]),
    // Every command of the tool, for a tool of one's own: `SmartStack.main(registry:)`.
    .library(name: "SmartStackCommands", targets: ["SmartStackCommands"]),
    .executable(name: "smartstack", targets: ["smartstack"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    // The Biome importer's payloads are protobuf (README.md, "Dependencies").
    .package(url: "https://github.com/apple/swift-protobuf", exact: "1.39.0"),
  ],
  targets: [
    // The system zlib (gzip import): headers and libz from the OS, e.g. Debian's zlib1g-dev.
    .systemLibrary(
      name: "CZlib", path: "Sources/CZlib",
      providers: [.apt(["zlib1g-dev"]), .yum(["zlib-devel"])]),
    .target(
      name: "SmartStackKit",
      dependencies: ["CZlib", .product(name: "SwiftProtobuf", package: "swift-protobuf")],
      // The schema of the committed BiomeRecords.pb.swift (Scripts/generate-protos.sh).
      exclude: ["Importers/Biome/BiomeRecords.proto"]),
    .target(name: "SmartStackTesting", dependencies: ["SmartStackKit"]),
    .target(
      name: "SmartStackCommands",
      dependencies: [
        "SmartStackKit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // `smartstack`: SmartStackCommands with the built-in strategies.
    .executableTarget(name: "smartstack", dependencies: ["SmartStackCommands", "SmartStackKit"]),
    .testTarget(name: "SmartStackKitTests", dependencies: ["SmartStackKit", "SmartStackTesting"]),
    .testTarget(
      name: "smartstackTests", dependencies: ["smartstack", "SmartStackCommands", "SmartStackKit"]),
  ]
)
