import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@_spi(Fixtures) @testable import SmartStackData

/// A knowledgeC database of the fixture's layout with `extra` SQL run after it.
private func knowledgeC(_ extra: String = "") throws -> String {
  let folder = try DeviceFixtures.folder()
  return try DeviceFixtures.database(
    "knowledgeC.db", in: folder, script: DeviceFixtures.script("knowledgeC-ios.sql") + extra)
}

/// A minimal knowledgeC database: ZOBJECT with one `/app/intents` row of bundle `kind`,
/// joined to ZSTRUCTUREDMETADATA with intent verb `verb`, and `extra` SQL.
private func tinyKnowledgeC(kind: String = "'a.b'", verb: String = "'send'", extra: String = "") throws
  -> String
{
  let folder = try DeviceFixtures.folder()
  return try DeviceFixtures.database(
    "k.db", in: folder,
    script: """
      CREATE TABLE ZOBJECT (Z_PK INTEGER PRIMARY KEY, ZSTREAMNAME VARCHAR, ZSTARTDATE TIMESTAMP,
        ZVALUESTRING VARCHAR, ZSTRUCTUREDMETADATA INTEGER);
      CREATE TABLE ZSTRUCTUREDMETADATA (Z_PK INTEGER PRIMARY KEY,
        Z_DKINTENTMETADATAKEY__INTENTVERB VARCHAR, Z_DKINTENTMETADATAKEY__SERIALIZEDINTERACTION BLOB);
      INSERT INTO ZOBJECT VALUES (1, '/app/intents', 794131265, 'ok.app', NULL);
      INSERT INTO ZOBJECT VALUES (2, '/app/intents', 794131266, \(kind), 1);
      INSERT INTO ZSTRUCTUREDMETADATA VALUES (1, \(verb), NULL);
      \(extra)
      """)
}

private func note(_ result: ImportResult, _ name: String) -> Int? {
  result.counts.notes.first { $0.name == name }?.count
}

@Suite("knowledgeC: extreme offsets, duplicate keys and generated columns neither crash nor blow up")
struct HostileKnowledgeCTests {
  @Test("ZSECONDSFROMGMT of INT64_MIN and INT64_MAX is no offset, counted")
  func extremeOffsets() throws {
    let path = try knowledgeC(
      "UPDATE ZOBJECT SET ZSECONDSFROMGMT = -9223372036854775808 WHERE Z_PK = 5;"
        + "UPDATE ZOBJECT SET ZSECONDSFROMGMT = 9223372036854775807 WHERE Z_PK = 6;")
    let result = try KnowledgeCImporter().read(path: path)
    #expect(result.counts.donations == 5)
    #expect(note(result, "rows without utc offset")! >= 2)
  }

  @Test("a joined table whose Z_PK repeats is refused with the table, the key and a rowid")
  func duplicateKeys() throws {
    let path = try knowledgeC(
      "CREATE TABLE S2 AS SELECT * FROM ZSOURCE; DROP TABLE ZSOURCE;"
        + "CREATE TABLE ZSOURCE (Z_PK INTEGER, ZBUNDLEID VARCHAR);"
        + "INSERT INTO ZSOURCE SELECT 1, 'x' FROM S2, S2 AS b, S2 AS c;")
    #expect {
      try KnowledgeCImporter().read(path: path)
    } throws: { error in
      let text = String(describing: error)
      return text.contains("table ZSOURCE: Z_PK 1 is not unique (8 rows, the first at rowid 1)")
    }
  }

  @Test("a huge generated column is never computed, not even by the readability check")
  func generatedColumn() throws {
    let path = try tinyKnowledgeC(
      extra: "ALTER TABLE ZOBJECT ADD COLUMN ZHUGE TEXT GENERATED ALWAYS AS (hex(zeroblob(499999999))) VIRTUAL;")
    let result = try KnowledgeCImporter().read(path: path)
    #expect(result.counts.donations == 2)
  }

  @Test("an interaction blob over 16 MiB is skipped unread and counted; the donation stays")
  func hugeInteraction() throws {
    let path = try tinyKnowledgeC(
      extra: "UPDATE ZSTRUCTUREDMETADATA SET Z_DKINTENTMETADATAKEY__SERIALIZEDINTERACTION = zeroblob(16777217);")
    let result = try KnowledgeCImporter().read(path: path)
    #expect(result.counts.donations == 2)
    #expect(note(result, "interactions over 16 MiB") == 1)
  }
}

@Suite("Imports refuse, or skip and count, values their own logs cannot hold")
struct UnwritableValueTests {
  @Test("a NUL in a bundle id fails with the row; --skip-bad-rows counts it as bad_values")
  func nulInBundleID() throws {
    let path = try tinyKnowledgeC(kind: "'a' || char(0) || 'b'")
    #expect {
      try KnowledgeCImporter().read(path: path)
    } throws: { error in
      String(describing: error).contains("ZOBJECT row 2: NUL byte (0x00) in the kind")
    }
    let skipped = try KnowledgeCImporter(skipBadRows: true).read(path: path)
    #expect(skipped.counts.donations == 1)
    #expect(skipped.counts.dropped.first { $0.name == "bad_values" }?.count == 1)
  }

  @Test("an intent verb over 1 MiB is refused: the log line could not be read back")
  func longVerb() throws {
    let path = try tinyKnowledgeC(verb: "hex(zeroblob(600000))")
    #expect {
      try KnowledgeCImporter().read(path: path)
    } throws: { error in
      String(describing: error).contains("ZOBJECT row 2: the row would be about")
    }
  }

  @Test("invalid UTF-8 in a text value is replaced by U+FFFD and counted")
  func invalidUTF8() throws {
    let path = try tinyKnowledgeC(kind: "CAST(x'61ff62' AS TEXT)")
    let result = try KnowledgeCImporter().read(path: path)
    #expect(note(result, "texts with invalid UTF-8") == 1)
    #expect(result.donations.kindNames.names.contains("a\u{FFFD}b"))
  }

  @Test("a written log can be read back: PowerLog's NUL app id is refused")
  func powerLogNul() throws {
    let folder = try DeviceFixtures.folder()
    let path = try DeviceFixtures.database(
      "pl.db", in: folder,
      script: DeviceFixtures.script("powerlog.sql")
        + "UPDATE PLApplicationAgent_EventForward_Application SET Identifier = 'x' || char(0) WHERE Identifier = 'com.example.chat';")
    #expect(throws: DatabaseError.self) { try PowerLogImporter().read(path: path) }
    let skipped = try PowerLogImporter(skipBadRows: true).read(path: path)
    #expect(skipped.result.counts.dropped.first { $0.name == "bad_values" }?.count == 1)
  }

  @Test("PowerLog widget rows never read a generated column")
  func powerLogGenerated() throws {
    let folder = try DeviceFixtures.folder()
    let path = try DeviceFixtures.database(
      "pl.db", in: folder,
      script: DeviceFixtures.script("powerlog.sql")
        + "ALTER TABLE PLTestAgent_Aggregate_Widgets ADD COLUMN huge TEXT GENERATED ALWAYS AS (hex(zeroblob(499999999))) VIRTUAL;")
    let output = try PowerLogImporter().read(path: path)
    #expect(output.widgets.count == 1)
    #expect(!output.widgets.csvText().contains("huge"))
  }
}

@Suite("The string entries of an archived interaction take linear time in its keys")
struct InteractionKeysTests {
  @Test("40,000 distinct keys are read in well under the seconds a quadratic scan took")
  func manyKeys() throws {
    let count = 40_000
    let dictionary = NSMutableDictionary()
    for i in 0..<count { dictionary["key\(i)"] = "value\(i)" }
    let bytes = [UInt8](try NSKeyedArchiver.archivedData(withRootObject: dictionary, requiringSecureCoding: false))
    let archive = try #require(InteractionArchive(bytes))
    let start = Date()
    let entries = archive.stringEntries
    #expect(entries.count == count)
    #expect(Date().timeIntervalSince(start) < 5)
  }
}

@Suite("Biome: an interaction over 16 MiB is left out before decoding and counted")
struct HugeBiomeInteractionTests {
  @Test("the donation stays, the interaction counts as not decoded; a huge other field is a bad row")
  func hugeInteraction() throws {
    let huge = [UInt8]("bplist00".utf8) + [UInt8](repeating: 7, count: 16 << 20)
    let payload = BiomePayload.intent("com.a.app", intentClass: "X", verb: "send", time: 794_131_200, interaction: huge)
    let file = SEGBWriter.v2([SEGBWriter.Record(payload: payload, time: 794_131_200)])
    let output = try BiomeImporter().read(bytes: file, file: "f", stream: .intent)
    #expect(output.result.counts.donations == 1)
    #expect(output.result.counts.events.first { $0.name == "interactions not decoded" }?.count == 1)
    let trimmed = ProtobufFieldTrim.trimming(payload[...], limit: 1000)
    #expect(trimmed.dropped == [8])
    #expect(trimmed.bytes.count < 100)
    let bigBundle = BiomePayload.intent(String(repeating: "b", count: (16 << 20) + 1), intentClass: nil, verb: nil, time: 794_131_200)
    let skipped = try BiomeImporter(skipBadRows: true)
      .read(bytes: SEGBWriter.v2([SEGBWriter.Record(payload: bigBundle)]), file: "f", stream: .intent)
    #expect(skipped.result.counts.dropped.first { $0.name == "bad_rows" }?.count == 1)
  }
}
