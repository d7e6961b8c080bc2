import Foundation
import Testing

private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// Issue 29, item 14: `batch --init` writes a config that runs where it is written.
@Suite("batch --init writes paths that work wherever the config is written and run")
struct BatchInitPathsTests {
  @Test func aConfigWrittenOutsideTheRepositoryNamesFilesThatExist() throws {
    let work = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: work) }
    try FileManager.default.createDirectory(
      at: work.appendingPathComponent("study"), withIntermediateDirectories: true)
    let r = try CLI.run(["batch", "--init", "study/exp.json"], in: work)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(!r.stderr.contains("warning"), "\(r.stderr)")
    let folder = work.appendingPathComponent("study")
    let text = try String(contentsOf: folder.appendingPathComponent("exp.json"), encoding: .utf8)
    for key in [#""log": ""#, #""scenario": ""#] {
      let path = try #require(text.components(separatedBy: key).dropFirst().first?.components(separatedBy: "\"").first)
      #expect(
        FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path),
        "\(path) from \(folder.path)")
    }
  }
}
