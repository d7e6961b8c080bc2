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

private func problems(_ text: String) -> [String] {
  do {
    _ = try DonationLog.read(bytes: Array(text.utf8), file: "log.jsonl")
    return []
  } catch let list as DiagnosticList {
    return list.diagnostics.map(\.description)
  } catch {
    return ["unexpected \(error)"]
  }
}

private func read(_ text: String, timeZone: ZoneRules = .utc) throws -> DonationLog {
  try DonationLog.read(bytes: Array(text.utf8), file: "log.jsonl", timeZone: timeZone)
}

private let t0 = Instant(seconds: 1_772_438_400)  // 2026-03-02T08:00:00Z

@Suite("Donation log JSON Lines reader")
struct DonationLogJSONLTests {
  @Test func readsAllFields() throws {
    let log = try read(
      #"{"timestamp":"2026-03-02T08:00:05Z","user":"alice","kind":"RecentPurchases","intent":"ViewRecentPurchases","parameters":{"card":"Acme","category":"Grocery"}}"#
        + "\n" + #"{"kind":"Weather","timestamp":"2026-03-02T09:00:00+01:00"}"# + "\n")
    #expect(
      log.donations == [
        Donation(timestamp: t0, kind: "Weather", utcOffset: 3600),
        Donation(
          timestamp: t0 + 5_000, user: "alice", kind: "RecentPurchases",
          intent: "ViewRecentPurchases",
          parameters: [Parameter("card", "Acme"), Parameter("category", "Grocery")]),
      ])
  }

  @Test func nullsEmptiesBlankLinesAndUnknownFieldsAreAccepted() throws {
    let text =
      "\n"
      + #"{"timestamp":"2026-03-02T08:00:00Z","kind":"W","user":null,"intent":null,"parameters":null,"note":[1]}"#
      + "\r\n   \n"
      + #"{"timestamp":"2026-03-02T08:00:01Z","kind":"W","user":"","intent":"","parameters":{}}"#
      + "\r\n"
    let log = try read(text)
    #expect(
      log.donations == [
        Donation(timestamp: t0, kind: "W"), Donation(timestamp: t0 + 1_000, kind: "W"),
      ])
  }

  @Test func emptyFileIsAnEmptyLog() throws {
    #expect(try read("").isEmpty)
    #expect(try read("\n \n").isEmpty)
  }

  @Test func naiveTimestampsAreReadInTheGivenZone() throws {
    let newYork = try #require(ZoneRules(identifier: "America/New_York"))
    let log = try read(#"{"timestamp":"2026-03-02 03:00:00","kind":"W"}"#, timeZone: newYork)
    #expect(log[0].timestamp == t0)  // 03:00 EST = 08:00Z
  }

  @Test func malformedJSONIsReportedWhereTheParserStopped() {
    #expect(
      problems(#"{"timestamp": "2026-03-02T08:00:00Z", "kind": }"#)
        == ["log.jsonl:1:47: expected a value, found '}'"])
    #expect(problems("{\"a\":1\n") == ["log.jsonl:1:7: unexpected end of input"])
  }

  @Test func wrongTypesAreReportedWithTheFieldName() {
    let text = [
      #"{"timestamp":"2026-03-02T08:00:00Z","kind":5}"#,
      #"{"timestamp":1,"kind":"W","user":true}"#,
      #"{"timestamp":"2026-03-02T08:00:00Z","kind":"W","intent":3,"parameters":{"card":1}}"#,
      #"{"timestamp":"2026-03-02T08:00:00Z","kind":"W","parameters":"card=Acme"}"#,
      #"[1,2]"#,
    ].joined(separator: "\n")
    #expect(
      problems(text)
        == [
          "log.jsonl:1:44: kind: expected a string, found 5",
          "log.jsonl:2:14: timestamp: expected a string, found 1",
          "log.jsonl:2:34: user: expected a string, found true",
          "log.jsonl:3:57: intent: expected a string, found 3",
          "log.jsonl:3:80: parameters.card: expected a string, found 1",
          "log.jsonl:4:61: parameters: expected an object, found a string",
          "log.jsonl:5:1: expected an object, found an array",
        ])
  }

  @Test func missingAndEmptyRequiredFieldsAreErrors() {
    let text = [
      #"{"kind":"W"}"#,
      #"{"timestamp":"2026-03-02T08:00:00Z","kind":""}"#,
      #"{"timestamp":"","kind":"W"}"#,
      #"{"timestamp":"2026-03-02T08:00:00Z","kind":"W","parameters":{"":"x"}}"#,
    ].joined(separator: "\n")
    #expect(
      problems(text)
        == [
          "log.jsonl:1:1: missing required key \"timestamp\"; epoch times go in a key named 'timestamp_ms', 'epoch_ms', 'timestamp_s', 'epoch_s'",
          "log.jsonl:2:44: kind is empty",
          "log.jsonl:3:14: timestamp is empty",
          "log.jsonl:4:62: parameters: empty parameter name",
        ])
  }

  @Test func timestampProblemsPointInsideTheString() {
    #expect(
      problems(#"{"timestamp":"2026-13-02T08:00:00Z","kind":"W"}"#)
        == ["log.jsonl:1:20: timestamp: month 13 is out of range 01...12"])
    #expect(
      problems(#"{"timestamp":"2026-02-30T08:00:00Z","kind":"W"}"#)
        == ["log.jsonl:1:23: timestamp: day 30 does not exist in February 2026"])
    // An escape before the problem: the opening quote is the best place to point at.
    #expect(
      problems(#"{"timestamp":"\u0032026-13-02T08:00:00Z","kind":"W"}"#)
        == ["log.jsonl:1:14: timestamp: month 13 is out of range 01...12"])
  }
}
