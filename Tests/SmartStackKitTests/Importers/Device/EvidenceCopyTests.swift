import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@_spi(Fixtures) @testable import SmartStackData

@Suite("A linked evidence database is read with the -wal beside the file it leads to")
struct LinkedEvidenceTests {
  @Test("a symbolic link to a database with rows only in its -wal reads those rows")
  func linkReadsTheWAL() throws {
    let folder = try DeviceFixtures.folder()
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("ev"), withIntermediateDirectories: false)
    let path = try DeviceFixtures.database(
      "ev/e.db", in: folder,
      script: "CREATE TABLE T (name TEXT); INSERT INTO T VALUES ('a'), ('only in the wal');",
      keepWAL: true)
    let link = folder.appendingPathComponent("l.db").path
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
    var names: [String] = []
    try SQLiteDatabase.withCopy(of: link) { db in
      try db.query("SELECT name FROM T ORDER BY rowid") { names.append($0.text(0) ?? "") }
    }
    #expect(names == ["a", "only in the wal"])
  }
}

@Suite("Copies of evidence left by killed imports are removed by the next copy")
struct LeakedCopyTests {
  @Test("a folder of a process that is gone is removed; a running one's and other files stay")
  func leakedFoldersRemoved() throws {
    let parent = try DeviceFixtures.folder().path
    // A process id that is not running: a child that has exited and been reaped.
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/true")
    try child.run()
    child.waitUntilExit()
    let dead = parent + "/smartstack-sqlite-\(child.processIdentifier)-A"
    let alive = parent + "/smartstack-sqlite-\(getpid())-B"
    let legacyOld = parent + "/smartstack-sqlite-C0FFEE"
    let legacyNew = parent + "/smartstack-sqlite-BEEF"
    let other = parent + "/something-else"
    for folder in [dead, alive, legacyOld, legacyNew, other] {
      try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
      try FileIO.writeAtomically("evidence copy", to: folder + "/database.sqlite")
    }
    try FileManager.default.setAttributes(
      [.modificationDate: Date(timeIntervalSinceNow: -2 * 86_400)], ofItemAtPath: legacyOld)
    let removed = SQLiteCopyFolder.removeLeaked(in: parent)
    #expect(removed == ["smartstack-sqlite-C0FFEE", "smartstack-sqlite-\(child.processIdentifier)-A"].sorted())
    for folder in [alive, legacyNew, other] { #expect(FileManager.default.fileExists(atPath: folder)) }
    for folder in [dead, legacyOld] { #expect(!FileManager.default.fileExists(atPath: folder)) }
  }

  @Test("the copy's folder names this process, so a later run can tell it is still in use")
  func folderNamesTheProcess() throws {
    let folder = try DeviceFixtures.folder()
    let path = try DeviceFixtures.database("c.db", in: folder, script: "CREATE TABLE T (a);")
    let db = try SQLiteDatabase.open(copying: path)
    defer { db.close() }
    let copy = try #require(db.temporaryFolder)
    #expect(URL(fileURLWithPath: copy).lastPathComponent.hasPrefix("smartstack-sqlite-\(getpid())-"))
  }
}

@Suite("An output is refused when it resolves to an input or its SQLite companions")
struct InputOutputOverlapTests {
  @Test("the input, -wal, -shm, -journal, through a linked input or a linked folder; others pass")
  func overlaps() throws {
    let folder = try DeviceFixtures.folder().path
    let fm = FileManager.default
    try fm.createDirectory(atPath: folder + "/ev", withIntermediateDirectories: false)
    try FileIO.writeAtomically("db", to: folder + "/ev/e.db")
    try fm.createSymbolicLink(atPath: folder + "/l.db", withDestinationPath: folder + "/ev/e.db")
    try fm.createSymbolicLink(atPath: folder + "/evlink", withDestinationPath: folder + "/ev")
    func problem(_ input: String, _ output: String) -> String? {
      InputOutputOverlap.problem(inputs: [folder + "/" + input], outputs: [("--out", folder + "/" + output)])
    }
    for output in ["ev/e.db", "ev/e.db-wal", "ev/e.db-shm", "ev/e.db-journal", "evlink/e.db-wal", "ev/../ev/e.db"] {
      #expect(problem("ev/e.db", output) != nil, "\(output)")
      #expect(problem("l.db", output) != nil, "\(output) through l.db")
    }
    #expect(problem("l.db", "l.db-wal")?.contains("write-ahead log") == true)
    #expect(problem("ev/e.db", "ev/e.csv") == nil)
    #expect(problem("ev/e.db", "ev/e.db-walrus") == nil)
    // A folder input (Biome) stands for everything inside it.
    #expect(problem("ev", "evlink/new.csv")?.contains("inside the input folder") == true)
    #expect(problem("ev", "out.csv") == nil)
  }
}
