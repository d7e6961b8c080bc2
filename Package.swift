// swift-tools-version: 6.0
//
// SmartStackLab: a laboratory for the iPhone Smart Stack.
//
// The library `SmartStackKit` depends on Foundation only (the design card says
// "packages: none"). The command-line tool uses apple/swift-argument-parser, the
// ecosystem's standard. Nothing else is linked; see README.md, "Dependencies".
import PackageDescription

let package = Package(
  name: "SmartStackLab",
  platforms: [.macOS(.v13)],
  products: [
    .library(name: "SmartStackKit", targets: ["SmartStackKit"]),
    .executable(name: "smartstack", targets: ["smartstack"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2")
  ],
  targets: [
    .target(name: "SmartStackKit"),
    .executableTarget(
      name: "smartstack",
      dependencies: [
        "SmartStackKit",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(name: "SmartStackKitTests", dependencies: ["SmartStackKit"]),
    .testTarget(name: "smartstackTests", dependencies: ["smartstack", "SmartStackKit"]),
  ]
)
