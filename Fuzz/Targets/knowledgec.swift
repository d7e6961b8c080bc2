// libFuzzer target: the knowledgeC importer (KnowledgeCImporter through SQLiteDatabase) on
// hostile schemas (issue 30): the first byte's bits choose a ZSOURCE whose Z_PK repeats, a
// virtual generated column hex(zeroblob(N)) with N from the input, an interaction blob of
// more than 16 MiB, and --skip-bad-rows; the next 8 bytes are a ZSECONDSFROMGMT (any
// Int64, INT64_MIN included); the rest is one row's bundle id (any bytes: NUL, invalid
// UTF-8) and, repeated, its interaction blob.
// Any input must import or fail with a DatabaseError, never trap, hang or use memory
// beyond the 16 MiB value bound; every ZOBJECT row is accounted for once.
import Foundation
@_spi(Fixtures) import SmartStackKit

/// The folder of this fuzzing process's database, removed when the process exits (a
/// process that crashes leaves it, with the database of the input that crashed it).
let fuzzFolder: String = {
  let path = NSTemporaryDirectory() + "/smartstack-fuzz-knowledgec-\(getpid())"
  try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  atexit { removeFuzzFolder() }
  return path
}()

private func removeFuzzFolder() { try? FileManager.default.removeItem(atPath: fuzzFolder) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKnowledgeC(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let flags = bytes.first ?? 0
  var offset: Int64 = 0
  for byte in bytes.dropFirst().prefix(8) { offset = offset << 8 | Int64(byte) }
  let text = bytes.dropFirst(9)
  let hex = text.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
  var sql = """
    CREATE TABLE ZOBJECT (Z_PK INTEGER PRIMARY KEY, ZSTREAMNAME VARCHAR, ZSTARTDATE TIMESTAMP,
      ZSECONDSFROMGMT INTEGER, ZVALUESTRING VARCHAR, ZVALUEINTEGER INTEGER, ZSOURCE INTEGER,
      ZSTRUCTUREDMETADATA INTEGER);
    CREATE TABLE ZSOURCE (Z_PK \(flags & 1 != 0 ? "INTEGER" : "INTEGER PRIMARY KEY"), ZBUNDLEID VARCHAR);
    CREATE TABLE ZSTRUCTUREDMETADATA (Z_PK INTEGER PRIMARY KEY,
      Z_DKINTENTMETADATAKEY__INTENTCLASS VARCHAR, Z_DKINTENTMETADATAKEY__SERIALIZEDINTERACTION BLOB);
    INSERT INTO ZSOURCE VALUES (1, CAST(x'\(hex)' AS TEXT));
    INSERT INTO ZSTRUCTUREDMETADATA VALUES (1, 'INSendMessageIntent', \(flags & 4 != 0 ? "zeroblob(16777300)" : "x'\(hex)'"));
    INSERT INTO ZOBJECT VALUES (1, '/app/intents', 794131265, \(offset), CAST(x'\(hex)' AS TEXT), NULL, 1, 1);
    INSERT INTO ZOBJECT VALUES (2, '/app/intents', 794131266, \(offset), NULL, NULL, 1, 1);
    INSERT INTO ZOBJECT VALUES (3, '/device/isLocked', 794131267, \(offset), NULL, 0, NULL, NULL);
    """
  if flags & 1 != 0 { sql += "INSERT INTO ZSOURCE VALUES (1, 'again');" }
  if flags & 2 != 0 {
    sql += "ALTER TABLE ZOBJECT ADD COLUMN ZHUGE TEXT GENERATED ALWAYS AS (hex(zeroblob(\(Int(offset & 0x3FFF_FFFF))))) VIRTUAL NOT NULL;"
  }
  let path = fuzzFolder + "/k.db"
  unlink(path)
  do {
    try SQLiteDatabase.create(at: path, script: sql)
  } catch {
    return 0  // a script SQLite refuses is no input of the importer
  }
  do {
    let c = try KnowledgeCImporter(skipBadRows: flags & 32 != 0).read(path: path).counts
    let dropped = c.dropped.reduce(0) { $0 + $1.count }
    if c.rows != c.donations + c.visits + c.counted + dropped {
      fatalError("\(c.rows) rows but \(c.donations + c.visits + c.counted + dropped) accounted for")
    }
  } catch is DatabaseError {
  } catch {
    fatalError("unexpected error type: \(error)")
  }
  return 0
}
