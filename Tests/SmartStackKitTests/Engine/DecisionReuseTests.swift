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

/// The engine's fast paths (reusing a pure strategy's decision, rescoring an
/// instance-scoring strategy's changed instances) must be invisible: every built-in is
/// checked with `StrategyConformance` against ranking at every visit, and the checker
/// itself must catch what can still go wrong.
@Suite("Engine decision reuse")
struct DecisionReuseTests {
  /// Checks `S`; returns the visits decided without `rank`.
  func check<S: RankingStrategy>(_ type: S.Type, _ given: [(String, Double)] = []) throws -> Int {
    let report = try StrategyConformance.check(type, parameters: given)
    #expect(report.difference == nil, "\(report)")
    #expect(report.worlds == 120)
    return report.reusedVisits
  }

  @Test func everyPureOrInstanceScoringBuiltInDecidesAsIfItRankedAtEveryVisit() throws {
    // Each fast path is exercised: many visits are decided without calling `rank`.
    #expect(try check(StaticStrategy.self) > 5000)
    #expect(try check(MostFrequentlyUsedStrategy.self) > 5000)
    #expect(try check(MostRecentlyUsedStrategy.self) > 5000)
    #expect(try check(HourOfDayStrategy.self) > 3000)
    #expect(try check(HourOfWeekStrategy.self) > 3000)
    #expect(try check(MarkovStrategy.self) > 3000)
    #expect(try check(MarkovStrategy.self, [("self-transitions", 0)]) > 3000)
    #expect(try check(RelevanceStrategy.self) > 1000)
    #expect(try check(ScoresStrategy.self) > 3000)
  }

  @Test func strategiesThatChangeAtEveryVisitAreNeverReused() throws {
    #expect(try check(HourOfWeekStrategy.self, [("half-life-days", 7)]) == 0)
    #expect(try check(RandomStrategy.self) == 0)
    #expect(try check(RoundRobinStrategy.self) == 0)
    #expect(try check(SmartRotateStrategy.self) == 0)
    #expect(try check(BanditStrategy.self) == 0)
    #expect(try check(OracleStrategy.self) == 0)
  }

  @Test func theFastPathsAreDerivedFromTheRefinement() {
    #expect(StrategyPath(of: StaticStrategy.self) == .instanceScoring)
    #expect(StrategyPath(of: MarkovStrategy.self) == .pure)
    #expect(StrategyPath(of: ScoresStrategy.self) == .instanceScoring)
    #expect(StrategyPath(of: BanditStrategy.self) == .everyVisit)
    #expect(DynamicPath<BanditStrategy>.observesOutcomes)
    #expect(!DynamicPath<MostFrequentlyUsedStrategy>.observesOutcomes)
    #expect(DynamicPath<OracleStrategy>.seesTarget)
    #expect(!DynamicPath<RandomStrategy>.seesTarget)
  }

  /// `register(_:)`'s overloads give each built-in the static path of its refinement
  /// (specialised), never the run-time opened one.
  @Test func registeringPicksThePathOfTheRefinementStatically() throws {
    let paths = try StrategyRegistry.builtIn.names.map { try StrategyRegistry.builtIn.entry(named: $0).runner.path }
    #expect(!paths.contains("dynamic"))
    let registry = StrategyRegistry.builtIn
    #expect(try registry.entry(named: "static").runner.path == "InstanceScoringPath<StaticStrategy>")
    #expect(try registry.entry(named: "markov").runner.path == "PureRankingPath<MarkovStrategy>")
    #expect(try registry.entry(named: "bandit").runner.path == "OutcomeLearningPath<BanditStrategy>")
    #expect(try registry.entry(named: "oracle").runner.path == "TargetAwarePath<OracleStrategy>")
    #expect(try registry.entry(named: "smart-rotate").runner.path == "EveryVisitPath<SmartRotateStrategy>")
  }

  /// A strategy conforming to several refinements gets the one that takes precedence;
  /// registered from generic code it runs on the run-time opened path.
  @Test func aStrategyOfSeveralRefinementsGetsThePrecedingPath() {
    var registry = StrategyRegistry()
    registry.register(LearningPure.self)
    #expect(registry.entries[0].runner.path == "OutcomeLearningPath<LearningPure>")
    func generic<S: RankingStrategy>(_ type: S.Type) { registry.register(type) }
    generic(LearningPure.self)
    #expect(registry.entries[0].runner.path == "dynamic")
    generic(MostFrequentlyUsedStrategy.self)
    #expect(registry.entries[1].runner.path == "dynamic")
  }

  /// A pure strategy learns from donations, but its `==` ignores what it learnt: the
  /// one promise left to keep. The checker must find the first visit it gets wrong.
  @Test func theCheckerCatchesAnEqualityThatMissesLearntState() {
    struct ForgetfulCount: PureRankingStrategy {
      static let info = StrategyInfo(name: "forgetful-count", summary: "test: counts donations, == ignores them")
      var counts: [Int] = []
      var reads: VisitInputs { [] }
      init(parameters: StrategyParameters) {}
      mutating func begin(_ setup: StrategySetup) { counts = Array(repeating: 0, count: setup.instanceCount) }
      mutating func observe(_ event: ObservedEvent, context: StackContext) {
        if case .donation(_, let matched) = event { for i in matched { counts[Int(i)] += 1 } }
      }
      func scores(_ visit: VisitView, into ranking: inout Ranking) {
        ranking.setCandidateScores(visit) { i in Double(counts[i]) }
      }
      static func == (a: Self, b: Self) -> Bool { true }
    }
    let report = StrategyConformance.check(ForgetfulCount(parameters: .none), worlds: 10)
    let difference = report.difference
    #expect(difference?.world == 1)
    #expect("\(report)".contains("first difference: world 1"))
  }

  /// `hour-of-week` and `markov` write `==` out (inlinable, for the engine's compare
  /// around each event): it must still see every stored property, as the synthesised
  /// one did. A donation changes what each learns; a parameter is part of the state.
  @Test func theWrittenOutEqualitiesSeeEveryStoredProperty() throws {
    func make<S: RankingStrategy>(_: S.Type, _ given: [(String, Double)] = []) throws -> S {
      try S(parameters: StrategyParameters(specs: S.info.parameters, given: given, strategy: S.info.name))
    }
    let instances = (0..<3).map { WidgetInstance(id: "i\($0)", kind: "K\($0)") }
    let context = StackContext(
      now: 3_600_000, hourOfDay: 1, hourOfWeek: 1, dayIndex: 0, features: StackFeatures(instances: instances),
      shown: -1, shownSince: 0, target: [])
    let setup = StrategySetup(instances: instances, seed: 1)
    let donation = ObservedEvent.donation(kind: 0, instances: [1])

    var decayed = try make(HourOfWeekStrategy.self, [("half-life-days", 7)])
    decayed.begin(setup)
    let before = decayed
    #expect(decayed == before)
    decayed.observe(donation, context: context)
    #expect(decayed != before)
    #expect(try make(HourOfWeekStrategy.self) != make(HourOfWeekStrategy.self, [("half-life-days", 7)]))
    #expect(try make(HourOfWeekStrategy.self) == make(HourOfWeekStrategy.self))

    var markov = try make(MarkovStrategy.self)
    markov.begin(setup)
    var last = markov
    markov.observe(donation, context: context)  // `last` moves
    #expect(markov != last)
    last = markov
    markov.observe(.donation(kind: 0, instances: [2]), context: context)  // a transition is counted
    #expect(markov != last)
    #expect(try make(MarkovStrategy.self) != make(MarkovStrategy.self, [("self-transitions", 0)]))
  }

  /// An instance-scoring strategy whose scores ignore donations keeps its decision
  /// across a donation and only moves the order; the same definition as a pure strategy
  /// that also reads the donations ranks afresh after each: fewer visits are decided
  /// without `rank`, with the same decisions.
  @Test func scoresThatIgnoreDonationsAreKeptAcrossDonations() throws {
    struct RelevanceReadingDonations: PureRankingStrategy {
      static let info = StrategyInfo(name: "relevance-reading-donations", summary: "test: relevance, also reading donations")
      var reads: VisitInputs { [.relevance, .shown, .donations] }
      init(parameters: StrategyParameters) {}
      func scores(_ visit: VisitView, into ranking: inout Ranking) {
        _ = visit.totalDonations
        var anyActive = false
        ranking.setCandidateScores(visit) { i in
          let shown = Int(visit.shown) == i
          switch visit.relevance(i) {
          case .active:
            anyActive = true
            let p = visit.percentile(i)
            return 2 + (p.isNaN ? 0 : p)
          case .suppressed: return shown ? -0.5 : -1
          case .none, .expired: return shown ? 1 : 0
          }
        }
        ranking.rule = anyActive ? "highest active relevance" : "no active relevance: stay"
      }
    }
    let keeping = StrategyConformance.check(RelevanceStrategy(parameters: .none), worlds: 40)
    let reranking = StrategyConformance.check(RelevanceReadingDonations(parameters: .none), worlds: 40)
    #expect(keeping.difference == nil && reranking.difference == nil)
    #expect(keeping.reusedVisits > reranking.reusedVisits)
    #expect(reranking.reusedVisits > 0)
  }
}

/// Pure and outcome-learning at once: outcome learning takes precedence.
private struct LearningPure: PureRankingStrategy, OutcomeLearningStrategy {
  static let info = StrategyInfo(name: "learning-pure", summary: "test")
  var taps = 0
  var reads: VisitInputs { [] }
  init(parameters: StrategyParameters) {}
  func scores(_ visit: VisitView, into ranking: inout Ranking) {}
  mutating func observe(outcome: VisitFeedback, context: StackContext) { taps += outcome.tapped ? 1 : 0 }
}
