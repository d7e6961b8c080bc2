import SmartStackBase
import SmartStackData

// Relevance bookkeeping: each instance's relevance state and normalised percentile at
// `context.now`, refreshed only when it may have changed (`InstanceSlot.validUntil`),
// which instances have a top-percentile window (what makes a visit relevance-critical),
// and the window events the observer is told of (`OutcomeObserver.windowEnded`,
// `windowReachedThreshold`); what a metric makes of them (`WindowWatch`) is not here.
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

  /// Updates state and percentile of instance `i` at `context.now`, and tells the
  /// observer when its active window ended (`replaced`: a new entry with relevance just
  /// replaced it) and when a window reached the threshold (`isHigh` became true, or
  /// the window is new and at once top-percentile). `s` is `slots`, already unique.
  @inlinable mutating package func refreshRelevance(_ i: Int, _ s: SlotsView, replaced: Bool = false) {
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
    let wasActive = _context.features._relevanceKind[i] == .active
    _context.features._relevance[i] = state
    _context.features._relevanceKind[i] = kind
    decisions.inputChanged(.relevance, instance: i)
    _context.features._percentile[i] = percentile
    let high = active && percentile >= options.relevanceThreshold
    let wasHigh = slot.pointee.isHigh
    if high != wasHigh {
      slot.pointee.isHigh = high
      if high { s.addHigh(i) } else { s.removeHigh(i) }
    }
    if wasActive && (replaced || !active) { _observer.windowEnded(instance: Int32(truncatingIfNeeded: i)) }
    if high && (replaced || !wasHigh) {
      _observer.windowReachedThreshold(
        instance: Int32(truncatingIfNeeded: i), start: slot.pointee.tracker.windowStart?.milliseconds ?? nowMs)
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

  /// The relevance situation at a visit that shows `top` (-1: nothing): `critical` when
  /// some candidate has an active window at or above the threshold (`isHigh`),
  /// `honoured` when `top` is such a candidate.
  ///
  /// - Complexity: O(h) for h instances with a top-percentile window.
  @inline(__always)
  @inlinable package func relevanceAtVisit(top: Int) -> (critical: Bool, honoured: Bool) {
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
    }
    return (critical, honoured)
  }
}
