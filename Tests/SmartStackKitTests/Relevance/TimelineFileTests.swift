import Foundation
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
import SmartStackTestSupport

@Suite("Timeline file")
struct TimelineFileTests: RelevanceFixtures {
  func read(_ text: String, timeZone: ZoneRules = .utc) throws -> TimelineFile {
    try TimelineFile.read(bytes: Array(text.utf8), file: "t.json", timeZone: timeZone)
  }

  /// The diagnostics reading `text` reports, as `FILE:LINE:COLUMN: message` lines.
  func problems(_ text: String) -> [String] {
    do {
      _ = try read(text)
      return []
    } catch let list as DiagnosticList {
      return list.diagnostics.map(\.description)
    } catch {
      return ["unexpected error \(error)"]
    }
  }

  @Test func readsInstancesEntriesAndDefaults() throws {
    let file = try read(
      """
      {"instances": [
        {"id": "game", "kind": "Scores", "entries": [
          {"date": "2026-01-05T19:00:00Z", "relevance": {"score": 1, "duration": 10800}},
          {"date": "2026-01-05T20:00:00Z"},
          {"date": "2026-01-05T21:00:00Z", "relevance": null},
          {"date": "2026-01-05T18:00:00.250+01:00", "relevance": {"score": -0.5, "duration": 1.5}}
        ]},
        {"id": "acme", "entries": [{"date": "2026-01-05", "relevance": {"score": 10}}]}
      ]}
      """)
    #expect(file.instances.map(\.id) == ["game", "acme"])
    #expect(file.instances.map(\.kind) == ["Scores", "acme"])
    #expect(
      file.instances[0].entries == [
        entry(19, 1, durationHours: 3), entry(20, nil), entry(21, nil),
        RelevanceEntry(
          date: at(hours: 17) + 250, relevance: Relevance(score: -0.5, durationMilliseconds: 1500)),
      ])
    #expect(file.instances[1].entries == [entry(0, 10)])
  }

  @Test func fractionalDurationsRoundToTheMillisecond() throws {
    let file = try read(
      """
      {"instances": [{"id": "a", "entries": [
        {"date": "2026-01-05T00:00:00Z", "relevance": {"score": 1, "duration": 0.0015}},
        {"date": "2026-01-05T00:00:00Z", "relevance": {"score": 1, "duration": 2.0004}},
        {"date": "2026-01-05T00:00:00Z", "relevance": {"score": 1, "duration": 31622400}}
      ]}]}
      """)
    #expect(
      file.instances[0].entries.map { $0.relevance?.durationMilliseconds } == [
        2, 2000, 31_622_400_000,
      ])
  }

  @Test func naiveDatesAreReadInTheGivenTimeZone() throws {
    let berlin = try #require(ZoneRules(identifier: "Europe/Berlin"))
    let text = """
      {"instances": [{"id": "a", "entries": [{"date": "2026-01-05T09:00:00"}, {"date": "2026-07-01 09:00"}, {"date": "2026-01-05T09:00:00Z"}]}]}
      """
    let dates = try read(text, timeZone: berlin).instances[0].entries.map(\.date)
    // CET is UTC+1 in January, CEST UTC+2 in July; a Z date ignores the zone.
    #expect(
      dates.map(ISO8601.format) == [
        "2026-01-05T08:00:00Z", "2026-07-01T07:00:00Z", "2026-01-05T09:00:00Z",
      ])
    let utc = try read(text).instances[0].entries.map(\.date)
    #expect(utc[0] == at(hours: 9))
  }

  @Test func anEmptyInstancesArrayIsValid() throws {
    #expect(try read(#"{"instances": []}"#).instances.isEmpty)
    #expect(try read(#"{"instances": [{"id": "a", "entries": []}]}"#).instances[0].entries.isEmpty)
  }

  @Test func malformedJSONIsReportedAtItsByte() {
    #expect(
      problems("{\"instances\": [\n  {\"id\": \"a\",}\n]}") == [
        "t.json:2:13: trailing ',' before '}' is not allowed"
      ])
    #expect(problems("") == ["t.json:1:1: unexpected end of input"])
    #expect(problems("[]") == ["t.json:1:1: expected an object, found an array"])
  }

  @Test func missingAndWronglyTypedValuesAreAllReported() {
    let text = """
      {"instances": [
        {"id": 7, "entries": {}},
        {"kind": "K", "entries": [{"relevance": {"score": "high"}}, 3, {"date": null}]}
      ]}
      """
    #expect(
      problems(text) == [
        "t.json:2:10: instances[0].id: expected a string, found 7",
        "t.json:2:24: instances[0].entries: expected an array, found an object",
        "t.json:3:3: instances[1]: missing required key \"id\"",
        "t.json:3:29: instances[1].entries[0]: missing required key \"date\"",
        "t.json:3:53: instances[1].entries[0].relevance.score: expected a number, found a string",
        "t.json:3:63: instances[1].entries[1]: expected an object, found 3",
        "t.json:3:75: instances[1].entries[2].date: expected a string, found null",
      ])
  }

  @Test func impossibleDatesUseTheParsersMessageAndOffset() {
    let text = """
      {"instances": [{"id": "a", "entries": [
        {"date": "2026-02-30T19:00:00Z"},
        {"date": "2026-01-05T25:00:00Z"},
        {"date": "yesterday"}
      ]}]}
      """
    #expect(
      problems(text) == [
        "t.json:2:21: instances[0].entries[0].date: day 30 does not exist in February 2026",
        "t.json:3:24: instances[0].entries[1].date: hour 25 is out of range 00...23",
        "t.json:4:13: instances[0].entries[2].date: expected a 4-digit year",
      ])
  }

  @Test func scoresOutsideFloatRangeAreRejected() {
    let text = """
      {"instances": [{"id": "a", "entries": [
        {"date": "2026-01-05T00:00:00Z", "relevance": {"score": 1e39}},
        {"date": "2026-01-05T00:00:00Z", "relevance": {"score": -3.5e38}},
        {"date": "2026-01-05T00:00:00Z", "relevance": {"score": 3.4e38}}
      ]}]}
      """
    #expect(
      problems(text) == [
        "t.json:2:59: instances[0].entries[0].relevance.score: 1e+39 is outside the range of a Float (WidgetKit's score type)",
        "t.json:3:59: instances[0].entries[1].relevance.score: -3.5e+38 is outside the range of a Float (WidgetKit's score type)",
      ])
  }

  @Test func negativeAbsurdAndSubMillisecondDurationsAreRejected() {
    let text = """
      {"instances": [{"id": "a", "entries": [
        {"date": "2026-01-05T00:00:00Z", "relevance": {"score": 1, "duration": -5}},
        {"date": "2026-01-05T00:00:00Z", "relevance": {"score": 1, "duration": 31622401}},
        {"date": "2026-01-05T00:00:00Z", "relevance": {"score": 1, "duration": 0.0004}},
        {"date": "2026-01-05T00:00:00Z", "relevance": {"score": 1, "duration": "1h"}}
      ]}]}
      """
    #expect(
      problems(text) == [
        "t.json:2:74: instances[0].entries[0].relevance.duration: expected seconds >= 0, found -5 (0 means until the next entry with relevance)",
        "t.json:3:74: instances[0].entries[1].relevance.duration: 31622401 s is more than 366 days (durations are in seconds, not milliseconds)",
        "t.json:4:74: instances[0].entries[2].relevance.duration: 0.0004 s is shorter than 1 millisecond (use 0 for until the next entry with relevance)",
        "t.json:5:74: instances[0].entries[3].relevance.duration: expected a number, found a string",
      ])
  }

  @Test func unknownKeysAreErrorsWithASuggestion() {
    let text = """
      {"instances": [{"id": "a", "entries": [
        {"date": "2026-01-05T00:00:00Z", "relevance": {"score": 1, "durations": 60}}
      ], "kinds": "K"}], "version": 2}
      """
    #expect(
      problems(text) == [
        "t.json:2:62: instances[0].entries[0].relevance: unknown key \"durations\" (did you mean \"duration\"?)",
        "t.json:3:4: instances[0]: unknown key \"kinds\" (did you mean \"kind\"?)",
        "t.json:3:20: unknown key \"version\" (expected one of \"instances\")",
      ])
  }

  @Test func duplicateAndEmptyIdsAreRejected() {
    let text = """
      {"instances": [
        {"id": "a", "entries": []},
        {"id": "b", "kind": "", "entries": []},
        {"id": "a", "entries": []},
        {"id": "", "entries": []}
      ]}
      """
    #expect(
      problems(text) == [
        "t.json:3:23: instances[1].kind: expected a non-empty kind (or leave \"kind\" out to use the id)",
        "t.json:4:10: instances[2].id: duplicate instance id \"a\" (first used by instances[0])",
        "t.json:5:10: instances[3].id: expected a non-empty instance id",
      ])
  }

  @Test func reportsStopAtTheLimit() {
    let bad = Array(repeating: #"{"date": "x"}"#, count: 80).joined(separator: ",")
    do {
      _ = try read(#"{"instances": [{"id": "a", "entries": ["# + bad + "]}]}")
      Issue.record("expected an error")
    } catch let list as DiagnosticList {
      #expect(list.diagnostics.count == DiagnosticCollector.defaultLimit)
      #expect(list.truncated)
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }

  @Test func aMissingFileIsAnInputFileError() {
    #expect(throws: InputFileError.self) {
      try TimelineFile.read(path: "/nonexistent/timeline.json")
    }
  }

  @Test func readsFromAPath() throws {
    let url = TestFolders.root
      .appendingPathComponent("timeline-\(UUID().uuidString).json")
    try Data(#"{"instances": [{"id": "a", "entries": [{"date": "2026-01-05"}]}]}"#.utf8).write(
      to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    #expect(try TimelineFile.read(path: url.path).instances[0].entries == [entry(0, nil)])
  }
}

@Suite("Timeline entries embedded in other files")
struct TimelineEntriesDecodingTests: RelevanceFixtures {
  @Test func decodeEntriesReadsAnEmbeddedArrayWithItsKeyPath() throws {
    let text =
      #"{"timeline": [{"date": "2026-01-05T01:00:00Z", "relevance": {"score": 2}}, {"date": "2026-01-05"}]}"#
    var json = JSONDecoding(file: "s.json", bytes: Array(text.utf8))
    let root = try #require(json.parseDocument().flatMap { json.requireObject($0) })
    let item = try #require(root["timeline"])
    let entries = TimelineFile.decodeEntries(item, &json)
    #expect(entries == [entry(1, 2), entry(0, nil)])
    #expect(json.problems.isEmpty)
  }

  @Test func decodeEntriesReportsProblemsUnderTheEmbeddingPath() throws {
    let text = #"{"timeline": [{"date": "2026-01-05", "relevance": {"score": 2, "duration": -1}}]}"#
    var json = JSONDecoding(file: "s.json", bytes: Array(text.utf8))
    let root = try #require(json.parseDocument().flatMap { json.requireObject($0) })
    let item = try #require(root["timeline"])
    #expect(TimelineFile.decodeEntries(item, &json) == nil)
    #expect(
      json.problems.diagnostics.map(\.description) == [
        "s.json:1:76: timeline[0].relevance.duration: expected seconds >= 0, found -1 (0 means until the next entry with relevance)"
      ])
  }
}
