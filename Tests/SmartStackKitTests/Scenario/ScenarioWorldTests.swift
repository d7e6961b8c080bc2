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

@Suite("Scenario worlds")
struct ScenarioWorldTests: ScenarioTesting {
  @Test func theCommutersCalendarReachesTheStackOnTime() throws {
    let s = try read(ScenarioFixtures.commuter)
    // Berlin is UTC+1 until 2026-03-29: 09:30 local with a 15-minute lead is 08:15Z.
    var expected: [RelevanceEntry] = []
    func add(_ date: String, minutes: Int64) {
      expected.append(
        RelevanceEntry(
          date: Instant(milliseconds: ms(date)),
          relevance: Relevance(score: 1, durationMilliseconds: minutes * 60_000)))
    }
    for day in ["02", "03", "04", "05", "06", "09", "10", "11", "12", "13"] {
      add("2026-03-\(day)T08:15:00Z", minutes: 45)
      // Wednesdays at 14:00, and the one-off at 16:00 on Thursday the 5th.
      if day == "04" || day == "11" { add("2026-03-\(day)T12:45:00Z", minutes: 75) }
      if day == "05" { add("2026-03-05T14:45:00Z", minutes: 105) }
    }
    for p in 0..<s.personCount {
      let person = s.person(p, replicate: 0, seed: 11)
      let calendar = zip(person.entryInstance, person.entries).filter { $0.0 == 2 }.map(\.1)
      #expect(calendar == expected, "person \(p)")
      #expect(person.reloadCounts[2].entriesDropped == 0)
      // Only the weather and calendar widgets have timelines.
      #expect(Set(person.entryInstance) == [1, 2])
      #expect(person.reloadCounts[0] == ReloadCounts() && person.reloadCounts[3] == ReloadCounts())
      let total = person.reloads
      #expect(total.requested == total.granted + total.refused + total.coalesced + total.pending)
      #expect(zip(person.entries, person.entries.dropFirst()).allSatisfy { $0.date <= $1.date })
    }
  }

  @Test func weatherAlertsArriveWithinTheirHalfHourReloads() throws {
    let s = try read(ScenarioFixtures.commuter)
    for p in 0..<s.personCount {
      let person = s.person(p, replicate: 2, seed: 4)
      let alerts = person.events.filter { $0.app == 1 }
      let delivered = zip(person.entryInstance, person.entries).filter { $0.0 == 1 }.map(\.1)
      // App-driven reloads deliver each alert at once unless 5-minute spacing delays it.
      #expect(delivered.count == alerts.count, "person \(p)")
      for (alert, entry) in zip(alerts, delivered) {
        let delay = entry.date.milliseconds - alert.start
        #expect(delay >= 0 && delay <= 5 * 60_000, "person \(p): delay \(delay) ms")
        #expect(entry.date.milliseconds + (entry.relevance?.durationMilliseconds ?? 0) == alert.end)
      }
    }
  }

  @Test func theSportsFanWantsScoresDuringGames() throws {
    let s = try read(ScenarioFixtures.sportsFan)
    var inGame = (visits: 0, scores: 0)
    var outside = (visits: 0, scores: 0)
    for p in 0..<s.personCount {
      let person = s.person(p, replicate: 0, seed: 21)
      // Three games in the week: Saturday 15:00 EST, Tuesday and Thursday 19:30 EDT,
      // each relevant from 30 minutes before kick-off for 180 minutes.
      let windows = zip(person.entryInstance, person.entries).filter {
        $0.0 == 0 && $0.1.relevance != nil
      }.map(\.1)
      #expect(
        windows.map(\.date.milliseconds) == [
          ms("2026-03-07T19:30:00Z"), ms("2026-03-10T23:00:00Z"), ms("2026-03-12T23:00:00Z"),
        ])
      #expect(
        windows.allSatisfy {
          $0.relevance == Relevance(score: 1, durationMilliseconds: 180 * 60_000)
        })
      // Nil-relevance score updates every 10 minutes from kick-off, all inside the games.
      let updates = zip(person.entryInstance, person.entries).filter {
        $0.0 == 0 && $0.1.relevance == nil
      }
      #expect(updates.count == 3 * 14)
      let games = person.events.filter { $0.app == 0 }
      #expect(games.count == 3)
      #expect(updates.allSatisfy { u in games.contains { $0.contains(u.1.date.milliseconds) } })
      for v in 0..<person.visitCount {
        let playing = games.contains { $0.contains(person.visitTimes[v]) }
        let wantsScores = person.wantApp[v] == 0
        if playing {
          inGame.visits += 1
          if wantsScores { inGame.scores += 1 }
        } else {
          outside.visits += 1
          if wantsScores { outside.scores += 1 }
        }
      }
    }
    let during = Double(inGame.scores) / Double(inGame.visits)
    let otherwise = Double(outside.scores) / Double(outside.visits)
    #expect(during > 0.65, "share of visits wanting scores during games: \(during)")
    #expect(otherwise < 0.15, "share of visits wanting scores otherwise: \(otherwise)")
  }

  @Test func purchasesWithPolicyNeverReachTheStackThroughAppReloads() throws {
    let s = try read(ScenarioFixtures.sportsFan)
    let person = s.person(1, replicate: 0, seed: 2)
    let purchases = person.events.filter { $0.app == 1 }
    let delivered = zip(person.entryInstance, person.entries).filter { $0.0 == 1 }.map(\.1)
    #expect(!purchases.isEmpty)
    #expect(
      delivered.allSatisfy {
        $0.relevance?.durationMilliseconds == 0 && ($0.relevance?.score ?? 0) > 0
      })
    let counts = person.reloadCounts[1]
    // One first reload plus one request per purchase; none refused at 3 a day.
    #expect(counts.requested == 1 + purchases.count)
    #expect(counts.refused == 0)
    #expect(counts.entriesDelivered + counts.entriesDropped == purchases.count)
  }
}
