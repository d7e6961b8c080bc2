import Foundation
import Testing
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackWorld

/// Context in the simulated world (issue 33 item 2): a persona's context routine becomes
/// change rows by the documented definition, never shifts the other streams, and wants
/// can depend on the place.
@Suite("Context routines")
struct ContextRoutineTests: ScenarioTesting {
  /// One person, UTC, Monday 2026-01-05; apps a and b.
  func scenario(context: String, routine: String? = nil, days: Int = 2, sleep: String = #""sleep": {"from": "23:00", "to": "07:00"}"#) throws -> Scenario {
    var persona = #""name": "p", \#(sleep), "context": \#(context)"#
    if let routine { persona += #", "routine": \#(routine)"# }
    return try read(scenarioText(days: days, persona: persona))
  }

  func rows(_ person: SimulatedPerson) -> [String] {
    person.context.map { "\(ISO8601.format(Instant(milliseconds: $0.time))) \($0.signal.name)=\($0.value)" }
  }

  @Test func aPlanWithSleepAndHeadphonesGivesTheDefinedChanges() throws {
    let s = try scenario(context: """
      {"places": {"weekday": [{"from": "08:00", "place": "commute"}, {"from": "08:30", "place": "work"},
                              {"from": "18:00", "place": "home"}]},
       "headphones": ["commute"], "focus": {"work": "work"}, "sleep": true, "chargingAtNight": true}
      """, days: 1)
    let person = s.person(0, replicate: 0, seed: 1)
    #expect(rows(person) == [
      // At the start: the state the day before left (home, asleep, charging).
      "2026-01-05T00:00:00Z place=home", "2026-01-05T00:00:00Z charging=true",
      "2026-01-05T00:00:00Z headphones=disconnected", "2026-01-05T00:00:00Z sleep=asleep",
      "2026-01-05T00:00:00Z focus=off",
      "2026-01-05T07:00:00Z charging=false", "2026-01-05T07:00:00Z sleep=wakeup",
      "2026-01-05T07:30:00Z sleep=awake",
      "2026-01-05T08:00:00Z place=commute", "2026-01-05T08:00:00Z headphones=connected",
      "2026-01-05T08:30:00Z place=work", "2026-01-05T08:30:00Z headphones=disconnected",
      "2026-01-05T08:30:00Z focus=work",
      "2026-01-05T18:00:00Z place=home", "2026-01-05T18:00:00Z focus=off",
      "2026-01-05T22:30:00Z sleep=bedtime",
      "2026-01-05T23:00:00Z charging=true", "2026-01-05T23:00:00Z sleep=asleep",
    ])
  }

  @Test func aWorkoutOverridesThePlaceAndClosesTheRings() throws {
    let s = try scenario(context: """
      {"places": {"weekday": [{"from": "09:00", "place": "work"}, {"from": "17:00", "place": "home"}]},
       "workouts": [{"days": ["mon"], "at": "17:30", "minutes": 60, "place": "gym", "poi": "fitnessCenter"}],
       "rings": true}
      """, days: 2)
    let lines = rows(s.person(0, replicate: 0, seed: 1))
    #expect(lines.contains("2026-01-05T17:30:00Z place=gym"))
    #expect(lines.contains("2026-01-05T17:30:00Z poi=fitnessCenter"))
    #expect(lines.contains("2026-01-05T17:30:00Z workout=active"))
    #expect(lines.contains("2026-01-05T18:30:00Z place=home"))
    #expect(lines.contains("2026-01-05T18:30:00Z rings=complete"))
    #expect(lines.contains("2026-01-06T07:00:00Z rings=incomplete"))
    // Tuesday is not a workout day.
    #expect(!lines.contains { $0.hasPrefix("2026-01-06") && $0.hasSuffix("workout=active") })
  }

  /// Changes ascend in time, stay inside the run, never repeat a signal's value, and the
  /// first rows give every generated signal; over seeds and jitter.
  @Test(arguments: 0..<12) func changesAreOrderedInsideTheRunAndNeverRepeat(seed: Int) throws {
    let s = try scenario(context: """
      {"places": {"weekday": [{"from": "07:30", "place": "commute"}, {"from": "08:15", "place": "work"},
                              {"from": "17:30", "place": "commute"}, {"from": "18:15", "place": "home"}],
                  "weekend": [{"from": "11:00", "place": "town"}, {"from": "15:00", "place": "home"}]},
       "jitterMinutes": 40, "headphones": ["commute"],
       "workouts": [{"days": ["tue", "sat"], "at": "18:00", "minutes": 50, "place": "gym", "probability": 0.5}],
       "rings": true, "sleep": true, "chargingAtNight": true}
      """, days: 9)
    let person = s.person(0, replicate: seed % 3, seed: UInt64(seed))
    let changes = person.context
    #expect(!changes.isEmpty)
    var last: [ContextSignal: String] = [:]
    for (k, change) in changes.enumerated() {
      #expect(change.time >= person.start && change.time < person.end)
      if k > 0 {
        let previous = changes[k - 1]
        #expect((previous.time, previous.signal) < (change.time, change.signal))
      }
      #expect(last[change.signal] != change.value, "\(change)")
      last[change.signal] = change.value
      #expect(change.signal.problem(with: change.value) == nil)
    }
    let signals = s.personas[0].context!.signals
    #expect(changes.prefix(signals.count).map(\.signal) == signals)
    #expect(changes.prefix(signals.count).allSatisfy { $0.time == person.start })
    // Generation is forward in time: fewer days give a prefix.
    let shorter = s.person(0, replicate: seed % 3, seed: UInt64(seed), days: 4).context
    #expect(Array(changes.prefix(shorter.count)) == shorter)
  }

  /// Context draws from its own stream: adding it changes no visit, want or draw.
  @Test func contextShiftsNoOtherStream() throws {
    let routine = #"{"weekday": [{"hours": "6-22", "wants": {"a": 1, "b": 2}}]}"#
    let plain = try read(scenarioText(days: 5, persona: #""name": "p", "routine": \#(routine)"#))
    let with = try scenario(context: """
      {"places": {"weekday": [{"from": "08:00", "place": "work"}]}, "jitterMinutes": 30, "sleep": true,
       "workouts": [{"days": ["daily"], "at": "18:00", "minutes": 30, "probability": 0.5}]}
      """, routine: routine, days: 5)
    for seed in [1, 2, 3] as [UInt64] {
      var a = plain.person(0, replicate: 0, seed: seed)
      let b = with.person(0, replicate: 0, seed: seed)
      #expect(a.context.isEmpty && !b.context.isEmpty)
      a.context = b.context
      #expect(a == b)
    }
  }

  @Test func aPlacedRoutineBlockWantsOnlyWhileThePersonIsThere() throws {
    let s = try scenario(context: """
      {"places": {"weekday": [{"from": "07:00", "place": "commute"}, {"from": "09:00", "place": "work"}]},
       "jitterMinutes": 30}
      """, routine: #"{"weekday": [{"hours": "0-24", "place": "commute", "wants": {"a": 1}}, {"hours": "0-24", "wants": {"b": 1}}]}"#,
      days: 5)
    let person = s.person(0, replicate: 0, seed: 4)
    var place = "none"
    var next = 0
    var wantedA = 0
    for (v, time) in person.visitTimes.enumerated() {
      while next < person.context.count && person.context[next].time <= time {
        if person.context[next].signal == .place { place = person.context[next].value }
        next += 1
      }
      if person.wantApp[v] == 0 && person.wantSource[v] == .routine {
        wantedA += 1
        #expect(place == "commute", "visit \(v) wants a at \(place)")
      }
    }
    #expect(wantedA > 0)
  }

  @Test func contextProblemsAreLocated() {
    let persona = #""name": "p", "routine": {"weekday": [{"hours": "0-24", "place": "gym", "wants": {"a": 1}}]}"#
    let found = problems(scenarioText(persona: persona))
    #expect(found.count == 1)
    #expect(found.first?.contains("a routine block wants place \"gym\", which the persona's context (its place plan or workouts) never reaches") == true)
    let unordered = problems(scenarioText(persona: """
      "name": "p", "context": {"places": {"weekday": [{"from": "09:00", "place": "work"}, {"from": "08:00", "place": "home"}]},
                               "workouts": [{"days": ["someday"], "at": "25:00", "minutes": 0}]}
      """))
    #expect(unordered.count == 4, "\(unordered)")
    #expect(unordered.first?.contains("a place plan's times go in ascending order, each once") == true)
  }
}
