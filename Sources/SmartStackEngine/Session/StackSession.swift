import SmartStackBase
import SmartStackData

/// Options of the engine that results depend on; every one is written into outputs.
public struct EngineOptions: Sendable, Hashable {
  /// A visit is "relevance-critical" when some candidate has an active window whose
  /// normalised percentile is at least this (default 0.8); such windows are the ones
  /// time-to-surface is measured on.
  public var relevanceThreshold: Double = 0.8
  /// Normalisation scope (instance or kind) and window (all history or last N days).
  public var normaliserScope: PercentileNormaliser.Scope = .instance
  public var normaliserWindow: PercentileNormaliser.Window = .all
  @inlinable public init() {}
}

/// One person's run: the stack, the shared features, the strategy and the observer.
///
/// The driver (replay or simulation) calls the event methods in time order, choosing
/// the next event with an `EventMerger`: at equal instants relevance entries first,
/// then outside scores, then visits, then donations, then revealed outcomes. `StackSession` never reads a
/// clock or a random source itself: time comes with each event and randomness lives in
/// the strategy.
///
/// The type is spread over files by concern:
/// - this file: the stored state, the events (availability, relevance entries, outside
///   scores, donations, swipes, outcomes) and the end of the run;
/// - `StackSession+Clock.swift`: `context.now` and the local calendar fields;
/// - `StackSession+Relevance.swift`: each instance's relevance state and percentile,
///   kept fresh lazily, the instances with a top-percentile window, and the window
///   events the observer is told of;
/// - `StackSession+Visit.swift`: a visit: the strategy's decision, the stack's rules,
///   the outcome;
/// - `StackSession+Decision.swift`: ranking the candidates, and reusing the last
///   decision (`DecisionCache` holds when it may).
///
/// - Complexity: a donation is O(k) for its k matched instances; a visit is O(n) for n
///   instances (plus O(n log m) with relevance timelines, m scores per instance).
@usableFromInline package struct StackSession<Path: EnginePath, Observer: OutcomeObserver>: Sendable {
  @usableFromInline package typealias Strategy = Path.Strategy
  /// The strategy, in the engine path of its refinement (`EnginePath`).
  @usableFromInline package var _path: Path
  @inlinable package var strategy: Strategy { _path.strategy }
  @inlinable package var observer: Observer { _observer }
  @usableFromInline package var _observer: Observer
  /// What the strategy sees; `context.features` are the shared features.
  @inlinable package var context: StackContext { _context }
  @usableFromInline package var _context: StackContext
  @usableFromInline package let person: Int32
  @usableFromInline package let instances: [WidgetInstance]
  @usableFromInline package let zone: ZoneRules
  @usableFromInline package let options: EngineOptions
  @usableFromInline package var ranking: Ranking
  @usableFromInline package var normaliser: PercentileNormaliser
  @usableFromInline package var hasRelevance = false
  /// Per-instance relevance trackers, refresh cache and top-percentile flags (see
  /// `EngineSlots`); written only through `uniqueSlots()`.
  @usableFromInline package var slots: EngineSlots
  /// The minimum of the slots' `validUntil`: visits before it skip the relevance refresh.
  @usableFromInline package var nextRelevanceRefresh = Int64.min
  /// True when instances share normaliser keys (scope `kind`): a score recorded for one
  /// changes the others' percentiles.
  @usableFromInline package let sharedNormaliserKeys: Bool
  // Clock cache: `hourOfDay`, `hourOfWeek` and `dayIndex` hold for UTC ms in
  // `clockValidFrom ..< clockValidUntil` (one local hour within one offset interval).
  @usableFromInline package var clockValidFrom = Int64.max
  @usableFromInline package var clockValidUntil = Int64.min
  /// The UTC offset (seconds) the clock reads local time in: the latest donation's or
  /// visit's own, or `UTCOffset.none` for the zone (`setRowOffset(_:)`).
  @usableFromInline package var clockOffset = UTCOffset.none
  /// Decision reuse: the policy derived from the strategy's refinement and the last
  /// ranked visit's decision (`DecisionCache`).
  @usableFromInline package var decisions: DecisionCache
  /// The stack's own rules: the swipe pin, Smart Rotate and the rotation limit's history
  /// (`StackRuleState`); each visit's policy comes from it unless the caller gives one.
  @usableFromInline package var rules: StackRuleState
  /// The probability with which each instance was shown at the last visit, kept only
  /// when the observer reads it (`shownProbabilityReader`).
  @usableFromInline package var shownChoice: ShownProbabilityState
  /// How the observer is told shown probabilities, decided once at init: nil when it
  /// does not read them (it is no `ShownProbabilityObserver`, or a wrapper of which
  /// nothing reads them), and then no visit computes them.
  @usableFromInline package let shownProbabilityReader: ShownProbabilityReader?
  /// Visits decided without calling `rank`: the last decision reused, or updated for the
  /// instances whose inputs changed (for tests and profiling).
  @inlinable package var reusedDecisionCount: Int { decisions.reusedCount }

  @inlinable package init(
    person: Int32, instances: [WidgetInstance], path: Path, observer: Observer,
    zone: ZoneRules, options: EngineOptions, strategySeed: UInt64, rules: StackRuleSettings = .unconstrained
  ) {
    self.init(
      person: person, instances: instances, path: path, observer: observer, zone: zone, options: options,
      strategySeed: strategySeed, ranksAtEveryVisit: false, rules: rules)
  }

  /// A session of `strategy` on `DynamicPath` (its refinement found at each call), for
  /// tests and tools that hold the strategy only generically.
  @inlinable package init<S: RankingStrategy>(
    person: Int32, instances: [WidgetInstance], strategy: S, observer: Observer,
    zone: ZoneRules, options: EngineOptions, strategySeed: UInt64
  ) where Path == DynamicPath<S> {
    self.init(
      person: person, instances: instances, path: DynamicPath(strategy), observer: observer, zone: zone,
      options: options, strategySeed: strategySeed, ranksAtEveryVisit: false)
  }

  /// The session; with `ranksAtEveryVisit`, one that calls the strategy's own `rank` at
  /// every visit whatever its refinement: the reference `StrategyConformance` compares
  /// the fast paths with (the decisions must be the same).
  @inlinable package init(
    person: Int32, instances: [WidgetInstance], path: Path, observer: Observer,
    zone: ZoneRules, options: EngineOptions, strategySeed: UInt64, ranksAtEveryVisit: Bool,
    rules: StackRuleSettings = .unconstrained
  ) {
    self.rules = StackRuleState(rules)
    self.shownChoice = ShownProbabilityState(strategySeed: strategySeed)
    self.shownProbabilityReader = ShownProbabilityReader(observer)
    self.person = person
    self.instances = instances
    self._path = path
    self._observer = observer
    self.zone = zone
    self.options = options
    let n = instances.count
    _context = StackContext(
      now: Int64.min, hourOfDay: 0, hourOfWeek: 0, dayIndex: 0,
      features: StackFeatures(instances: instances), shown: -1, shownSince: Int64.min,
      target: [])
    ranking = Ranking(instanceCount: n)
    normaliser = PercentileNormaliser(scope: options.normaliserScope, window: options.normaliserWindow)
    var keys: [Int] = []
    var kinds: [String] = []
    for instance in instances {
      if options.normaliserScope == .kind {
        if let k = kinds.firstIndex(of: instance.kind) {
          keys.append(k)
        } else {
          kinds.append(instance.kind)
          keys.append(kinds.count - 1)
        }
      } else {
        keys.append(keys.count)
      }
    }
    slots = EngineSlots(keys: keys, kindOrder: _context.features.kindOrder)
    sharedNormaliserKeys = kinds.count < keys.count && options.normaliserScope == .kind
    self._path.strategy.begin(StrategySetup(instances: instances, seed: strategySeed))
    decisions = DecisionCache(
      Path.self, reads: self._path.reads, instanceCount: n, ranksAtEveryVisit: ranksAtEveryVisit)
    self._observer.beginPerson(person, instances: instances)
    if shownProbabilityReader != nil { shownChoice.begin(Strategy.self) }
  }


  /// Marks instance `i` as a candidate from now on (stacks built from donations add a
  /// kind the first time the person donates it; fixed stacks make all available).
  @inlinable package mutating func makeAvailable(_ i: Int) {
    setAvailable(i, true)
  }

  /// Makes instance `i` a candidate or not (a Widget Suggestion inserted into the stack
  /// and removed again). When the shown instance stops being a candidate, the next visit
  /// shows another.
  @inlinable package mutating func setAvailable(_ i: Int, _ available: Bool) {
    guard _context.features._available[i] != available else { return }
    _context.features._available[i] = available
    decisions.invalidate()
    _observer.availabilityChanged(instance: Int32(truncatingIfNeeded: i), available: available)
  }

  /// The person swiped the stack to instance `i` by hand at `time`: it is on top from now
  /// on (the next visit starts from it), pinned against rotation for the settings' swipe
  /// cooldown (`StackRuleState`: the next visits' policy is `VisitPolicy.forced`).
  @inlinable package mutating func manualSwipe(to i: Int, at time: Int64) {
    advanceClock(to: time)
    rules.swiped(to: Int32(i), at: time)
    if _context.shown != Int32(i) {
      _context.shown = Int32(i)
      _context.shownSince = time
    }
  }

  // MARK: - Events

  /// A relevance entry of instance `i` takes effect at its date.
  @inlinable package mutating func relevanceEntry(instance i: Int, entry: RelevanceEntry) {
    precondition(i >= 0 && i < instances.count, "relevance entry for instance \(i) of \(instances.count)")
    advanceClock(to: entry.date.milliseconds)
    hasRelevance = true
    let s = uniqueSlots()
    s.slots[i].tracker.apply(entry)
    if let relevance = entry.relevance {
      let key = s.slots[i].key
      normaliser.record(score: relevance.score, at: entry.date, key: key, storageIsUnique: ())
      if sharedNormaliserKeys {
        // The others of this key have a new score in their population.
        for j in 0..<s.count where s.slots[j].key == key { s.slots[j].validUntil = Int64.min }
        nextRelevanceRefresh = Int64.min
      }
    }
    // A new entry with relevance ends the window it replaces and may open a new one.
    refreshRelevance(i, s, replaced: entry.relevance != nil)
    let before = stateBeforeEvent()
    _path.strategy.observe(.relevance(instance: Int32(i)), context: _context)
    endDecisionIfStateChanged(before)
  }

  /// An outside model's score `value` for instance `i` takes effect at `time`
  /// (`--scores`): it becomes `context.features.outsideScore[i]` (replacing the one
  /// before), the decision cache learns that input changed for `i` alone
  /// (`VisitInputs.outsideScores`), and the strategy observes `.score(instance: i)`.
  ///
  /// - Complexity: O(1) plus the strategy's `observe`.
  @inlinable package mutating func outsideScore(instance i: Int, _ value: Double, at time: Int64) {
    precondition(i >= 0 && i < instances.count, "outside score for instance \(i) of \(instances.count)")
    advanceClock(to: time)
    _context.features._outsideScore[i] = value
    decisions.inputChanged(.outsideScores, instance: i)
    let before = stateBeforeEvent()
    _path.strategy.observe(.score(instance: Int32(i)), context: _context)
    endDecisionIfStateChanged(before)
  }

  /// The person's context values will be ids of `vocabulary` (`DeviceContext`); every
  /// signal is unknown until its first change. Call before the person's first context
  /// change (drivers call it once per person that has context).
  @inlinable package mutating func beginContext(_ vocabulary: ContextVocabulary) {
    _context._device.begin(vocabulary)
  }

  /// Context `signal` takes value id `value` at `time` (`--context`, a scenario's
  /// context routine): it becomes `context.device[signal]` and the strategy observes
  /// `.context(signal:)`. No cached decision depends on context (no `VisitInputs` names
  /// it), so only a change of the strategy's own state ends one.
  ///
  /// - Complexity: O(1) plus the strategy's `observe`.
  @inlinable package mutating func contextChange(_ signal: ContextSignal, value: Int32, at time: Int64) {
    advanceClock(to: time)
    _context._device.values[signal.rawValue] = value
    let before = stateBeforeEvent()
    _path.strategy.observe(.context(signal: signal), context: _context)
    endDecisionIfStateChanged(before)
  }

  /// The person donated: `kind` is the log's kind id, `matched` the stack instances the
  /// donation matches (DESIGN.md §4 matching).
  @inline(__always)
  @inlinable package mutating func donation(at time: Int64, kind: Int32, matched: ArraySlice<Int32>) {
    advanceClock(to: time)
    let hod = _context.hourOfDay
    let how = _context.hourOfWeek
    // When the last decision survives, the remembered keys follow the tie-break order
    // as it moves.
    let keepsDecision = decisions.survivesDonation
    if !matched.isEmpty {
      let s = uniqueSlots()
      for m in matched {
        let i = Int(m)
        precondition(i >= 0 && i < s.count, "donation matched instance \(i) of \(s.count)")
        _context.features.recordDonation(instance: i, at: time, hourOfDay: hod, hourOfWeek: how)
        s.promote(i, features: _context.features, movingKeys: keepsDecision)
        if keepsDecision { decisions.donationMatched(i) }
      }
    }
    _context.features._totalDonations &+= 1
    _context.features._lastDonatedInstance = matched.first ?? -1
    if !keepsDecision { decisions.invalidate() }
    let before = stateBeforeEvent()
    _path.strategy.observe(.donation(kind: kind, instances: matched), context: _context)
    endDecisionIfStateChanged(before)
  }

  /// The outcome of an earlier visit becomes observable at `time`.
  @inlinable package mutating func reveal(_ feedback: VisitFeedback, at time: Int64) {
    guard Path.observesOutcomes else { return }
    advanceClock(to: time)
    let before = stateBeforeEvent()
    _path.observe(outcome: feedback, context: _context)
    endDecisionIfStateChanged(before)
  }

  /// The person responded to the last visit (simulation, rule replay): the observer is
  /// told. A swipe's pin and a donation are separate events (`manualSwipe`, `donation`).
  @inlinable package mutating func responded(_ response: VisitResponse) {
    _observer.responded(response)
  }

  /// Ends the person's run at `time`: the observer is told.
  @inlinable package mutating func finish(at time: Int64) {
    _observer.endPerson(person)
  }

  /// Takes the observer out (e.g. to merge metrics) after `finish`.
  @inlinable package func finishedObserver() -> Observer { observer }
}
