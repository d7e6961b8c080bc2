import Testing
import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies

/// Records, at every visit, the time, the shown instance and the outside scores the
/// engine held (`StackFeatures.outsideScore`).
private struct ScoreTrace: OutcomeObserver {
  var visits: [(time: Int64, shown: Int32, scores: [Double])] = []
  mutating func observe(
    _ o: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    visits.append((o.time, o.shown, features.outsideScore))
  }
}

/// Outside scores reach the engine as timed events, as relevance entries do: a score row
/// is an event at its timestamp, ordered after relevance entries and before visits,
/// donations and outcomes at one instant; the engine keeps each instance's latest in
/// `StackFeatures.outsideScore` (-infinity before its first).
@Suite("Outside scores are timed events")
struct OutsideScoreEventTests {
  static let log = """
    timestamp,user,kind
    2026-03-02T08:00:00Z,ana,A
    2026-03-02T09:00:00Z,ana,B
    2026-03-02T10:00:00Z,ana,A

    """
  static let stack = StackSpec(
    file: "st.json", instances: [WidgetInstance(id: "a1", kind: "A"), WidgetInstance(id: "b1", kind: "B")])

  static func plan(_ scores: String) throws -> ReplayPlan {
    var options = ReplayOptions()
    options.stack = .fixed(stack)
    options.scores = try ScoreFile.read(bytes: Array(scores.utf8), file: "s.csv")
    return try ReplayPlan(log: try DonationLog.read(bytes: Array(log.utf8), file: "l.csv", format: .csv), options: options)
  }

  fileprivate static func trace(_ plan: ReplayPlan) -> ScoreTrace {
    Replay.run(
      plan, strategy: ScoresStrategy(parameters: .none),
      descriptor: StrategyDescriptor(name: "scores", parameters: .none), observer: ScoreTrace())
  }

  @Test func aScoreAtTheVisitsMillisecondIsSeenAndOneAMillisecondLaterIsNot() throws {
    let plan = try Self.plan("""
      user,timestamp,instance,score
      ana,2026-03-02T09:00:00.000Z,b1,1
      ana,2026-03-02T10:00:00.001Z,a1,5

      """)
    let visits = Self.trace(plan).visits
    #expect(visits.map(\.time) == [ms("2026-03-02T08:00:00Z"), ms("2026-03-02T09:00:00Z"), ms("2026-03-02T10:00:00Z")])
    // 08:00: no score yet (both -infinity): the tie-break (kind name) shows a1.
    #expect(visits[0].scores == [-.infinity, -.infinity] && visits[0].shown == 0)
    // 09:00: b1's score dated at the visit's millisecond is seen.
    #expect(visits[1].scores == [-.infinity, 1] && visits[1].shown == 1)
    // 10:00: a1's score a millisecond later is not.
    #expect(visits[2].scores == [-.infinity, 1] && visits[2].shown == 1)
  }

  @Test func aKindRowIsOneEventPerInstanceOfThatKindAndTheLaterRowWinsAtOneInstant() throws {
    let plan = try Self.plan("""
      user,timestamp,kind,score
      ana,2026-03-02T07:00:00Z,B,3
      ana,2026-03-02T07:00:00Z,B,-2
      ana,2026-03-02T07:00:00Z,A,0

      """)
    let ana = plan.people[0]
    #expect(ana.scoreTimes == Array(repeating: ms("2026-03-02T07:00:00Z"), count: 3))
    #expect(ana.scoreInstance == [1, 1, 0] && ana.scoreValues == [3, -2, 0])
    let visits = Self.trace(plan).visits
    #expect(visits.allSatisfy { $0.scores == [0, -2] && $0.shown == 0 })
  }

  @Test func strategiesObserveAScoreAfterTheRelevanceEntryAndBeforeTheVisitAtOneInstant() {
    var session = StackSession(
      person: 0, instances: [WidgetInstance(id: "A", kind: "A")], strategy: RecordingStrategy(parameters: .none),
      observer: LastVisit(), zone: .utc, options: EngineOptions(), strategySeed: 1)
    session.makeAvailable(0)
    let t = ms("2026-03-02T08:00:00Z")
    session.relevanceEntry(instance: 0, entry: RelevanceEntry(date: Instant(milliseconds: t), relevance: nil))
    session.outsideScore(instance: 0, 2.5, at: t)
    #expect(session.context.features.outsideScore == [2.5])
    #expect(session.strategy.log == ["2026-03-02T08:00:00Z relevance 0", "2026-03-02T08:00:00Z score 0"])
  }

  @Test func withoutAScoreFileEveryInstanceHasNoScore() throws {
    var options = ReplayOptions()
    options.stack = .fixed(Self.stack)
    let plan = try ReplayPlan(
      log: try DonationLog.read(bytes: Array(Self.log.utf8), file: "l.csv", format: .csv), options: options)
    #expect(plan.people[0].scoreTimes.isEmpty)
    let visits = Self.trace(plan).visits
    #expect(visits.count == 3 && visits.allSatisfy { $0.scores == [-.infinity, -.infinity] })
  }
}

/// The stack's rules bind `scores` as every strategy: a swipe pin, Smart Rotate off and
/// the rotation limit each keep another widget on top than the highest score.
@Suite("The stack's rules override the top outside score")
struct ScoresUnderStackRulesTests {
  static let start = ms("2026-03-02T08:00:00Z")

  static func session(_ rules: StackRuleSettings) -> StackSession<DynamicPath<ScoresStrategy>, LastVisit> {
    var s = StackSession(
      person: 0, instances: ["A", "B"].map { WidgetInstance(id: $0, kind: $0) },
      path: DynamicPath(ScoresStrategy(parameters: .none)), observer: LastVisit(), zone: .utc,
      options: EngineOptions(), strategySeed: 1, rules: rules)
    s.makeAvailable(0)
    s.makeAvailable(1)
    return s
  }

  static func minutes(_ m: Double) -> Int64 { start + Int64(m * 60_000) }

  @Test func aSwipePinKeepsTheSwipedWidgetOverTheTopScoreUntilItEnds() {
    var s = Self.session(StackRuleSettings(developerMode: true, swipeCooldownMinutes: 60))
    s.outsideScore(instance: 1, 9, at: Self.minutes(0))
    #expect(s.visit(at: Self.minutes(1), hasTarget: false, targets: []).shown == 1)
    s.manualSwipe(to: 0, at: Self.minutes(2))
    let pinned = s.visit(at: Self.minutes(30), hasTarget: false, targets: [])
    #expect(pinned.shown == 0 && !pinned.rotated)
    // The pin has ended: the top score is shown again.
    let after = s.visit(at: Self.minutes(63), hasTarget: false, targets: [])
    #expect(after.shown == 1 && after.rotated)
  }

  @Test func smartRotateOffKeepsTheFirstWidgetShownWhateverTheScores() {
    var s = Self.session(StackRuleSettings(smartRotate: false, developerMode: true))
    s.outsideScore(instance: 0, 1, at: Self.minutes(0))
    #expect(s.visit(at: Self.minutes(1), hasTarget: false, targets: []).shown == 0)
    s.outsideScore(instance: 1, 5, at: Self.minutes(2))
    for m in [3.0, 30, 300] {
      let o = s.visit(at: Self.minutes(m), hasTarget: false, targets: [])
      #expect(o.shown == 0 && !o.rotated)
    }
  }

  @Test func theRotationLimitRefusesRotationsTheScoresAskFor() {
    var s = Self.session(StackRuleSettings(rotationLimit: RotationLimit(perHour: 1, perDay: 0)))
    var shown: [Int32] = []
    var rules: [String] = []
    // The top score alternates every 5 minutes for half an hour.
    for k in 0..<6 {
      s.outsideScore(instance: k % 2, Double(k + 1), at: Self.minutes(Double(5 * k)))
      let o = s.visit(at: Self.minutes(Double(5 * k + 1)), hasTarget: false, targets: [])
      shown.append(o.shown)
      rules.append("\(o.rule)")
    }
    // The first visit shows A (no rotation: nothing was on top), the second rotates to
    // B, the rest stay on B: one rotation an hour.
    #expect(shown == [0, 1, 1, 1, 1, 1])
    #expect(rules == ["latest outside score", "latest outside score"] + Array(repeating: "stack rotation limit", count: 4))
    #expect(s.context.rotations.count(after: Self.start) == 1)
  }
}
