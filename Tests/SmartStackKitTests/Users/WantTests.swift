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

@Suite("Wants")
struct WantTests: ScenarioTesting {
  let threeApps = #"{"id": "a", "kind": "A"}, {"id": "b", "kind": "B"}, {"id": "c", "kind": "C"}"#

  @Test func routineWantsFollowTheWeights() throws {
    let persona = #"""
      "name": "p", "wantProbability": 1,
      "routine": {"weekday": [{"hours": "0-24", "wants": {"a": 1, "b": 2, "c": 7}}]}
      """#
    let s = try read(scenarioText(days: 20, persona: persona, apps: threeApps))
    for seed in UInt64(1)...8 {
      let person = s.person(0, replicate: 0, seed: seed)
      var counts = [0, 0, 0]
      for v in 0..<person.visitCount {
        #expect(person.wantSource[v] == .routine)
        counts[Int(person.wantApp[v])] += 1
      }
      let n = Double(person.visitCount)
      let expected = [0.1 * n, 0.2 * n, 0.7 * n]
      var chiSquare = 0.0
      for app in 0..<3 {
        let difference = Double(counts[app]) - expected[app]
        chiSquare += difference * difference / expected[app]
      }
      // 13.8 is the 0.1% tail of chi-square with 2 degrees of freedom.
      #expect(chiSquare < 13.8, "seed \(seed): counts \(counts), chi-square \(chiSquare)")
    }
  }

  @Test func wantProbabilityIsTheShareOfVisitsWithAWant() throws {
    let persona = #"""
      "name": "p", "wantProbability": 0.3,
      "routine": {"weekday": [{"hours": "0-24", "wants": {"a": 1}}]}
      """#
    let s = try read(scenarioText(days: 30, persona: persona))
    for seed in UInt64(1)...5 {
      let person = s.person(0, replicate: 0, seed: seed)
      let share = Double(person.wantApp.filter { $0 >= 0 }.count) / Double(person.visitCount)
      #expect(abs(share - 0.3) < 0.03, "seed \(seed): share \(share)")
      // A want exactly when u2 < p; the source says why.
      #expect(zip(person.wantApp, person.wantSource).allSatisfy { ($0 >= 0) == ($1 == .routine) })
    }
  }

  @Test func hoursWithoutRoutineWeightsHaveNoWants() throws {
    let persona = #"""
      "name": "p", "wantProbability": 1, "sleep": {"from": "00:00", "to": "00:00"},
      "routine": {"weekday": [{"hours": "9-12", "wants": {"a": 1}}], "weekend": [{"hours": "18", "wants": {"b": 1}}]}
      """#
    let person = try read(scenarioText(days: 7, persona: persona)).person(0, replicate: 0, seed: 2)
    for v in 0..<person.visitCount {
      let t = person.visitTimes[v]
      let weekend = WallClock.weekday(t) >= 5
      let hour = WallClock.hourOfDay(t)
      let expected: Int32 = weekend ? (hour == 18 ? 1 : -1) : (hour >= 9 && hour < 12 ? 0 : -1)
      #expect(person.wantApp[v] == expected, "visit at \(Instant(milliseconds: t))")
    }
  }

  @Test func driftReplacesTheRoutineFromItsDay() throws {
    let persona = #"""
      "name": "p", "wantProbability": 1,
      "routine": {"weekday": [{"hours": "0-24", "wants": {"a": 1}}]},
      "drift": [{"fromDay": 3, "routine": {"weekday": [{"hours": "0-24", "wants": {"b": 1}}]}}]
      """#
    let s = try read(scenarioText(days: 6, timezone: "America/New_York", persona: persona))
    let zone = s.zone
    let person = s.person(0, replicate: 0, seed: 4)
    #expect(person.visitCount > 400)
    for v in 0..<person.visitCount {
      let localDay = zone.dayIndex(at: Instant(milliseconds: person.visitTimes[v])) - s.startDay
      #expect(person.wantApp[v] == (localDay < 3 ? 0 : 1), "visit on local day \(localDay)")
    }
  }

  @Test func relevantEventsCauseWantsWhileInProgress() throws {
    // A window of score 1 from 10:00 to 12:00 on the first day; wants only from it.
    let apps = #"""
      {"id": "a", "kind": "A", "timeline": {"type": "entries", "wantProbability": 1, "entries": [
        {"date": "2026-01-05T10:00", "relevance": {"score": 1, "duration": 7200}},
        {"date": "2026-01-05T13:00", "relevance": {"score": 0}}]}},
      {"id": "b", "kind": "B"}
      """#
    let s = try read(
      scenarioText(days: 2, persona: #""name": "p", "wantProbability": 0"#, apps: apps))
    let person = s.person(0, replicate: 0, seed: 5)
    let start = ms("2026-01-05T10:00:00Z")
    let end = ms("2026-01-05T12:00:00Z")
    #expect(person.events == [RelevantEvent(app: 0, start: start, end: end, wantProbability: 1)])
    var inside = 0
    for v in 0..<person.visitCount {
      let t = person.visitTimes[v]
      if t >= start && t < end {
        inside += 1
        #expect(person.wantApp[v] == 0 && person.wantSource[v] == .event)
      } else {
        #expect(person.wantApp[v] == -1 && person.wantSource[v] == .none)
      }
    }
    #expect(inside > 5)
  }

  @Test func overlappingEventsShareTheUnitIntervalInStartOrder() {
    let visits = (0..<20_000).map { Int64($0) * 1_000 }
    let events = [
      RelevantEvent(app: 0, start: 0, end: 30_000_000, wantProbability: 0.5),
      RelevantEvent(app: 1, start: 0, end: 10_000_000, wantProbability: 0.7),
    ]
    let persona = Persona(name: "p", wantProbability: Array(repeating: 0, count: 24))
    var random = Xoshiro256StarStar(seed: 9)
    let (apps, sources) = WantGenerator.generate(
      visits: visits, routines: WantGenerator.Routines(persona: persona, appCount: 2),
      wantProbability: persona.wantProbability, events: events, zone: .utc, startDay: 0,
      using: &random)
    // Both events cover the first 10 000 visits: app 0 owns [0, 0.5), app 1 [0.5, 1).
    let first = apps[0..<10_000]
    let zeroShare = Double(first.filter { $0 == 0 }.count) / 10_000
    #expect(abs(zeroShare - 0.5) < 0.03, "share \(zeroShare)")
    #expect(first.allSatisfy { $0 >= 0 })
    // Then only app 0's event, with probability 0.5.
    let rest = apps[10_000...]
    #expect(rest.allSatisfy { $0 == 0 || $0 == -1 })
    let restShare = Double(rest.filter { $0 == 0 }.count) / 10_000
    #expect(abs(restShare - 0.5) < 0.03, "share \(restShare)")
    #expect(sources.allSatisfy { $0 != .routine })
  }

  @Test func choicesAreDrawnForEveryVisit() throws {
    let persona = #""name": "p", "tap": 0.25, "open": 0.5, "swipe": 0.75"#
    let person = try read(scenarioText(days: 5, persona: persona)).person(0, replicate: 0, seed: 6)
    let n = person.visitCount
    #expect(person.tapDraw.count == n && person.openDraw.count == n && person.swipeDraw.count == n)
    for draws in [person.tapDraw, person.openDraw, person.swipeDraw] {
      #expect(draws.allSatisfy { $0 >= 0 && $0 < 1 })
      let mean = draws.reduce(0, +) / Double(n)
      #expect(abs(mean - 0.5) < 0.05, "mean \(mean)")
    }
    #expect(
      (person.tapProbability, person.openProbability, person.swipeProbability) == (0.25, 0.5, 0.75))
    for v in 0..<n {
      #expect(person.wouldTap(visit: v) == (person.tapDraw[v] < 0.25))
      #expect(person.wouldOpen(visit: v) == (person.openDraw[v] < 0.5))
      #expect(person.wouldSwipe(visit: v) == (person.swipeDraw[v] < 0.75))
    }
  }

  @Test func wantedInstancesAreTheAppsMatches() throws {
    let persona = #"""
      "name": "p", "wantProbability": 1,
      "routine": {"weekday": [{"hours": "0-24", "wants": {"a": 1, "b": 1, "c": 1}}]}
      """#
    let person = try read(scenarioText(persona: persona, apps: threeApps)).person(
      0, replicate: 0, seed: 1)
    for v in 0..<person.visitCount {
      switch person.wantApp[v] {
      case 0: #expect(Array(person.wantedInstances(visit: v)) == [0])
      case 1: #expect(Array(person.wantedInstances(visit: v)) == [1])
      default: #expect(person.wantedInstances(visit: v).isEmpty)  // c has no widget
      }
    }
    #expect(person.instances(matchingApp: -1).isEmpty)
  }
}
