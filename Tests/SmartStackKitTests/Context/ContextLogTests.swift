import Foundation
import Testing
@testable import SmartStackBase
@testable import SmartStackData

/// The context file (issue 33 item 1): both forms, per-row offsets, each person's changes
/// in time order, every problem located, and the summary's known-time shares.
@Suite("Context files")
struct ContextLogTests {
  static let csv = """
    timestamp,user,signal,value
    2026-03-02T07:00:00+01:00,ana,place,home
    2026-03-02T07:30:00+01:00,ana,place,commute
    2026-03-02T07:30:00+01:00,ana,headphones,connected
    2026-03-02T08:00:00+01:00,ana,place,work
    2026-03-02T06:00:00+00:00,ben,sleep,wakeup
    2026-03-02T08:00:00+01:00,ana,headphones,disconnected

    """

  static func read(_ text: String, file: String = "c.csv") throws -> ContextLog {
    try ContextLog.read(bytes: Array(text.utf8), file: file)
  }

  /// The rendered diagnostics of reading `text`, or [] when it is fine.
  static func problems(_ text: String, file: String = "c.csv") -> [String] {
    do {
      _ = try read(text, file: file)
      return []
    } catch let list as DiagnosticList {
      return list.diagnostics.map(\.description)
    } catch {
      return ["\(error)"]
    }
  }

  static func ms(_ text: String) -> Int64 {
    Array(text.utf8).withUnsafeBufferPointer { try! ZoneRules.utc.instant(parsing: $0).get().milliseconds }
  }

  @Test func csvRowsKeepTheirTimesOffsetsAndValues() throws {
    let log = try Self.read(Self.csv)
    #expect(log.count == 6)
    #expect(log.users == ["ana", "ana", "ana", "ana", "ben", "ana"])
    #expect(log.signals == [.place, .place, .headphones, .place, .sleep, .headphones])
    #expect(log.values == ["home", "commute", "connected", "work", "wakeup", "disconnected"])
    #expect(log.times[0] == Self.ms("2026-03-02T06:00:00Z"))
    #expect(log.utcOffset(0) == 3600)
    #expect(log.utcOffset(4) == 0)
    #expect(log.people == ["ana", "ben"])
  }

  @Test func eachPersonsChangesAreInTimeOrderAndTheLaterRowWinsAtEqualTimes() throws {
    let log = try Self.read("""
      timestamp,user,signal,value
      2026-03-02T09:00:00Z,ana,place,work
      2026-03-02T08:00:00Z,ana,place,home
      2026-03-02T08:00:00Z,ana,place,gym

      """)
    let order = log.changes(of: "ana")
    #expect(order == [1, 2, 0])
    #expect(order.map { log.values[$0] } == ["home", "gym", "work"])
    let grouped = log.changesByPerson()
    #expect(grouped.map(\.user) == ["ana"] && grouped[0].rows == order)
  }

  @Test func jsonLinesGivesTheSameLogAsCSV() throws {
    let jsonl = """
      {"timestamp":"2026-03-02T07:00:00+01:00","user":"ana","signal":"place","value":"home"}
      {"timestamp":"2026-03-02T07:30:00+01:00","user":"ana","signal":"place","value":"commute"}
      {"timestamp":"2026-03-02T07:30:00+01:00","user":"ana","signal":"headphones","value":"connected"}

      {"timestamp":"2026-03-02T08:00:00+01:00","user":"ana","signal":"place","value":"work"}
      {"timestamp_ms":1772431200000,"user":"ben","signal":"sleep","value":"wakeup","utc_offset":0}
      {"timestamp":"2026-03-02T08:00:00+01:00","user":"ana","signal":"headphones","value":"disconnected","note":"x"}
      """
    var fromJSON = try Self.read(jsonl, file: "c.jsonl")
    let fromCSV = try Self.read(Self.csv)
    #expect(fromJSON.times == fromCSV.times)
    #expect(fromJSON.utcOffsets == fromCSV.utcOffsets)
    fromJSON.file = fromCSV.file
    fromJSON.userPositions = fromCSV.userPositions
    #expect(fromJSON == fromCSV)
  }

  @Test func csvTextReadsBackAsTheSameRows() throws {
    let log = try Self.read(Self.csv)
    var again = try Self.read(log.csvText())
    #expect(again.times == log.times && again.signals == log.signals && again.values == log.values)
    #expect(again.utcOffsets == log.utcOffsets && again.users == log.users)
    again.userPositions = log.userPositions
    #expect(again == log)
  }

  @Test func everyProblemIsLocated() {
    let found = Self.problems("""
      timestamp,user,signal,value,utc_offset
      2026-03-02T07:00:00Z,ana,location,home,
      2026-03-02T07:00:00Z,ana,charging,yes,
      not a time,ana,place,home,
      2026-03-02T07:00:00Z,ana,place,,
      2026-03-02T07:00:00Z,ana,sleep,asleep,+99:00
      2026-03-02T07:00:00Z,ana,,home,

      """)
    #expect(found == [
      "c.csv:2:26: unknown signal 'location': expected one of place, poi, charging, headphones, workout, rings, sleep, focus",
      "c.csv:3:35: 'yes' is not a value of signal 'charging': expected 'false', 'true'",
      "c.csv:4:1: timestamp: expected a 4-digit year",
      "c.csv:5:32: empty value for signal 'place'",
      "c.csv:6:42: utc_offset: expected whole seconds east of UTC, e.g. 3600 or -18000",
      "c.csv:7:26: empty signal: expected one of place, poi, charging, headphones, workout, rings, sleep, focus",
    ])
  }

  @Test func missingColumnsAndJSONLinesProblemsAreLocated() {
    #expect(Self.problems("timestamp,user,kind\n2026-03-02T07:00:00Z,ana,A\n") == [
      "c.csv:1:1: missing required column 'signal', 'value' (columns found: 'timestamp', 'user', 'kind')"
    ])
    #expect(Self.problems("") == ["c.csv:1:1: empty file: expected a header row with 'timestamp', 'signal' and 'value'"])
    let jsonl = Self.problems(
      """
      {"timestamp":"2026-03-02T07:00:00Z","signal":"rings","value":"half"}
      {"timestamp":"2026-03-02T07:00:00Z","signal":"rings"}
      """, file: "c.jsonl")
    #expect(jsonl == [
      "c.jsonl:1:62: value: 'half' is not a value of signal 'rings': expected 'complete', 'incomplete'",
      "c.jsonl:2:1: missing required key \"value\"",
    ])
  }

  @Test func theSummarySplitsEachSignalsKnownTimeBetweenItsValues() throws {
    let log = try Self.read(Self.csv)
    let s = ContextSummary(log)
    #expect(s.changes == 6 && s.people == 2)
    #expect(s.signals.map(\.signal) == [.place, .headphones, .sleep])
    // ana's span ends at her last row (08:00+01:00): home 30 min, commute 30 min, work 0.
    let place = s.signals[0]
    #expect(place.changes == 3 && place.people == 1)
    #expect(place.values.map(\.value) == ["commute", "home", "work"])
    #expect(place.values.map(\.milliseconds) == [1_800_000, 1_800_000, 0])
    #expect(place.share(of: place.values[0]) == 0.5)
    let headphones = s.signals[1]
    #expect(headphones.values.map(\.value) == ["connected", "disconnected"])
    #expect(headphones.values.map(\.milliseconds) == [1_800_000, 0])
    #expect(s.signals[2].people == 1 && s.signals[2].milliseconds == 0)
  }

  @Test func everySignalNamesItselfAndFixedValuesAreChecked() {
    for signal in ContextSignal.allCases {
      #expect(ContextSignal(name: signal.name) == signal)
      for value in signal.fixedValues ?? [] { #expect(signal.problem(with: value) == nil) }
      for value in signal.reservedValues { #expect(signal.problem(with: value) == nil) }
      #expect(signal.problem(with: "") != nil)
    }
    #expect(ContextSignal.place.problem(with: "gym") == nil)
    #expect(ContextSignal.workout.problem(with: "running") != nil)
    #expect(ContextSignal(name: "Place") == nil)
  }
}
