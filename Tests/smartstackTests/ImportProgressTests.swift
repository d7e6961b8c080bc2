import Foundation
import Testing

@_spi(Fixtures) import SmartStackData

/// `Tests/Fixtures/importers`.
private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .appendingPathComponent("Fixtures/importers")
/// Standard error counts as a terminal (`ProgressReporter.standardErrorIsTerminal`).
private let terminal = ["SMARTSTACK_PROGRESS": "terminal"]

/// Every `import` format draws the one progress bar (issue 29 item 13: "`import` prints
/// nothing until done"): on a terminal only, nothing with `--quiet` (which also leaves out
/// the counts), and the same output files with and without it.
@Suite("progress of smartstack import")
struct ImportProgressCommandTests {
  /// A format: its arguments before the outputs (the input in the run's folder, made by
  /// `prepare`), its extra output option, and the unit of its bar.
  struct Format: Sendable, CustomTestStringConvertible {
    var arguments: [String]
    var extraOutput: String?
    var unit: String
    var prepare: @Sendable (URL) throws -> Void
    var testDescription: String { arguments[1] }
  }

  static func copy(_ name: String) -> @Sendable (URL) throws -> Void {
    { folder in
      try FileManager.default.copyItem(
        at: fixtures.appendingPathComponent(name), to: folder.appendingPathComponent(name))
    }
  }

  static func database(_ name: String, from script: String) -> @Sendable (URL) throws -> Void {
    { folder in
      let sql = String(decoding: try Data(contentsOf: fixtures.appendingPathComponent(script)), as: UTF8.self)
      try SQLiteDatabase.create(at: folder.appendingPathComponent(name).path, script: sql)
    }
  }

  static let formats: [Format] = [
    Format(arguments: ["import", "lsapp", "lsapp.tsv.gz"], unit: "MB", prepare: copy("lsapp.tsv.gz")),
    Format(arguments: ["import", "app-events", "app-events.csv"], unit: "MB", prepare: copy("app-events.csv")),
    Format(
      arguments: ["import", "knowledgec", "knowledgeC.db"], unit: "rows",
      prepare: database("knowledgeC.db", from: "knowledgeC-ios.sql")),
    Format(
      arguments: ["import", "powerlog", "pl.PLSQL"], extraOutput: "--widgets-out", unit: "rows",
      prepare: database("pl.PLSQL", from: "powerlog.sql")),
    Format(arguments: ["import", "biome", "biome"], unit: "MB", prepare: copy("biome")),
  ]

  /// The output options of run `name`: `NAME.csv`, `NAME-visits.csv` and, for PowerLog,
  /// `NAME-widgets.csv`.
  static func outputs(_ name: String, _ format: Format) -> [String] {
    ["--out", "\(name).csv", "--visits-out", "\(name)-visits.csv"]
      + (format.extraOutput.map { [$0, "\(name)-widgets.csv"] } ?? [])
  }

  static func files(_ name: String, _ format: Format, in folder: URL) -> [Data?] {
    outputs(name, format).enumerated().filter { $0.offset % 2 == 1 }.map {
      FileManager.default.contents(atPath: folder.appendingPathComponent($0.element).path)
    }
  }

  @Test(arguments: formats)
  func aBarOnATerminalNothingInAPipeOrWithQuietAndTheSameFiles(format: Format) throws {
    let folder = try CLI.temporaryFolder()
    try format.prepare(folder)
    let shown = try CLI.run(format.arguments + Self.outputs("shown", format), in: folder, environment: terminal)
    #expect(shown.status == 0, "\(shown.stderr)")
    #expect(shown.stderr.contains("\r\u{1B}[2Kimport "), "\(shown.stderr)")
    #expect(shown.stderr.contains(" \(format.unit) (100%)"), "\(shown.stderr)")
    #expect(shown.stderr.contains("done in "), "\(shown.stderr)")
    // The bar's last line ends before the counts.
    #expect(shown.stderr.contains(Regex(#/done in [^\n]*\ninput: /#)), "\(shown.stderr)")

    // Through a pipe (the tests' standard error): the counts, no bar.
    let piped = try CLI.run(format.arguments + Self.outputs("piped", format), in: folder)
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect(piped.stderr.hasPrefix("input: "), "\(piped.stderr)")
    #expect(!piped.stderr.contains("\u{1B}"))
    #expect(!piped.stderr.contains("(100%)"))
    #expect(!piped.stderr.contains("done in"))

    // --quiet on a terminal: nothing at all (these inputs have no warnings); --json still prints.
    let quiet = try CLI.run(
      format.arguments + Self.outputs("quiet", format) + ["--quiet", "--json"], in: folder, environment: terminal)
    #expect(quiet.status == 0, "\(quiet.stderr)")
    #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
    #expect(quiet.stdout.hasPrefix("{\"format\":"), "\(quiet.stdout)")

    let expected = Self.files("piped", format, in: folder)
    #expect(expected.allSatisfy { $0 != nil })
    #expect(Self.files("shown", format, in: folder) == expected)
    #expect(Self.files("quiet", format, in: folder) == expected)
  }

  @Test func quietStillPrintsTheWarningsOfSkippedRows() throws {
    let folder = try CLI.temporaryFolder()
    try "user_id\tsession_id\ttimestamp\tapp_name\tevent_type\n1\t1\tnot a time\tGmail\tOpened\n"
      .write(to: folder.appendingPathComponent("bad.tsv"), atomically: true, encoding: .utf8)
    let r = try CLI.run(
      ["import", "lsapp", "bad.tsv", "--out", "log.csv", "--skip-bad-rows", "--quiet"], in: folder,
      environment: terminal)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.hasPrefix("bad.tsv:2:5: warning: timestamp"), "\(r.stderr)")
    #expect(r.stderr.hasSuffix("(row skipped)\n"), "\(r.stderr)")
    #expect(!r.stderr.contains("\u{1B}"), "\(r.stderr)")
  }

  @Test func biomeWarningsStartOnALineOfTheirOwnBelowTheBarAndStayWithQuiet() throws {
    let folder = try CLI.temporaryFolder()
    try Self.copy("biome")(folder)
    let file = folder.appendingPathComponent("biome/streams/restricted/App.InFocus/local/794131200000000")
    var bytes = [UInt8](try Data(contentsOf: file))
    bytes[56 + 32] ^= 0xFF  // the first record's first payload byte: a CRC-32 mismatch
    try Data(bytes).write(to: file)
    let arguments = ["import", "biome", "biome", "--out", "log.csv", "--skip-bad-rows"]
    let shown = try CLI.run(arguments, in: folder, environment: terminal)
    #expect(shown.status == 0, "\(shown.stderr)")
    let lines = shown.stderr.split(separator: "\n", omittingEmptySubsequences: false)
    let warning = try #require(lines.firstIndex { $0.contains("CRC-32 mismatch") }, "\(shown.stderr)")
    #expect(lines[warning].hasPrefix("biome/"), "\(shown.stderr)")
    #expect(lines[warning].hasSuffix("(warning: record skipped)"), "\(shown.stderr)")
    #expect(lines[(warning + 1)...].contains { $0.contains("done in ") }, "\(shown.stderr)")
    let quiet = try CLI.run(arguments + ["--quiet"], in: folder, environment: terminal)
    #expect(quiet.status == 0, "\(quiet.stderr)")
    #expect(quiet.stderr.hasPrefix("biome/"), "\(quiet.stderr)")
    #expect(quiet.stderr.hasSuffix("(warning: record skipped)\n"), "\(quiet.stderr)")
  }
}
