import SmartStackTesting
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

/// Records, per visit, what was shown and which instances were candidates, and reads the
/// targets (so drivers must build them).
private struct ExposureRecorder: OutcomeObserver {
  var shown: [Int32] = []
  var candidates: [[Bool]] = []
  var targetsSeen = 0
  mutating func observe(
    _ o: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    shown.append(o.shown)
    candidates.append(features.available)
    targetsSeen += targets().count
  }
}

@Suite("Standard metrics")
struct StandardMetricsTests {
  let instances = (0..<6).map { WidgetInstance(id: "i\($0)", kind: ["B", "A", "C", "A", "B", "D"][$0]) }

  /// The exposure Gini (kept as runs of the same shown instance) equals the Gini of
  /// visits shown per instance that was a candidate at some visit, counted visit by visit.
  @Test func theExposureGiniCountsEveryVisitOfEveryShownInstance() throws {
    for seed in 0..<60 {
      let parameters = try StrategyParameters(specs: [], given: [], strategy: "random")
      var session = StackSession(
        person: 0, instances: instances, strategy: RandomStrategy(parameters: parameters),
        observer: ObserverPair(StandardMetrics(), ExposureRecorder()), zone: .utc, options: EngineOptions(),
        strategySeed: UInt64(seed))
      for i in 0..<instances.count where i % 2 == 0 { session.makeAvailable(i) }
      EngineTestEvent.stream(seed: UInt64(seed), count: 200).apply(to: &session)
      session.finish(at: 0)
      let observers = session.finishedObserver()
      let recorder = observers.second
      var counts = Array(repeating: 0, count: instances.count)
      var ever = Array(repeating: false, count: instances.count)
      for (v, shown) in recorder.shown.enumerated() {
        if shown >= 0 { counts[Int(shown)] += 1 }
        for i in 0..<instances.count where recorder.candidates[v][i] { ever[i] = true }
      }
      let expected = Gini.coefficient((0..<instances.count).filter { ever[$0] }.map { counts[$0] })
      #expect(observers.first.exposureGini.map(\.bitPattern) == [expected.bitPattern], "seed \(seed)")
    }
  }

  /// Replay gives an observer that does not read targets the same counts as one beside an
  /// observer that does, and gives the targets to the one that does.
  @Test func replayCountsTheSameWithAndWithoutTargetsInTheOutcome() throws {
    let workload = BenchWorkload(people: 3, days: 3)
    for p in 0..<workload.people {
      let person = workload.person(p)
      let strategy = try MostFrequentlyUsedStrategy(parameters: StrategyParameters(specs: [], given: [], strategy: "mfu"))
      var plain = StackSession(
        person: 0, instances: person.instances, strategy: strategy, observer: StandardMetrics(), zone: .utc,
        options: EngineOptions(), strategySeed: 1)
      Replay.run(person, horizon: workload.horizonMilliseconds, session: &plain)
      var paired = StackSession(
        person: 0, instances: person.instances, strategy: strategy,
        observer: ObserverPair(StandardMetrics(), ExposureRecorder()), zone: .utc, options: EngineOptions(),
        strategySeed: 1)
      Replay.run(person, horizon: workload.horizonMilliseconds, session: &paired)
      let a = plain.finishedObserver()
      let b = paired.finishedObserver()
      #expect(a.perPerson == b.first.perPerson)
      #expect(a.exposureGini.map(\.bitPattern) == b.first.exposureGini.map(\.bitPattern))
      #expect(a.timesToSurface == b.first.timesToSurface)
      #expect(a.perPerson[0].targetsInStack > 0)
      #expect(b.second.targetsSeen > 0)
    }
  }
}
