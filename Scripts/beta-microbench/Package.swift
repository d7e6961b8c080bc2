// swift-tools-version: 6.0
//
// A throwaway-style microbenchmark of the bandit's samplers (ns per normal, per Beta
// draw, against the Box–Muller `nextBeta`). Not part of the toolkit's package:
//   cd Scripts/beta-microbench && swift build -c release && taskset -c 1 .build/release/beta-microbench
import PackageDescription

let package = Package(
  name: "beta-microbench",
  platforms: [.macOS(.v13)],
  dependencies: [.package(name: "SmartStackLab", path: "../..")],
  targets: [
    .executableTarget(
      name: "beta-microbench",
      dependencies: [.product(name: "SmartStackKit", package: "SmartStackLab")])
  ]
)
