import Foundation
import Testing

@_spi(Fixtures) import SmartStackData
import SmartStackKit

/// Builds `name` in `folder` from the SQL script `Tests/Fixtures/importers/SCRIPT` (shared
/// with the library's device importer tests) through the SQLite C API.
func database(_ name: String, from script: String, in folder: URL) throws {
  let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/importers/\(script)")
  let sql = String(decoding: try Data(contentsOf: url), as: UTF8.self)
  try SQLiteDatabase.create(at: folder.appendingPathComponent(name).path, script: sql)
}

@Suite("smartstack import knowledgec, powerlog and --kinds")
struct ImportDeviceCommandTests {
  private func text(_ name: String, in folder: URL) -> String? {
    FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
      .map { String(decoding: $0, as: UTF8.self) }
  }

  @Test("knowledgec writes offset timestamps and a utc_offset column, and the logs replay")
  func knowledgeCReplays() throws {
    let folder = try CLI.temporaryFolder()
    try database("knowledgeC.db", from: "knowledgeC-ios.sql", in: folder)
    let r = try CLI.run(
      ["import", "knowledgec", "knowledgeC.db", "--out", "kc.csv", "--visits-out", "visits.csv"],
      in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("interactions not decoded: 2"))
    let log = try #require(text("kc.csv", in: folder))
    #expect(log.hasPrefix("timestamp,user,kind,intent,parameters,utc_offset\n"))
    #expect(log.contains("2026-03-03T15:00:00-05:00,default,com.example.chat,INSendMessageIntent"))
    #expect(text("visits.csv", in: folder)?.contains("2026-03-02T09:00:00+01:00,default,3600") == true)
    let replay = try CLI.run(
      ["replay", "--log", "kc.csv", "--visits", "visits.csv", "--out", "report"], in: folder)
    #expect(replay.status == 0, "\(replay.stderr)")
    #expect(replay.stdout.contains("2 visits") || replay.stderr.contains("2 visits"))
  }

  @Test("--streams inFocus gives one donation per /app/inFocus row")
  func inFocusStream() throws {
    let folder = try CLI.temporaryFolder()
    try database("knowledgeC.db", from: "knowledgeC-ios.sql", in: folder)
    let r = try CLI.run(
      ["import", "knowledgec", "knowledgeC.db", "--out", "kc.csv", "--streams", "inFocus", "--json"],
      in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stdout.contains("\"donations\":3"))
    #expect(text("kc.csv", in: folder)?.split(separator: "\n").count == 4)
  }

  @Test("a misspelt stream with no rows is refused, naming the database's streams; a known empty one is not")
  func misspeltStream() throws {
    let folder = try CLI.temporaryFolder()
    try database("knowledgeC.db", from: "knowledgeC-ios.sql", in: folder)
    let r = try CLI.run(
      ["import", "knowledgec", "knowledgeC.db", "--out", "kc.csv", "--streams", "intents,bogus"], in: folder)
    #expect(r.status == 65, "\(r.stderr)")
    #expect(r.stderr.contains("knowledgeC.db: no rows of stream /app/bogus (its streams: "), "\(r.stderr)")
    #expect(r.stderr.contains("/app/inFocus (3)"), "\(r.stderr)")
    #expect(text("kc.csv", in: folder) == nil)
    let known = try CLI.run(
      ["import", "knowledgec", "knowledgeC.db", "--out", "kc.csv", "--streams", "inFocus,activity"], in: folder)
    #expect(known.status == 0, "\(known.stderr)")
  }

  @Test("a garbage or non-knowledgeC file is refused with exit 65 and nothing written")
  func refusedFiles() throws {
    let folder = try CLI.temporaryFolder()
    try CLI.write("not a database at all\n", to: "garbage.db", in: folder)
    var r = try CLI.run(["import", "knowledgec", "garbage.db", "--out", "kc.csv"], in: folder)
    #expect(r.status == 65)
    #expect(r.stderr.hasPrefix("garbage.db: "))
    #expect(text("kc.csv", in: folder) == nil)
    try database("other.db", from: "powerlog.sql", in: folder)
    r = try CLI.run(["import", "knowledgec", "other.db", "--out", "kc.csv"], in: folder)
    #expect(r.status == 65)
    #expect(r.stderr.contains("other.db: no table ZOBJECT: not a knowledgeC database"))
    #expect(text("kc.csv", in: folder) == nil)
    r = try CLI.run(["import", "knowledgec", "missing.db", "--out", "kc.csv"], in: folder)
    #expect(r.status == 66)
  }

  @Test("powerlog writes launches, unlocks and the widget file, and the logs replay")
  func powerLog() throws {
    let folder = try CLI.temporaryFolder()
    try database("CurrentPowerlog.PLSQL", from: "powerlog.sql", in: folder)
    let r = try CLI.run(
      [
        "import", "powerlog", "CurrentPowerlog.PLSQL", "--out", "pl.csv", "--visits-out",
        "pl-visits.csv", "--widgets-out", "widgets.csv",
      ], in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(text("pl.csv", in: folder)?.contains("2026-03-02T08:00:10Z,default,com.example.coffee") == true)
    #expect(text("widgets.csv", in: folder)?.contains("isInStack=1") == true)
    let replay = try CLI.run(
      ["replay", "--log", "pl.csv", "--visits", "pl-visits.csv", "--out", "report"], in: folder)
    #expect(replay.status == 0, "\(replay.stderr)")
  }

  @Test("--kinds maps every format's ids, counts the unmapped, and locates a bad map")
  func kinds() throws {
    let folder = try CLI.temporaryFolder()
    try database("knowledgeC.db", from: "knowledgeC-ios.sql", in: folder)
    try CLI.write("id,kind\nOrderCoffeeIntent,Coffee\n", to: "kinds.csv", in: folder)
    var r = try CLI.run(
      ["import", "knowledgec", "knowledgeC.db", "--out", "kc.csv", "--kinds", "kinds.csv"],
      in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(r.stderr.contains("unmapped ids:             1"))
    #expect(text("kc.csv", in: folder)?.contains(",default,Coffee,OrderCoffeeIntent,") == true)
    try CLI.write(
      "timestamp,app,event\n2026-03-02T08:00:00Z,com.example.chat,open\n", to: "events.csv",
      in: folder)
    try CLI.write("id,kind\ncom.example.chat,Chat\n", to: "kinds2.csv", in: folder)
    r = try CLI.run(
      ["import", "app-events", "events.csv", "--out", "ev.csv", "--kinds", "kinds2.csv"],
      in: folder)
    #expect(r.status == 0, "\(r.stderr)")
    #expect(text("ev.csv", in: folder)?.contains("default,Chat,,") == true)
    try CLI.write("id,kind\n,Chat\n", to: "bad.csv", in: folder)
    r = try CLI.run(
      ["import", "app-events", "events.csv", "--out", "ev2.csv", "--kinds", "bad.csv"], in: folder)
    #expect(r.status == 65)
    #expect(r.stderr.contains("bad.csv:2:1: id is empty"))
    #expect(text("ev2.csv", in: folder) == nil)
  }
}
