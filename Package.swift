// swift-tools-version: 6.0
//
// SmartStackLab: a laboratory for the iPhone Smart Stack.
//
// The library `SmartStackKit` depends on Foundation and the system zlib only (the design
// card says "packages: none": the system's own C libraries come first). The command-line
// tool uses apple/swift-argument-parser, the ecosystem's standard. Nothing else is
// linked; see README.md, "Dependencies".
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
    // The system zlib (gzip import): headers and libz from the OS, e.g. Debian's zlib1g-dev.
    .systemLibrary(
      name: "CZlib", path: "Sources/CZlib",
      providers: [.apt(["zlib1g-dev"]), .yum(["zlib-devel"])]),
    .target(name: "SmartStackKit", dependencies: ["CZlib"]),
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
