import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackExperiments
@testable import SmartStackTesting

/// An observer that reads the probabilities the engine states with each outcome.
private struct ProbabilityTranscript: ShownProbabilityObserver {
  var pendingProbabilities: ShownProbabilities? = nil
  var visits: [(outcome: VisitOutcome, probabilities: ShownProbabilities)] = []
  mutating func shownProbabilities(_ probabilities: ShownProbabilities) { pendingProbabilities = probabilities }
  mutating func observe(
    _ outcome: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    visits.append((outcome, pendingProbabilities!))
    pendingProbabilities = nil
  }
}

/// An observer that does not read them.
private struct OutcomesOnly: OutcomeObserver {
  var outcomes: [VisitOutcome] = []
  mutating func observe(
    _ outcome: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) { outcomes.append(outcome) }
}

/// The probability with which the engine shows each candidate travels with the visit's
/// outcome (`ShownProbabilities`, `VisitOutcome.shownProbability`): the strategy's stated
/// probabilities restricted to what the stack's rules allow.
@Suite("The engine states the probability of what it shows")
struct ShownProbabilityTests {
  static let instances = (0..<3).map { WidgetInstance(id: "i\($0)", kind: "K\($0)") }

  static func session<S: RankingStrategy, O: OutcomeObserver>(_ strategy: S, _ observer: O) -> StackSession<DynamicPath<S>, O> {
    var s = StackSession(
      person: 0, instances: instances, strategy: strategy, observer: observer, zone: .utc,
      options: EngineOptions(), strategySeed: 7)
    for i in 0..<instances.count { s.makeAvailable(i) }
    return s
  }

  static func suppress(_ i: Int, at t: Int64, in s: inout StackSession<some EnginePath, some OutcomeObserver>) {
    s.relevanceEntry(
      instance: i, entry: RelevanceEntry(date: Instant(milliseconds: t), relevance: Relevance(score: 0, durationMilliseconds: 0)))
  }

  @Test func randomShowsEachOfThreeCandidatesWithAThird() {
    var s = Self.session(RandomStrategy(parameters: .none), ProbabilityTranscript())
    let o = s.visit(at: 1, hasTarget: false, targets: [], policy: .rank)
    let p = s.observer.visits[0].probabilities
    let third: Double = 1.0 / 3
    #expect(p.perInstance == [third, third, third])
    #expect(o.shownProbability == third)
    #expect(!p.forcedByRule && !p.estimated)
  }

  @Test func aSuppressedCandidateOtherThanTheTopIsNotAllowed() {
    var s = Self.session(RandomStrategy(parameters: .none), ProbabilityTranscript())
    s.visit(at: 1, hasTarget: false, targets: [], policy: .rank)
    let top = Int(s.context.shown)
    let other = (top + 1) % 3
    Self.suppress(other, at: 2, in: &s)
    let o = s.visit(at: 3, hasTarget: false, targets: [], policy: .rank)
    let p = s.observer.visits[1].probabilities.perInstance
    let third = 3 - top - other
    #expect(p[other] == 0)
    #expect(p[top] == 0.5)
    #expect(p[third] == 0.5)
    #expect(o.shownProbability == 0.5)
    #expect(o.shown != Int32(other))
  }

  @Test func aPinOrNoRotationShowsWithProbabilityOne() {
    var s = Self.session(RandomStrategy(parameters: .none), ProbabilityTranscript())
    s.visit(at: 1, hasTarget: false, targets: [], policy: .rank)
    var o = s.visit(at: 2, hasTarget: false, targets: [], policy: .forced(2))
    var p = s.observer.visits[1].probabilities
    #expect(o.shown == 2 && o.shownProbability == 1)
    #expect(p.forcedByRule && p.perInstance == [0, 0, 1])
    o = s.visit(at: 3, hasTarget: false, targets: [], policy: .noRotation(.smartRotateOff))
    p = s.observer.visits[2].probabilities
    #expect(o.shown == 2 && o.shownProbability == 1)
    #expect(p.forcedByRule && p.perInstance == [0, 0, 1])
  }

  @Test func aDeterministicStrategyShowsItsChoiceWithProbabilityOne() {
    var s = Self.session(StaticStrategy(parameters: .none), ProbabilityTranscript())
    let o = s.visit(at: 1, hasTarget: false, targets: [], policy: .rank)
    #expect(o.shown == 0 && o.shownProbability == 1)
    #expect(s.observer.visits[0].probabilities.perInstance == [1, 0, 0])
  }

  @Test func aBanditsProbabilitiesAreEstimatedFromItsOwnStream() throws {
    let bandit = try #require(try StrategyRegistry.builtIn.parse("bandit").prototype as? BanditStrategy)
    var s = Self.session(bandit, ProbabilityTranscript())
    let o = s.visit(at: 1, hasTarget: false, targets: [], policy: .rank)
    let p = s.observer.visits[0].probabilities
    let total: Double = p.perInstance.reduce(0, +)
    #expect(p.estimated)
    #expect(abs(total - 1) < 1e-12)
    let shownEntry: Double = p.perInstance[Int(o.shown)]
    #expect(o.shownProbability == shownEntry)
    #expect(shownEntry > 0)
    // Asking does not change what the bandit shows.
    var plain = Self.session(bandit, OutcomesOnly())
    #expect(plain.visit(at: 1, hasTarget: false, targets: [], policy: .rank).shown == o.shown)
  }

  @Test func withoutAnObserverThatReadsThemNoneAreComputed() {
    var s = Self.session(RandomStrategy(parameters: .none), OutcomesOnly())
    #expect(s.shownProbabilityReader == nil)
    #expect(s.visit(at: 1, hasTarget: false, targets: [], policy: .rank).shownProbability.isNaN)
    // The state was never touched: no probabilities were computed.
    #expect(s.shownChoice.last.perInstance.isEmpty && s.shownChoice.stated.isEmpty)
  }

  /// Conforming to `ShownProbabilityObserver` is the whole declaration: such an observer
  /// is told the probabilities, alone or held by a pair or `DynamicObserver`; a pair or
  /// wrapper of which nothing reads them makes a run that computes none.
  @Test func anObserverOfTheRefinementIsToldThemAlsoThroughAPairOrItsExistential() {
    let random = RandomStrategy(parameters: .none)
    let third: Double = 1.0 / 3
    var direct = Self.session(random, ProbabilityTranscript())
    #expect(direct.visit(at: 1, hasTarget: false, targets: [], policy: .rank).shownProbability == third)
    #expect(direct.observer.visits.map(\.probabilities.perInstance) == [[third, third, third]])

    var paired = Self.session(random, ObserverPair(OutcomesOnly(), ProbabilityTranscript()))
    #expect(paired.visit(at: 1, hasTarget: false, targets: [], policy: .rank).shownProbability == third)
    #expect(paired.observer.second.visits.map(\.probabilities.perInstance) == [[third, third, third]])
    #expect(paired.observer.first.outcomes.count == 1)

    var dynamic = Self.session(random, ObserverPair(OutcomesOnly(), DynamicObserver(ProbabilityTranscript())))
    #expect(dynamic.visit(at: 1, hasTarget: false, targets: [], policy: .rank).shownProbability == third)
    let transcript = dynamic.observer.second.base as? ProbabilityTranscript
    #expect(transcript?.visits.map(\.probabilities.perInstance) == [[third, third, third]])

    var neither = Self.session(random, ObserverPair(OutcomesOnly(), DynamicObserver(OutcomesOnly())))
    #expect(neither.shownProbabilityReader == nil)
    #expect(neither.visit(at: 1, hasTarget: false, targets: [], policy: .rank).shownProbability.isNaN)
    #expect(neither.shownChoice.last.perInstance.isEmpty)
  }

  /// The state decides once what the strategy states (`ShownProbabilityState.Statement`),
  /// and rewrites its buffers in place: the probabilities stay right as a deterministic
  /// strategy's choice moves, as pins alternate with stated visits, and while an
  /// observer keeps earlier ones.
  @Test func theProbabilitiesStayRightAsTheirBuffersAreRewritten() throws {
    var fixed = Self.session(StaticStrategy(parameters: .none), ProbabilityTranscript())
    guard case .deterministic = fixed.shownChoice.statement else {
      Issue.record("static: \(fixed.shownChoice.statement)")
      return
    }
    fixed.visit(at: 1, hasTarget: false, targets: [], policy: .rank)
    fixed.visit(at: 2, hasTarget: false, targets: [], policy: .forced(2))
    fixed.setAvailable(0, false)
    fixed.visit(at: 3, hasTarget: false, targets: [], policy: .rank)
    fixed.setAvailable(1, false)
    fixed.setAvailable(2, false)
    fixed.visit(at: 4, hasTarget: false, targets: [], policy: .rank)
    #expect(
      fixed.observer.visits.map(\.probabilities.perInstance) == [[1, 0, 0], [0, 0, 1], [0, 1, 0], [0, 0, 0]])

    var random = Self.session(RandomStrategy(parameters: .none), ProbabilityTranscript())
    guard case .stated = random.shownChoice.statement else {
      Issue.record("random: \(random.shownChoice.statement)")
      return
    }
    let third: Double = 1.0 / 3
    random.visit(at: 1, hasTarget: false, targets: [], policy: .rank)
    random.visit(at: 2, hasTarget: false, targets: [], policy: .forced(1))
    random.visit(at: 3, hasTarget: false, targets: [], policy: .rank)
    random.visit(at: 4, hasTarget: false, targets: [], policy: .noRotation(.rotationLimit))
    let visits = random.observer.visits
    let stayed = Int(visits[2].outcome.shown)
    #expect(visits.map(\.probabilities.forcedByRule) == [false, true, false, true])
    #expect(visits[0].probabilities.perInstance == [third, third, third])
    #expect(visits[1].probabilities.perInstance == [0, 1, 0])
    #expect(visits[2].probabilities.perInstance == [third, third, third])
    #expect(visits[3].probabilities.perInstance == (0..<3).map { $0 == stayed ? 1 : 0 })

    let bandit = try #require(try StrategyRegistry.builtIn.parse("bandit").prototype as? BanditStrategy)
    let sampled = Self.session(bandit, ProbabilityTranscript())
    guard case .estimated = sampled.shownChoice.statement else {
      Issue.record("bandit: \(sampled.shownChoice.statement)")
      return
    }
  }

  /// Over random event streams (pins, no-rotation visits, suppressed windows,
  /// availability changes) with epsilon-greedy around mfu: the stated probabilities sum
  /// to 1 over the candidates, the shown one is positive, and asking never changes what
  /// is shown.
  @Test func overRandomStreamsTheShownCandidateHasAPositiveProbabilityAndAskingChangesNothing() throws {
    let epsilon = try StrategyRegistry.builtIn.parse("epsilon:rate=0.3:base=mfu")
    struct Run: StrategyTypeVisitor {
      func visit<S: RankingStrategy>(_ prototype: S) -> [String] {
        var problems: [String] = []
        let instances = (0..<6).map { WidgetInstance(id: "i\($0)", kind: ["B", "A", "C", "A", "B", "D"][$0]) }
        for seed in UInt64(1)...20 {
          var asked = StackSession(
            person: 0, instances: instances, strategy: prototype, observer: ProbabilityTranscript(), zone: .utc,
            options: EngineOptions(), strategySeed: seed)
          var plain = StackSession(
            person: 0, instances: instances, strategy: prototype, observer: OutcomesOnly(), zone: .utc,
            options: EngineOptions(), strategySeed: seed)
          for i in 0..<instances.count where i % 3 != 2 {
            asked.makeAvailable(i)
            plain.makeAvailable(i)
          }
          EngineTestEvent.stream(seed: seed, count: 200).forEachVisit(on: &asked) { visit, s in
            let o = visit.outcome
            guard o.shown >= 0 else { return }
            let p = s.observer.visits.last!.probabilities
            let f = s.context.features
            var sum = 0.0
            for i in 0..<f.instanceCount where f.available[i] { sum += p.perInstance[i] }
            if abs(sum - 1) > 1e-9 { problems.append("seed \(seed) at \(visit.time): sum \(sum)") }
            if !(o.shownProbability > 0) { problems.append("seed \(seed) at \(visit.time): shown with \(o.shownProbability)") }
          }
          EngineTestEvent.stream(seed: seed, count: 200).forEachVisit(on: &plain) { _, _ in }
          if asked.observer.visits.map(\.outcome.shown) != plain.observer.outcomes.map(\.shown) {
            problems.append("seed \(seed): asking for probabilities changed what was shown")
          }
        }
        return problems
      }
    }
    #expect(epsilon.open(Run()) == [])
  }
}
