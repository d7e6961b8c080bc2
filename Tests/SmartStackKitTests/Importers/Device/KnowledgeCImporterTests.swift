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

@Suite("Mac absolute time converts to Unix time by exactly +978307200")
struct MacAbsoluteTimeTests {
  @Test("the epochs, fractions to the millisecond, truncation, range")
  func exactness() {
    #expect(DeviceTime.milliseconds(macAbsolute: 0) == 978_307_200_000)
    #expect(DeviceTime.milliseconds(macAbsolute: 794_131_265) == 1_772_438_465_000)
    #expect(DeviceTime.milliseconds(macAbsolute: 794_131_265.123) == 1_772_438_465_123)
    #expect(DeviceTime.milliseconds(macAbsolute: 794_131_265.9999) == 1_772_438_465_999)
    #expect(DeviceTime.milliseconds(macAbsolute: 794_131_265.9999999) == 1_772_438_466_000)
    #expect(DeviceTime.milliseconds(macAbsolute: -978_307_200) == 0)
    #expect(DeviceTime.milliseconds(macAbsolute: -978_307_201) == nil)
    #expect(DeviceTime.milliseconds(macAbsolute: .nan) == nil)
    for ms in stride(from: Int64(0), to: 100_000, by: 7) {
      let seconds = Double(794_131_265) + Double(ms) / 1000
      #expect(DeviceTime.milliseconds(macAbsolute: seconds) == 1_772_438_465_000 + ms)
    }
  }

  @Test("timestamps are written with the row's own offset")
  func offsets() {
    let ms = DeviceFixtures.ms("2026-03-02T08:01:05.123Z")
    #expect(DeviceTime.format(milliseconds: ms, utcOffset: 3600) == "2026-03-02T09:01:05.123+01:00")
    #expect(DeviceTime.format(milliseconds: ms, utcOffset: -18000) == "2026-03-02T03:01:05.123-05:00")
    #expect(DeviceTime.format(milliseconds: ms, utcOffset: 19800) == "2026-03-02T13:31:05.123+05:30")
    #expect(DeviceTime.format(milliseconds: ms, utcOffset: 0) == "2026-03-02T08:01:05.123Z")
    #expect(DeviceTime.format(milliseconds: ms, utcOffset: 61) == "2026-03-02T08:01:05.123Z")
  }
}

@Suite("knowledgeC import: streams, visits, offsets and schema variants")
struct KnowledgeCImporterTests {
  private func importing(
    _ script: String, _ importer: KnowledgeCImporter = KnowledgeCImporter()
  ) throws -> ImportResult {
    let folder = try DeviceFixtures.folder()
    let path = try DeviceFixtures.database("knowledgeC.db", in: folder, script: script)
    return try importer.read(path: path)
  }

  @Test("/app/intents rows are donations with intent, verb and decoded parameters")
  func intents() throws {
    let result = try importing(DeviceFixtures.script("knowledgeC-ios.sql"))
    #expect(
      result.donationLogText(jsonLines: false) == """
        timestamp,user,kind,intent,parameters,utc_offset
        2026-03-02T09:01:05.123+01:00,default,com.example.coffee,OrderCoffeeIntent,drink=flat white;intent_verb=OrderCoffee;size=large,3600
        2026-03-03T11:00:00+01:00,default,com.example.chat,INSendMessageIntent,intent_verb=SendMessage,3600
        2026-03-03T15:00:00-05:00,default,com.example.chat,INSendMessageIntent,intent_verb=SendMessage,-18000
        2026-03-28T21:00:00+01:00,default,com.example.coffee,OrderCoffeeIntent,drink=flat white;intent_verb=OrderCoffee;size=large,3600
        2026-03-29T10:00:00+02:00,default,com.example.coffee,OrderCoffeeIntent,drink=flat white;intent_verb=OrderCoffee;size=large,7200

        """)
    let c = result.counts
    #expect(c.rows == 22)  // 7 of them context rows (`DeviceContextImportTests`)
    #expect(c.donations == 5 && c.visits == 2 && c.counted == 15)
    #expect(c.rows == c.donations + c.visits + c.counted + c.dropped.reduce(0) { $0 + $1.count })
    #expect(c.events == [NamedCount("/app/intents", 5), NamedCount("/device/isLocked", 3)])
    #expect(c.notes.first { $0.name == "interactions not decoded" }?.count == 2)
    #expect(c.notes.first { $0.name == "other streams" }?.count == 14)
  }

  @Test("a journey across time zones and a DST change keep each row's own offset")
  func offsetChanges() throws {
    let result = try importing(DeviceFixtures.script("knowledgeC-ios.sql"))
    #expect(result.donationOffsets == [3600, 3600, -18000, 3600, 7200])
    #expect(result.donations.timestamps[2] == DeviceFixtures.ms("2026-03-03T20:00:00Z"))
    #expect(result.donations.timestamps[4] == DeviceFixtures.ms("2026-03-29T08:00:00Z"))
    #expect(
      result.visitLogText() == """
        timestamp,user,utc_offset
        2026-03-02T09:00:00+01:00,default,3600
        2026-03-03T14:59:50-05:00,default,-18000

        """)
  }

  @Test("the CSV and JSON Lines logs with offsets read back as the same donations")
  func readsBack() throws {
    let result = try importing(DeviceFixtures.script("knowledgeC-ios.sql"))
    for (jsonLines, file) in [(false, "kc.csv"), (true, "kc.jsonl")] {
      let text = result.donationLogText(jsonLines: jsonLines)
      let log = try DonationLog.read(bytes: Array(text.utf8), file: file)
      #expect(log == result.donations)
    }
    let visits = try VisitLog.read(bytes: Array(result.visitLogText().utf8), file: "v.csv")
    #expect(visits.times == result.visits.times)
  }

  @Test("--streams inFocus gives one donation per /app/inFocus row, kind = bundle id")
  func inFocus() throws {
    let result = try importing(
      DeviceFixtures.script("knowledgeC-ios.sql"), KnowledgeCImporter(streams: ["inFocus"]))
    #expect(
      result.donations.donations.map(\.kind)
        == ["com.example.coffee", "com.example.chat", "com.example.coffee"])
    #expect(result.donations.donations.allSatisfy { $0.intent == nil })
  }

  @Test("every stream at once, counted per stream in the order given")
  func everyStream() throws {
    let result = try importing(
      DeviceFixtures.script("knowledgeC-ios.sql"),
      KnowledgeCImporter(streams: ["intents", "inFocus", "activity"]))
    #expect(
      result.counts.events == [
        NamedCount("/app/intents", 5), NamedCount("/app/inFocus", 3),
        NamedCount("/app/activity", 1), NamedCount("/device/isLocked", 3),
      ])
    #expect(result.counts.donations == 9)
  }

  @Test("--visits-from backlit takes /display/isBacklit rows with value 1")
  func backlit() throws {
    let result = try importing(
      DeviceFixtures.script("knowledgeC-ios.sql"), KnowledgeCImporter(visitSource: .backlit))
    #expect(result.visits.times == [DeviceFixtures.ms("2026-03-02T08:00:00Z")])
  }

  @Test("a schema without intent columns and without ZSECONDSFROMGMT is read, rows without offsets")
  func olderSchema() throws {
    let result = try importing(
      DeviceFixtures.script("knowledgeC-no-intent-columns.sql"),
      KnowledgeCImporter(streams: ["intents", "inFocus"]))
    #expect(result.donations.donations.map(\.kind) == ["com.apple.Safari", "com.apple.Safari"])
    #expect(result.donations.donations.allSatisfy { $0.intent == nil })
    #expect(result.donationOffsets == [UTCOffset.none, UTCOffset.none])
    #expect(result.donations.utcOffsets.isEmpty)
    // No offset: UTC timestamps and an empty utc_offset, so replay reads them in --timezone.
    #expect(result.donationLogText(jsonLines: false).contains("2026-03-02T08:01:05Z,default,com.apple.Safari,,,\n"))
    #expect(result.counts.notes.first { $0.name == "rows without utc offset" }?.count == 3)
  }

  @Test("empty tables import as empty logs")
  func emptyTables() throws {
    let schema = DeviceFixtures.script("knowledgeC-ios.sql").components(separatedBy: "INSERT")[0]
    let result = try importing(schema)
    #expect(result.donations.isEmpty && result.visits.count == 0)
    #expect(result.counts.rows == 0)
    #expect(result.donationLogText(jsonLines: false) == "timestamp,user,kind,intent,parameters,utc_offset\n")
  }

  @Test("a database without ZOBJECT is not a knowledgeC database")
  func notKnowledgeC() throws {
    do {
      _ = try importing("CREATE TABLE Other (a);")
      Issue.record("imported a database without ZOBJECT")
    } catch let error as DatabaseError {
      #expect(error.message == "no table ZOBJECT: not a knowledgeC database")
    }
  }
}
