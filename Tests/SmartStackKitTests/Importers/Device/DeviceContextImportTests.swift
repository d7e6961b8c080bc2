import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@_spi(Fixtures) @testable import SmartStackData

/// knowledgeC's `/device/isPluggedIn` and `/audio/outputRoute` and PowerLog's battery
/// samples become context changes (`ImportedContext`), each knowledgeC row with its own
/// `ZSECONDSFROMGMT`, as the donations are.
@Suite("Device importers read charging and headphones as context changes")
struct DeviceContextImportTests {
  private func knowledgeC(_ script: String, readsContext: Bool = true) throws -> ImportResult {
    let folder = try DeviceFixtures.folder()
    let path = try DeviceFixtures.database("knowledgeC.db", in: folder, script: script)
    var importer = KnowledgeCImporter()
    importer.readsContext = readsContext
    return try importer.read(path: path)
  }

  @Test("the iOS fixture: plug-in and route rows with their own offsets, sorted by time")
  func knowledgeCFixture() throws {
    let result = try knowledgeC(DeviceFixtures.script("knowledgeC-ios.sql"))
    let context = try #require(result.context)
    #expect(
      context.text(jsonLines: false) == """
        timestamp,user,signal,value,utc_offset
        2026-03-02T07:00:00+01:00,default,charging,true,3600
        2026-03-02T08:30:00+01:00,default,charging,false,3600
        2026-03-02T09:10:00+01:00,default,headphones,connected,3600
        2026-03-02T09:30:00+01:00,default,headphones,disconnected,3600
        2026-03-03T15:30:00-05:00,default,charging,true,-18000

        """)
    #expect(context.unread == 1)  // the route row without a port type
    #expect(context.text(jsonLines: true).hasPrefix(
      #"{"timestamp":"2026-03-02T07:00:00+01:00","user":"default","signal":"charging","value":"true","utc_offset":3600}"#))
    // Reading context changes nothing else, and is off by default.
    let plain = try knowledgeC(DeviceFixtures.script("knowledgeC-ios.sql"), readsContext: false)
    #expect(plain.context == nil)
    #expect(plain.donationLogText(jsonLines: false) == result.donationLogText(jsonLines: false))
    #expect(plain.counts == result.counts)
  }

  @Test("the written file reads back as a context log with the same changes and offsets")
  func readsBack() throws {
    let context = try #require(try knowledgeC(DeviceFixtures.script("knowledgeC-ios.sql")).context)
    for jsonLines in [false, true] {
      let log = try ContextLog.read(
        bytes: Array(context.text(jsonLines: jsonLines).utf8), file: jsonLines ? "c.jsonl" : "c.csv")
      #expect(log.times == context.times)
      #expect(log.signals == context.signals)
      #expect(log.values == context.values)
      #expect(log.utcOffsets == context.utcOffsets)
      #expect(log.people == ["default"])
    }
  }

  @Test("port types: headphones and Bluetooth audio are connected, every other route disconnected")
  func portTypes() throws {
    let rows = [("Headphones", "connected"), ("BluetoothLE", "connected"), ("BluetoothHFP", "connected"),
      ("CarAudio", "disconnected"), ("AirPlay", "disconnected"), ("Receiver", "disconnected")]
    var script = DeviceFixtures.script("knowledgeC-ios.sql")
    for (i, row) in rows.enumerated() {
      script += "INSERT INTO ZSTRUCTUREDMETADATA (Z_PK, Z_DKAUDIOMETADATAKEY__PORTTYPE) VALUES (\(100 + i), '\(row.0)');\n"
      script += "INSERT INTO ZOBJECT (ZSTREAMNAME, ZSTARTDATE, ZSECONDSFROMGMT, ZSTRUCTUREDMETADATA) VALUES "
        + "('/audio/outputRoute', \(800_000_000 + i), 0, \(100 + i));\n"
    }
    // A plug-in row with a value that is no state, and one without an offset.
    script += "INSERT INTO ZOBJECT (ZSTREAMNAME, ZSTARTDATE, ZVALUEINTEGER) VALUES ('/device/isPluggedIn', 800000100, 2), "
      + "('/device/isPluggedIn', 800000200, 0);\n"
    let context = try #require(try knowledgeC(script).context)
    let added = context.count - rows.count - 1
    #expect(Array(context.values[added..<added + rows.count]) == rows.map(\.1))
    #expect(context.signals.last == .charging && context.values.last == "false")
    #expect(context.utcOffsets.last == UTCOffset.none)
    #expect(context.unread == 2)
  }

  @Test("a layout without ZSECONDSFROMGMT or audio metadata: plug-in rows without offsets, routes unread")
  func reducedLayout() throws {
    let script = DeviceFixtures.script("knowledgeC-no-intent-columns.sql")
      + "INSERT INTO ZOBJECT (ZSTREAMNAME, ZSTARTDATE, ZVALUEINTEGER) VALUES "
      + "('/device/isPluggedIn', 794131000, 1), ('/audio/outputRoute', 794131100, NULL);\n"
    let context = try #require(try knowledgeC(script).context)
    #expect(context.text(jsonLines: false) == "timestamp,user,signal,value,utc_offset\n2026-03-02T07:56:40Z,default,charging,true,\n")
    #expect(context.unread == 1)
    let none = try #require(try knowledgeC(DeviceFixtures.script("knowledgeC-no-intent-columns.sql")).context)
    #expect(none.count == 0)
  }

  @Test("PowerLog: IsCharging changes on the corrected clock, repeated samples skipped, no offsets")
  func powerLog() throws {
    let folder = try DeviceFixtures.folder()
    let path = try DeviceFixtures.database(
      "CurrentPowerlog.PLSQL", in: folder, script: DeviceFixtures.script("powerlog.sql"))
    var importer = PowerLogImporter()
    importer.readsContext = true
    let read = try importer.read(path: path)
    let context = try #require(read.result.context)
    #expect(
      context.text(jsonLines: false) == """
        timestamp,user,signal,value
        2026-03-02T07:55:00Z,default,charging,true
        2026-03-02T08:01:40Z,default,charging,false

        """)
    #expect(read.result.counts == (try PowerLogImporter().read(path: path)).result.counts)
    #expect(try PowerLogImporter().read(path: path).result.context == nil)
  }
}
