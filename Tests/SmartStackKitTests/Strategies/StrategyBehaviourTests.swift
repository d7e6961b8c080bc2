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

/// Drives one strategy through a hand-made sequence of events.
struct Harness<S: RankingStrategy> {
  var session: StackSession<DynamicPath<S>, LastVisit>
  let start = ms("2026-03-02T08:00:00Z")  // a Monday

  init(_ spec: String, kinds: [String] = ["A", "B", "C"]) throws {
    let choice = try StrategyRegistry.builtIn.parse(spec)
    session = StackSession(
      person: 0, instances: kinds.map { WidgetInstance(id: $0, kind: $0) },
      strategy: choice.prototype as! S, observer: LastVisit(), zone: .utc,
      options: EngineOptions(), strategySeed: 42)
    for i in 0..<kinds.count { session.makeAvailable(i) }
  }

  func at(minutes: Double) -> Int64 { start + Int64(minutes * 60_000) }

  mutating func donate(_ i: Int32, minutes: Double) {
    session.donation(at: at(minutes: minutes), kind: i, matched: [i])
  }
  @discardableResult
  mutating func visit(minutes: Double, target: Int32? = nil) -> VisitOutcome {
    session.visit(at: at(minutes: minutes), hasTarget: target != nil, targets: target.map { [$0] } ?? [])
  }
  mutating func relevance(_ i: Int, minutes: Double, score: Double?, durationMinutes: Double = 0) {
    session.relevanceEntry(
      instance: i,
      entry: RelevanceEntry(
        date: Instant(milliseconds: at(minutes: minutes)),
        relevance: score.map { Relevance(score: $0, durationMilliseconds: Int64(durationMinutes * 60_000)) }))
  }
}

@Suite("Strategy behaviour")
struct StrategyBehaviourTests {
  @Test func staticAlwaysShowsTheFirstCandidateAndNeverRotates() throws {
    var h = try Harness<StaticStrategy>("static")
    for k in 0..<10 {
      h.donate(2, minutes: Double(k))
      let o = h.visit(minutes: Double(k) + 0.5)
      #expect(o.shown == 0 && !o.rotated)
    }
  }

  @Test func roundRobinCyclesThroughTheStack() throws {
    var h = try Harness<RoundRobinStrategy>("round-robin")
    let shown = (0..<5).map { h.visit(minutes: Double($0)).shown }
    #expect(shown == [0, 1, 2, 0, 1])
  }

  @Test func markovFollowsTheMostFrequentSuccessor() throws {
    var h = try Harness<MarkovStrategy>("markov")
    // A->B twice, A->C once, then A last: B is the likeliest successor.
    for (i, k) in [0, 1, 0, 1, 0, 2, 0].enumerated() { h.donate(Int32(k), minutes: Double(i)) }
    #expect(h.visit(minutes: 10).shown == 1)
  }

  @Test func hourOfWeekDecayPrefersRecentHabits() throws {
    // Monday 08h: A donated 4 weeks ago (twice), B last week (once).
    var plain = try Harness<HourOfWeekStrategy>("hour-of-week")
    var decayed = try Harness<HourOfWeekStrategy>("hour-of-week:half-life-days=7")
    let week = 7.0 * 24 * 60
    plain.donate(0, minutes: 0)
    plain.donate(0, minutes: 1)
    plain.donate(1, minutes: 3 * week)
    decayed.donate(0, minutes: 0)
    decayed.donate(0, minutes: 1)
    decayed.donate(1, minutes: 3 * week)
    #expect(plain.visit(minutes: 4 * week).shown == 0)  // counts 2 vs 1
    #expect(decayed.visit(minutes: 4 * week).shown == 1)  // 2/16 vs 1/2
  }

  /// Rule: the relevance strategy shows the highest active percentile, stays without
  /// one, and never rotates to a suppressed instance.
  @Test func relevanceNeverRotatesToSuppressed() throws {
    var h = try Harness<RelevanceStrategy>("relevance")
    #expect(h.visit(minutes: 0).shown == 0)
    h.relevance(1, minutes: 1, score: 0)  // B suppressed
    #expect(h.visit(minutes: 2).shown == 0)
    h.relevance(2, minutes: 3, score: 5, durationMinutes: 10)  // C active 3..13
    #expect(h.visit(minutes: 4).shown == 2)
    #expect(h.visit(minutes: 14).shown == 2)  // expired: stay
    h.relevance(2, minutes: 15, score: -1)  // C suppressed while shown
    let o = h.visit(minutes: 16)
    #expect(o.shown == 0)  // moves away to a non-suppressed instance
    var suppressedShown = false
    for o in h.session.observer.outcomes where o.rotated {
      if case .suppressed = o.shownState { suppressedShown = true }
    }
    #expect(!suppressedShown)
  }

  /// The relevance strategy scores by table look-ups; they equal its definition, bit for
  /// bit, for every state, shown or not, any percentile (NaN counts as 0), and some
  /// instances not candidates.
  @Test func relevanceScoresFollowTheDefinition() {
    let instances = (0..<6).map { WidgetInstance(id: "i\($0)", kind: "K\($0)") }
    let states: [RelevanceState] = [.none, .active(score: 2), .suppressed(score: 0), .expired, .suppressed(score: -3)]
    let percentiles: [Double] = [.nan, 0, 0.25, 0.5, 0.8125, 1]
    var rng = SplitMix64(seed: 11)
    for _ in 0..<500 {
      var features = StackFeatures(instances: instances)
      for i in instances.indices {
        features._available[i] = rng.nextInt(below: 5) != 0
        features._relevance[i] = states[rng.nextInt(below: states.count)]
        features._relevanceKind[i] = features.relevance[i].kind
        features._percentile[i] = percentiles[rng.nextInt(below: percentiles.count)]
      }
      let shown = Int32(rng.nextInt(below: instances.count + 1)) - 1
      let context = StackContext(
        now: 0, hourOfDay: 0, hourOfWeek: 0, dayIndex: 0, features: features, shown: shown,
        shownSince: 0, target: [])
      var ranking = Ranking(instanceCount: instances.count)
      StackSession<DynamicPath<RelevanceStrategy>, LastVisit>.resetScores(&ranking.scores, available: features.available)
      var strategy = RelevanceStrategy(parameters: .none)
      strategy.rank(context, into: &ranking)
      var anyActive = false
      for i in instances.indices {
        let p = features.percentile[i]
        let expected: Double
        if !features.available[i] {
          expected = -.infinity
        } else {
          switch features.relevance[i] {
          case .active:
            anyActive = true
            expected = 2 + (p.isNaN ? 0 : p)
          case .suppressed: expected = i == Int(shown) ? -0.5 : -1
          case .none, .expired: expected = i == Int(shown) ? 1 : 0
          }
        }
        #expect(ranking.scores[i].bitPattern == expected.bitPattern, "instance \(i): \(ranking.scores[i]) != \(expected)")
      }
      #expect("\(ranking.rule)" == (anyActive ? "highest active relevance" : "no active relevance: stay"))
    }
  }

  /// Rescoring the changed instances leaves the scores `rank` gives when only those
  /// instances' own inputs moved (relevance, donation counts and times, being shown):
  /// every built-in `InstanceScoringStrategy`.
  @Test func rescoringTheChangedInstancesEqualsRankingAgain() {
    func check<S: InstanceScoringStrategy>(_ strategy: S, seed: UInt64) {
      let instances = (0..<7).map { WidgetInstance(id: "i\($0)", kind: "K\($0)") }
      let states: [RelevanceState] = [.none, .active(score: 2), .suppressed(score: 0), .expired]
      let percentiles: [Double] = [.nan, 0, 0.25, 0.5, 1]
      var rng = SplitMix64(seed: seed)
      var features = StackFeatures(instances: instances)
      func setOwnInputs(_ i: Int) {
        features._relevance[i] = states[rng.nextInt(below: states.count)]
        features._relevanceKind[i] = features.relevance[i].kind
        features._percentile[i] = percentiles[rng.nextInt(below: percentiles.count)]
        features._donationCount[i] = Int32(rng.nextInt(below: 3))
        features._lastDonation[i] = rng.nextInt(below: 3) == 0 ? Int64.min : Int64(rng.nextInt(below: 4))
        features._hourOfDayCount[i * 24] = Int32(rng.nextInt(below: 3))
        features._hourOfWeekCount[i * 168] = Int32(rng.nextInt(below: 3))
      }
      for i in instances.indices {
        features._available[i] = rng.nextInt(below: 4) != 0
        setOwnInputs(i)
      }
      func context(_ shown: Int32) -> StackContext {
        StackContext(
          now: 0, hourOfDay: 0, hourOfWeek: 0, dayIndex: 0, features: features, shown: shown, shownSince: 0,
          target: [])
      }
      func ranked(_ shown: Int32) -> Ranking {
        var ranking = Ranking(instanceCount: instances.count)
        StackSession<InstanceScoringPath<S>, LastVisit>.resetScores(&ranking.scores, available: features.available)
        var s = strategy
        s.rank(context(shown), into: &ranking)
        return ranking
      }
      var shown = Int32(rng.nextInt(below: instances.count + 1)) - 1
      var ranking = ranked(shown)
      for _ in 0..<20 {
        var changed = ChangedInstances()
        for _ in 0..<rng.nextInt(below: 3) {
          let i = rng.nextInt(below: instances.count)
          setOwnInputs(i)
          changed.insert(i)
        }
        if rng.nextInt(below: 3) == 0 {
          if shown >= 0 { changed.insert(Int(shown)) }
          shown = Int32(rng.nextInt(below: instances.count + 1)) - 1
          if shown >= 0 { changed.insert(Int(shown)) }
        }
        let s = strategy
        s.rescore(changed, context(shown), into: &ranking)
        let expected = ranked(shown)
        #expect(ranking.scores.map(\.bitPattern) == expected.scores.map(\.bitPattern), "\(S.name) seed \(seed)")
      }
    }
    for seed in 0..<100 as Range<UInt64> {
      check(RelevanceStrategy(parameters: .none), seed: seed)
      check(MostFrequentlyUsedStrategy(parameters: .none), seed: seed)
      check(MostRecentlyUsedStrategy(parameters: .none), seed: seed)
      check(HourOfDayStrategy(parameters: .none), seed: seed)
      check(try! HourOfWeekStrategy(parameters: StrategyParameters(specs: HourOfWeekStrategy.parameterSpecs, given: [], strategy: "hour-of-week")), seed: seed)
      check(StaticStrategy(parameters: .none), seed: seed)
    }
  }

  /// Smart-rotate respects the minimum dwell and the hourly rotation limit, and
  /// developer mode lifts both.
  @Test func smartRotateHonoursDwellAndRateLimit() throws {
    func rotations(_ spec: String) throws -> Int {
      var h = try Harness<SmartRotateStrategy>(spec)
      // Alternate strong relevance between A and B every 2 minutes for an hour.
      for k in 0..<30 {
        let i = k % 2
        h.relevance(i, minutes: Double(2 * k), score: Double(10 + k), durationMinutes: 2)
        h.visit(minutes: Double(2 * k) + 1)
      }
      return h.session.observer.outcomes.filter(\.rotated).count
    }
    let limited = try rotations("smart-rotate:min-dwell-minutes=0:max-per-hour=3")
    #expect(limited <= 3)
    let dwell = try rotations("smart-rotate:min-dwell-minutes=10:max-per-hour=0:max-per-day=0")
    #expect(dwell <= 6)  // at most one rotation per 10 minutes over 60 minutes
    let developer = try rotations("smart-rotate:developer-mode=1")
    #expect(developer > 10)
  }

  /// Smart-rotate's rate limit counts the stack's rotations, the engine's one record
  /// (`StackContext.rotations`): a rotation the person swiped away from at once still
  /// counts, so with `max-per-hour=2` the third rotation in the hour is refused. (When
  /// smart-rotate kept its own window, a rotation followed by a swipe was never counted
  /// and the stack rotated at every visit.)
  @Test func smartRotatesRateLimitCountsTheStacksRotationsEvenWhenASwipeFollows() throws {
    let choice = try StrategyRegistry.builtIn.parse("smart-rotate:min-dwell-minutes=0:max-per-hour=2:max-per-day=0")
    var s = StackSession(
      person: 0, instances: ["A", "B"].map { WidgetInstance(id: $0, kind: $0) },
      path: DynamicPath(choice.prototype as! SmartRotateStrategy), observer: LastVisit(), zone: .utc,
      options: EngineOptions(), strategySeed: 42,
      rules: StackRuleSettings(developerMode: true, swipeCooldownMinutes: 0))
    s.makeAvailable(0)
    s.makeAvailable(1)
    let start = ms("2026-03-02T08:00:00Z")
    // B is always the more relevant: smart-rotate wants it on top.
    s.relevanceEntry(
      instance: 1,
      entry: RelevanceEntry(
        date: Instant(milliseconds: start), relevance: Relevance(score: 10, durationMilliseconds: 86_400_000)))
    var rules: [String] = []
    for k in 0..<6 {
      let t = start + Int64(k) * 120_000
      s.manualSwipe(to: 0, at: t)  // the person puts A back on top
      let o = s.visit(at: t + 60_000, hasTarget: false, targets: [])
      rules.append(o.rotated ? "rotated" : "\(o.rule)")
    }
    #expect(rules == ["rotated", "rotated"] + Array(repeating: "hourly rotation limit", count: 4))
    #expect(s.context.rotations.count(after: start) == 2)
  }

  /// The bandit learns from taps alone: after A is tapped repeatedly and B never,
  /// it shows A.
  @Test func banditLearnsFromTaps() throws {
    var h = try Harness<BanditStrategy>("bandit:buckets=1", kinds: ["A", "B"])
    for k in 0..<40 {
      let o = h.visit(minutes: Double(k * 10))
      h.session.reveal(
        VisitFeedback(visitTime: h.at(minutes: Double(k * 10)), hourOfDay: 8, hourOfWeek: 8, shown: o.shown, tapped: o.shown == 0),
        at: h.at(minutes: Double(k * 10) + 1))
    }
    let late = h.session.observer.outcomes.suffix(10).filter { $0.shown == 0 }.count
    #expect(late >= 8)
  }

  @Test func parametersAreValidatedWithClearMessages() throws {
    let r = StrategyRegistry.builtIn
    #expect(throws: StrategyError.self) { try r.parse("mfuu") }
    do {
      _ = try r.parse("mfuu")
    } catch {
      #expect("\(error)".contains("did you mean 'mfu'?"))
    }
    #expect(throws: StrategyError.self) { try r.parse("hour-of-week:half-life=3") }
    #expect(throws: StrategyError.self) { try r.parse("bandit:buckets=5") }
    #expect(throws: StrategyError.self) { try r.parse("bandit:buckets=2.5") }
    #expect(throws: StrategyError.self) { try r.parse("smart-rotate:margin=-1") }
    #expect(throws: StrategyError.self) { try r.parseList("mfu,mfu") }
    #expect(try r.parse("smart-rotate:margin=0.1").descriptor.parameters.canonical.contains("margin=0.1"))
  }

  @Test func giniIsZeroForEqualExposureAndMaximalForOne() {
    #expect(Gini.coefficient([5, 5, 5, 5]) == 0)
    #expect(abs(Gini.coefficient([0, 0, 0, 8]) - 0.75) < 1e-12)
    #expect(Gini.coefficient([]).isNaN)
    // |1-3| over all ordered pairs = 4; 2 n^2 mean = 2*4*2 = 16 -> 0.25.
    #expect(abs(Gini.coefficient([1, 3]) - 0.25) < 1e-12)
  }
}

/// A stochastic strategy states the probability of each candidate being its choice
/// (`StochasticRankingStrategy`); `random`'s must match the frequencies of its draws.
@Suite("Choice probabilities")
struct ChoiceProbabilityTests {
  @Test func randomStatesUniformProbabilitiesThatItsDrawsFollow() {
    let instances = (0..<5).map { WidgetInstance(id: "i\($0)", kind: "K\($0)") }
    var features = StackFeatures(instances: instances)
    for i in [0, 2, 3, 4] { features._available[i] = true }
    let context = StackContext(
      now: 0, hourOfDay: 0, hourOfWeek: 0, dayIndex: 0, features: features, shown: -1, shownSince: 0, target: [])
    var strategy = RandomStrategy(parameters: .none)
    strategy.begin(StrategySetup(instances: instances, seed: 42))
    var probabilities = Array(repeating: -1.0, count: instances.count)
    strategy.choiceProbabilities(context, into: &probabilities)
    #expect(probabilities == [0.25, 0, 0.25, 0.25, 0.25])
    // 40,000 draws: each candidate's share within 0.01 of 0.25 (about 4.6 standard
    // deviations), the non-candidate never chosen.
    var chosen = Array(repeating: 0, count: instances.count)
    for _ in 0..<40_000 {
      var ranking = Ranking(instanceCount: instances.count)
      ranking.setCandidateScores(context) { _ in 0 }
      strategy.rank(context, into: &ranking)
      var top = -1
      for i in 0..<instances.count where features.available[i] {
        if top < 0 || features.precedes(i, top, scores: ranking.scores) { top = i }
      }
      chosen[top] += 1
    }
    #expect(chosen[1] == 0)
    for i in [0, 2, 3, 4] { #expect(abs(Double(chosen[i]) / 40_000 - probabilities[i]) < 0.01, "instance \(i)") }
  }
}
