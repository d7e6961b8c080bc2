import SmartStackKit
import Testing

@testable import SmartStackBase
@testable import SmartStackData

private func problems(_ text: String, file: String) -> [String] {
  do {
    _ = try DonationLog.read(bytes: Array(text.utf8), file: file)
    return []
  } catch let list as DiagnosticList {
    return list.diagnostics.map(\.description)
  } catch {
    return ["unexpected \(error)"]
  }
}

private func read(_ text: String, file: String, zone: ZoneRules = .utc) throws -> DonationLog {
  try DonationLog.read(bytes: Array(text.utf8), file: file, timeZone: zone)
}

@Suite("Row UTC offsets and epoch times in donation and visit logs")
struct DonationLogOffsetTests {
  @Test func aUTCOffsetColumnWinsOverTheTimestampsOwnOffset() throws {
    let log = try read(
      """
      timestamp,kind,utc_offset
      2026-03-02T08:00:00+01:00,A,-18000
      2026-03-02T09:00:00+01:00,B,
      2026-03-02T10:00:00Z,C,
      2026-03-02T11:00:00-00:00,D,
      2026-03-02 12:00:00,E,

      """, file: "o.csv")
    // A: the column; B: the timestamp's +01:00; C, D, E: none (Z, -00:00, naive).
    #expect(log.utcOffsets == [-18000, 3600, UTCOffset.none, UTCOffset.none, UTCOffset.none])
    #expect(log[0].utcOffset == -18000)
    #expect(log[2].utcOffset == nil)
  }

  @Test func epochTimesTakeTheirOffsetFromTheUTCOffsetColumnOnly() throws {
    // Android-style epoch milliseconds with the device's offset beside them.
    let log = try read("epoch_ms,kind,utc_offset\n1772438400000,A,-18000\n1772438460000,B,\n", file: "e.csv")
    #expect(log.timestamps == [1_772_438_400_000, 1_772_438_460_000])
    #expect(log.utcOffsets == [-18000, UTCOffset.none])
  }

  @Test func aLogWithoutOffsetsCarriesNoOffsetColumnAndWritesAsBefore() throws {
    let text = "timestamp,user,kind,intent,parameters\n2026-03-02T08:00:00Z,u,A,,\n"
    let log = try read(text, file: "plain.csv")
    #expect(log.utcOffsets.isEmpty)
    #expect(log.csvText() == text)
  }

  @Test func offsetsRoundTripThroughCSVAndJSONLines() throws {
    let log = try read(
      "timestamp,kind,utc_offset\n2026-03-02T08:00:00Z,A,3600\n2026-03-02T09:00:00Z,B,\n", file: "r.csv")
    #expect(log.csvText().hasSuffix(",utc_offset\n2026-03-02T08:00:00Z,default,A,,,3600\n2026-03-02T09:00:00Z,default,B,,,\n"))
    #expect(try read(log.csvText(), file: "again.csv") == log)
    #expect(log.jsonlText().contains(#""utc_offset":3600}"#))
    #expect(try read(log.jsonlText(), file: "again.jsonl") == log)
  }

  @Test func theStatisticsCountEachDonationAtItsOwnLocalHour() throws {
    // 07:00Z in Berlin (+1) and 13:00Z in New York (-5) are both 08:00 local.
    let log = try read(
      "timestamp,kind,utc_offset\n2026-03-02T07:00:00Z,A,3600\n2026-03-03T13:00:00Z,A,-18000\n2026-03-03T13:00:00Z,B,\n",
      file: "s.csv")
    let hours = log.statistics(in: .utc).hourCounts
    #expect(hours[8] == 2)
    #expect(hours[13] == 1)
  }

  @Test(arguments: [
    ("x", 1, "expected whole seconds east of UTC, e.g. 3600 or -18000"),
    ("36O0", 3, "expected whole seconds east of UTC, e.g. 3600 or -18000"),
    ("90000", 1, "90000 seconds is beyond ±64800 (18 hours): utc_offset holds seconds east of UTC"),
    ("-", 2, "expected whole seconds east of UTC, e.g. 3600 or -18000"),
  ])
  func aBadOffsetCellIsRefusedAtItsByte(cell: String, column: Int, message: String) {
    let text = "timestamp,kind,utc_offset\n2026-03-02T08:00:00Z,A,\(cell)\n"
    // `utc_offset` starts at column 24 of line 2.
    #expect(problems(text, file: "bad.csv") == ["bad.csv:2:\(23 + column): utc_offset: \(message)"])
  }

  @Test func aVisitLogKeepsEachRowsOffset() throws {
    let text = """
      timestamp,user,utc_offset
      2026-03-02T08:00:00+01:00,t,
      2026-03-02T08:00:00Z,t,-18000
      2026-03-02T09:00:00Z,t,

      """
    let visits = try VisitLog.read(bytes: Array(text.utf8), file: "v.csv")
    #expect(visits.utcOffsets == [3600, -18000, UTCOffset.none])
    let plain = try VisitLog.read(bytes: Array("timestamp\n2026-03-02T08:00:00Z\n".utf8), file: "p.csv")
    #expect(plain.utcOffsets.isEmpty)
    #expect {
      try VisitLog.read(bytes: Array("timestamp,utc_offset\n2026-03-02T08:00:00Z,+1h\n".utf8), file: "bv.csv")
    } throws: { "\($0)".contains("bv.csv:2:24: utc_offset: expected whole seconds east of UTC") }
  }

  @Test func jsonLinesTakeEpochTimesAsNumbersOrStrings() throws {
    let epoch = try read(
      #"{"timestamp_ms":1772438465123,"kind":"A"}"# + "\n" + #"{"epoch_s":"1772438465.5","kind":"B"}"# + "\n"
        + #"{"epoch_ms":1772438400000,"kind":"C","utc_offset":3600}"# + "\n",
      file: "e.jsonl")
    #expect(epoch.timestamps == [1_772_438_400_000, 1_772_438_465_123, 1_772_438_465_500])
    #expect(epoch.utcOffsets == [3600, UTCOffset.none, UTCOffset.none])
    let iso = try read(
      #"{"timestamp":"2026-03-02T09:00:00+01:00","kind":"C"}"# + "\n"
        + #"{"timestamp":"2026-03-02T08:01:05.123Z","kind":"A"}"# + "\n", file: "i.jsonl")
    #expect(iso.utcOffsets == [3600, UTCOffset.none])
    #expect(iso.timestamps == [1_772_438_400_000, 1_772_438_465_123])
  }

  @Test func jsonLinesProblemsAreLocatedAtTheirByte() {
    let lines = [
      #"{"timestamp_ms":17724384651.5,"kind":"A"}"#,
      #"{"timestamp":"2026-03-02T08:00:00Z","epoch_ms":1,"kind":"A"}"#,
      #"{"kind":"A","epoch_s":true}"#,
      #"{"timestamp":"2026-03-02T08:00:00Z","kind":"A","utc_offset":90000}"#,
      #"{"timestamp":"2026-03-02T08:00:00Z","kind":"A","utc_offset":"3600"}"#,
      #"{"epoch_s":"12x","kind":"A"}"#,
    ]
    #expect(
      problems(lines.joined(separator: "\n") + "\n", file: "bad.jsonl") == [
        "bad.jsonl:1:28: timestamp_ms: unexpected '.' in a time in milliseconds (milliseconds are whole numbers)",
        "bad.jsonl:2:48: both 'timestamp' and 'epoch_ms' name the time: keep one key",
        "bad.jsonl:3:23: epoch_s: expected a number, found true",
        "bad.jsonl:4:61: utc_offset: expected an integer in -64800...64800, found 90000",
        "bad.jsonl:5:61: utc_offset: expected an integer, found a string",
        "bad.jsonl:6:15: epoch_s: unexpected 'x' in a time in seconds",
      ])
  }
}
