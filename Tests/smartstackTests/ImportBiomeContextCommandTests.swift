import Foundation
import Testing

private let expectedContext = """
  timestamp,user,signal,value
  2026-03-02T07:00:00Z,default,charging,false
  2026-03-02T12:00:00Z,default,charging,true
  2026-03-02T12:45:00Z,default,charging,false
  2026-03-02T22:00:00Z,default,charging,true
  2026-03-03T07:30:00Z,default,charging,false

  """

/// `import biome --context-out FILE [--context-from PATH]` writes the charging state of
/// `Device.Power.PluggedIn`, and `validate --context` and `replay --context` take it.
@Suite("smartstack import biome --context-out: Device.Power.PluggedIn as charging context")
struct ImportBiomeContextCommandTests {
  private func text(_ name: String, in folder: URL) -> String? { BiomeFixtureFolder.text(name, in: folder) }
  private func copy() throws -> URL { try BiomeFixtureFolder.copy() }

  private let outputs = ["--out", "log.csv", "--visits-out", "visits.csv"]

  @Test("the fixture's charging changes import, validate and replay beside its logs, which they leave unchanged")
  func endToEnd() throws {
    let folder = try copy()
    let plain = try CLI.run(["import", "biome", "biome", "--out", "plain.csv", "--visits-out", "plain-visits.csv"], in: folder)
    #expect(plain.status == 0, "\(plain.stderr)")
    let r = try CLI.run(["import", "biome", "biome"] + outputs + ["--context-out", "ctx.csv"], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("ctx.csv (5 context changes, 2 rows without a state)"), "\(r.stderr)")
    #expect(text("ctx.csv", in: folder) == expectedContext)
    #expect(text("log.csv", in: folder) == text("plain.csv", in: folder))
    #expect(text("visits.csv", in: folder) == text("plain-visits.csv", in: folder))
    #expect(r.stderr.contains("rows read: 16"), "\(r.stderr)")
    let validate = try CLI.run(["validate", "log.csv", "--context", "ctx.csv"], in: folder)
    #expect(validate.status == 0, "\(validate.stderr)")
    #expect(validate.stdout.contains("context changes:  5"), "\(validate.stdout)")
    let replay = try CLI.run(
      [
        "replay", "--log", "log.csv", "--visits", "visits.csv", "--context", "ctx.csv",
        "--strategy", "mfu,context-mfu", "--out", "report", "--quiet",
      ], in: folder)
    #expect(replay.status == 0, "\(replay.stderr)")
    #expect(text("report/runs.csv", in: folder)?.contains("context-mfu") == true)
  }

  @Test("--context-from reads the stream from another Biome folder; JSON Lines by extension")
  func contextFromAnotherFolder() throws {
    let folder = try copy()
    let db = folder.appendingPathComponent("db/biome/streams/restricted")
    try FileManager.default.createDirectory(at: db, withIntermediateDirectories: true)
    try FileManager.default.moveItem(
      at: folder.appendingPathComponent("biome/streams/restricted/Device.Power.PluggedIn"),
      to: db.appendingPathComponent("Device.Power.PluggedIn"))
    let r = try CLI.run(
      ["import", "biome", "biome"] + outputs + ["--context-out", "ctx.jsonl", "--context-from", "db/biome"], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      text("ctx.jsonl", in: folder)?.hasPrefix(
        "{\"timestamp\":\"2026-03-02T07:00:00Z\",\"user\":\"default\",\"signal\":\"charging\",\"value\":\"false\"}\n") == true)
    #expect(text("ctx.jsonl", in: folder)?.split(separator: "\n").count == 5)
  }

  @Test("a folder without the stream writes no context file, says so, and leaves an old one alone")
  func noStream() throws {
    let folder = try copy()
    try FileManager.default.removeItem(at: folder.appendingPathComponent("biome/streams/restricted/Device.Power.PluggedIn"))
    try CLI.write("old\n", to: "ctx.csv", in: folder)
    let r = try CLI.run(["import", "biome", "biome", "--out", "log.csv", "--context-out", "ctx.csv", "--quiet"], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(
      r.stderr == "warning: biome holds no context (no charging or headphones state in "
        + "Device.Power.PluggedIn (searched under biome)): --context-out ctx.csv is not written\n")
    #expect(text("ctx.csv", in: folder) == "old\n")
    #expect(text("log.csv", in: folder) != nil)
  }

  @Test("a corrupt context record fails the import listing it, or is skipped and counted with --skip-bad-rows")
  func corruptRecord() throws {
    let folder = try copy()
    let file = folder.appendingPathComponent("biome/streams/restricted/Device.Power.PluggedIn/local/794131200000000")
    var bytes = try [UInt8](Data(contentsOf: file))
    // The first record's payload starts after the 32-byte header and its CRC and 4 bytes.
    bytes[32 + 8 + 1] ^= 0xFF
    try Data(bytes).write(to: file)
    let r = try CLI.run(["import", "biome", "biome"] + outputs + ["--context-out", "ctx.csv"], in: folder)
    #expect(r.status == 65, "\(r.stderr)")
    #expect(r.stderr.contains("Device.Power.PluggedIn/local/794131200000000: offset 32: CRC-32 mismatch"), "\(r.stderr)")
    #expect(text("ctx.csv", in: folder) == nil && text("log.csv", in: folder) == nil)
    let skipped = try CLI.run(
      ["import", "biome", "biome"] + outputs + ["--context-out", "ctx.csv", "--skip-bad-rows"], in: folder)
    #expect(skipped.status == 0, "\(skipped.stderr)")
    #expect(skipped.stderr.contains("ctx.csv (4 context changes, 3 rows without a state)"), "\(skipped.stderr)")
    #expect(skipped.stderr.contains("bad_rows 0"), "\(skipped.stderr)")
  }

  @Test("--context-out naming another output or a file in an input folder, and a lone --context-from, are refused")
  func refusals() throws {
    let folder = try copy()
    let cases: [([String], String)] = [
      (outputs + ["--context-out", "log.csv"], "--context-out names the same file as another output: 'log.csv'"),
      (
        outputs + ["--context-out", "biome/streams/restricted/Device.Power.PluggedIn/local/794131200000000"],
        "is inside the input folder 'biome'"
      ),
      (outputs + ["--context-from", "biome"], "give --context-out FILE too"),
      (
        ["--out", "biome2/log.csv", "--context-out", "ctx.csv", "--context-from", "biome2"],
        "--out 'biome2/log.csv' is inside the input folder 'biome2'"
      ),
    ]
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("biome2"), withIntermediateDirectories: true)
    for (arguments, message) in cases {
      let r = try CLI.run(["import", "biome", "biome"] + arguments, in: folder)
      #expect(r.status == 64, "\(arguments): \(r.stderr)")
      #expect(r.stderr.contains(message), "\(arguments): \(r.stderr)")
      #expect(text("log.csv", in: folder) == nil && text("ctx.csv", in: folder) == nil)
    }
  }
}
