import SmartStackBase
import SmartStackData

// Relevance bookkeeping: each instance's relevance state and normalised percentile at
// `context.now`, refreshed only when it may have changed (`InstanceSlot.validUntil`),
// and the watch of top-percentile windows (how long until a window is shown, over how
// many visits) that the observer is told of when a window closes.
extension StackSession {
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

  /// Scored visits so far at which instance `i` was a candidate: what a watched
  /// window's visit count is made of, without counting at every visit.
  @inline(__always)
  @inlinable package func candidateVisits(_ i: Int, _ s: SlotsView) -> Int {
    let slot = s.slots + i
    return _context.features._available[i]
      ? slot.pointee.candidateVisitsBefore &+ (visitCount &- slot.pointee.candidateSince)
      : slot.pointee.candidateVisitsBefore
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
    decisions.invalidate()
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
      percentile = normaliser.percentile(
        of: score, scoredAt: slot.pointee.tracker.windowStart, at: now, key: slot.pointee.key, storageIsUnique: ()
      ) ?? .nan
    case .suppressed(let score):
      kind = .suppressed
      percentile = normaliser.percentile(
        of: score, scoredAt: slot.pointee.tracker.windowStart, at: now, key: slot.pointee.key, storageIsUnique: ()
      ) ?? .nan
    case .none:
      kind = .none
    case .expired:
      kind = .expired
    }
    _context.features._relevance[i] = state
    _context.features._relevanceKind[i] = kind
    decisions.inputChanged(.relevance, instance: i)
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

  /// The relevance situation at a visit at `time` that shows `top` (-1: nothing):
  /// `critical` when some candidate has an active window at or above the threshold
  /// (`isHigh`), `honoured` when `top` is such a candidate. Records the first surfacing
  /// of `top`'s watched window, if any.
  ///
  /// - Complexity: O(h) for h instances with a top-percentile window.
  @inline(__always)
  @inlinable mutating package func relevanceAtVisit(top: Int, time: Int64) -> (critical: Bool, honoured: Bool) {
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
    return (critical, honoured)
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
