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

/// A strategy written outside the library: it records everything it is told and shows
/// the candidate with the highest index. It proves that a strategy plugs in without
/// touching the engine, and lets tests check what the engine reveals and when.
struct RecordingStrategy: OutcomeLearningStrategy {
  static let info = StrategyInfo(
    name: "recording", summary: "test strategy: the highest-index candidate; records its calls",
    parameters: [StrategyParameterSpec("bias", default: 0, range: 0...1, help: "unused")])
  var log: [String] = []
  var latestSeen = Int64.min
  var sawFuture = false

  init(parameters: StrategyParameters) {}

  mutating func observe(_ event: ObservedEvent, context: StackContext) {
    if context.now < latestSeen { sawFuture = true }
    latestSeen = max(latestSeen, context.now)
    let t = ISO8601.format(Instant(milliseconds: context.now))
    switch event {
    case .donation(_, let instances): log.append("\(t) donation \(Array(instances))")
    case .relevance(let i): log.append("\(t) relevance \(i)")
    case .score(let i): log.append("\(t) score \(i)")
    case .context(let signal): log.append("\(t) context \(signal.name)=\(context.device.name(signal) ?? "?")")
    }
  }

  mutating func observe(outcome f: VisitFeedback, context: StackContext) {
    if context.now < latestSeen { sawFuture = true }
    latestSeen = max(latestSeen, context.now)
    log.append("\(ISO8601.format(Instant(milliseconds: context.now))) outcome shown=\(f.shown) tapped=\(f.tapped)")
  }

  mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    if context.now < latestSeen { sawFuture = true }
    log.append("\(ISO8601.format(Instant(milliseconds: context.now))) visit target=\(Array(context.target))")
    for i in 0..<context.instanceCount where context.isCandidate(i) { ranking.scores[i] = Double(i) }
  }
}

/// Keeps the last strategy state seen, to inspect after a run.
struct LastVisit: OutcomeObserver {
  var outcomes: [VisitOutcome] = []
  mutating func observe(
    _ outcome: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    outcomes.append(outcome)
  }
}

@Suite("Engine event order")
struct EngineOrderingTests {
  func session() -> StackSession<DynamicPath<RecordingStrategy>, LastVisit> {
    StackSession(
      person: 0, instances: [WidgetInstance(id: "a", kind: "A"), WidgetInstance(id: "b", kind: "B")],
      strategy: RecordingStrategy(parameters: .none), observer: LastVisit(), zone: .utc,
      options: EngineOptions(), strategySeed: 1)
  }

  /// The external strategy registers in one line and runs through the public API.
  @Test func anExternalStrategyPlugsInWithoutTouchingTheEngine() throws {
    var registry = StrategyRegistry.builtIn
    registry.register(RecordingStrategy.self)
    let choice = try registry.parse("recording:bias=1")
    #expect(choice.descriptor.description == "recording:bias=1")
    var options = ReplayOptions()
    options.stack = .fixed(StackSpec(file: "s", instances: [WidgetInstance(id: "A", kind: "A"), WidgetInstance(id: "B", kind: "B"), WidgetInstance(id: "C", kind: "C")]))
    let plan = try ReplayPlan(log: HandLog.log(), options: options)
    let m = RunMetrics(Replay.run(plan, choice: choice), days: LocalDays(plan: plan))
    // Always shows C (highest index): hits are the visits whose target is C (one).
    #expect(m.total.hits == 1)
    #expect(m.total.visits == 8)
  }

  /// Replay reveals a tap at the time of the donation that made it a hit, never at the
  /// visit, reveals a miss once the horizon has passed, and hides the target from
  /// strategies without `usesTarget`.
  @Test func outcomesAreRevealedOnlyWhenObservable() throws {
    var options = ReplayOptions()
    options.stack = .fixed(StackSpec(file: "s", instances: [WidgetInstance(id: "A", kind: "A"), WidgetInstance(id: "B", kind: "B")]))
    options.visits = .log(VisitLog(file: "v", users: ["u", "u"], times: [ms("2026-03-02T08:07:00Z"), ms("2026-03-02T08:58:00Z")]))
    let plan = try ReplayPlan(log: HandLog.log(), options: options)
    var s = StackSession(
      person: 0, instances: plan.people[0].instances, strategy: RecordingStrategy(parameters: .none),
      observer: LastVisit(), zone: .utc, options: EngineOptions(), strategySeed: 1)
    Replay.run(plan.people[0], horizon: 300_000, session: &s)
    let log = s.strategy.log
    // 08:07 shows B (highest index), target B at 08:10: a tap revealed at 08:10, right
    // after that donation. 08:58 shows B, target A at 09:00: a miss revealed at 09:03.
    #expect(Array(log.prefix(6)) == [
      "2026-03-02T08:00:00Z donation [0]",
      "2026-03-02T08:07:00Z visit target=[]",
      "2026-03-02T08:10:00Z donation [1]",
      "2026-03-02T08:10:00Z outcome shown=1 tapped=true",
      "2026-03-02T08:58:00Z visit target=[]",
      "2026-03-02T09:00:00Z donation [0]",
    ])
    #expect(log.contains("2026-03-02T09:03:00Z outcome shown=1 tapped=false"))
    #expect(s.observer.outcomes.map(\.isHit) == [true, false])
    #expect(!s.strategy.sawFuture)
  }

  /// At equal instants: relevance entry, then visit, then donation.
  @Test func entriesThenVisitsThenDonationsAtEqualInstants() {
    var s = session()
    s.makeAvailable(0)
    s.makeAvailable(1)
    let t = ms("2026-03-02T08:00:00Z")
    s.relevanceEntry(instance: 1, entry: RelevanceEntry(date: Instant(milliseconds: t), relevance: Relevance(score: 5)))
    s.visit(at: t, hasTarget: true, targets: [0])
    s.donation(at: t, kind: 0, matched: [0])
    #expect(s.strategy.log == [
      "2026-03-02T08:00:00Z relevance 1",
      "2026-03-02T08:00:00Z visit target=[]",
      "2026-03-02T08:00:00Z donation [0]",
    ])
    #expect(!s.strategy.sawFuture)
  }

  /// The visit before a donation sees counts without it; the one after sees it.
  @Test func aVisitNeverSeesTheDonationThatFollowsIt() {
    var s = session()
    s.makeAvailable(0)
    s.makeAvailable(1)
    let t = ms("2026-03-02T08:00:00Z")
    s.visit(at: t, hasTarget: false, targets: [])
    #expect(s.context.features.donationCount == [0, 0])
    s.donation(at: t, kind: 0, matched: [1])
    #expect(s.context.features.donationCount == [0, 1])
    #expect(s.context.features.hourOfDayCount[1 * 24 + 8] == 1)
    #expect(s.context.features.lastDonation[1] == t)
  }

  /// A rotation is a change of the shown instance after the first visit; the first
  /// visit never counts.
  @Test func rotationsCountChangesOfTheTopOnly() {
    var s = session()
    s.makeAvailable(0)
    let t = ms("2026-03-02T08:00:00Z")
    var o = s.visit(at: t, hasTarget: false, targets: [])
    #expect(o.shown == 0 && !o.rotated)
    s.makeAvailable(1)
    o = s.visit(at: t + 1000, hasTarget: false, targets: [])
    #expect(o.shown == 1 && o.rotated && o.previous == 0)
    o = s.visit(at: t + 2000, hasTarget: false, targets: [])
    #expect(!o.rotated)
  }

  /// A pinned (swiped) instance stays on top whatever the strategy says; with
  /// `noRotation` the current top stays; a swipe moves the top between visits.
  @Test func visitPoliciesOverrideTheStrategy() {
    var s = session()
    s.makeAvailable(0)
    s.makeAvailable(1)
    let t = ms("2026-03-02T08:00:00Z")
    // RecordingStrategy prefers the highest index (1).
    #expect(s.visit(at: t, hasTarget: false, targets: []).shown == 1)
    var o = s.visit(at: t + 1, hasTarget: true, targets: [0], policy: .forced(0))
    #expect(o.shown == 0 && o.isHit && "\(o.rule)" == "manual swipe pin")
    o = s.visit(at: t + 2, hasTarget: false, targets: [], policy: .noRotation(.smartRotateOff))
    #expect(o.shown == 0 && !o.rotated)
    s.manualSwipe(to: 1, at: t + 3)
    o = s.visit(at: t + 4, hasTarget: false, targets: [], policy: .noRotation(.smartRotateOff))
    #expect(o.shown == 1 && !o.rotated)
    // A suggestion removed from the stack cannot be shown.
    s.setAvailable(1, false)
    o = s.visit(at: t + 5, hasTarget: false, targets: [], policy: .noRotation(.smartRotateOff))
    #expect(o.shown == 0)
  }
}
