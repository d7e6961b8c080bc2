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

/// Records the scores of every visit.
struct BanditScoreLog: OutcomeObserver {
  var scores: [[Double]] = []
  mutating func observe(
    _ outcome: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    self.scores.append(scores)
  }
}

@Suite("Bandit strategy")
struct BanditStrategyTests {
  let start = ms("2026-03-02T08:00:00Z")  // a Monday, 08h UTC

  func session(_ spec: String, instances: Int = 3, available: [Int] = [0, 1, 2], seed: UInt64 = 42)
    throws -> StackSession<DynamicPath<BanditStrategy>, BanditScoreLog>
  {
    let choice = try StrategyRegistry.builtIn.parse(spec)
    var s = StackSession(
      person: 0, instances: (0..<instances).map { WidgetInstance(id: "w\($0)", kind: "K\($0)") },
      strategy: choice.prototype as! BanditStrategy, observer: BanditScoreLog(), zone: .utc,
      options: EngineOptions(), strategySeed: seed)
    for i in available { s.makeAvailable(i) }
    return s
  }

  func feedback(_ shown: Int32, tapped: Bool, minutes: Int64, hour: Int = 8) -> VisitFeedback {
    VisitFeedback(
      visitTime: start + minutes * 60_000, hourOfDay: hour, hourOfWeek: hour, shown: shown, tapped: tapped)
  }

  /// The definition, draw for draw: one Beta(prior-alpha + taps, prior-beta + misses)
  /// per candidate, in instance order, from xoshiro256** seeded with the strategy seed;
  /// a non-candidate gets no draw. Outcomes change the next visit's shapes.
  @Test func scoresAreBetaDrawsInInstanceOrderFromTheStrategysOwnStream() throws {
    var s = try session("bandit:buckets=1:prior-alpha=1:prior-beta=2", available: [0, 2])
    s.visit(at: start, hasTarget: false, targets: [])
    s.reveal(feedback(0, tapped: true, minutes: 0), at: start + 60_000)
    s.reveal(feedback(2, tapped: false, minutes: 0), at: start + 60_000)
    s.reveal(feedback(2, tapped: false, minutes: 0), at: start + 60_000)
    s.visit(at: start + 120_000, hasTarget: false, targets: [])

    let normal = ZigguratNormal()
    var g = Xoshiro256StarStar(seed: 42)
    let first = [
      normal.beta(GammaShape(1), GammaShape(2), using: &g), -.infinity,
      normal.beta(GammaShape(1), GammaShape(2), using: &g),
    ]
    let second = [
      normal.beta(GammaShape(2), GammaShape(2), using: &g), -.infinity,
      normal.beta(GammaShape(1), GammaShape(4), using: &g),
    ]
    #expect(s.observer.scores == [first, second])
  }

  /// Counts are kept per (instance, bucket) and the shapes follow them.
  @Test func outcomesUpdateOnlyTheirInstanceAndHourBucket() throws {
    var s = try session("bandit:buckets=2:prior-alpha=0.5:prior-beta=3")
    s.reveal(feedback(1, tapped: true, minutes: 0, hour: 8), at: start)
    s.reveal(feedback(1, tapped: true, minutes: 0, hour: 11), at: start)
    s.reveal(feedback(1, tapped: false, minutes: 0, hour: 12), at: start)
    let arms = s.strategy.arms
    #expect(arms.count == 6)
    let morning = arms[1 * 2 + 0]
    let evening = arms[1 * 2 + 1]
    #expect(morning.taps == 2 && morning.misses == 0)
    #expect(morning.success == GammaShape(2.5) && morning.failure == GammaShape(3))
    #expect(evening.taps == 0 && evening.misses == 1)
    #expect(evening.success == GammaShape(0.5) && evening.failure == GammaShape(4))
    for k in [0, 1, 4, 5] {
      #expect(arms[k].taps == 0 && arms[k].misses == 0 && arms[k].success == GammaShape(0.5), "arm \(k)")
    }
  }

  /// Shapes come from the strategy's tables for small counts and are computed beyond
  /// them; both give the bits of `GammaShape(prior + count)`.
  @Test func shapesFollowTheCountsInsideAndBeyondTheTables() throws {
    var s = try session("bandit:buckets=1:prior-alpha=0.5:prior-beta=2.5")
    let limit = BanditStrategy.shapeTableCount + 10
    for n in 1...limit {
      s.reveal(feedback(0, tapped: true, minutes: 0), at: start)
      s.reveal(feedback(1, tapped: false, minutes: 0), at: start)
      if n % 97 == 0 || n >= limit - 20 {
        #expect(s.strategy.arms[0].success == GammaShape(0.5 + Double(n)), "taps \(n)")
        #expect(s.strategy.arms[1].failure == GammaShape(2.5 + Double(n)), "misses \(n)")
      }
    }
    #expect(s.strategy.arms[0].taps == limit && s.strategy.arms[1].misses == limit)
    #expect(s.strategy.arms[0].failure == GammaShape(2.5) && s.strategy.arms[1].success == GammaShape(0.5))
  }

  /// Tiny priors take the log-domain path: every score is in [0, 1], never NaN, over
  /// many seeds and hundreds of visits with outcomes.
  @Test func tinyPriorsNeverGiveNaN() throws {
    for seed: UInt64 in 0..<10 {
      var s = try session("bandit:buckets=1:prior-alpha=0.001:prior-beta=0.001", seed: seed)
      for k in 0..<200 {
        let at = start + Int64(k) * 60_000
        let o = s.visit(at: at, hasTarget: false, targets: [])
        s.reveal(feedback(o.shown, tapped: k % 3 == 0, minutes: Int64(k)), at: at + 1)
      }
      let scores = s.observer.scores.joined()
      #expect(scores.count == 600)
      #expect(scores.allSatisfy { $0 >= 0 && $0 <= 1 }, "seed \(seed)")
    }
  }

  /// Copies of a strategy share the ziggurat tables (copy-on-write arrays), so the engine's
  /// copy per person costs no table rebuild.
  @Test func copiesShareTheZigguratTables() throws {
    let prototype = try StrategyRegistry.builtIn.parse("bandit").prototype as! BanditStrategy
    var copy = prototype
    copy.begin(StrategySetup(instances: [WidgetInstance(id: "a", kind: "A")], seed: 1))
    prototype.normal.x.withUnsafeBufferPointer { a in
      copy.normal.x.withUnsafeBufferPointer { b in #expect(a.baseAddress == b.baseAddress) }
    }
  }
}
