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
/// The driver (replay or simulation) calls the event methods in time order; at equal
/// instants it calls relevance entries first, then visits, then donations, then revealed
/// outcomes (DESIGN.md §3). `StackSession` never reads a clock or a random source
/// itself: time comes with each event and randomness lives in the strategy.
///
/// - Complexity: a donation is O(k) for its k matched instances; a visit is O(n) for n
///   instances (plus O(n log m) with relevance timelines, m scores per instance).
public struct StackSession<Strategy: RankingStrategy, Observer: OutcomeObserver>: Sendable {
  @inlinable public var strategy: Strategy { _strategy }
  @usableFromInline package var _strategy: Strategy
  @inlinable public var observer: Observer { _observer }
  @usableFromInline package var _observer: Observer
  /// What the strategy sees; `context.features` are the shared features.
  @inlinable public var context: StackContext { _context }
  @usableFromInline package var _context: StackContext
  public let person: Int32
  public let instances: [WidgetInstance]
  @usableFromInline package let zone: ZoneRules
  @usableFromInline package let options: EngineOptions
  @usableFromInline package var ranking: Ranking
  @usableFromInline package var normaliser: PercentileNormaliser
  @usableFromInline package var hasRelevance = false
  /// Per-instance relevance trackers, refresh cache, top-percentile flags and watched
  /// windows (see `EngineSlots`); written only through `uniqueSlots()`.
  @usableFromInline package var slots: EngineSlots
  /// The minimum of the slots' `validUntil`: visits before it skip the relevance refresh.
  @usableFromInline package var nextRelevanceRefresh = Int64.min
  /// Scored visits so far.
  @usableFromInline package var visitCount = 0
  /// True when instances share normaliser keys (scope `kind`): a score recorded for one
  /// changes the others' percentiles.
  @usableFromInline package let sharedNormaliserKeys: Bool
  // Clock cache: `hourOfDay`, `hourOfWeek` and `dayIndex` hold for UTC ms in
  // `clockValidFrom ..< clockValidUntil` (one local hour within one offset interval).
  @usableFromInline package var clockValidFrom = Int64.max
  @usableFromInline package var clockValidUntil = Int64.min
  // Decision reuse, derived from the refinement the strategy conforms to
  // (`StrategyPath`): its declared inputs, read once, and the last ranked visit's
  // decision with the inputs it was made for.
  @usableFromInline package let reads: VisitInputs
  /// True when the strategy's scores read the donation features.
  @usableFromInline package let readsDonations: Bool
  /// False when the strategy ranks at every visit (a plain `RankingStrategy`, a
  /// `TargetAwareStrategy`, or `reads` containing `.now`).
  @usableFromInline package let reusesDecisions: Bool
  /// The strategy rescores changed instances alone (`InstanceScoringStrategy`, at most
  /// `ChangedInstances.capacity` instances).
  @usableFromInline package let rescoresInstances: Bool
  /// The reference mode of `StrategyConformance`: the strategy's own `rank` at every
  /// visit, nothing derived from its refinement.
  @usableFromInline package let ranksAtEveryVisit: Bool
  /// The remembered order keys can be kept up to date through donations (declared
  /// inputs and at most `ChangedInstances.capacity` instances); past that size a
  /// donation ends the last decision.
  @usableFromInline package let tracksKeys: Bool
  /// Instances whose own inputs (relevance, donations, being shown) changed since the
  /// last decision, for `rescoresInstances`: rescored at the next visit.
  @usableFromInline package var changed = ChangedInstances()
  /// Instances whose order key `promote` moved in place since the last decision (their
  /// scores stand): the next visit checks whether they overtook the top.
  @usableFromInline package var retied = ChangedInstances()
  /// The last decision may be reused: nothing it depends on changed since.
  @usableFromInline package var decisionReusable = false
  @usableFromInline package var lastTop = -1
  @usableFromInline package var lastCandidates = 0
  @usableFromInline package var lastShown: Int32 = -1
  @usableFromInline package var lastHourOfDay = 0
  @usableFromInline package var lastHourOfWeek = 0
  @usableFromInline package var lastDayIndex: Int64 = 0
  /// Visits decided without calling `rank`: the last decision reused, or updated for the
  /// instances in `changed` and `retied` (for tests and profiling).
  @inlinable public var reusedDecisionCount: Int { _reusedDecisionCount }
  @usableFromInline package var _reusedDecisionCount = 0

  @inlinable public init(
    person: Int32, instances: [WidgetInstance], strategy: Strategy, observer: Observer,
    zone: ZoneRules, options: EngineOptions, strategySeed: UInt64
  ) {
    self.init(
      person: person, instances: instances, strategy: strategy, observer: observer, zone: zone, options: options,
      strategySeed: strategySeed, ranksAtEveryVisit: false)
  }

  /// The session; with `ranksAtEveryVisit`, one that calls the strategy's own `rank` at
  /// every visit whatever its refinement: the reference `StrategyConformance` compares
  /// the fast paths with (the decisions must be the same).
  @inlinable package init(
    person: Int32, instances: [WidgetInstance], strategy: Strategy, observer: Observer,
    zone: ZoneRules, options: EngineOptions, strategySeed: UInt64, ranksAtEveryVisit: Bool
  ) {
    self.person = person
    self.instances = instances
    self._strategy = strategy
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
    self._strategy.begin(StrategySetup(instances: instances, seed: strategySeed))
    reads = self._strategy._reads
    readsDonations = reads.contains(.donations)
    self.ranksAtEveryVisit = ranksAtEveryVisit
    reusesDecisions = !ranksAtEveryVisit && Strategy._path != .everyVisit && !Strategy._seesTarget && !reads.contains(.now)
    rescoresInstances = reusesDecisions && Strategy._path == .instanceScoring && n <= ChangedInstances.capacity
    tracksKeys = reusesDecisions && n <= ChangedInstances.capacity
    self._observer.beginPerson(person, instances: instances)
  }

  /// Marks instance `i` as a candidate from now on (stacks built from donations add a
  /// kind the first time the person donates it; fixed stacks make all available).
  @inlinable public mutating func makeAvailable(_ i: Int) {
    setAvailable(i, true)
  }

  /// Makes instance `i` a candidate or not (a Widget Suggestion inserted into the stack
  /// and removed again). When the shown instance stops being a candidate, the next visit
  /// shows another.
  @inlinable public mutating func setAvailable(_ i: Int, _ available: Bool) {
    guard _context.features._available[i] != available else { return }
    _context.features._available[i] = available
    decisionReusable = false
    let s = uniqueSlots()
    if available {
      s.slots[i].candidateSince = visitCount
    } else {
      s.slots[i].candidateVisitsBefore &+= visitCount &- s.slots[i].candidateSince
    }
  }

  /// Scored visits so far at which instance `i` was a candidate: what a watched
  /// window's visit count is made of, without counting at every visit.
  @inline(__always)
  @inlinable package func candidateVisits(_ i: Int, _ s: SlotsView) -> Int {
    let slot = s.slots + i
    return _context.features._available[i]
      ? slot.pointee.candidateVisitsBefore &+ (visitCount &- slot.pointee.candidateSince)
      : slot.pointee.candidateVisitsBefore
  }

  /// The person swiped the stack to instance `i` by hand at `time`: it is on top from now
  /// on (the next visit starts from it). Pinning it against rotation is the driver's
  /// business (`VisitPolicy.forced`).
  @inlinable public mutating func manualSwipe(to i: Int, at time: Int64) {
    advanceClock(to: time)
    if _context.shown != Int32(i) {
      _context.shown = Int32(i)
      _context.shownSince = time
    }
  }

  /// Moves `context.now` to `time` and updates the local calendar fields.
  ///
  /// - Complexity: O(1) within the local hour of the previous call; O(log t) for t zone
  ///   transitions otherwise.
  @inline(__always)
  @inlinable mutating package func advanceClock(to time: Int64) {
    if time == _context.now { return }
    if time < _context.now { invalidateRelevanceCache() }
    _context.now = time
    if time >= clockValidFrom && time < clockValidUntil { return }
    recomputeClockFields(time)
  }

  /// Sets the calendar fields of `time` exactly as `ZoneRules.hourOfDay(at:)`,
  /// `hourOfWeek(at:)` and `dayIndex(at:)` do, and the span they stay valid for.
  @inline(never)
  @inlinable mutating package func recomputeClockFields(_ time: Int64) {
    let index = zone.intervalIndex(containing: time)
    let offset = zone.offsets[index]
    let local = time &+ offset
    _context.hourOfDay = WallClock.hourOfDay(local)
    _context.hourOfWeek = WallClock.hourOfWeek(local)
    _context.dayIndex = WallClock.dayIndex(local)
    // Cache only for sane instants (far from overflow): the local hour, in UTC, clipped
    // to the offset interval.
    let limit: Int64 = 1 << 60
    guard time > -limit && time < limit && offset > -limit && offset < limit else {
      clockValidFrom = .max
      clockValidUntil = .min
      return
    }
    let hourStart = local - Instant.floorModulo(local, Instant.millisecondsPerHour)
    let lower = zone.starts[index]
    let upper = index + 1 < zone.starts.count ? zone.starts[index + 1] : Int64.max
    clockValidFrom = max(hourStart - offset, lower)
    clockValidUntil = min(hourStart + Instant.millisecondsPerHour - offset, upper)
  }

  // MARK: - Events

  /// A relevance entry of instance `i` takes effect at its date.
  @inlinable public mutating func relevanceEntry(instance i: Int, entry: RelevanceEntry) {
    precondition(i >= 0 && i < instances.count, "relevance entry for instance \(i) of \(instances.count)")
    advanceClock(to: entry.date.milliseconds)
    hasRelevance = true
    let s = uniqueSlots()
    s.slots[i].tracker.apply(entry)
    if let relevance = entry.relevance {
      let key = s.slots[i].key
      normaliser.record(score: relevance.score, at: entry.date, key: key, storageIsUnique: ())
      // A new non-nil entry ends the window it replaces and may open a new one.
      closeWindow(i, s)
      if sharedNormaliserKeys {
        // The others of this key have a new score in their population.
        for j in 0..<s.count where s.slots[j].key == key { s.slots[j].validUntil = Int64.min }
        nextRelevanceRefresh = Int64.min
      }
    }
    refreshRelevance(i, s)
    let before = stateBeforeEvent()
    _strategy.observe(.relevance(instance: Int32(i)), context: _context)
    endDecisionIfStateChanged(before)
  }

  /// The person donated: `kind` is the log's kind id, `matched` the stack instances the
  /// donation matches (DESIGN.md §4 matching).
  @inline(__always)
  @inlinable public mutating func donation(at time: Int64, kind: Int32, matched: ArraySlice<Int32>) {
    advanceClock(to: time)
    let hod = _context.hourOfDay
    let how = _context.hourOfWeek
    // The last decision survives a donation when the strategy's scores ignore
    // donations, or when it rescores the matched instances alone; the remembered keys
    // then follow the tie-break order as it moves.
    let keepsDecision =
      decisionReusable && tracksKeys && (!readsDonations || rescoresInstances)
    if !matched.isEmpty {
      let s = uniqueSlots()
      for m in matched {
        let i = Int(m)
        precondition(i >= 0 && i < s.count, "donation matched instance \(i) of \(s.count)")
        _context.features.recordDonation(instance: i, at: time, hourOfDay: hod, hourOfWeek: how)
        s.promote(i, features: _context.features, movingKeys: keepsDecision)
        if keepsDecision {
          if readsDonations { changed.insert(i) } else { retied.insert(i) }
        }
      }
    }
    _context.features._totalDonations &+= 1
    _context.features._lastDonatedInstance = matched.first ?? -1
    if !keepsDecision { decisionReusable = false }
    let before = stateBeforeEvent()
    _strategy.observe(.donation(kind: kind, instances: matched), context: _context)
    endDecisionIfStateChanged(before)
  }

  /// The strategy, when the last decision may still be reused and an event is about to
  /// reach it: `endDecisionIfStateChanged` then compares.
  @inline(__always)
  @inlinable package func stateBeforeEvent() -> Strategy? {
    reusesDecisions && decisionReusable ? strategy : nil
  }

  /// Ends the last decision when the strategy's state changed since `before` (its `==`:
  /// what a pure or instance-scoring strategy's scores may depend on besides `reads`).
  @inline(__always)
  @inlinable mutating package func endDecisionIfStateChanged(_ before: Strategy?) {
    if let before, !_strategy._scoresAlike(before) { decisionReusable = false }
  }

  /// The outcome of an earlier visit becomes observable at `time`.
  @inlinable public mutating func reveal(_ feedback: VisitFeedback, at time: Int64) {
    guard Strategy._observesOutcomes else { return }
    advanceClock(to: time)
    let before = stateBeforeEvent()
    _strategy._observe(outcome: feedback, context: _context)
    endDecisionIfStateChanged(before)
  }

  /// A Home Screen visit: the strategy ranks, the top candidate is shown, and the
  /// outcome goes to the observer. `hasTarget`/`targets` describe what the person
  /// wanted (see `VisitOutcome`); only a `TargetAwareStrategy` sees them.
  @discardableResult
  @inline(__always)
  @inlinable public mutating func visit(
    at time: Int64, hasTarget: Bool, targets: ArraySlice<Int32>, policy: VisitPolicy = .rank
  ) -> VisitOutcome {
    targets.withUnsafeBufferPointer { buffer in
      visit(at: time, hasTarget: hasTarget, targetBuffer: buffer, targets: targets, policy: policy)
    }
  }

  /// `visit(at:hasTarget:targets:policy:)` with the targets read from `targetBuffer`;
  /// `targets` (the same instances, or empty) is what the strategy (a `TargetAwareStrategy`)
  /// and the outcome get. The drivers pass an empty `targets` when neither needs them
  /// (`OutcomeObserver.observesTargets`): building a slice of the plan's arrays costs a
  /// reference-count increment and decrement at every visit.
  @discardableResult
  @inline(__always)
  @inlinable mutating package func visit(
    at time: Int64, hasTarget: Bool, targetBuffer: UnsafeBufferPointer<Int32>, targets: ArraySlice<Int32>,
    policy: VisitPolicy
  ) -> VisitOutcome {
    advanceClock(to: time)
    if hasRelevance && time >= nextRelevanceRefresh { refreshDueRelevance() }
    let rankedTop: Int
    let candidates: Int
    let rankedTargetRank: Int
    if decisionReusable, lastDecisionApplies() {
      // Nothing the strategy's scores depend on changed but the instances in `changed`
      // (rescored) and `retied` (keys moved by a donation): the last decision stands
      // (`ranking` still holds its scores and rule), or is updated for those.
      if rescoresInstances && _context.shown != lastShown {
        if lastShown >= 0 { changed.insert(Int(lastShown)) }
        if _context.shown >= 0 { changed.insert(Int(_context.shown)) }
      }
      if !changed.isEmpty { _strategy._rescore(changed, _context, into: &ranking) }
      if !changed.isEmpty || !retied.isEmpty {
        (rankedTop, candidates, rankedTargetRank) = updatedDecision(targets: targetBuffer)
        nameDecision(top: rankedTop)
      } else {
        (rankedTop, candidates, rankedTargetRank) = reusedDecision(targets: targetBuffer)
      }
      _reusedDecisionCount &+= 1
    } else {
      resetScores()
      ranking.rule = "score"
      if Strategy._seesTarget { _context.target = targets }
      if ranksAtEveryVisit {
        _strategy.rank(_context, into: &ranking)
      } else {
        _strategy._score(_context, into: &ranking)
      }
      if Strategy._seesTarget { _context.target = [] }
      (rankedTop, candidates, rankedTargetRank) = decide(targets: targetBuffer, remember: reusesDecisions)
      nameDecision(top: rankedTop)
    }
    // The stack's own rules, applied to the strategy's order (`StackRules`); the
    // strategy's scores and rule stay as they are, for the next visit's reuse.
    var shownIndex = rankedTop
    var rule = ranking.rule
    var presentedTargetRank = rankedTargetRank
    if !Strategy._seesTarget
      && StackRules.mayBind(strategyTop: rankedTop, policy: policy, current: Int(_context.shown), features: _context.features)
    {
      (shownIndex, rule, presentedTargetRank) = applyStackRules(
        strategyTop: rankedTop, rule: rule, targetRank: rankedTargetRank, policy: policy, targets: targetBuffer)
    }
    let top = shownIndex
    let targetRank = presentedTargetRank

    // Relevance situation at the visit: candidates with an active window at or above
    // the threshold (`isHigh`), and the watched windows' visits.
    var critical = false
    var honoured = false
    if hasRelevance {
      let view = slots.view
      if view.highCount > 0 {
        honoured = top >= 0 && view.slots[top].isHigh
        critical = honoured
        var k = 0
        while !critical && k < view.highCount {
          critical = _context.features._available[Int(view.high[k])]
          k &+= 1
        }
      }
      // A watched window counts this visit through `visitCount` (see
      // `candidateVisits`); only its first surfacing is recorded here. The top is a
      // candidate, so it suffices to look at it.
      if top >= 0 && view.slots[top].watchStart != Int64.min && view.slots[top].surfacedAfter < 0 {
        let s = uniqueSlots()
        s.slots[top].surfacedAfter = time &- s.slots[top].watchStart
      }
    }
    visitCount &+= 1

    let previous = _context.shown
    let shown = Int32(top)
    if shown != previous {
      _context.shown = shown
      _context.shownSince = time
    }
    let outcome = VisitOutcome(
      person: person, time: time, dayIndex: _context.dayIndex, hourOfDay: _context.hourOfDay,
      shown: shown, previous: previous, rotated: previous >= 0 && shown != previous,
      hasTarget: hasTarget, targets: targets, targetRank: targetRank,
      candidateCount: candidates,
      shownState: top >= 0 ? _context.features._relevance[top] : .none,
      relevanceCritical: critical, relevanceHonoured: honoured, rule: rule)
    _observer.observe(outcome, scores: ranking.scores, features: _context.features)
    return outcome
  }

  /// Sets `ranking.rule` for an instance-scoring strategy, which names a decision after
  /// its top (`InstanceScoringStrategy.rule(top:)`); other strategies named it in `rank`.
  /// A reused decision keeps its rule: its top and the top's inputs are unchanged.
  @inline(__always)
  @inlinable mutating package func nameDecision(top: Int) {
    guard !ranksAtEveryVisit else { return }
    if let rule = _strategy._rule(top: top, _context) { ranking.rule = rule }
  }

  /// The shown instance, the rule and the target's rank once the stack's rules are
  /// applied to the strategy's decision (`StackRules`), at a visit where they may bind.
  ///
  /// Candidate `i`'s key in the strategy's order is `orderKey` of its current score and
  /// tie rank, read through buffers: a closure over the session itself would copy it.
  @inline(never)
  @inlinable package func applyStackRules(
    strategyTop: Int, rule: StaticString, targetRank: Int, policy: VisitPolicy, targets: UnsafeBufferPointer<Int32>
  ) -> (shown: Int, rule: StaticString, targetRank: Int) {
    let tieRank = slots.view.tieRank
    let current = Int(_context.shown)
    let features = _context.features
    return ranking.scores.withUnsafeBufferPointer { scores in
      let key = { (i: Int) -> UInt128 in Self.orderKey(scores[i], tieRank[i]) }
      let (constrained, constraintRule) = StackRules.shown(
        strategyTop: strategyTop, policy: policy, current: current, features: features, key: key)
      guard let constraintRule else { return (strategyTop, rule, targetRank) }
      guard constrained != strategyTop else { return (strategyTop, constraintRule, targetRank) }
      let rank = StackRules.targetRank(shown: constrained, targets: targets, features: features, key: key)
      return (constrained, constraintRule, rank)
    }
  }

  /// The top candidate (-1 when there is none), the number of candidates, and the
  /// 1-based rank of the best-ranked target among the candidates (0 when no target is a
  /// candidate), for the scores in `ranking`. With `remember`, the decision is kept for
  /// reuse (`reusedDecision(targets:)`): each instance's order key, the top, the count
  /// and the inputs it was made for.
  ///
  /// Candidates are ordered by score (NaN as minus infinity), then by
  /// `slots.view.tieRank` (the `tieBreakPrecedes` order as one integer). One pass over the
  /// instances finds the top and counts the candidates that precede the best target, with
  /// selects instead of data-dependent branches (a 10-way argmax over near-random scores
  /// otherwise mispredicts several times per visit).
  ///
  /// - Complexity: O(n + t) for n instances and t targets.
  @inline(__always)
  @inlinable mutating package func decide(targets: UnsafeBufferPointer<Int32>, remember: Bool) -> (top: Int, candidates: Int, targetRank: Int) {
    let n = instances.count
    // Where the keys go: the slots' buffer when remembering, else nowhere (a stride-0
    // scratch slot).
    var scratch: UInt128 = 0
    let view = remember ? uniqueSlots() : slots.view
    let decision = withUnsafeMutablePointer(to: &scratch) { scratch in
      let keys = remember ? view.orderKeys : scratch
      let keyStride = remember ? 1 : 0
      return ranking.scores.withUnsafeBufferPointer { scores in
        _context.features._available.withUnsafeBufferPointer { available in
          let tie = view.tieRank
          let count = min(n, scores.count, available.count, view.count)
          // `orderKey` packs (score, tie rank) so that a larger key comes first, and
          // everything below compares keys: no branches on the data. The best target is
          // the largest key among the candidate targets; with none, a key nothing
          // exceeds.
          var bestKey: UInt128 = 0
          for t in targets {
            let i = Int(t)
            guard i >= 0 && i < count && available[i] else { continue }
            bestKey = max(bestKey, Self.orderKey(scores[i], tie[i]))
          }
          let hasTarget = bestKey != 0
          if !hasTarget { bestKey = UInt128.max }
          // The top is the largest key; its low bits name its tie rank, hence the
          // instance (`tieOrder`), so the loop keeps no index.
          var topKey: UInt128 = 0
          var candidates = 0
          var preceding = 0
          guard let s = scores.baseAddress, let a = available.baseAddress else { return (-1, 0, 0) }
          var i = 0
          while i < count {
            let isCandidate = a[i]
            let key = isCandidate ? Self.orderKey(s[i], tie[i]) : 0
            keys[i &* keyStride] = key
            topKey = max(topKey, key)
            candidates &+= isCandidate ? 1 : 0
            preceding &+= key > bestKey ? 1 : 0
            i &+= 1
          }
          let top =
            topKey == 0 ? -1 : Int(view.tieOrder[Int(UInt32.max &- UInt32(truncatingIfNeeded: topKey))])
          return (top, candidates, hasTarget ? preceding &+ 1 : 0)
        }
      }
    }
    decisionReusable = remember
    changed = ChangedInstances()
    retied = ChangedInstances()
    if remember {
      lastTop = decision.0
      lastCandidates = decision.1
      lastShown = _context.shown
      lastHourOfDay = _context.hourOfDay
      lastHourOfWeek = _context.hourOfWeek
      lastDayIndex = _context.dayIndex
    }
    return decision
  }

  /// True when the inputs the strategy declared (`reads`) have the values the last
  /// decision was made for. Changes that arrive as events (donations, outcomes,
  /// relevance, candidates, the strategy's own state) clear `decisionReusable` instead.
  @inline(__always)
  @inlinable package func lastDecisionApplies() -> Bool {
    let inputs = reads
    return (!inputs.contains(.shown) || rescoresInstances || _context.shown == lastShown)
      && (!inputs.contains(.hourOfDay) || _context.hourOfDay == lastHourOfDay)
      && (!inputs.contains(.hourOfWeek) || _context.hourOfWeek == lastHourOfWeek)
      && (!inputs.contains(.dayIndex) || _context.dayIndex == lastDayIndex)
  }

  /// `decide(targets:remember:)`'s result for the remembered decision: the same top and
  /// candidates, and the best target's rank from the remembered order keys.
  ///
  /// - Complexity: O(t) for t targets, plus O(n) when one of them is a candidate.
  @inline(__always)
  @inlinable package func reusedDecision(targets: UnsafeBufferPointer<Int32>) -> (top: Int, candidates: Int, targetRank: Int) {
    let view = slots.view
    let keys = view.orderKeys
    let count = view.count
    var bestKey: UInt128 = 0
    for t in targets {
      let i = Int(t)
      guard i >= 0 && i < count else { continue }
      bestKey = max(bestKey, keys[i])
    }
    guard bestKey != 0 else { return (lastTop, lastCandidates, 0) }
    var preceding = 0
    var i = 0
    while i < count {
      preceding &+= keys[i] > bestKey ? 1 : 0
      i &+= 1
    }
    return (lastTop, lastCandidates, preceding &+ 1)
  }

  /// `decide(targets:remember: true)`'s result when only the instances in `changed`
  /// have new scores since the remembered decision, and those in `retied` keys that
  /// `promote` moved (candidates as then; every other key unchanged or one tie place
  /// back, which keeps their order): the changed keys are recomputed, the top is the
  /// largest of the old top's key and the changed and retied keys (all keys when the
  /// old top's own score fell), and the target's rank is counted over the keys as in
  /// `reusedDecision(targets:)`.
  ///
  /// - Complexity: O(c) for c changed instances, plus O(n) when the top's key fell or a
  ///   target is a candidate.
  @inline(__always)
  @inlinable mutating package func updatedDecision(targets: UnsafeBufferPointer<Int32>) -> (top: Int, candidates: Int, targetRank: Int) {
    let view = uniqueSlots()
    let keys = view.orderKeys
    let count = view.count
    // First every changed key (a retied instance may be among them: its moved key still
    // holds its old score), then the largest of the top's and the changed and retied
    // keys.
    var topFell = false
    ranking.scores.withUnsafeBufferPointer { scores in
      _context.features._available.withUnsafeBufferPointer { available in
        for i in changed where i < count && i < scores.count && i < available.count {
          let key = available[i] ? Self.orderKey(scores[i], view.tieRank[i]) : 0
          if i == lastTop && key < keys[i] { topFell = true }
          keys[i] = key
        }
      }
    }
    var topKey: UInt128 = 0
    if topFell {
      for i in 0..<count { topKey = max(topKey, keys[i]) }
    } else {
      if lastTop >= 0 { topKey = keys[lastTop] }
      for i in ChangedInstances(bits: changed.bits | retied.bits) where i < count { topKey = max(topKey, keys[i]) }
    }
    let top = topKey == 0 ? -1 : Int(view.tieOrder[Int(UInt32.max &- UInt32(truncatingIfNeeded: topKey))])
    changed = ChangedInstances()
    retied = ChangedInstances()
    lastTop = top
    lastShown = _context.shown
    let (_, candidates, targetRank) = reusedDecision(targets: targets)
    return (top, candidates, targetRank)
  }

  /// `(score, tieRank)` as one unsigned integer that orders like the engine: a higher
  /// score first (NaN as minus infinity, as in `StackFeatures.precedes`), then a smaller tie rank. The score
  /// becomes the high 64 bits by the usual order-preserving map of IEEE doubles (NaN
  /// first replaced by minus infinity and `-0.0` by `+0.0`, which compares equal to it);
  /// the low bits hold
  /// `UInt32.max - tieRank`. Never 0 for a tie rank below `UInt32.max`, so 0 can mean
  /// "nothing yet".
  @inline(__always)
  @inlinable static package func orderKey(_ score: Double, _ tieRank: Int32) -> UInt128 {
    var bits = score.bitPattern
    // NaN sorts as minus infinity, -0.0 as +0.0 (selects, not branches).
    bits = bits & ~(1 << 63) > 0x7FF0_0000_0000_0000 ? 0xFFF0_0000_0000_0000 : bits
    bits = bits == 1 << 63 ? 0 : bits
    // Negative: flip every bit (larger magnitude = smaller); positive: set the sign bit.
    let negative = UInt64(bitPattern: Int64(bitPattern: bits) >> 63)
    let ordered = bits ^ (negative | 1 << 63)
    return UInt128(ordered) << 64 | UInt128(UInt32.max &- UInt32(bitPattern: tieRank))
  }

  /// Every candidate's score to 0, every other to minus infinity.
  @inline(__always)
  @inlinable mutating package func resetScores() {
    Self.resetScores(&ranking.scores, available: _context.features._available)
  }

  /// `scores[i] = available[i] ? 0 : -infinity` over buffers: one uniqueness check for
  /// the whole array instead of one per element.
  @inline(__always)
  @inlinable static package func resetScores(_ scores: inout [Double], available: [Bool]) {
    scores.withUnsafeMutableBufferPointer { s in
      available.withUnsafeBufferPointer { a in
        for i in 0..<min(s.count, a.count) { s[i] = a[i] ? 0 : -Double.infinity }
      }
    }
  }

  /// Ends the person's run at `time`: open windows are closed and the observer told.
  @inlinable public mutating func finish(at time: Int64) {
    let s = uniqueSlots()
    for i in 0..<s.count { closeWindow(i, s) }
    _observer.endPerson(person)
  }

  /// Takes the observer out (e.g. to merge metrics) after `finish`.
  @inlinable public func finishedObserver() -> Observer { observer }

  // MARK: - Relevance bookkeeping

  /// The slots, copied first if this session value shares them with another (the
  /// session was copied): call before writing to them, and before changing the
  /// normaliser.
  ///
  /// The slots and the normaliser's storage are shared only by copies of the session
  /// (neither is reachable from outside), so they are copied together: once the slots
  /// are unique, so is the normaliser, whose calls then skip their own check.
  @inline(__always)
  @inlinable mutating package func uniqueSlots() -> SlotsView {
    if !isKnownUniquelyReferenced(&slots) {
      slots = slots.copy()
      normaliser.makeStorageUnique()
    }
    return slots.view
  }

  /// Refreshes every instance whose cached relevance may have changed by `context.now`.
  ///
  /// A refresh of instance `i` changes nothing until its window ends (state `active` or
  /// `suppressed` becomes `expired`), its own next entry, or a new score in its
  /// normaliser population: another instance's entry with a shared key (scope `kind`),
  /// or, with a `days` window, any move of the clock. So visits skip it until then, with
  /// results identical to refreshing every instance at every visit.
  @inline(never)
  @inlinable mutating package func refreshDueRelevance() {
    let now = _context.now
    let s = uniqueSlots()
    var next = Int64.max
    for i in 0..<s.count {
      if now >= s.slots[i].validUntil { refreshRelevance(i, s) }
      next = min(next, s.slots[i].validUntil)
    }
    nextRelevanceRefresh = next
  }

  /// Forces a refresh of every instance at the next visit (the clock went backwards).
  @inlinable mutating package func invalidateRelevanceCache() {
    decisionReusable = false
    let s = uniqueSlots()
    for i in 0..<s.count { s.slots[i].validUntil = Int64.min }
    nextRelevanceRefresh = Int64.min
  }

  /// Updates state and percentile of instance `i` at `context.now`, and the window
  /// watch: a window is watched from the moment it is active with a percentile at or
  /// above the threshold until it stops being active or is replaced. `s` is `slots`,
  /// already unique.
  @inlinable mutating package func refreshRelevance(_ i: Int, _ s: SlotsView) {
    let nowMs = _context.now
    let now = Instant(milliseconds: nowMs)
    let slot = s.slots + i
    let state = slot.pointee.tracker.state(at: now)
    var percentile = Double.nan
    var active = false
    let kind: RelevanceState.Kind
    switch state {
    case .active(let score):
      active = true
      kind = .active
      percentile = normaliser.percentile(of: score, at: now, key: slot.pointee.key, storageIsUnique: ()) ?? .nan
    case .suppressed(let score):
      kind = .suppressed
      percentile = normaliser.percentile(of: score, at: now, key: slot.pointee.key, storageIsUnique: ()) ?? .nan
    case .none:
      kind = .none
    case .expired:
      kind = .expired
    }
    _context.features._relevance[i] = state
    _context.features._relevanceKind[i] = kind
    if reads.contains(.relevance) {
      if rescoresInstances { changed.insert(i) } else { decisionReusable = false }
    }
    _context.features._percentile[i] = percentile
    let high = active && percentile >= options.relevanceThreshold
    if high != slot.pointee.isHigh {
      slot.pointee.isHigh = high
      if high { s.addHigh(i) } else { s.removeHigh(i) }
    }
    if active {
      if high && slot.pointee.watchStart == Int64.min {
        slot.pointee.watchStart = slot.pointee.tracker.windowStart?.milliseconds ?? nowMs
        slot.pointee.watchVisitsBase = candidateVisits(i, s)
        slot.pointee.surfacedAfter = -1
        s.addWatched(i)
      }
    } else {
      closeWindow(i, s)
    }
    // Valid until the state can change by itself (the window's end) or, with a `days`
    // window, until the clock moves (scores leave the population).
    var validUntil = Int64.max
    switch state {
    case .active, .suppressed:
      validUntil = slot.pointee.tracker.windowEnd?.milliseconds ?? Int64.max
      if case .days = options.normaliserWindow {
        validUntil = min(validUntil, nowMs == Int64.max ? Int64.max : nowMs + 1)
      }
    case .none, .expired:
      break
    }
    slot.pointee.validUntil = validUntil
    if validUntil < nextRelevanceRefresh { nextRelevanceRefresh = validUntil }
  }

  /// Ends instance `i`'s watched window, if any, and tells the observer. `s` is
  /// `slots`, already unique.
  @inlinable mutating package func closeWindow(_ i: Int, _ s: SlotsView) {
    let slot = s.slots + i
    guard slot.pointee.watchStart != Int64.min else { return }
    _observer.windowClosed(
      instance: Int32(i), start: slot.pointee.watchStart,
      visits: candidateVisits(i, s) &- slot.pointee.watchVisitsBase,
      surfacedAfter: slot.pointee.surfacedAfter >= 0 ? slot.pointee.surfacedAfter : nil)
    slot.pointee.watchStart = Int64.min
    s.removeWatched(i)
  }
}
