import SmartStackTesting
import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

/// Everything observable of a run: each visit's decision with its scores and rule, and
/// each closed window.
struct EngineTranscript: OutcomeObserver, Equatable {
  var lines: [String] = []
  var watch = WindowWatch()
  static func == (a: Self, b: Self) -> Bool { a.lines == b.lines }
  mutating func beginPerson(_ person: Int32, instances: [WidgetInstance]) {
    watch.beginPerson(instanceCount: instances.count)
  }
  mutating func availabilityChanged(instance: Int32, available: Bool) {
    watch.availabilityChanged(instance: instance, available: available)
  }
  mutating func windowReachedThreshold(instance: Int32, start: Int64) {
    watch.windowReachedThreshold(instance: instance, start: start)
  }
  mutating func windowEnded(instance: Int32) {
    if let w = watch.windowEnded(instance: instance) { lines.append("w \(w)") }
  }
  mutating func endPerson(_ person: Int32) {
    for w in watch.endPerson() { lines.append("w \(w)") }
  }
  mutating func observe(
    _ o: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    watch.visit(shown: o.shown, time: o.time)
    lines.append(
      "v \(o.time) shown \(o.shown) prev \(o.previous) rank \(o.targetRank) of \(o.candidateCount) "
        + "crit \(o.relevanceCritical) hon \(o.relevanceHonoured) state \(o.shownState.name) "
        + "rule \(o.rule) scores \(scores.map { $0.bitPattern })")
  }
}

/// One random event of a person's run on a six-instance stack, including what only
/// simulation does (stack rules, manual swipes, outcome reveals) and a clock that
/// sometimes steps back: the conformance checker's generated worlds.
typealias EngineTestEvent = WorldEvent

extension WorldEvent {
  /// `count` events of the world of `seed` (`GeneratedWorld`).
  static func stream(seed: UInt64, count: Int) -> [WorldEvent] {
    GeneratedWorld(seed: seed, eventCount: count).events
  }
}

extension Sequence<WorldEvent> {
  /// Feeds every event to `session`, in order.
  func apply<S, O>(to session: inout StackSession<DynamicPath<S>, O>) {
    for event in self { event.apply(to: &session) }
  }
}

/// A visit of an event stream as the engine decided it (see `forEachVisit(on:_:)`).
struct EngineTestVisit {
  var time: Int64
  var targets: [Int32]
  var policy: VisitPolicy
  /// The instance on top before the visit (-1 at the first).
  var previous: Int
  var outcome: VisitOutcome
}

extension Sequence<WorldEvent> {
  /// Feeds every event to `session`, in order, and calls `body` after each visit with
  /// the visit and the session as it is right after it.
  func forEachVisit<S, O>(
    on session: inout StackSession<DynamicPath<S>, O>, _ body: (EngineTestVisit, StackSession<DynamicPath<S>, O>) -> Void
  ) {
    for event in self {
      guard case .visit(let t, let targets, let policy) = event else {
        event.apply(to: &session)
        continue
      }
      let previous = Int(session.context.shown)
      let outcome = session.visit(at: t, hasTarget: !targets.isEmpty, targets: targets[...], policy: policy)
      body(EngineTestVisit(time: t, targets: targets, policy: policy, previous: previous, outcome: outcome), session)
    }
  }
}
