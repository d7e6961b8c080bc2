import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

private let header = "timestamp,user,kind,intent,parameters\n"

/// Every diagnostic reading `text` as `log.csv` produces, or [] when it reads.
private func problems(_ text: String, limit: Int = 50) -> [String] {
  problems(Array(text.utf8), limit: limit)
}

private func problems(_ bytes: [UInt8], limit: Int = 50) -> [String] {
  do {
    _ = try DonationLog.read(bytes: bytes, file: "log.csv", limit: limit)
    return []
  } catch let list as DiagnosticList {
    return list.diagnostics.map(\.description) + (list.truncated ? ["(truncated)"] : [])
  } catch {
    return ["unexpected \(error)"]
  }
}

private func read(_ text: String, timeZone: ZoneRules = .utc) throws -> DonationLog {
  try DonationLog.read(bytes: Array(text.utf8), file: "log.csv", format: .csv, timeZone: timeZone)
}

private func instant(_ text: String) throws -> Instant {
  guard case .absolute(let instant) = try ISO8601.parse(text).get() else {
    throw Diagnostic(file: "test", line: 0, column: 0, message: "not absolute: \(text)")
  }
  return instant
}

@Suite("Donation log CSV reader")
struct DonationLogCSVTests {
  @Test func readsAllColumns() throws {
    let log = try read(
      header
        + "2026-03-02T08:01:05Z,alice,RecentPurchases,ViewRecentPurchases,card=Acme;category=Grocery\n"
        + "2026-03-02T09:00:00.250+01:00,bob,Weather,,\n")
    #expect(log.count == 2)
    #expect(
      log[0]
        == Donation(
          timestamp: try instant("2026-03-02T08:00:00.250Z"), user: "bob", kind: "Weather",
          utcOffset: 3600))
    #expect(
      log[1]
        == Donation(
          timestamp: try instant("2026-03-02T08:01:05Z"), user: "alice", kind: "RecentPurchases",
          intent: "ViewRecentPurchases",
          parameters: [Parameter("category", "Grocery"), Parameter("card", "Acme")]))
  }

  @Test func columnsAreFoundByNameInAnyOrderAndUnknownOnesIgnored() throws {
    let log = try read("note,kind,extra,timestamp\nhi,Weather,x,2026-03-02T08:00:00Z\n")
    #expect(
      log.donations == [Donation(timestamp: try instant("2026-03-02T08:00:00Z"), kind: "Weather")])
  }

  @Test func emptyUserIsDefaultEmptyIntentIsNoneEmptyParametersAreNone() throws {
    let log = try read(header + "2026-03-02T08:00:00Z,,Weather,,\n")
    #expect(log[0].user == "default")
    #expect(log[0].intent == nil)
    #expect(log[0].parameters == [])
    #expect(log.parameterSets == [0])
  }

  @Test func headerWithoutRowsIsAnEmptyLog() throws {
    let log = try read(header)
    #expect(log.isEmpty)
    #expect(log.statistics().first == nil)
  }

  @Test func emptyFileIsAnError() {
    let expected = [
      "log.csv:1:1: empty file: expected a header row naming the columns (timestamp, user, kind, intent, parameters)"
    ]
    #expect(problems("") == expected)
    #expect(problems("\n") == expected)
  }

  @Test func missingRequiredColumnIsReportedAt1_1WithTheColumnsFound() {
    #expect(
      problems("timestamp,user\n2026-03-02T08:00:00Z,a\n")
        == ["log.csv:1:1: missing required column 'kind' (columns found: 'timestamp', 'user')"])
    #expect(
      problems("Timestamp,Kind\n")
        == [
          "log.csv:1:1: missing required column 'timestamp' (columns found: 'Timestamp', 'Kind'); column names are matched exactly and in lowercase, found 'Timestamp'; epoch times go in a column named 'timestamp_ms', 'epoch_ms', 'timestamp_s', 'epoch_s'",
          "log.csv:1:1: missing required column 'kind' (columns found: 'Timestamp', 'Kind'); column names are matched exactly and in lowercase, found 'Kind'",
        ])
  }

  @Test func duplicateHeaderNameIsReportedAtItsSecondCell() {
    #expect(
      problems("timestamp,kind,user,kind\n")
        == ["log.csv:1:21: duplicate column 'kind' in the header"])
    // Unnamed columns (e.g. trailing commas) are ignored, never duplicates.
    #expect(problems("timestamp,kind,,\n2026-03-02T08:00:00Z,W,,\n") == [])
  }

  @Test func wrongFieldCountUnterminatedQuoteAndInvalidUTF8AreReportedWithPositions() {
    #expect(
      problems(header + "2026-03-02T08:00:00Z,a,W,,,extra\n")
        == ["log.csv:2:28: expected 5 fields as in the header, found 6"])
    #expect(
      problems(header + "2026-03-02T08:00:00Z,a,W\n")
        == ["log.csv:2:25: expected 5 fields as in the header, found 3"])
    #expect(
      problems(header + "2026-03-02T08:00:00Z,\"a,W,,\n")
        == ["log.csv:2:22: unterminated quoted field: this quote is never closed"])
    let bad = Array((header + "2026-03-02T08:00:00Z,a").utf8) + [0xC0, 0xAF] + Array(",W,,\n".utf8)
    #expect(problems(bad) == ["log.csv:2:23: invalid UTF-8"])
  }

  @Test func timestampProblemsPointAtTheOffendingPart() {
    #expect(
      problems(header + "2026-13-02T08:00:00Z,a,W,,\n")
        == ["log.csv:2:6: timestamp: month 13 is out of range 01...12"])
    #expect(
      problems(header + "2026-02-30T08:00:00Z,a,W,,\n")
        == ["log.csv:2:9: timestamp: day 30 does not exist in February 2026"])
    #expect(
      problems(header + "2026-03-02T25:00:00Z,a,W,,\n")
        == ["log.csv:2:12: timestamp: hour 25 is out of range 00...23"])
    #expect(
      problems(header + "2026-03-02T08:00:00+25:00,a,W,,\n")
        == ["log.csv:2:20: timestamp: offset +25:00 is out of range -18:00...+18:00"])
    // In quotes, the column still points at the month.
    #expect(
      problems(header + "\"2026-13-02T08:00:00Z\",a,W,,\n")
        == ["log.csv:2:7: timestamp: month 13 is out of range 01...12"])
  }

  @Test func emptyRequiredFieldsAreErrors() {
    #expect(problems(header + ",a,W,,\n") == ["log.csv:2:1: timestamp is empty"])
    #expect(problems(header + "2026-03-02T08:00:00Z,a,,,\n") == ["log.csv:2:24: kind is empty"])
  }

  @Test func malformedParametersPointAtTheBadByte() {
    let row = "2026-03-02T08:00:00Z,alice,Shop,View,"  // parameters start at column 38
    #expect(
      problems(header + row + "card=A%zz\n")
        == [
          "log.csv:2:44: parameters: bad percent escape '%zz': '%' must be followed by two hex digits"
        ])
    #expect(
      problems(header + row + "card\n")
        == ["log.csv:2:38: parameters: parameter 'card' has no '=' (expected key=value)"])
    #expect(
      problems(header + row + "card=1;card=2\n")
        == ["log.csv:2:45: parameters: duplicate parameter 'card'"])
    #expect(
      problems(header + row + "=1\n") == [
        "log.csv:2:38: parameters: empty parameter name before '='"
      ])
    #expect(
      problems(header + row + "a=%FF\n")
        == ["log.csv:2:40: parameters: percent-decoded text is not valid UTF-8"])
  }

  @Test func aRepeatedBadParametersTextIsReportedOnEveryRow() {
    let row = "2026-03-02T08:00:00Z,alice,Shop,View,card\n"
    #expect(
      problems(header + row + row)
        == [
          "log.csv:2:38: parameters: parameter 'card' has no '=' (expected key=value)",
          "log.csv:3:38: parameters: parameter 'card' has no '=' (expected key=value)",
        ])
  }

  @Test func everyProblemInTheFileIsReportedInFileOrder() {
    let text =
      header
      + "2026-13-02T08:00:00Z,a,,,\n"  // two problems in one row
      + "2026-03-02T08:00:00Z,a,W,,\n"  // fine
      + "\n"  // empty line
      + "2026-03-02T08:00:00Z,a,W,,k=%\n"
      + "2026-03-02T08:00:00Z,a,W\n"
    #expect(
      problems(text)
        == [
          "log.csv:2:6: timestamp: month 13 is out of range 01...12",
          "log.csv:2:24: kind is empty",
          "log.csv:4:1: empty line",
          "log.csv:5:29: parameters: bad percent escape '%': '%' must be followed by two hex digits",
          "log.csv:6:25: expected 5 fields as in the header, found 3",
        ])
  }

  @Test func reportingStopsAtTheLimitAndSaysSo() {
    let text = header + String(repeating: ",a,W,,\n", count: 5)
    #expect(
      problems(text, limit: 2)
        == ["log.csv:2:1: timestamp is empty", "log.csv:3:1: timestamp is empty", "(truncated)"])
    #expect(problems(header + ",a,W,,\n,a,W,,\n", limit: 2).count == 2)
  }

  @Test func rowsAreSortedStablyByTimeKeepingFileOrderForTies() throws {
    let log = try read(
      header + "2026-03-02T10:00:00Z,u,K3,,\n" + "2026-03-02T09:00:00Z,u,K1,,\n"
        + "2026-03-02T10:00:00Z,u,K4,,\n" + "2026-03-02T09:00:00Z,u,K2,,\n"
        + "2026-03-02T08:00:00Z,u,K0,,\n")
    #expect(log.donations.map(\.kind) == ["K0", "K1", "K2", "K3", "K4"])
    // Ids are canonical: first appearance in time order.
    #expect(log.kindNames.names == ["K0", "K1", "K2", "K3", "K4"])
    #expect(log.kinds == [0, 1, 2, 3, 4])
  }

  @Test func naiveTimestampsAreReadInTheGivenZone() throws {
    let newYork = try #require(ZoneRules(identifier: "America/New_York"))
    let text =
      header + "2026-01-15 08:00:00,a,W,,\n" + "2026-07-15T08:00,a,W,,\n"
      + "2026-03-08 02:30:00,a,W,,\n" + "2026-07-15T08:00:00Z,a,W,,\n"
    let log = try read(text, timeZone: newYork)
    #expect(
      log.donations.map(\.timestamp)
        == [
          try instant("2026-01-15T13:00:00Z"),  // EST, UTC-5
          try instant("2026-03-08T07:30:00Z"),  // in the spring-forward gap: read with EST
          try instant("2026-07-15T08:00:00Z"),  // explicit Z is not shifted
          try instant("2026-07-15T12:00:00Z"),  // EDT, UTC-4
        ])
    #expect(try read(text).donations.map(\.timestamp)[0] == instant("2026-01-15T08:00:00Z"))
  }

  @Test func quotedFieldsAndCRLFAndBOMAreRead() throws {
    let text =
      "\u{FEFF}timestamp,kind,parameters\r\n2026-03-02T08:00:00Z,\"Shop, Inc\",\"q=say \"\"hi\"\"\"\r\n"
    let log = try read(text)
    #expect(log[0].kind == "Shop, Inc")
    #expect(log[0].parameters == [Parameter("q", "say \"hi\"")])
  }

  @Test func parameterSetsAreSharedAndIdsDense() throws {
    let log = try read(
      header + "2026-03-02T08:00:00Z,a,W,I,b=2;a=1\n" + "2026-03-02T08:00:01Z,a,W,I,a=1;b=2\n"
        + "2026-03-02T08:00:02Z,b,W,,\n" + "2026-03-02T08:00:03Z,b,W,I,a=1\n")
    #expect(log.parameterSets == [1, 1, 0, 2])
    #expect(log.parameterKeys.names == ["a", "b"])
    #expect(log.parameterValues.names == ["1", "2"])
    #expect(
      log.parameterTable == [
        [], [ParameterID(key: 0, value: 0), ParameterID(key: 1, value: 1)],
        [ParameterID(key: 0, value: 0)],
      ])
    #expect(log.intents == [0, 0, -1, 0])
    #expect(log.userNames.names == ["a", "b"])
  }
}
