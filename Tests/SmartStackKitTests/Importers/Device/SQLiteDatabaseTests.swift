import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@_spi(Fixtures) @testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

@Suite("SQLiteDatabase reads a temporary copy and never touches the original")
struct SQLiteDatabaseTests {
  /// The bytes and modification time of a file.
  private func snapshot(_ path: String) throws -> ([UInt8], Date) {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (try FileIO.readBytes(path), attributes[.modificationDate] as! Date)
  }

  @Test("rows that exist only in the -wal file are read, and the originals stay byte-identical")
  func walOnlyRowsAreRead() throws {
    let folder = try DeviceFixtures.folder()
    let path = try DeviceFixtures.database(
      "wal.db", in: folder,
      script: "CREATE TABLE T (name TEXT); INSERT INTO T VALUES ('only'), ('in the wal');",
      keepWAL: true)
    #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    let before = try [path, path + "-wal", path + "-shm"].map(snapshot)
    Thread.sleep(forTimeInterval: 0.01)
    var names: [String] = []
    try SQLiteDatabase.withCopy(of: path) { db in
      try db.query("SELECT name FROM T ORDER BY rowid") { names.append($0.text(0) ?? "") }
    }
    #expect(names == ["only", "in the wal"])
    let after = try [path, path + "-wal", path + "-shm"].map(snapshot)
    for (b, a) in zip(before, after) {
      #expect(b.0 == a.0)
      #expect(b.1 == a.1)
    }
  }

  @Test("tables, columns by PRAGMA table_info, values by column name")
  func schemaAndColumns() throws {
    let folder = try DeviceFixtures.folder()
    let path = try DeviceFixtures.database(
      "s.db", in: folder,
      script: "CREATE TABLE B (x INTEGER, y REAL, z BLOB); CREATE TABLE A (t TEXT);"
        + "INSERT INTO B VALUES (7, 2.5, x'0102');")
    try SQLiteDatabase.withCopy(of: path) { db in
      #expect(try db.tables() == ["A", "B"])
      #expect(try db.columns(of: "B") == ["x", "y", "z"])
      #expect(try db.columns(of: "missing") == [])
      try db.query("SELECT * FROM B WHERE x = ?", bind: [.integer(7)]) { row in
        #expect(row["x"] == .integer(7))
        #expect(row["Y"]?.double == 2.5)
        #expect(row["z"] == .blob([1, 2]))
        #expect(row["nope"] == nil)
      }
    }
  }

  @Test("the temporary copy is removed when closed")
  func copyRemoved() throws {
    let folder = try DeviceFixtures.folder()
    let path = try DeviceFixtures.database("c.db", in: folder, script: "CREATE TABLE T (a);")
    let db = try SQLiteDatabase.open(copying: path)
    let copy = try #require(db.temporaryFolder)
    #expect(FileManager.default.fileExists(atPath: copy + "/database.sqlite"))
    db.close()
    #expect(!FileManager.default.fileExists(atPath: copy))
  }

  @Test("garbage and truncated files are refused as FILE: what is wrong")
  func badFilesRefused() throws {
    let folder = try DeviceFixtures.folder()
    let garbage = folder.appendingPathComponent("garbage.db").path
    try FileIO.writeAtomically(Array("this is not a database, just text\n".utf8), to: garbage)
    #expect(throws: DatabaseError.self) { try SQLiteDatabase.open(copying: garbage) }
    let path = try DeviceFixtures.database(
      "whole.db", in: folder,
      script: "BEGIN; CREATE TABLE T (a TEXT);"
        + (0..<400).map { "INSERT INTO T VALUES ('\(String(repeating: "x", count: 100))\($0)');" }
        .joined() + "COMMIT;")
    let bytes = try FileIO.readBytes(path)
    let truncated = folder.appendingPathComponent("truncated.db").path
    try FileIO.writeAtomically(Array(bytes.prefix(bytes.count / 3)), to: truncated)
    do {
      _ = try SQLiteDatabase.withCopy(of: truncated) { db in
        try db.query("SELECT COUNT(*) FROM T") { _ in }
      }
      Issue.record("a truncated database was read")
    } catch let error as DatabaseError {
      #expect(error.description.hasPrefix(truncated + ": "))
    }
    #expect(throws: InputFileError.self) {
      try SQLiteDatabase.open(copying: folder.appendingPathComponent("missing.db").path)
    }
  }
}
