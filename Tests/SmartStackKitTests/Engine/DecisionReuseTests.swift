import Testing

@testable import SmartStackKit

/// `S` with `rankingInputs == .all`: ranks at every visit, the reference for reuse.
private struct EveryVisit<S: RankingStrategy>: RankingStrategy {
  static var name: String { S.name }
  static var summary: String { S.summary }
  static var parameterSpecs: [StrategyParameterSpec] { S.parameterSpecs }
  static var usesTarget: Bool { S.usesTarget }
  static var observesOutcomes: Bool { S.observesOutcomes }
  var base: S
  var rankingInputs: RankingInputs { .all }
  init(parameters: StrategyParameters) throws { base = try S(parameters: parameters) }
  init(_ base: S) { self.base = base }
  mutating func begin(_ setup: StrategySetup) { base.begin(setup) }
  mutating func observe(_ event: ObservedEvent, context: StackContext) { base.observe(event, context: context) }
  mutating func rank(_ context: StackContext, into ranking: inout Ranking) { base.rank(context, into: &ranking) }
}

/// Reusing the last decision while a strategy's declared inputs are unchanged
/// (`RankingInputs`) must be invisible: every built-in declaration is checked against
/// ranking at every visit.
@Suite("Engine decision reuse")
struct DecisionReuseTests {
  let instances = (0..<6).map { WidgetInstance(id: "i\($0)", kind: ["B", "A", "C", "A", "B", "D"][$0]) }
  /// More than `ChangedInstances.capacity` instances: the engine neither rescores
  /// instances nor moves remembered keys, and ranks afresh where it would. The events
  /// touch the first six.
  let manyInstances = (0..<70).map { WidgetInstance(id: "i\($0)", kind: ["B", "A", "C", "A", "B", "D", "E"][$0 % 7]) }

  /// Runs `strategy` over the events; returns the transcript and the reused visits.
  /// `longChains`: only entries, ranked visits and donations (each instance at most
  /// once), every instance a candidate, so that decisions are reused or updated many
  /// times in a row, as in replay.
  fileprivate func run<S: RankingStrategy>(
    _ strategy: S, seed: UInt64, options: EngineOptions, longChains: Bool = false, many: Bool = false
  ) -> (EngineTranscript, Int) {
    let instances = many ? manyInstances : instances
    var s = StackSession(
      person: 0, instances: instances, strategy: strategy, observer: EngineTranscript(), zone: .utc,
      options: options, strategySeed: seed)
    for i in 0..<instances.count where longChains || i % 3 != 2 { s.makeAvailable(i) }
    var events = EngineTestEvent.stream(seed: seed, count: 300)
    if longChains {
      events = events.compactMap { event in
        switch event {
        case .entry: event
        case .visit(let t, let targets, _): .visit(t, targets, .rank)
        case .donation(let t, let matched): .donation(t, Array(Set(matched)).sorted())
        case .available, .swipe: nil
        }
      }
    }
    events.apply(to: &s)
    s.finish(at: 0)
    return (s.finishedObserver(), s.reusedDecisionCount)
  }

  fileprivate func options(_ seed: Int) -> EngineOptions {
    var options = EngineOptions()
    options.relevanceThreshold = [0.5, 0.8, 0][seed % 3]
    if seed % 4 == 1 { options.normaliserScope = .kind }
    if seed % 5 == 2 { options.normaliserWindow = .days(1) }
    return options
  }

  fileprivate func check<S: RankingStrategy>(_ type: S.Type, _ given: [(String, Double)] = []) throws -> Int {
    let parameters = try StrategyParameters(specs: S.parameterSpecs, given: given, strategy: S.name)
    let strategy = try S(parameters: parameters)
    var reused = 0
    for seed in 0..<190 {
      // 0..<60: every kind of event; 60..<160: long chains of reuse; 160..<190: long
      // chains on a stack too large for per-instance rescoring.
      let longChains = seed >= 60
      let many = seed >= 160
      let (withReuse, count) = run(
        strategy, seed: UInt64(seed), options: options(seed), longChains: longChains, many: many)
      let (everyVisit, never) = run(
        EveryVisit(strategy), seed: UInt64(seed), options: options(seed), longChains: longChains, many: many)
      #expect(withReuse == everyVisit, "\(S.name) seed \(seed)")
      #expect(never == 0)
      reused += count
    }
    return reused
  }

  @Test func everyDeclaringBuiltInStrategyDecidesAsIfItRankedAtEveryVisit() throws {
    // Each declaration is exercised: some visits do reuse the last decision.
    #expect(try check(StaticStrategy.self) > 500)
    #expect(try check(MostFrequentlyUsedStrategy.self) > 500)
    #expect(try check(MostRecentlyUsedStrategy.self) > 500)
    #expect(try check(HourOfDayStrategy.self) > 500)
    #expect(try check(HourOfWeekStrategy.self) > 500)
    #expect(try check(MarkovStrategy.self) > 500)
    #expect(try check(MarkovStrategy.self, [("self-transitions", 0)]) > 500)
    #expect(try check(RelevanceStrategy.self) > 50)
  }

  @Test func strategiesThatChangeAtEveryVisitAreNeverReused() throws {
    #expect(try check(HourOfWeekStrategy.self, [("half-life-days", 7)]) == 0)
    #expect(try check(RandomStrategy.self) == 0)
    #expect(try check(RoundRobinStrategy.self) == 0)
    #expect(try check(SmartRotateStrategy.self) == 0)
    #expect(try check(BanditStrategy.self) == 0)
    #expect(try check(OracleStrategy.self) == 0)
  }

  /// Declaring an input the strategy does not read is allowed (it only reuses less);
  /// declaring fewer than it reads is what the tests above would catch. This one checks
  /// that the comparison can fail: a strategy reading the hour that declares nothing.
  @Test func anUndeclaredInputWouldBeCaught() throws {
    struct HourBlind: RankingStrategy {
      static let name = "hour-blind"
      static let summary = "test strategy: reads the hour, declares nothing"
      var rankingInputs: RankingInputs { [] }
      init(parameters: StrategyParameters) {}
      mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
        ranking.setCandidateScores(context) { i in Double((i + context.hourOfDay) % 6) }
      }
    }
    #expect(differingSeeds(HourBlind(parameters: .none)) > 10)
  }

  /// Of 20 seeds, those where `strategy` with reuse decides otherwise than ranking at
  /// every visit.
  fileprivate func differingSeeds<S: RankingStrategy>(_ strategy: S) -> Int {
    var differing = 0
    for seed in 0..<20 {
      let (withReuse, _) = run(strategy, seed: UInt64(seed), options: options(seed))
      let (everyVisit, _) = run(EveryVisit(strategy), seed: UInt64(seed), options: options(seed))
      if withReuse != everyVisit { differing += 1 }
    }
    return differing
  }

  /// The same for `scoresDependOnDonations == false` declared by a strategy whose scores
  /// do follow the donations: reusing its scores after a donation is caught.
  @Test func aStrategyWhoseScoresFollowDonationsCannotDeclareOtherwise() throws {
    struct DonationBlind: RankingStrategy {
      static let name = "donation-blind"
      static let summary = "test strategy: scores by donation count, declares they do not depend on donations"
      static let scoresDependOnDonations = false
      var rankingInputs: RankingInputs { [] }
      init(parameters: StrategyParameters) {}
      mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
        ranking.setCandidateScores(context) { i in Double(context.features.donationCount[i] % 3) }
      }
    }
    #expect(differingSeeds(DonationBlind(parameters: .none)) > 10)
  }

  /// Strategies whose scores ignore donations keep them across a donation and only
  /// move the order: the decisions are those of ranking at every visit (checked
  /// above), and more visits reuse scores than a declaration without it would.
  @Test func scoresThatIgnoreDonationsAreKeptAcrossDonations() throws {
    struct RelevanceReadingDonations: RankingStrategy {
      static let name = "relevance-reading-donations"
      static let summary = "test strategy: relevance, declared as if it depended on donations"
      static let observesOutcomes = false
      var base = RelevanceStrategy(parameters: .none)
      var rankingInputs: RankingInputs { base.rankingInputs }
      init(parameters: StrategyParameters) {}
      mutating func rank(_ context: StackContext, into ranking: inout Ranking) { base.rank(context, into: &ranking) }
    }
    var kept = 0
    var ranked = 0
    for seed in 0..<20 {
      let (keeping, keptCount) = run(RelevanceStrategy(parameters: .none), seed: UInt64(seed), options: options(seed))
      let (reranking, rankedCount) = run(RelevanceReadingDonations(parameters: .none), seed: UInt64(seed), options: options(seed))
      #expect(keeping == reranking, "seed \(seed)")
      kept += keptCount
      ranked += rankedCount
    }
    #expect(kept > ranked)
  }
}
