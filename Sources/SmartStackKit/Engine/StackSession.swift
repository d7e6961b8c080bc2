/// Options of the engine that results depend on; every one is written into outputs.
public struct EngineOptions: Sendable, Hashable {
  /// A visit is "relevance-critical" when some candidate has an active window whose
  /// normalised percentile is at least this (default 0.8); such windows are the ones
  /// time-to-surface is measured on.
  public var relevanceThreshold: Double = 0.8
  /// Normalisation scope (instance or kind) and window (all history or last N days).
  public var normaliserScope: PercentileNormaliser.Scope = .instance
  public var normaliserWindow: PercentileNormaliser.Window = .all
  public init() {}
}

/// How a visit may change the stack, beyond what the strategy wants.
public enum VisitPolicy: Sendable {
  /// The strategy's ranking decides (Smart Rotate on, nothing pinned).
  case rank
  /// This instance stays on top (a manual swipe pinned it) if it is a candidate.
  case forced(Int32)
  /// The instance already on top stays if it is a candidate: Smart Rotate is off, or a
  /// stack rotation limit is exhausted. `rule` names why, for explanations.
  case noRotation(StaticString)
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
  public private(set) var strategy: Strategy
  public private(set) var observer: Observer
  /// What the strategy sees; `context.features` are the shared features.
  public private(set) var context: StackContext
  public let person: Int32
  public let instances: [WidgetInstance]
  let zone: ZoneRules
  let options: EngineOptions
  var ranking: Ranking
  var trackers: [RelevanceTracker]
  var normaliser: PercentileNormaliser
  /// Normaliser key per instance: the instance itself, or its kind's group.
  let normaliserKey: [Int]
  var hasRelevance = false
  // Top-percentile windows being watched, per instance.
  var windowStart: [Int64]
  var windowVisits: [Int]
  var windowSurfacedAfter: [Int64]
  // Relevance refresh cache: `refreshRelevance(i)` would change nothing before
  // `relevanceValidUntil[i]` (epoch ms); `nextRelevanceRefresh` is their minimum.
  var relevanceValidUntil: [Int64]
  var nextRelevanceRefresh = Int64.min
  /// `isHigh[i]`: instance `i` is `active` with a percentile at or above the threshold.
  /// `highInstances` and `watched` list those instances and the instances with a watched
  /// window (usually none or a few), so a visit looks only at them.
  var isHigh: [Bool]
  var highInstances: [Int32] = []
  var watched: [Int32] = []
  /// True when instances share normaliser keys (scope `kind`): a score recorded for one
  /// changes the others' percentiles.
  let sharedNormaliserKeys: Bool
  // Clock cache: `hourOfDay`, `hourOfWeek` and `dayIndex` hold for UTC ms in
  // `clockValidFrom ..< clockValidUntil` (one local hour within one offset interval).
  var clockValidFrom = Int64.max
  var clockValidUntil = Int64.min

  public init(
    person: Int32, instances: [WidgetInstance], strategy: Strategy, observer: Observer,
    zone: ZoneRules, options: EngineOptions, strategySeed: UInt64
  ) {
    self.person = person
    self.instances = instances
    self.strategy = strategy
    self.observer = observer
    self.zone = zone
    self.options = options
    let n = instances.count
    context = StackContext(
      now: Int64.min, hourOfDay: 0, hourOfWeek: 0, dayIndex: 0,
      features: StackFeatures(instances: instances), shown: -1, shownSince: Int64.min,
      target: [])
    ranking = Ranking(instanceCount: n)
    trackers = Array(repeating: RelevanceTracker(), count: n)
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
    normaliserKey = keys
    sharedNormaliserKeys = Set(keys).count < keys.count
    relevanceValidUntil = Array(repeating: Int64.min, count: n)
    isHigh = Array(repeating: false, count: n)
    windowStart = Array(repeating: Int64.min, count: n)
    windowVisits = Array(repeating: 0, count: n)
    windowSurfacedAfter = Array(repeating: -1, count: n)
    self.strategy.begin(StrategySetup(instances: instances, seed: strategySeed))
    self.observer.beginPerson(person, instances: instances)
  }

  /// Marks instance `i` as a candidate from now on (stacks built from donations add a
  /// kind the first time the person donates it; fixed stacks make all available).
  public mutating func makeAvailable(_ i: Int) {
    context.features.available[i] = true
  }

  /// Makes instance `i` a candidate or not (a Widget Suggestion inserted into the stack
  /// and removed again). When the shown instance stops being a candidate, the next visit
  /// shows another.
  public mutating func setAvailable(_ i: Int, _ available: Bool) {
    context.features.available[i] = available
  }

  /// The person swiped the stack to instance `i` by hand at `time`: it is on top from now
  /// on (the next visit starts from it). Pinning it against rotation is the driver's
  /// business (`VisitPolicy.forced`).
  public mutating func manualSwipe(to i: Int, at time: Int64) {
    advanceClock(to: time)
    if context.shown != Int32(i) {
      context.shown = Int32(i)
      context.shownSince = time
    }
  }

  /// Moves `context.now` to `time` and updates the local calendar fields.
  ///
  /// - Complexity: O(1) within the local hour of the previous call; O(log t) for t zone
  ///   transitions otherwise.
  @inline(__always)
  mutating func advanceClock(to time: Int64) {
    if time == context.now { return }
    if time < context.now { invalidateRelevanceCache() }
    context.now = time
    if time >= clockValidFrom && time < clockValidUntil { return }
    recomputeClockFields(time)
  }

  /// Sets the calendar fields of `time` exactly as `ZoneRules.hourOfDay(at:)`,
  /// `hourOfWeek(at:)` and `dayIndex(at:)` do, and the span they stay valid for.
  @inline(never)
  mutating func recomputeClockFields(_ time: Int64) {
    let index = zone.intervalIndex(containing: time)
    let offset = zone.offsets[index]
    let local = time &+ offset
    context.hourOfDay = WallClock.hourOfDay(local)
    context.hourOfWeek = WallClock.hourOfWeek(local)
    context.dayIndex = WallClock.dayIndex(local)
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
  public mutating func relevanceEntry(instance i: Int, entry: RelevanceEntry) {
    advanceClock(to: entry.date.milliseconds)
    hasRelevance = true
    trackers[i].apply(entry)
    if let relevance = entry.relevance {
      normaliser.record(score: relevance.score, at: entry.date, key: normaliserKey[i])
      // A new non-nil entry ends the window it replaces and may open a new one.
      closeWindow(i)
      if sharedNormaliserKeys {
        // The others of this key have a new score in their population.
        for j in 0..<instances.count where normaliserKey[j] == normaliserKey[i] {
          relevanceValidUntil[j] = Int64.min
        }
        nextRelevanceRefresh = Int64.min
      }
    }
    refreshRelevance(i)
    strategy.observe(.relevance(instance: Int32(i)), context: context)
  }

  /// The person donated: `kind` is the log's kind id, `matched` the stack instances the
  /// donation matches (DESIGN.md §4 matching).
  public mutating func donation(at time: Int64, kind: Int32, matched: ArraySlice<Int32>) {
    advanceClock(to: time)
    let hod = context.hourOfDay
    let how = context.hourOfWeek
    for m in matched {
      context.features.recordDonation(instance: Int(m), at: time, hourOfDay: hod, hourOfWeek: how)
    }
    context.features.totalDonations &+= 1
    context.features.lastDonatedInstance = matched.first ?? -1
    strategy.observe(.donation(kind: kind, instances: matched), context: context)
  }

  /// The outcome of an earlier visit becomes observable at `time`.
  public mutating func reveal(_ feedback: VisitFeedback, at time: Int64) {
    advanceClock(to: time)
    strategy.observe(.outcome(feedback), context: context)
  }

  /// A Home Screen visit: the strategy ranks, the top candidate is shown, and the
  /// outcome goes to the observer. `hasTarget`/`targets` describe what the person
  /// wanted (see `VisitOutcome`); only a strategy with `usesTarget` sees them.
  @discardableResult
  public mutating func visit(
    at time: Int64, hasTarget: Bool, targets: ArraySlice<Int32>, policy: VisitPolicy = .rank
  ) -> VisitOutcome {
    advanceClock(to: time)
    let n = instances.count
    if hasRelevance && time >= nextRelevanceRefresh { refreshDueRelevance() }
    resetScores()
    ranking.rule = "score"
    if Strategy.usesTarget { context.target = targets }
    strategy.rank(context, into: &ranking)
    if Strategy.usesTarget { context.target = [] }

    // The stack's own rules may override the strategy: a pinned (swiped) instance, or no
    // rotation at all. The override is expressed as a score, so ranks stay consistent.
    let current = Int(context.shown)
    switch policy {
    case .rank:
      break
    case .forced(let i):
      if i >= 0 && Int(i) < n && context.features.available[Int(i)] {
        ranking.scores[Int(i)] = .infinity
        ranking.rule = "manual swipe pin"
      }
    case .noRotation(let rule):
      if current >= 0 && context.features.available[current] {
        ranking.scores[current] = .infinity
        ranking.rule = rule
      }
    }

    // The top candidate, and the rank of the best target, in O(n) without sorting:
    // `features.precedes` with each side's score (NaN as minus infinity) kept in hand.
    var top = -1
    var topScore = 0.0
    var candidates = 0
    for i in 0..<n where context.features.available[i] {
      candidates &+= 1
      let s = Self.sortScore(ranking.scores[i])
      if top < 0 || s > topScore || (s == topScore && context.features.tieBreakPrecedes(i, top)) {
        top = i
        topScore = s
      }
    }
    var bestTarget = -1
    var bestScore = 0.0
    for t in targets where context.features.available[Int(t)] {
      let s = Self.sortScore(ranking.scores[Int(t)])
      if bestTarget < 0 || s > bestScore
        || (s == bestScore && context.features.tieBreakPrecedes(Int(t), bestTarget))
      {
        bestTarget = Int(t)
        bestScore = s
      }
    }
    var targetRank = 0
    if bestTarget >= 0 {
      targetRank = 1
      // Nothing precedes the top candidate (the order is total), so a hit needs no count.
      if bestTarget != top {
        for i in 0..<n where context.features.available[i] && i != bestTarget {
          let s = Self.sortScore(ranking.scores[i])
          if s > bestScore || (s == bestScore && context.features.tieBreakPrecedes(i, bestTarget)) {
            targetRank &+= 1
          }
        }
      }
    }

    // Relevance situation at the visit: candidates with an active window at or above
    // the threshold (`isHigh`), and the watched windows' visits.
    var critical = false
    var honoured = false
    if hasRelevance {
      if !highInstances.isEmpty {
        honoured = top >= 0 && isHigh[top]
        critical = honoured
        if !critical {
          for i in highInstances where context.features.available[Int(i)] {
            critical = true
            break
          }
        }
      }
      for w in watched where context.features.available[Int(w)] {
        let i = Int(w)
        windowVisits[i] &+= 1
        if i == top && windowSurfacedAfter[i] < 0 { windowSurfacedAfter[i] = time &- windowStart[i] }
      }
    }

    let previous = context.shown
    let shown = Int32(top)
    if shown != previous {
      context.shown = shown
      context.shownSince = time
    }
    let outcome = VisitOutcome(
      person: person, time: time, dayIndex: context.dayIndex, hourOfDay: context.hourOfDay,
      shown: shown, previous: previous, rotated: previous >= 0 && shown != previous,
      hasTarget: hasTarget, targets: targets, targetRank: targetRank,
      candidateCount: candidates,
      shownState: top >= 0 ? context.features.relevance[top] : .none,
      relevanceCritical: critical, relevanceHonoured: honoured, rule: ranking.rule)
    observer.observe(outcome, scores: ranking.scores, features: context.features)
    return outcome
  }

  /// A score as the engine orders it: NaN counts as minus infinity.
  @inline(__always)
  static func sortScore(_ score: Double) -> Double {
    score.isNaN ? -Double.infinity : score
  }

  /// Every candidate's score to 0, every other to minus infinity.
  @inline(__always)
  mutating func resetScores() {
    Self.resetScores(&ranking.scores, available: context.features.available)
  }

  /// `scores[i] = available[i] ? 0 : -infinity` over buffers: one uniqueness check for
  /// the whole array instead of one per element.
  static func resetScores(_ scores: inout [Double], available: [Bool]) {
    scores.withUnsafeMutableBufferPointer { s in
      available.withUnsafeBufferPointer { a in
        for i in 0..<min(s.count, a.count) { s[i] = a[i] ? 0 : -Double.infinity }
      }
    }
  }

  /// Ends the person's run at `time`: open windows are closed and the observer told.
  public mutating func finish(at time: Int64) {
    for i in 0..<instances.count { closeWindow(i) }
    observer.endPerson(person)
  }

  /// Takes the observer out (e.g. to merge metrics) after `finish`.
  public func finishedObserver() -> Observer { observer }

  // MARK: - Relevance bookkeeping

  /// Refreshes every instance whose cached relevance may have changed by `context.now`.
  ///
  /// A refresh of instance `i` changes nothing until its window ends (state `active` or
  /// `suppressed` becomes `expired`), its own next entry, or a new score in its
  /// normaliser population: another instance's entry with a shared key (scope `kind`),
  /// or, with a `days` window, any move of the clock. So visits skip it until then, with
  /// results identical to refreshing every instance at every visit.
  @inline(never)
  mutating func refreshDueRelevance() {
    let now = context.now
    var next = Int64.max
    for i in 0..<instances.count {
      if now >= relevanceValidUntil[i] { refreshRelevance(i) }
      next = min(next, relevanceValidUntil[i])
    }
    nextRelevanceRefresh = next
  }

  /// Forces a refresh of every instance at the next visit (the clock went backwards).
  mutating func invalidateRelevanceCache() {
    for i in 0..<relevanceValidUntil.count { relevanceValidUntil[i] = Int64.min }
    nextRelevanceRefresh = Int64.min
  }

  /// Updates state and percentile of instance `i` at `context.now`, and the window
  /// watch: a window is watched from the moment it is active with a percentile at or
  /// above the threshold until it stops being active or is replaced.
  mutating func refreshRelevance(_ i: Int) {
    let now = Instant(milliseconds: context.now)
    let state = trackers[i].state(at: now)
    context.features.relevance[i] = state
    switch state {
    case .active(let score), .suppressed(let score):
      context.features.percentile[i] =
        normaliser.percentile(of: score, at: now, key: normaliserKey[i]) ?? .nan
    case .none, .expired:
      context.features.percentile[i] = .nan
    }
    var high = false
    if case .active = state { high = context.features.percentile[i] >= options.relevanceThreshold }
    if high != isHigh[i] {
      isHigh[i] = high
      if high {
        highInstances.append(Int32(i))
      } else if let k = highInstances.firstIndex(of: Int32(i)) {
        highInstances.remove(at: k)
      }
    }
    if case .active = state {
      if windowStart[i] == Int64.min, context.features.percentile[i] >= options.relevanceThreshold {
        windowStart[i] = trackers[i].windowStart?.milliseconds ?? context.now
        windowVisits[i] = 0
        windowSurfacedAfter[i] = -1
        watched.append(Int32(i))
      }
    } else {
      closeWindow(i)
    }
    // Valid until the state can change by itself (the window's end) or, with a `days`
    // window, until the clock moves (scores leave the population).
    var validUntil = Int64.max
    switch state {
    case .active, .suppressed:
      validUntil = trackers[i].windowEnd?.milliseconds ?? Int64.max
      if case .days = options.normaliserWindow {
        validUntil = min(validUntil, context.now == Int64.max ? Int64.max : context.now + 1)
      }
    case .none, .expired:
      break
    }
    relevanceValidUntil[i] = validUntil
    if validUntil < nextRelevanceRefresh { nextRelevanceRefresh = validUntil }
  }

  mutating func closeWindow(_ i: Int) {
    guard windowStart[i] != Int64.min else { return }
    observer.windowClosed(
      instance: Int32(i), start: windowStart[i], visits: windowVisits[i],
      surfacedAfter: windowSurfacedAfter[i] >= 0 ? windowSurfacedAfter[i] : nil)
    windowStart[i] = Int64.min
    if let k = watched.firstIndex(of: Int32(i)) { watched.remove(at: k) }
  }
}
