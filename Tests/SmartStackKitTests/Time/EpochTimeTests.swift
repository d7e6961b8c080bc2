import Foundation
import SmartStackKit
import Testing

@testable import SmartStackBase
@testable import SmartStackData

@Suite("Epoch times: seconds and milliseconds since 1970, exact to the millisecond")
struct EpochTimeTests {
  func parse(_ unit: EpochUnit, _ text: String) -> Result<Int64, ISO8601.ParseError> {
    Array(text.utf8).withUnsafeBufferPointer { unit.parse($0) }
  }

  @Test func millisecondsAndSecondsGiveTheSameInstant() throws {
    #expect(try parse(.milliseconds, "1772438465123").get() == 1_772_438_465_123)
    #expect(try parse(.seconds, "1772438465.123").get() == 1_772_438_465_123)
    #expect(try parse(.seconds, "1772438465.1").get() == 1_772_438_465_100)
    #expect(try parse(.seconds, "1772438465").get() == 1_772_438_465_000)
    #expect(try parse(.milliseconds, "0").get() == 0)
  }

  @Test func theNameOfTheTimeColumnDeclaresTheUnit() {
    #expect(EpochUnit(columnName: "timestamp_ms") == .milliseconds)
    #expect(EpochUnit(columnName: "epoch_ms") == .milliseconds)
    #expect(EpochUnit(columnName: "timestamp_s") == .seconds)
    #expect(EpochUnit(columnName: "epoch_s") == .seconds)
    #expect(EpochUnit(columnName: "timestamp") == nil)
  }

  @Test(arguments: [
    (EpochUnit.milliseconds, "", 0, "empty time"),
    (.milliseconds, "-5", 0, "expected milliseconds since 1970-01-01T00:00:00Z as digits, found a negative number (before 1970)"),
    (.milliseconds, "12.5", 2, "unexpected '.' in a time in milliseconds (milliseconds are whole numbers)"),
    (.seconds, "12.3456", 6, "more than 3 decimals: times are kept to the millisecond"),
    (.seconds, "12.", 3, "expected digits after '.'"),
    (.seconds, "12x", 2, "unexpected 'x' in a time in seconds"),
    (.milliseconds, "99999999999999999999999", 0,
     "the time is at or after 2101-01-01T00:00:00Z, the end of the supported range (is the unit right? this column holds milliseconds)"),
    (.seconds, "4133980800", 0,
     "the time is at or after 2101-01-01T00:00:00Z, the end of the supported range (is the unit right? this column holds seconds)"),
  ])
  func aBadTimeIsRefusedWhereItGoesWrong(unit: EpochUnit, text: String, offset: Int, message: String) {
    #expect(parse(unit, text) == .failure(ISO8601.ParseError(offset: offset, message: message)))
  }

  @Test func aDonationLogWithEpochMillisecondsReadsLikeItsISOTwin() throws {
    let epoch = "epoch_ms,user,kind\n1772438465123,ana,News\n1772438400000,ana,Maps\n"
    let iso = "timestamp,user,kind\n2026-03-02T08:01:05.123Z,ana,News\n2026-03-02T08:00:00Z,ana,Maps\n"
    let a = try DonationLog.read(bytes: Array(epoch.utf8), file: "e.csv", format: .csv)
    let b = try DonationLog.read(bytes: Array(iso.utf8), file: "i.csv", format: .csv)
    #expect(a.csvText() == b.csvText())
    #expect(a.count == 2)
  }

  @Test func epochSecondsIgnoreTheLogsTimeZone() throws {
    let text = "timestamp_s,kind\n1772438465.5,News\n"
    let berlin = try #require(ZoneRules(identifier: "Europe/Berlin"))
    let log = try DonationLog.read(bytes: Array(text.utf8), file: "s.csv", format: .csv, timeZone: berlin)
    #expect(log.csvText().contains("2026-03-02T08:01:05.500Z"))
  }

  @Test func twoTimeColumnsAreRefusedAtTheSecond() {
    let text = "timestamp,kind,epoch_ms\n2026-03-02T08:00:00Z,News,1772438400000\n"
    #expect {
      try DonationLog.read(bytes: Array(text.utf8), file: "two.csv", format: .csv)
    } throws: { error in
      "\(error)".contains("two.csv:1:16: both 'timestamp' and 'epoch_ms' name the time: keep one column")
    }
  }

  @Test func aBadEpochCellIsLocatedAtItsByte() {
    let text = "epoch_ms,kind\n17724384651.5,News\n"
    #expect {
      try DonationLog.read(bytes: Array(text.utf8), file: "bad.csv", format: .csv)
    } throws: { error in
      "\(error)".contains("bad.csv:2:12: timestamp: unexpected '.' in a time in milliseconds")
    }
  }

  @Test func aVisitLogTakesEpochTimesToo() throws {
    let epoch = try VisitLog.read(bytes: Array("timestamp_ms,user\n1772438465123,ana\n".utf8), file: "v.csv")
    let iso = try VisitLog.read(bytes: Array("timestamp,user\n2026-03-02T08:01:05.123Z,ana\n".utf8), file: "w.csv")
    #expect(epoch.times == iso.times)
    #expect(epoch.users == ["ana"])
    #expect {
      try VisitLog.read(bytes: Array("epoch_s,timestamp_ms\n1,1000\n".utf8), file: "x.csv")
    } throws: { error in
      "\(error)".contains("x.csv:1:9: both 'epoch_s' and 'timestamp_ms' name the time: keep one column")
    }
  }
}
