import Foundation
import Testing

@_spi(Fixtures) import SmartStackData
import SmartStackKit

@Suite("import never writes over its evidence: outputs naming the input or its companions are refused")
struct EvidenceOutputTests {
  /// The bytes and modification time of every file in `folder`, by name.
  private func snapshot(_ folder: URL) throws -> [String: ([UInt8], Date)] {
    var files: [String: ([UInt8], Date)] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
      let path = folder.appendingPathComponent(name).path
      let date = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as! Date
      files[name] = (try FileIO.readBytes(path), date)
    }
    return files
  }

  @Test("--out, --visits-out, --widgets-out on the database, -wal, -shm, -journal, also through links")
  func outputsOnEvidenceRefused() throws {
    let folder = try CLI.temporaryFolder()
    let ev = folder.appendingPathComponent("ev")
    try FileManager.default.createDirectory(at: ev, withIntermediateDirectories: false)
    let sql = String(decoding: ImporterFixtureFile.read("knowledgeC-ios.sql"), as: UTF8.self)
    try SQLiteDatabase.create(at: ev.appendingPathComponent("e.db").path, script: sql, keepWAL: true)
    let pl = String(decoding: ImporterFixtureFile.read("powerlog.sql"), as: UTF8.self)
    try SQLiteDatabase.create(at: ev.appendingPathComponent("p.db").path, script: pl, keepWAL: true)
    try FileManager.default.createSymbolicLink(
      atPath: folder.appendingPathComponent("l.db").path, withDestinationPath: ev.appendingPathComponent("e.db").path)
    let before = try snapshot(ev)
    Thread.sleep(forTimeInterval: 0.01)
    let attempts: [[String]] = [
      ["knowledgec", "ev/e.db", "--out", "ev/e.db-wal"],
      ["knowledgec", "ev/e.db", "--out", "ok.csv", "--visits-out", "ev/e.db-shm"],
      ["knowledgec", "ev/e.db", "--out", "ev/e.db-journal"],
      ["knowledgec", "l.db", "--out", "ev/e.db"],
      ["knowledgec", "l.db", "--out", "ev/e.db-wal"],
      ["powerlog", "ev/p.db", "--out", "ok.csv", "--widgets-out", "ev/p.db-wal"],
      ["powerlog", "ev/p.db", "--out", "ok.csv", "--widgets-out", "ev/p.db"],
    ]
    for arguments in attempts {
      let r = try CLI.run(["import"] + arguments, in: folder)
      #expect(r.status == 64, "\(arguments): \(r.stderr)")
      #expect(r.stderr.contains("would overwrite the input"), "\(arguments): \(r.stderr)")
    }
    let after = try snapshot(ev)
    #expect(before.keys.sorted() == after.keys.sorted())
    for (name, (bytes, date)) in before {
      #expect(after[name]?.0 == bytes, "\(name) changed")
      #expect(after[name]?.1 == date, "\(name) modification time changed")
    }
    // Through the link, the rows in the -wal count: the same donations as the file itself.
    let viaLink = try CLI.run(["import", "knowledgec", "l.db", "--out", "a.csv", "--json"], in: folder)
    let direct = try CLI.run(["import", "knowledgec", "ev/e.db", "--out", "b.csv", "--json"], in: folder)
    #expect(viaLink.status == 0 && direct.status == 0, "\(viaLink.stderr) \(direct.stderr)")
    #expect(viaLink.stdout.contains("\"donations\":5"), "\(viaLink.stdout)")
    #expect(
      try FileIO.readBytes(folder.appendingPathComponent("a.csv").path)
        == FileIO.readBytes(folder.appendingPathComponent("b.csv").path))
  }

  @Test("escape sequences in a database's name and in SQLite's messages are printed escaped")
  func escapesInErrors() throws {
    let folder = try CLI.temporaryFolder()
    let name = "bad\u{1B}]0;owned\u{07}\u{1B}[2J.db"
    try CLI.write("not a database at all\n", to: name, in: folder)
    let r = try CLI.run(["import", "knowledgec", name, "--out", "kc.csv"], in: folder)
    #expect(r.status == 65)
    #expect(!r.stderr.contains("\u{1B}"), "\(r.stderr)")
    #expect(r.stderr.contains("bad\\u{1B}]0;owned\\u{07}\\u{1B}[2J.db"), "\(r.stderr)")
    let biome = try CLI.run(["import", "biome", name, "--stream", "App.Intent", "--out", "b.csv"], in: folder)
    #expect(biome.status == 65)
    #expect(!biome.stderr.contains("\u{1B}"), "\(biome.stderr)")
  }
}

/// `Tests/Fixtures/importers/NAME`.
enum ImporterFixtureFile {
  static func read(_ name: String) -> Data {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/importers/\(name)")
    return (try? Data(contentsOf: url)) ?? Data()
  }
}
