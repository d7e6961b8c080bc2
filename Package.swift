// swift-tools-version: 6.2
//
// SmartStackLab: a laboratory for the iPhone Smart Stack.
//
// The library is layered targets, each depending only on the ones below it, so a
// wrong-way dependency does not compile (README, "Architecture"):
//
//   SmartStackCommands     the commands; SmartStack.main(registry:)   (+ ArgumentParser)
//   SmartStackBench        the speed benchmark (outside the library)
//   SmartStackExperiments  batch, sources, metric observers, statistics, reports, registry
//   SmartStackWorld        scenarios, simulated people, timelines, reloads, simulation
//   SmartStackStrategies   the built-in strategies
//   SmartStackEngine       strategy protocol, stack session, stack rules, replay driver
//   SmartStackData         donations, stacks and intents, relevance, visit logs, importers
//   SmartStackBase         time, random numbers, CSV/JSON, diagnostics, file I/O, worker pool
//
// `SmartStackKit` re-exports the six library layers: users write one import. The library
// depends on Foundation, the system zlib and SQLite (the design card says "packages: none":
// the system's own C libraries come first) and apple/swift-protobuf, the standard
// protobuf runtime, for the Biome importer's payloads. The commands use
// apple/swift-argument-parser,
// the ecosystem's standard. Nothing else is linked; see README.md, "Dependencies".
import Foundation
import PackageDescription

// The library's layers compile optimised (`-O`) in debug builds too, so that the tests'
// replays and simulations run at release speed; `SMARTSTACK_DEBUG_ONONE=1 swift build`
// builds them unoptimised, for a debugger. Why, what it measured, and why the manifest is
// swift-tools-version 6.2 (an unsafe flag in a dependency): README, "Set up" and
// "Dependencies".
let optimisedInDebug: [SwiftSetting] =
  ProcessInfo.processInfo.environment["SMARTSTACK_DEBUG_ONONE"] == "1"
  ? [] : [.unsafeFlags(["-O"], .when(configuration: .debug))]

// `SMARTSTACK_LIBRARY_TESTS_ONLY=1` leaves the command-line test target (smartstackTests) out
// of the build. Scripts/sanitizers.sh sets it for the AddressSanitizer build, which then
// compiles only the library's tests and the binary; the normal build's command-line tests
// run that binary (`SMARTSTACK_CLI_TESTS_BINARY`, Tests/smartstackTests/CLI.swift), since
// what they feed it is what AddressSanitizer checks (docs/reliability.md, "Sanitizers").
let libraryTestsOnly = ProcessInfo.processInfo.environment["SMARTSTACK_LIBRARY_TESTS_ONLY"] == "1"
let commandLineTests: [Target] =
  libraryTestsOnly
  ? []
  : [
    .testTarget(
      name: "smartstackTests",
      dependencies: ["smartstack", "SmartStackCommands", "SmartStackKit", "SmartStackBench", "SmartStackTestSupport"])
  ]

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
    // The Biome importer's payloads are protobuf (README.md, "Dependencies"). Its two
    // default traits (Foundation streams of delimited messages, FieldMask helpers) are off:
    // nothing here uses them, and SwiftPM 6.3.1 writes their two `-D` flags in an order
    // that changes from one build plan to the next, so a later `swift build` that planned
    // again recompiled SwiftProtobuf (about 40 s in a release build) about every other time.
    .package(url: "https://github.com/apple/swift-protobuf", exact: "1.39.0", traits: []),
  ],
  targets: [
    // The system zlib (gzip import): headers and libz from the OS, e.g. Debian's zlib1g-dev.
    .systemLibrary(
      name: "CZlib", path: "Sources/CZlib",
      providers: [.apt(["zlib1g-dev"]), .yum(["zlib-devel"])]),
    // The system SQLite (device database import: knowledgeC.db, PowerLog), e.g. Debian's
    // libsqlite3-dev.
    .systemLibrary(
      name: "CSQLite", path: "Sources/CSQLite",
      providers: [.apt(["libsqlite3-dev"]), .yum(["sqlite-devel"])]),
    .target(name: "SmartStackBase", swiftSettings: optimisedInDebug),
    .target(
      name: "SmartStackData",
      dependencies: [
        "SmartStackBase", "CZlib", "CSQLite", .product(name: "SwiftProtobuf", package: "swift-protobuf"),
      ],
      // The schema of the committed BiomeRecords.pb.swift (Scripts/generate-protos.sh).
      exclude: ["Importers/Biome/BiomeRecords.proto"],
      swiftSettings: optimisedInDebug),
    .target(name: "SmartStackEngine", dependencies: ["SmartStackBase", "SmartStackData"], swiftSettings: optimisedInDebug),
    .target(name: "SmartStackStrategies", dependencies: ["SmartStackEngine"], swiftSettings: optimisedInDebug),
    .target(name: "SmartStackWorld", dependencies: ["SmartStackEngine"], swiftSettings: optimisedInDebug),
    .target(name: "SmartStackExperiments", dependencies: ["SmartStackStrategies", "SmartStackWorld"], swiftSettings: optimisedInDebug),
    .target(name: "SmartStackCounterfactual", dependencies: ["SmartStackExperiments"], swiftSettings: optimisedInDebug),
    .target(
      name: "SmartStackKit",
      dependencies: [
        "SmartStackBase", "SmartStackData", "SmartStackEngine", "SmartStackStrategies",
        "SmartStackWorld", "SmartStackExperiments", "SmartStackCounterfactual",
      ]),
    .target(name: "SmartStackTesting", dependencies: ["SmartStackKit"]),
    .target(name: "SmartStackBench", dependencies: ["SmartStackKit"]),
    .target(
      name: "SmartStackCommands",
      dependencies: [
        "SmartStackKit", "SmartStackBench",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // `smartstack`: SmartStackCommands with the built-in strategies.
    .executableTarget(name: "smartstack", dependencies: ["SmartStackCommands", "SmartStackKit"]),
    // The test suites' own helpers (where their files go); no product: not for users.
    .target(name: "SmartStackTestSupport", path: "Tests/TestSupport"),
    .testTarget(
      name: "SmartStackKitTests",
      dependencies: [
        "SmartStackKit", "SmartStackTesting", "SmartStackBench", "SmartStackBase", "SmartStackData",
        "SmartStackEngine", "SmartStackStrategies", "SmartStackWorld", "SmartStackExperiments",
        "SmartStackCounterfactual", "SmartStackTestSupport",
      ]),
  ] + commandLineTests
)
