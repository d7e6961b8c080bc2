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

  @inline(__always)
  mutating func advanceClock(to time: Int64) {
    if time == context.now { return }
    context.now = time
    let instant = Instant(milliseconds: time)
    context.hourOfDay = zone.hourOfDay(at: instant)
    context.hourOfWeek = zone.hourOfWeek(at: instant)
    context.dayIndex = zone.dayIndex(at: instant)
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
    if hasRelevance {
      for i in 0..<n { refreshRelevance(i) }
    }
    for i in 0..<n {
      ranking.scores[i] = context.features.available[i] ? 0 : -Double.infinity
    }
    ranking.rule = "score"
    if Strategy.usesTarget { context.target = targets }
    strategy.rank(context, into: &ranking)
    context.target = []

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

    // The top candidate, and the rank of the best target, in O(n) without sorting.
    let features = context.features
    var top = -1
    var candidates = 0
    for i in 0..<n where features.available[i] {
      candidates += 1
      if top < 0 || features.precedes(i, top, scores: ranking.scores) { top = i }
    }
    var bestTarget = -1
    for t in targets where features.available[Int(t)] {
      if bestTarget < 0 || features.precedes(Int(t), bestTarget, scores: ranking.scores) {
        bestTarget = Int(t)
      }
    }
    var targetRank = 0
    if bestTarget >= 0 {
      targetRank = 1
      for i in 0..<n where features.available[i] && i != bestTarget
        && features.precedes(i, bestTarget, scores: ranking.scores)
      {
        targetRank += 1
      }
    }

    // Relevance situation at the visit.
    var critical = false
    var honoured = false
    if hasRelevance {
      for i in 0..<n where features.available[i] {
        if case .active = features.relevance[i], features.percentile[i] >= options.relevanceThreshold {
          critical = true
          if i == top { honoured = true }
        }
      }
      for i in 0..<n where windowStart[i] != Int64.min && features.available[i] {
        windowVisits[i] += 1
        if i == top && windowSurfacedAfter[i] < 0 { windowSurfacedAfter[i] = time - windowStart[i] }
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
      shownState: top >= 0 ? features.relevance[top] : .none,
      relevanceCritical: critical, relevanceHonoured: honoured, rule: ranking.rule)
    observer.observe(outcome, scores: ranking.scores, features: features)
    return outcome
  }

  /// Ends the person's run at `time`: open windows are closed and the observer told.
  public mutating func finish(at time: Int64) {
    for i in 0..<instances.count { closeWindow(i) }
    observer.endPerson(person)
  }

  /// Takes the observer out (e.g. to merge metrics) after `finish`.
  public func finishedObserver() -> Observer { observer }

  // MARK: - Relevance bookkeeping

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
    if case .active = state {
      if windowStart[i] == Int64.min, context.features.percentile[i] >= options.relevanceThreshold {
        windowStart[i] = trackers[i].windowStart?.milliseconds ?? context.now
        windowVisits[i] = 0
        windowSurfacedAfter[i] = -1
      }
    } else {
      closeWindow(i)
    }
  }

  mutating func closeWindow(_ i: Int) {
    guard windowStart[i] != Int64.min else { return }
    observer.windowClosed(
      instance: Int32(i), start: windowStart[i], visits: windowVisits[i],
      surfacedAfter: windowSurfacedAfter[i] >= 0 ? windowSurfacedAfter[i] : nil)
    windowStart[i] = Int64.min
  }
}
