import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackWorld

/// A one-person scenario whose persona has `rhythm` and `wantProbability` as given (JSON).
private func scenario(rhythm: String, want: String = "0.5") -> String {
  """
  {"start": "2026-03-02", "days": 14, "timezone": "UTC", "seed": 3,
   "people": [{"name": "p", "visitsPerDay": 50, "rhythm": \(rhythm), "wantProbability": \(want),
     "routine": {"weekday": [{"hours": "0-24", "wants": {"news": 1}}]}}],
   "stack": {"instances": [{"kind": "News"}]}, "apps": [{"id": "news", "kind": "News"}]}
  """
}

private func week(_ value: (Int) -> Double) -> String {
  "[" + (0..<168).map { NumberFormat.format(value($0)) }.joined(separator: ",") + "]"
}

@Suite("Hour-of-week rhythm and want probability")
struct HourOfWeekPersonaTests {
  /// 168 values are read as one per local hour of week; other lengths are refused at
  /// the array.
  @Test func a168ValueRhythmIsReadAndOtherLengthsAreRefused() throws {
    let read = try Scenario.read(bytes: Array(scenario(rhythm: week { _ in 1 }).utf8), file: "s.json")
    #expect(read.personas[0].rhythm.count == 168)
    let bad = "[" + Array(repeating: "1", count: 25).joined(separator: ",") + "]"
    let error = #expect(throws: DiagnosticList.self) {
      try Scenario.read(bytes: Array(scenario(rhythm: bad).utf8), file: "s.json")
    }
    #expect(error?.description.contains("s.json:2:") == true)
    #expect(error?.description.contains("or 168, one per local hour of week") == true)
  }

  /// A weekly rhythm with no weekend weight gives no weekend visits, and keeps
  /// `visitsPerDay` as the average over the days of the week.
  @Test func aWeeklyRhythmShapesVisitsByHourOfWeek() throws {
    let read = try Scenario.read(bytes: Array(scenario(rhythm: week { $0 < 120 ? 1 : 0 }).utf8), file: "s.json")
    let person = read.person(0, replicate: 0, seed: 3)
    let weekend = person.visitTimes.filter { WallClock.weekday($0) >= 5 }
    #expect(weekend.isEmpty)
    // 14 days x 50 visits on average: 700 (sd 26).
    let visits = Double(person.visitTimes.count)
    let bound: Double = 4 * 27
    #expect(abs(visits - 700) < bound)
  }

  /// A weekly want probability of 0 on Mondays gives no Monday wants.
  @Test func aWeeklyWantProbabilityShapesWantsByHourOfWeek() throws {
    let text = scenario(rhythm: week { _ in 1 }, want: week { $0 < 24 ? 0 : 1 })
    let person = try Scenario.read(bytes: Array(text.utf8), file: "s.json").person(0, replicate: 0, seed: 3)
    var monday = 0
    var other = 0
    for (v, time) in person.visitTimes.enumerated() where person.wantApp[v] >= 0 {
      if WallClock.weekday(time) == 0 { monday += 1 } else { other += 1 }
    }
    #expect(monday == 0)
    #expect(other > 0)
  }
}
