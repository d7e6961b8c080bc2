// swift-tools-version: 6.0
//
// A `smartstack` of one's own: every command of SmartStackLab, with one more strategy
// (`weekday-mfu`). Build and run from the repository's root folder:
//   swift run --package-path Examples/CustomStrategy custom-smartstack strategies
import PackageDescription

let package = Package(
  name: "CustomStrategy",
  platforms: [.macOS(.v13)],
  dependencies: [
    // SmartStackLab itself, two folders up (a released tool would name its URL instead).
    .package(name: "SmartStackLab", path: "../..")
  ],
  targets: [
    // The strategy, in a library so that the tool and the tests share it.
    .target(
      name: "WeekdayStrategies",
      dependencies: [.product(name: "SmartStackKit", package: "SmartStackLab")]
    ),
    .executableTarget(
      name: "custom-smartstack",
      dependencies: [
        "WeekdayStrategies",
        .product(name: "SmartStackCommands", package: "SmartStackLab"),
        .product(name: "SmartStackKit", package: "SmartStackLab"),
      ]
    ),
    // `swift test --package-path Examples/CustomStrategy`: the conformance checker.
    .testTarget(
      name: "WeekdayStrategiesTests",
      dependencies: [
        "WeekdayStrategies",
        .product(name: "SmartStackKit", package: "SmartStackLab"),
        .product(name: "SmartStackTesting", package: "SmartStackLab"),
      ]
    ),
  ]
)
