import Foundation
import Testing

@_spi(Fixtures) import SmartStackData

/// The repository's root folder.
private let root = URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// docs/importers.md's knowledgeC and PowerLog sections run as written, in order, on the
/// databases their fixture lines make.
@Suite("Importer doc examples run on the fixtures")
struct ImporterDocExampleTests {
  /// The lines of the `sh` blocks of the section whose heading starts with `heading`.
  private func shellLines(section heading: String) throws -> [String] {
    let doc = try String(contentsOf: root.appendingPathComponent("docs/importers.md"), encoding: .utf8)
    let start = try #require(doc.range(of: "\n" + heading))
    let rest = doc[start.upperBound...]
    let body = rest[..<(rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex)]
    var lines: [String] = []
    var inShell = false
    for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        inShell = !inShell && line == "```sh"
      } else if inShell && !line.isEmpty && !line.hasPrefix("#") {
        lines.append(String(line))
      }
    }
    return lines
  }

  /// Runs `lines` in a fresh folder: a `python3 -c` fixture line is done with the SQLite C
  /// API instead (same script, same file name), every `smartstack` line must exit 0, and
  /// there are `expected` of them (so that a section that loses its examples is noticed).
  private func run(_ lines: [String], expected: Int) throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    var commands = 0
    for line in lines {
      if line.hasPrefix("python3 -c") {
        let database = try #require(line.firstMatch(of: /connect\('([^']+)'\)/)?.1)
        let script = try #require(line.firstMatch(of: /open\('([^']+)'\)/)?.1)
        let sql = try String(contentsOf: root.appendingPathComponent(String(script)), encoding: .utf8)
        try SQLiteDatabase.create(at: folder.appendingPathComponent(String(database)).path, script: sql)
        continue
      }
      #expect(line.hasPrefix("smartstack "), "an unexpected line: \(line)")
      let command = line.split(separator: "  #").first.map(String.init) ?? line
      let arguments = command.split(separator: " ").dropFirst().map(String.init)
      let result = try CLI.run(arguments, in: folder)
      #expect(result.status == 0, "\(line): \(result.stderr)")
      commands += 1
    }
    #expect(commands == expected)
  }

  @Test func theKnowledgeCSectionRunsOnItsFixture() throws {
    try run(try shellLines(section: "## `knowledgec`"), expected: 6)
  }

  @Test func thePowerLogSectionRunsOnItsFixture() throws {
    try run(try shellLines(section: "## `powerlog`"), expected: 2)
  }
}
