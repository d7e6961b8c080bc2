import Foundation

/// `Tests/Fixtures/importers/biome`: a Biome folder with `App.InFocus`, `App.Intent` and
/// `Device.Power.PluggedIn`, SEGB versions 1 and 2 (made by the library tests'
/// `SEGBWriter`; `BiomeFixtures` describes it), for the `import biome` command tests.
enum BiomeFixtureFolder {
  static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Fixtures/importers/biome")

  /// A copy of the folder in a fresh temporary folder, as `biome/`; returns the latter.
  static func copy() throws -> URL {
    let folder = try CLI.temporaryFolder()
    try FileManager.default.copyItem(at: url, to: folder.appendingPathComponent("biome"))
    return folder
  }

  /// The text of `name` in `folder`, nil when it cannot be read.
  static func text(_ name: String, in folder: URL) -> String? {
    try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
  }
}
