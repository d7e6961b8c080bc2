import SmartStackBase
import SmartStackData

/// What happened at one scored Home Screen visit: what the stack showed, what the person
/// wanted, and the relevance situation. Metric observers are fed these.
public struct VisitOutcome: Sendable {
  /// The person (dense id within the run).
  public var person: Int32
  /// Visit time, epoch ms.
  public var time: Int64
  /// Local day index and hour of day of the visit.
  public var dayIndex: Int64
  public var hourOfDay: Int
  /// The instance shown after the decision (-1 when the stack had no candidate).
  public var shown: Int32
  /// The instance shown before this visit (-1 at the first visit).
  public var previous: Int32
  /// True when `shown != previous` and `previous != -1`.
  public var rotated: Bool
  /// True when the visit has a target: in replay, a donation of this person at or after
  /// the visit within the horizon; in simulation, something the person wanted.
  public var hasTarget: Bool
  /// The stack instances the target matches (empty when the target is outside the stack).
  public var targets: ArraySlice<Int32>
  /// 1-based rank of the best-ranked target instance among the candidates; 0 when no
  /// target instance was a candidate (or there is no target).
  public var targetRank: Int
  /// Number of candidates at this visit.
  public var candidateCount: Int
  /// Relevance state of the shown instance at the visit.
  public var shownState: RelevanceState
  /// True when some candidate had an active window whose percentile is at least the
  /// run's relevance threshold ("a top-percentile window").
  public var relevanceCritical: Bool
  /// True when `relevanceCritical` and the shown instance is one of those candidates.
  public var relevanceHonoured: Bool
  /// The rule the strategy named for its decision (for traces).
  public var rule: StaticString
  /// The memberwise initialiser, for the engine's inlinable code.
  @inlinable package init(person: Int32, time: Int64, dayIndex: Int64, hourOfDay: Int, shown: Int32, previous: Int32, rotated: Bool, hasTarget: Bool, targets: ArraySlice<Int32>, targetRank: Int, candidateCount: Int, shownState: RelevanceState, relevanceCritical: Bool, relevanceHonoured: Bool, rule: StaticString) {
    self.person = person
    self.time = time
    self.dayIndex = dayIndex
    self.hourOfDay = hourOfDay
    self.shown = shown
    self.previous = previous
    self.rotated = rotated
    self.hasTarget = hasTarget
    self.targets = targets
    self.targetRank = targetRank
    self.candidateCount = candidateCount
    self.shownState = shownState
    self.relevanceCritical = relevanceCritical
    self.relevanceHonoured = relevanceHonoured
    self.rule = rule
  }

  /// True when the shown instance is one of the targets.
  @inlinable public var isHit: Bool { targetRank == 1 }
}

/// Receives every scored visit and relevance-window event of a run, in time order per
/// person. Observers are generic parameters of the engine, so feeding them costs no
/// dynamic dispatch.
public protocol OutcomeObserver: Sendable {
  /// False when `observe` never reads `VisitOutcome.targets` (default true): drivers may
  /// then leave it empty, which saves reference counting at every visit. `hasTarget`
  /// and `targetRank` are always filled.
  static var observesTargets: Bool { get }
  /// Called before the person's first event.
  mutating func beginPerson(_ person: Int32, instances: [WidgetInstance])
  /// One scored visit. `scores` are the strategy's scores (indexed by instance).
  mutating func observe(_ outcome: VisitOutcome, scores: [Double], features: StackFeatures)
  /// A top-percentile relevance window of `instance` ended (replaced, expired, or the run
  /// ended). `visits` counts scored visits while it was open; `surfacedAfter` is the time
  /// from the window's start to the first of those visits that showed the instance
  /// (milliseconds), or nil when none did.
  mutating func windowClosed(instance: Int32, start: Int64, visits: Int, surfacedAfter: Int64?)
  /// Called after the person's last event.
  mutating func endPerson(_ person: Int32)
}

extension OutcomeObserver {
  @inlinable public static var observesTargets: Bool { true }
  @inlinable public mutating func beginPerson(_ person: Int32, instances: [WidgetInstance]) {}
  @inlinable public mutating func windowClosed(instance: Int32, start: Int64, visits: Int, surfacedAfter: Int64?) {}
  @inlinable public mutating func endPerson(_ person: Int32) {}
}

/// Two observers fed together (compose more by nesting).
public struct ObserverPair<A: OutcomeObserver, B: OutcomeObserver>: OutcomeObserver {
  @inlinable public static var observesTargets: Bool { A.observesTargets || B.observesTargets }
  public var first: A
  public var second: B
  @inlinable public init(_ first: A, _ second: B) {
    self.first = first
    self.second = second
  }
  @inlinable public mutating func beginPerson(_ person: Int32, instances: [WidgetInstance]) {
    first.beginPerson(person, instances: instances)
    second.beginPerson(person, instances: instances)
  }
  @inlinable public mutating func observe(_ outcome: VisitOutcome, scores: [Double], features: StackFeatures) {
    first.observe(outcome, scores: scores, features: features)
    second.observe(outcome, scores: scores, features: features)
  }
  @inlinable public mutating func windowClosed(instance: Int32, start: Int64, visits: Int, surfacedAfter: Int64?) {
    first.windowClosed(instance: instance, start: start, visits: visits, surfacedAfter: surfacedAfter)
    second.windowClosed(instance: instance, start: start, visits: visits, surfacedAfter: surfacedAfter)
  }
  @inlinable public mutating func endPerson(_ person: Int32) {
    first.endPerson(person)
    second.endPerson(person)
  }
}
