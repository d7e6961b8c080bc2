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

/// Scores candidates with draws from its own seeded stream, with many ties and the
/// special values (NaN, ±0, ±infinity) the engine's order must handle.
private struct AwkwardScores: RankingStrategy {
  static let info = StrategyInfo(name: "awkward-scores", summary: "test strategy: tied and special scores")
  var rng = SplitMix64(seed: 0)
  init(parameters: StrategyParameters) {}
  mutating func begin(_ setup: StrategySetup) { rng = SplitMix64(seed: setup.seed) }
  mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let specials: [Double] = [.nan, -0.0, 0.0, .infinity, -.infinity, 1, 1, 2, -1]
    for i in 0..<context.instanceCount where context.isCandidate(i) {
      ranking.scores[i] = specials[rng.nextInt(below: specials.count)]
    }
  }
}

/// The engine's private state (`EngineSlots`: tie-break ranks, relevance slots) against
/// definitions computed from scratch.
@Suite("Engine state")
struct EngineStateTests {
  let instances = (0..<6).map { WidgetInstance(id: "i\($0)", kind: ["B", "A", "C", "A", "B", "D"][$0]) }

  fileprivate func events(seed: UInt64, count: Int) -> [EngineTestEvent] {
    EngineTestEvent.stream(seed: seed, count: count)
  }

  fileprivate func session(_ seed: UInt64) -> StackSession<DynamicPath<AwkwardScores>, EngineTranscript> {
    var options = EngineOptions()
    options.relevanceThreshold = 0.5
    var s = StackSession(
      person: 0, instances: instances, strategy: AwkwardScores(parameters: .none), observer: EngineTranscript(),
      zone: .utc, options: options, strategySeed: seed)
    for i in 0..<instances.count where i % 3 != 2 { s.makeAvailable(i) }
    return s
  }

  /// After any donations, ordering instances by the kept tie rank is ordering them by
  /// `tieBreakPrecedes` (more recent last donation, more donations, kind, index).
  @Test func theTieRankIsTheTieBreakOrderAfterAnyDonations() {
    for seed in 0..<200 {
      var s = session(UInt64(seed))
      events(seed: UInt64(seed), count: 120).apply(to: &s)
      let features = s.context.features
      let byRank = (0..<instances.count).sorted { s.slots.view.tieRank[$0] < s.slots.view.tieRank[$1] }
      let byRule = (0..<instances.count).sorted { features.tieBreakPrecedes($0, $1) }
      #expect(byRank == byRule, "seed \(seed)")
      for k in 0..<instances.count { #expect(Int(s.slots.view.tieOrder[k]) == byRank[k], "seed \(seed)") }
    }
  }

  /// Each visit's top and target rank equal what sorting the candidates by the engine's
  /// order (`StackFeatures.precedes`: score with NaN as minus infinity, then tie-break)
  /// and then applying the stack rules as the README defines them gives, with ties, NaN,
  /// ±0 and infinite scores.
  @Test func theDecisionEqualsSortingTheCandidatesThenTheStackRules() {
    for seed in 0..<200 {
      var s = session(UInt64(seed))
      events(seed: UInt64(seed) &+ 1000, count: 150).forEachVisit(on: &s) { visit, s in
        let (t, targets, policy, previous, outcome) = (visit.time, visit.targets, visit.policy, visit.previous, visit.outcome)
        let f = s.context.features
        let scores = s.ranking.scores
        let order = (0..<instances.count).filter { f.available[$0] }.sorted { f.precedes($0, $1, scores: scores) }
        // The stack rules (README, "Semantics"): a pin, no rotation, then suppression.
        var shown = order.first ?? -1
        switch policy {
        case .forced(let p) where f.available[Int(p)]: shown = Int(p)
        case .noRotation where previous >= 0 && f.available[previous]: shown = previous
        default:
          if previous >= 0 && shown >= 0 && shown != previous && f.relevanceKind[shown] == .suppressed {
            shown = order.first { $0 == previous || f.relevanceKind[$0] != .suppressed } ?? shown
          }
        }
        let presented = shown < 0 ? [] : [shown] + order.filter { $0 != shown }
        #expect(Int(outcome.shown) == shown, "seed \(seed) at \(t)")
        let rank = presented.firstIndex { targets.contains(Int32($0)) }.map { $0 + 1 } ?? 0
        #expect(outcome.targetRank == rank, "seed \(seed) at \(t)")
        #expect(outcome.candidateCount == order.count, "seed \(seed) at \(t)")
      }
    }
  }

  /// A session copied mid-run (value semantics through the hand-made copy-on-write of its
  /// slots) goes on exactly like a session that ran the whole sequence alone, and the
  /// original is not disturbed by the copy's events.
  @Test func aCopiedSessionAndItsOriginalRunOnIndependently() {
    for seed in 0..<100 {
      let all = events(seed: UInt64(seed), count: 200)
      let other = events(seed: UInt64(seed) &+ 5000, count: 80)
      var original = session(UInt64(seed))
      all[..<100].apply(to: &original)
      var copy = original
      other[...].apply(to: &copy)  // the copy diverges first
      all[100...].apply(to: &original)
      original.finish(at: 0)

      var alone = session(UInt64(seed))
      all[...].apply(to: &alone)
      alone.finish(at: 0)
      #expect(original.finishedObserver() == alone.finishedObserver(), "seed \(seed)")

      var copyAlone = session(UInt64(seed))
      all[..<100].apply(to: &copyAlone)
      other[...].apply(to: &copyAlone)
      copy.finish(at: 0)
      copyAlone.finish(at: 0)
      #expect(copy.finishedObserver() == copyAlone.finishedObserver(), "seed \(seed)")
    }
  }
}
