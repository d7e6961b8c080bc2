import SmartStackBase
import SmartStackData

/// What happened at one scored Home Screen visit: what the stack showed, whether the person
/// wanted something and how the stack ranked it, and the relevance situation. Metric
/// observers are fed these.
///
/// Every field is a plain value (no reference, no field needing a release), so an outcome
/// is trivially copied and destroyed: building one at every visit costs no reference
/// counting. Which instances the target matches is not a field: an observer receives
/// them beside the outcome, evaluated only when it reads them
/// (`OutcomeObserver.observe(_:targets:scores:features:)`).
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
  /// the visit within the horizon; in simulation, something the person wanted. The stack
  /// instances it matches are `observe`'s `targets`.
  public var hasTarget: Bool
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
  /// The name of the rule that decided the visit (for traces and explanations): the
  /// strategy's own rule when the strategy decided (`decidedBy == .strategy`), else the
  /// stack rule's name (`VisitRule.name`).
  public var rule: StaticString
  /// Which rule decided the visit: the strategy, or which of the stack's own rules
  /// (`StackRules`). What to test, rather than `rule`'s text.
  public var decidedBy: VisitRule
  /// The probability with which the engine showed `shown` at this visit, given the
  /// state before it (`ShownProbabilities`: the strategy's stated probability restricted
  /// to what the rules allow; 1 when a rule fixed the shown instance or the strategy is
  /// deterministic). Computed only when the run's observer reads it (a
  /// `ShownProbabilityObserver`), and NaN otherwise or when a stochastic strategy states
  /// no probabilities.
  public var shownProbability: Double
  /// On a surface of several cards (the watch, `WatchCardObserver`): the cards on screen
  /// at this visit, min(K, candidates) for the platform's K, the first `cards` places of
  /// the presented order, so a target at `targetRank` in `1...cards` was on screen. 0 on
  /// iPhone, whose stack shows one widget: card metrics count watch visits only.
  public var cards: Int32 = 0
  /// The memberwise initialiser, for the engine's inlinable code.
  @inlinable package init(person: Int32, time: Int64, dayIndex: Int64, hourOfDay: Int, shown: Int32, previous: Int32, rotated: Bool, hasTarget: Bool, targetRank: Int, candidateCount: Int, shownState: RelevanceState, relevanceCritical: Bool, relevanceHonoured: Bool, rule: StaticString, decidedBy: VisitRule = .strategy, shownProbability: Double = .nan) {
    self.person = person
    self.time = time
    self.dayIndex = dayIndex
    self.hourOfDay = hourOfDay
    self.shown = shown
    self.previous = previous
    self.rotated = rotated
    self.hasTarget = hasTarget
    self.targetRank = targetRank
    self.candidateCount = candidateCount
    self.shownState = shownState
    self.relevanceCritical = relevanceCritical
    self.relevanceHonoured = relevanceHonoured
    self.rule = rule
    self.decidedBy = decidedBy
    self.shownProbability = shownProbability
  }

  /// True when the shown instance is one of the targets.
  @inlinable public var isHit: Bool { targetRank == 1 }
}

/// What the person did at a visit after seeing what the stack showed (simulation and
/// rule replay; replay has no responses): tap the shown widget, swipe the stack to a
/// wanted widget, open the wanted app by hand, or nothing.
public enum VisitAction: UInt8, Sendable, Hashable, CaseIterable {
  case none, tap, swipe, open

  /// The name in exposure logs: `none`, `tap`, `swipe`, `open`.
  public var name: String {
    switch self {
    case .none: return "none"
    case .tap: return "tap"
    case .swipe: return "swipe"
    case .open: return "open"
    }
  }
}

/// The person's response to the visit an observer was just told of (`OutcomeObserver`).
public struct VisitResponse: Sendable, Equatable {
  /// The visit, epoch ms.
  public var time: Int64
  public var action: VisitAction
  /// The instance the person swiped to (`.swipe`), else -1.
  public var swipedTo: Int32
  /// The app (the donation's kind id) the person wanted at the visit, -1 for no want.
  public var app: Int32
  @inlinable public init(time: Int64, action: VisitAction, swipedTo: Int32 = -1, app: Int32) {
    self.time = time
    self.action = action
    self.swipedTo = swipedTo
    self.app = app
  }
}

/// Receives every scored visit, and the stack events a metric of relevance windows needs,
/// of a run, in time order per person. Observers are generic parameters of the engine,
/// so feeding them costs no dynamic dispatch.
///
/// The window events are facts of the stack, not a metric: what the experiments layer's
/// `WindowWatch` measures (how long until a top-percentile window is shown, over how many
/// visits) is computed from them in O(1) per event and per visit.
///
/// The visit's targets come to `observe` as an argument evaluated only when the observer
/// reads it: an observer that never calls `targets()` costs the driver nothing for them
/// (no slice of the plan's arrays, no reference counting), and one that calls it always
/// gets them. There is no declaration to get wrong.
public protocol OutcomeObserver: Sendable {
  /// Called before the person's first event. Every instance starts as no candidate.
  mutating func beginPerson(_ person: Int32, instances: [WidgetInstance])
  /// One scored visit. `targets()` gives the stack instances the visit's target matches
  /// (empty when there is no target, `outcome.hasTarget` false, or the target is outside
  /// the stack); it is evaluated at each call, O(1) in replay and simulation (a slice of
  /// the driver's arrays), and only at a call. `scores` are the
  /// strategy's scores (indexed by instance).
  mutating func observe(
    _ outcome: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures)
  /// `instance` became a candidate of the stack (`available`) or stopped being one; told
  /// only on a change, between visits.
  mutating func availabilityChanged(instance: Int32, available: Bool)
  /// `instance`'s relevance window is active with a normalised percentile at or above the
  /// run's `EngineOptions.relevanceThreshold` ("top-percentile"), and was not at the
  /// previous refresh of its state, or the window is new (it replaced another, which
  /// `windowEnded` reported first). `start` is the window's start (epoch ms; the current
  /// time when the entry has no date of its own).
  mutating func windowReachedThreshold(instance: Int32, start: Int64)
  /// `instance`'s active relevance window ended: it expired, became suppressed or
  /// inactive, or a new entry replaced it. Told for every active window, top-percentile
  /// or not.
  mutating func windowEnded(instance: Int32)
  /// Called after the person's last event (windows still active are not ended first).
  mutating func endPerson(_ person: Int32)
  /// The person's response to the visit last given to `observe`, told right after it by
  /// drivers that simulate people (simulation, rule replay); replay never calls it.
  mutating func responded(_ response: VisitResponse)
}

extension OutcomeObserver {
  @inlinable public mutating func beginPerson(_ person: Int32, instances: [WidgetInstance]) {}
  @inlinable public mutating func availabilityChanged(instance: Int32, available: Bool) {}
  @inlinable public mutating func windowReachedThreshold(instance: Int32, start: Int64) {}
  @inlinable public mutating func windowEnded(instance: Int32) {}
  @inlinable public mutating func endPerson(_ person: Int32) {}
  @inlinable public mutating func responded(_ response: VisitResponse) {}
}

/// Two observers fed together (compose more by nesting).
///
/// A `ShownProbabilityObserver` whatever its sides: it forwards the probabilities to
/// each side that reads them, as decided at its initialisation (`ShownProbabilityReader`
/// of each side), and a session fed through a pair of which no side reads them
/// computes none (`ShownProbabilityForwarder`).
public struct ObserverPair<A: OutcomeObserver, B: OutcomeObserver>: ShownProbabilityObserver, ShownProbabilityForwarder {
  public var first: A
  public var second: B
  /// The readers of `first` and `second` (nil for a side that does not read shown
  /// probabilities), from the sides given at initialisation.
  @usableFromInline package let firstReader: ShownProbabilityReader?
  @usableFromInline package let secondReader: ShownProbabilityReader?
  @inlinable public init(_ first: A, _ second: B) {
    self.first = first
    self.second = second
    firstReader = ShownProbabilityReader(first)
    secondReader = ShownProbabilityReader(second)
  }
  @inlinable public mutating func beginPerson(_ person: Int32, instances: [WidgetInstance]) {
    first.beginPerson(person, instances: instances)
    second.beginPerson(person, instances: instances)
  }
  /// Each observer evaluates `targets` only if it reads them.
  @inlinable public mutating func observe(
    _ outcome: VisitOutcome, targets: @autoclosure () -> ArraySlice<Int32>, scores: [Double], features: StackFeatures
  ) {
    first.observe(outcome, targets: targets(), scores: scores, features: features)
    second.observe(outcome, targets: targets(), scores: scores, features: features)
  }
  @inlinable public mutating func availabilityChanged(instance: Int32, available: Bool) {
    first.availabilityChanged(instance: instance, available: available)
    second.availabilityChanged(instance: instance, available: available)
  }
  @inlinable public mutating func windowReachedThreshold(instance: Int32, start: Int64) {
    first.windowReachedThreshold(instance: instance, start: start)
    second.windowReachedThreshold(instance: instance, start: start)
  }
  @inlinable public mutating func windowEnded(instance: Int32) {
    first.windowEnded(instance: instance)
    second.windowEnded(instance: instance)
  }
  @inlinable public mutating func endPerson(_ person: Int32) {
    first.endPerson(person)
    second.endPerson(person)
  }
  @inlinable public mutating func responded(_ response: VisitResponse) {
    first.responded(response)
    second.responded(response)
  }
  @inlinable package var forwardsShownProbabilities: Bool { firstReader != nil || secondReader != nil }
  @inlinable public mutating func shownProbabilities(_ probabilities: ShownProbabilities) {
    firstReader?.tell(&first, probabilities)
    secondReader?.tell(&second, probabilities)
  }
}
