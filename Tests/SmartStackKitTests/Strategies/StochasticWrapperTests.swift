import Foundation
import Testing
import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual

/// `epsilon` and `softmax` state exact probabilities of their choice, and of the first
/// allowed candidate when suppression binds: the frequencies of their own draws follow
/// them, within 5 standard errors of a binomial share (a false alarm below 1e-6 per
/// check).
@Suite("Stochastic wrappers state the probabilities their draws follow")
struct StochasticWrapperTests {
  /// Five instances, candidates 0, 2, 3, 4, with 3, 0, 1, 2 and 0 donations.
  static func context() -> (StackContext, [WidgetInstance]) {
    let instances = (0..<5).map { WidgetInstance(id: "i\($0)", kind: "K\($0)") }
    var features = StackFeatures(instances: instances)
    for i in [0, 2, 3, 4] { features._available[i] = true }
    for (i, n) in [(0, 3), (2, 1), (3, 2)] {
      for k in 0..<n { features.recordDonation(instance: i, at: Int64(1000 * (i + k)), hourOfDay: 0, hourOfWeek: 0) }
    }
    let context = StackContext(
      now: 10_000, hourOfDay: 0, hourOfWeek: 0, dayIndex: 0, features: features, shown: 2, shownSince: 0, target: [])
    return (context, instances)
  }

  /// The share of `draws` ranks in which each instance is the first allowed.
  static func frequencies<S: RankingStrategy>(_ strategy: inout S, _ context: StackContext, allowed: [Bool], draws: Int) -> [Double] {
    var chosen = [Double](repeating: 0, count: context.instanceCount)
    for _ in 0..<draws {
      var ranking = EngineOrder.freshRanking(context)
      strategy.rank(context, into: &ranking)
      chosen[EngineOrder.first(ranking.scores, allowed: allowed, features: context.features)] += 1
    }
    return chosen.map { $0 / Double(draws) }
  }

  static func expectFollows<S: AllowedChoiceProbabilities>(_ strategy: S, allowed: [Bool]? = nil) {
    let (context, instances) = Self.context()
    var strategy = strategy
    strategy.begin(StrategySetup(instances: instances, seed: 7))
    let allowed = allowed ?? context.features.available
    var p = [Double](repeating: -1, count: instances.count)
    strategy.choiceProbabilities(context, allowed: allowed, into: &p)
    #expect(abs(p.reduce(0, +) - 1) < 1e-12)
    let draws = 20_000
    let f = frequencies(&strategy, context, allowed: allowed, draws: draws)
    for i in 0..<instances.count {
      let tolerance = 5 * (p[i] * (1 - p[i]) / Double(draws)).squareRoot()
      #expect(abs(f[i] - p[i]) <= tolerance, "instance \(i): share \(f[i]), probability \(p[i])")
      if !allowed[i] { #expect(p[i] == 0) }
    }
  }

  @Test func epsilonAroundMostFrequentlyUsedIsRateOverNPlusTheRestOnItsChoice() {
    let strategy = EpsilonGreedyStrategy(base: MostFrequentlyUsedStrategy(parameters: .none), value: 0.2)
    let (context, _) = Self.context()
    var p = [Double](repeating: 0, count: 5)
    strategy.choiceProbabilities(context, into: &p)
    // mfu's choice is instance 0 (3 donations); 4 candidates.
    #expect(p == [0.05 + 0.8, 0, 0.05, 0.05, 0.05])
    Self.expectFollows(strategy)
  }

  @Test func softmaxIsProportionalToExpScoreOverTemperature() {
    let strategy = SoftmaxStrategy(base: MostFrequentlyUsedStrategy(parameters: .none), value: 0.5)
    let (context, _) = Self.context()
    var p = [Double](repeating: 0, count: 5)
    strategy.choiceProbabilities(context, into: &p)
    // Scores 3, 1, 2, 0 over temperature 0.5: weights e^6, e^2, e^4, e^0.
    let w = [exp(6.0), 0, exp(2.0), exp(4.0), 1]
    let total = w.reduce(0, +)
    for i in 0..<5 { #expect(abs(p[i] - w[i] / total) < 1e-12) }
    Self.expectFollows(strategy)
  }

  @Test func probabilitiesAmongAllowedFollowTheFirstAllowedOfTheDraws() {
    // Instance 0 (everyone's favourite) not allowed, as when it is suppressed.
    let allowed = [false, false, true, true, true]
    Self.expectFollows(SoftmaxStrategy(base: MostFrequentlyUsedStrategy(parameters: .none), value: 1), allowed: allowed)
    Self.expectFollows(EpsilonGreedyStrategy(base: MostFrequentlyUsedStrategy(parameters: .none), value: 0.3), allowed: allowed)
    Self.expectFollows(RandomStrategy(parameters: .none), allowed: allowed)
    Self.expectFollows(EpsilonGreedyStrategy(base: RandomStrategy(parameters: .none), value: 0.5))
  }

  @Test func wrappersParseWithABaseAndRoundTripTheirDescription() throws {
    let r = StrategyRegistry.builtIn
    let e = try r.parse("epsilon:rate=0.25:base=mfu")
    #expect(e.descriptor.description == "epsilon:base=mfu:rate=0.25")
    #expect(try r.parse(e.descriptor.description).descriptor == e.descriptor)
    let s = try r.parse("softmax:base=hour-of-week:base.half-life-days=7:temperature=0.5")
    #expect(s.descriptor.description == "softmax:base=hour-of-week:base.half-life-days=7:temperature=0.5")
    #expect(s.prototype is any AllowedChoiceProbabilities)
    #expect(throws: StrategyError.self) { try r.parse("epsilon:rate=0.1") }
    #expect(throws: StrategyError.self) { try r.parse("epsilon:base=bandit") }
    #expect(throws: StrategyError.self) { try r.parse("softmax:base=softmax") }
    #expect(throws: StrategyError.self) { try r.parse("epsilon:rate=2:base=mfu") }
    #expect(throws: StrategyError.self) { try r.parse("softmax:base=mfu:base.nope=1") }
  }
}
