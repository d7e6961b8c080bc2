import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@_spi(Fixtures) @testable import SmartStackData

/// knowledgeC databases with the macOS 10.13 and 10.14 schemas, built here.
///
/// The table layouts follow the schemas plaso's `mac_knowledgec` plugin publishes for the
/// two versions (the columns this importer reads, and those that tell the versions apart):
/// 10.13 has `Z8_`-numbered relationship columns, a UNIQUE `ZMETADATAHASH`, and the
/// `ACHANGE`/`ATRANSACTION` history tables; 10.14 has `Z9_` columns,
/// `ZLOCALCREATIONDATE`, `Z_DKINTENTMETADATAKEY__INTENTTYPE` and a `ZSYNCPEER` table. Both
/// keep `ZSECONDSFROMGMT` and the intent class, verb and serialized interaction columns.
enum KnowledgeCSchemas {
  static let source = """
    CREATE TABLE ZSOURCE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
      ZUSERID INTEGER, ZBUNDLEID VARCHAR, ZDEVICEID VARCHAR, ZGROUPID VARCHAR,
      ZITEMID VARCHAR, ZSOURCEID VARCHAR);
    """

  static let macOS1013 = source + """
    CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
      ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER,
      ZCOLUMNS BLOB);
    CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
      ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR);
    CREATE TABLE ZOBJECT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
      ZUUIDHASH INTEGER, ZEVENT INTEGER, ZSOURCE INTEGER, ZSECONDSFROMGMT INTEGER,
      ZSTARTDAYOFWEEK INTEGER, ZVALUEINTEGER INTEGER, ZSTRUCTUREDMETADATA INTEGER,
      ZVALUE INTEGER, Z8_VALUE INTEGER, ZOBJECT INTEGER, Z8_OBJECT INTEGER,
      ZCREATIONDATE TIMESTAMP, ZENDDATE TIMESTAMP, ZSTARTDATE TIMESTAMP,
      ZUUID VARCHAR, ZSTREAMNAME VARCHAR, ZVALUESTRING VARCHAR, ZMETADATA BLOB);
    CREATE TABLE ZSTRUCTUREDMETADATA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER,
      Z_OPT INTEGER, Z_DKINTENTMETADATAKEY__DONATEDBYSIRI INTEGER,
      Z_DKINTENTMETADATAKEY__INTENTHANDLINGSTATUS INTEGER,
      Z_DKINTENTMETADATAKEY__INTENTCLASS VARCHAR, Z_DKINTENTMETADATAKEY__INTENTVERB VARCHAR,
      Z_DKSAFARIHISTORYMETADATAKEY__TITLE VARCHAR, ZMETADATAHASH VARCHAR UNIQUE,
      Z_DKINTENTMETADATAKEY__SERIALIZEDINTERACTION BLOB);
    """

  static let macOS1014 = source + """
    CREATE TABLE ZSYNCPEER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
      ZCLOUDID VARCHAR, ZDEVICEID VARCHAR, ZRAPPORTID VARCHAR, ZUUID BLOB);
    CREATE TABLE ZOBJECT (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER,
      ZUUIDHASH INTEGER, ZEVENT INTEGER, ZSOURCE INTEGER, ZSECONDSFROMGMT INTEGER,
      ZSTARTDAYOFWEEK INTEGER, ZVALUEINTEGER INTEGER, ZSTRUCTUREDMETADATA INTEGER,
      ZVALUE INTEGER, Z9_VALUE INTEGER, ZOBJECT INTEGER, Z9_OBJECT INTEGER,
      ZCREATIONDATE TIMESTAMP, ZLOCALCREATIONDATE TIMESTAMP, ZENDDATE TIMESTAMP,
      ZSTARTDATE TIMESTAMP, ZUUID VARCHAR, ZSTREAMNAME VARCHAR, ZVALUESTRING VARCHAR,
      ZMETADATA BLOB);
    CREATE TABLE ZSTRUCTUREDMETADATA (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER,
      Z_OPT INTEGER, Z_DKINTENTMETADATAKEY__DONATEDBYSIRI INTEGER,
      Z_DKINTENTMETADATAKEY__INTENTHANDLINGSTATUS INTEGER,
      Z_DKINTENTMETADATAKEY__INTENTTYPE INTEGER,
      Z_DKINTENTMETADATAKEY__INTENTCLASS VARCHAR, Z_DKINTENTMETADATAKEY__INTENTVERB VARCHAR,
      Z_DKSAFARIHISTORYMETADATAKEY__TITLE VARCHAR, ZMETADATAHASH VARCHAR,
      Z_DKINTENTMETADATAKEY__SERIALIZEDINTERACTION BLOB);
    """

  /// Rows for either schema: three `/app/inFocus` launches (one naming its app only
  /// through `ZSOURCE`), one intent, an unlock and a lock. Times in Mac absolute time,
  /// with fractions; Berlin (+01:00) then, for the last launch, New York (-05:00).
  static let rows = """
    INSERT INTO ZSOURCE (Z_PK, ZBUNDLEID) VALUES (1, 'com.apple.Safari'), (2, 'com.apple.mail');
    INSERT INTO ZSTRUCTUREDMETADATA (Z_PK, Z_DKINTENTMETADATAKEY__INTENTCLASS,
      Z_DKINTENTMETADATAKEY__INTENTVERB, ZMETADATAHASH) VALUES
      (1, 'INSendMessageIntent', 'SendMessage', 'h1');
    INSERT INTO ZOBJECT (Z_PK, ZSTREAMNAME, ZSTARTDATE, ZSECONDSFROMGMT, ZVALUESTRING,
      ZVALUEINTEGER, ZSOURCE, ZSTRUCTUREDMETADATA) VALUES
      (1, '/app/inFocus', 794131265.123, 3600, 'com.apple.Safari', NULL, 1, NULL),
      (2, '/app/inFocus', 794131300, 3600, NULL, NULL, 2, NULL),
      (3, '/app/intents', 794131400.5, 3600, 'com.apple.MobileSMS', NULL, NULL, 1),
      (4, '/device/isLocked', 794131200, 3600, NULL, 0, NULL, NULL),
      (5, '/device/isLocked', 794131500, 3600, NULL, 1, NULL, NULL),
      (6, '/app/inFocus', 794160000.999, -18000, 'com.apple.Safari', NULL, 1, NULL);
    """

  static let startDates = [794131265.123, 794131300, 794160000.999]
}

@Suite("knowledgeC import: the macOS 10.13 and 10.14 schemas")
struct KnowledgeCSchemaVariantTests {
  private func importing(_ schema: String, _ importer: KnowledgeCImporter) throws -> ImportResult {
    let folder = try DeviceFixtures.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = try DeviceFixtures.database(
      "knowledgeC.db", in: folder, script: schema + KnowledgeCSchemas.rows)
    return try importer.read(path: path)
  }

  @Test(arguments: [("10.13", KnowledgeCSchemas.macOS1013), ("10.14", KnowledgeCSchemas.macOS1014)])
  func inFocusGivesOneDonationPerRowAtZSTARTDATEPlus978307200(version: String, schema: String) throws {
    let result = try importing(schema, KnowledgeCImporter(streams: ["inFocus"]))
    let log = result.donations
    #expect(log.count == 3, "macOS \(version)")
    #expect(log.donations.map(\.kind) == ["com.apple.Safari", "com.apple.mail", "com.apple.Safari"])
    // Exactly ZSTARTDATE + 978307200 s, to the millisecond.
    let expected: [Int64] = [1_772_438_465_123, 1_772_438_500_000, 1_772_467_200_999]
    #expect(log.timestamps == expected)
    for (start, ms) in zip(KnowledgeCSchemas.startDates, expected) {
      #expect(DeviceTime.milliseconds(macAbsolute: start) == ms)
    }
    #expect(result.donationOffsets == [3600, 3600, -18000])
    #expect(log.utcOffsets == [3600, 3600, -18000])
    #expect(result.visits.times == [1_772_438_400_000])
  }

  @Test(arguments: [KnowledgeCSchemas.macOS1013, KnowledgeCSchemas.macOS1014])
  func intentsKeepTheirClassAndVerb(schema: String) throws {
    let result = try importing(schema, KnowledgeCImporter())
    #expect(
      result.donations.donations == [
        Donation(
          timestamp: Instant(milliseconds: 1_772_438_600_500), kind: "com.apple.MobileSMS",
          intent: "INSendMessageIntent", parameters: [Parameter("intent_verb", "SendMessage")],
          utcOffset: 3600)
      ])
  }

  @Test(arguments: [KnowledgeCSchemas.macOS1013, KnowledgeCSchemas.macOS1014])
  func theImportedLogsReadBackWithTheirOffsets(schema: String) throws {
    let result = try importing(schema, KnowledgeCImporter(streams: ["inFocus", "intents"]))
    let text = result.donationLogText(jsonLines: false)
    #expect(try DonationLog.read(bytes: Array(text.utf8), file: "kc.csv") == result.donations)
    let visits = try VisitLog.read(bytes: Array(result.visitLogText().utf8), file: "v.csv")
    #expect(visits.utcOffsets == [3600])
  }
}
