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

@Suite("Paired design: common random numbers")
struct PairedDesignTests: ScenarioTesting {
  /// Every generated array of a person as 64-bit words (doubles by bit pattern), so
  /// two people compare byte for byte.
  func words(_ p: SimulatedPerson) -> [[UInt64]] {
    func bits(_ values: [Double]) -> [UInt64] { values.map(\.bitPattern) }
    let entryWords = p.entries.flatMap { e -> [UInt64] in
      [
        UInt64(bitPattern: e.date.milliseconds), e.relevance?.score.bitPattern ?? .max,
        UInt64(bitPattern: e.relevance?.durationMilliseconds ?? -1),
      ]
    }
    let counts = p.reloadCounts.flatMap {
      [
        $0.requested, $0.granted, $0.free, $0.refused, $0.coalesced, $0.delayed, $0.pending,
        $0.entriesDelivered, $0.entriesDropped,
      ].map { UInt64($0) }
    }
    return [
      p.visitTimes.map { UInt64(bitPattern: $0) }, p.wantApp.map { UInt64(UInt32(bitPattern: $0)) },
      p.wantSource.map { UInt64($0.rawValue) }, bits(p.tapDraw), bits(p.openDraw),
      bits(p.swipeDraw),
      p.entryInstance.map { UInt64(UInt32(bitPattern: $0)) }, entryWords,
      p.suggestionWindows.flatMap { [UInt64($0.instance), UInt64($0.start), UInt64($0.end)] },
      counts,
      p.events.flatMap {
        [UInt64($0.app), UInt64($0.start), UInt64($0.end), $0.wantProbability.bitPattern]
      },
    ]
  }

  @Test func theSameSeedReplicateAndPersonGiveTheSamePerson() throws {
    for fixture in [ScenarioFixtures.commuter, ScenarioFixtures.sportsFan] {
      let a = try read(fixture)
      let b = try read(fixture)
      for p in 0..<a.personCount {
        for replicate in [0, 3] {
          let first = a.person(p, replicate: replicate, seed: 42)
          let second = b.person(p, replicate: replicate, seed: 42)
          #expect(words(first) == words(second), "person \(p), replicate \(replicate)")
          #expect(first == second)
          #expect(first.visitCount > 0 && !first.entries.isEmpty)
        }
      }
    }
  }

  @Test func replicatesPeopleAndSeedsDrawDifferentNumbers() throws {
    let s = try read(ScenarioFixtures.commuter)
    let base = s.person(0, replicate: 0, seed: 1)
    for other in [
      s.person(0, replicate: 1, seed: 1), s.person(1, replicate: 0, seed: 1),
      s.person(0, replicate: 0, seed: 2),
    ] {
      #expect(other.visitTimes != base.visitTimes)
      #expect(other.tapDraw != base.tapDraw)
      #expect(other.wantApp != base.wantApp)
    }
    // The scenario's own seed is only a default; the caller's seed decides.
    #expect(s.person(0, replicate: 0, seed: 7) == s.person(0, replicate: 0, seed: s.seed))
  }

  @Test func streamSeedsFollowTheDocumentedDerivation() {
    #expect(
      Scenario.streamSeed(9, replicate: 2, person: 5, .visits) == StreamSeed.derive(9, 2, 5, 1))
    #expect(
      Scenario.streamSeed(9, replicate: 2, person: 5, .choices) == StreamSeed.derive(9, 2, 5, 3))
    #expect(
      Scenario.streamSeed(9, replicate: 2, person: 5, .timeline, id: "weather")
        == StreamSeed.derive(9, 2, 5, 4, StreamSeed.stableHash("weather")))
    #expect(
      Scenario.streamSeed(9, replicate: 2, person: 5, .context) == StreamSeed.derive(9, 2, 5, 6))
    #expect(WorldStream.allCases.map(\.rawValue) == [1, 2, 3, 4, 5, 6])
  }

  @Test func aShorterRunIsAPrefixOfALongerOne() throws {
    for fixture in [ScenarioFixtures.commuter, ScenarioFixtures.sportsFan] {
      let s = try read(fixture)
      for p in 0..<s.personCount {
        let short = s.person(p, replicate: 1, seed: 5, days: 3)
        let long = s.person(p, replicate: 1, seed: 5, days: 6)
        let end = short.end
        #expect(end == s.endInstant(days: 3).milliseconds && long.end > end)
        let n = short.visitCount
        #expect(Array(long.visitTimes.prefix(n)) == short.visitTimes)
        #expect(long.visitTimes.count > n && long.visitTimes[n] >= end)
        #expect(Array(long.wantApp.prefix(n)) == short.wantApp)
        #expect(Array(long.wantSource.prefix(n)) == short.wantSource)
        #expect(Array(long.tapDraw.prefix(n)) == short.tapDraw)
        #expect(Array(long.swipeDraw.prefix(n)) == short.swipeDraw)
        let longEntries = zip(long.entryInstance, long.entries).filter {
          $0.1.date.milliseconds < end
        }
        #expect(longEntries.map(\.0) == short.entryInstance, "\(s.name) person \(p)")
        #expect(longEntries.map(\.1) == short.entries, "\(s.name) person \(p)")
        #expect(
          long.events.filter { $0.start < end } == short.events.filter { $0.start < end },
          "\(s.name) person \(p)")
        let clipped = long.suggestionWindows.filter { $0.start < end }.map {
          SuggestionWindow(instance: $0.instance, start: $0.start, end: min($0.end, end))
        }
        #expect(clipped == short.suggestionWindows)
      }
    }
  }

  @Test func changingOneComponentLeavesTheOtherStreamsAlone() throws {
    let s = try read(ScenarioFixtures.commuter)
    let stormy = try read(
      ScenarioFixtures.commuter.replacingOccurrences(
        of: #""alertsPerDay": 0.5"#, with: #""alertsPerDay": 4"#))
    // An extra app at the end, which nobody wants and no widget shows.
    var text = ScenarioFixtures.commuter
    let lastApp = try #require(
      text.range(of: #"{"id": "news", "kind": "News"}"#, options: .backwards))
    text.replaceSubrange(lastApp, with: #"{"id": "news", "kind": "News"}, {"id": "radio"}"#)
    let extra = try read(text)
    for p in 0..<s.personCount {
      let base = s.person(p, replicate: 0, seed: 3)
      let changed = stormy.person(p, replicate: 0, seed: 3)
      #expect(changed.visitTimes == base.visitTimes)
      #expect(changed.tapDraw == base.tapDraw && changed.openDraw == base.openDraw)
      #expect(changed.events.count > base.events.count)
      // Wants differ only at visits where some event is in progress in either world.
      for v in 0..<base.visitCount {
        let t = base.visitTimes[v]
        if !(base.events + changed.events).contains(where: { $0.contains(t) }) {
          #expect(changed.wantApp[v] == base.wantApp[v], "person \(p) visit \(v)")
        }
      }
      let more = extra.person(p, replicate: 0, seed: 3)
      #expect(more.visitTimes == base.visitTimes && more.wantApp == base.wantApp)
      #expect(more.entries == base.entries && more.reloadCounts == base.reloadCounts)
    }
  }

  @Test func aPersonOutOfRangeHasNothing() throws {
    let s = try read(ScenarioFixtures.commuter)
    let nobody = s.person(3, replicate: 0, seed: 1)
    #expect(nobody.visitCount == 0 && nobody.entries.isEmpty && nobody.persona == -1)
    #expect(s.person(-1, replicate: 0, seed: 1).visitCount == 0)
  }
}
