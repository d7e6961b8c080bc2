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

@Suite("Visit process")
struct VisitProcessTests: ScenarioTesting {
  /// A rhythm with weight only in the given hours.
  func rhythm(_ weights: [Int: Double]) -> String {
    (0..<24).map { weights[$0].map { "\($0)" } ?? "0" }.joined(separator: ", ")
  }

  @Test func visitsAverageVisitsPerDay() throws {
    let s = try read(scenarioText(days: 30))
    var total = 0
    for seed in UInt64(1)...10 {
      let visits = s.person(0, replicate: 0, seed: seed).visitCount
      let perDay = Double(visits) / 30
      #expect(abs(perDay - 90) < 90 * 0.08, "seed \(seed): \(perDay) visits a day")
      total += visits
    }
    let mean = Double(total) / 300
    #expect(abs(mean - 90) < 90 * 0.02, "mean \(mean) visits a day over 10 seeds")
    #expect(abs(VisitProcess(persona: s.personas[0]).expectedPerDay - 90) < 1e-9)
  }

  @Test func noVisitFallsWhileThePersonSleeps() throws {
    let berlin = try #require(ZoneRules(identifier: "Europe/Berlin"))
    for (from, to) in [("23:00", "07:00"), ("01:30", "09:15")] {
      let text = scenarioText(
        days: 9, timezone: "Europe/Berlin", start: "2026-03-25",
        persona: #""name": "p", "sleep": {"from": "\#(from)", "to": "\#(to)"}"#)
      let s = try read(text)
      let sleep = s.personas[0].sleep
      for seed in UInt64(1)...5 {
        let person = s.person(0, replicate: 0, seed: seed)
        #expect(person.visitCount > 600, "seed \(seed)")
        let asleep = person.visitTimes.filter {
          sleep.isAsleep(localMilliseconds: berlin.localMilliseconds(at: Instant(milliseconds: $0)))
        }
        #expect(
          asleep.isEmpty, "sleep \(from)-\(to), seed \(seed): \(asleep.count) visits while asleep")
        #expect(zip(person.visitTimes, person.visitTimes.dropFirst()).allSatisfy { $0 < $1 })
        #expect(person.visitTimes.allSatisfy { $0 >= person.start && $0 < person.end })
      }
    }
  }

  @Test func theSpringForwardDayKeepsLocalHours() throws {
    // Visits only in local hour 7, no sleep; Berlin moves from UTC+1 to UTC+2 on 2026-03-29.
    let text = scenarioText(
      days: 3, timezone: "Europe/Berlin", start: "2026-03-28",
      persona:
        #""name": "p", "sleep": {"from": "00:00", "to": "00:00"}, "rhythm": [\#(rhythm([7: 1]))]"#)
    let s = try read(text)
    for seed in UInt64(1)...5 {
      let person = s.person(0, replicate: 0, seed: seed)
      var perDay = [Int64: Int]()
      for t in person.visitTimes {
        let utc = ISO8601.format(Instant(milliseconds: t))
        let date = String(utc.prefix(10))
        let hour = String(utc.dropFirst(11).prefix(2))
        // 07h local is 06h UTC on the 28th (CET) and 05h UTC from the 29th (CEST).
        #expect(hour == (date == "2026-03-28" ? "06" : "05"), "seed \(seed): visit at \(utc)")
        perDay[WallClock.dayIndex(t), default: 0] += 1
      }
      #expect(perDay.count == 3, "seed \(seed)")
      #expect(perDay.values.allSatisfy { $0 > 50 && $0 < 135 }, "seed \(seed): \(perDay)")
    }
  }

  @Test func theFallBackHourHappensTwice() throws {
    // Visits only in local hour 2; on 2026-10-25 Berlin's 02h runs from 00:00Z to 02:00Z.
    let text = scenarioText(
      days: 1, timezone: "Europe/Berlin", start: "2026-10-25",
      persona:
        #""name": "p", "sleep": {"from": "00:00", "to": "00:00"}, "rhythm": [\#(rhythm([2: 1]))]"#)
    let s = try read(text)
    var total = 0
    for seed in UInt64(1)...10 {
      let person = s.person(0, replicate: 0, seed: seed)
      let first = ms("2026-10-25T00:00:00Z")
      let second = ms("2026-10-25T01:00:00Z")
      let end = ms("2026-10-25T02:00:00Z")
      #expect(person.visitTimes.allSatisfy { $0 >= first && $0 < end }, "seed \(seed)")
      #expect(
        person.visitTimes.contains { $0 < second } && person.visitTimes.contains { $0 >= second })
      total += person.visitCount
    }
    // Twice the hour, twice the visits: about 180 a day.
    #expect(abs(Double(total) / 10 - 180) < 20, "mean \(Double(total) / 10)")
  }

  @Test func theRhythmShapesVisitsAcrossHours() throws {
    let text = scenarioText(
      days: 20,
      persona:
        #""name": "p", "sleep": {"from": "00:00", "to": "00:00"}, "rhythm": [\#(rhythm([8: 1, 20: 3]))]"#
    )
    let person = try read(text).person(0, replicate: 0, seed: 3)
    let eight = person.visitTimes.filter { WallClock.hourOfDay($0) == 8 }.count
    let twenty = person.visitTimes.filter { WallClock.hourOfDay($0) == 20 }.count
    #expect(eight + twenty == person.visitCount)
    let ratio = Double(twenty) / Double(eight)
    #expect(ratio > 2.5 && ratio < 3.6, "ratio \(ratio)")
  }

  @Test func noVisitsPerDayGivesNoVisits() throws {
    let person = try read(scenarioText(persona: #""name": "p", "visitsPerDay": 0"#))
      .person(0, replicate: 0, seed: 1)
    #expect(person.visitCount == 0)
    #expect(person.wantApp.isEmpty && person.tapDraw.isEmpty)
  }
}
