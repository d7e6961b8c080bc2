import SmartStackBase

/// The relevance state of one widget instance, updated entry by entry (the event engine's
/// form of `RelevanceTimeline`).
///
/// Feed it the instance's entries in time order with `apply(_:)`; `state(at:)` then gives,
/// for any `now` at or after the last applied entry's date, the same answer as
/// `RelevanceTimeline(entries).state(at: now)` over the entries dated `<= now` — including
/// the tie rule: of several entries at one date, the one applied last wins.
///
/// Memory is O(1): only the current window is kept.
public struct RelevanceTracker: Sendable, Hashable {
  /// The start of the current window (epoch ms), valid when `relevance != nil`.
  @usableFromInline package var start: Int64 = 0
  /// The relevance of the last applied non-nil entry, or nil before the first one.
  @usableFromInline package var relevance: Relevance?
  /// The date of the last applied entry (nil or not), or nil before the first one.
  @inlinable public var lastEntryDate: Instant? { _lastEntryDate }
  @usableFromInline package var _lastEntryDate: Instant?

  /// A tracker in state `none`.
  @inlinable public init() {}

  /// Applies the next entry.
  ///
  /// A non-nil relevance replaces the current window at once (open or expired); a nil
  /// relevance changes nothing except `lastEntryDate`.
  ///
  /// - Returns: false, ignoring the entry, when its date is earlier than the last
  ///   applied entry's date (entries must arrive in non-decreasing date order); true
  ///   otherwise.
  /// - Complexity: O(1).
  @discardableResult
  @inlinable public mutating func apply(_ entry: RelevanceEntry) -> Bool {
    if let last = lastEntryDate, entry.date < last { return false }
    _lastEntryDate = entry.date
    if let new = entry.relevance {
      relevance = new
      start = entry.date.milliseconds
    }
    return true
  }

  /// The state at `now`.
  ///
  /// `now` should be at or after `lastEntryDate`: the tracker keeps no history, so for an
  /// earlier `now` it answers as if only the entries applied so far existed and the
  /// current window had already begun.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  @inlinable public func state(at now: Instant) -> RelevanceState {
    guard let relevance else { return .none }
    if let end = relevance.windowEnd(start: start), now.milliseconds >= end { return .expired }
    return RelevanceState(windowScore: relevance.score)
  }

  /// The current window: the last non-nil entry's date, its own end (exclusive; nil when
  /// open-ended) and score, whether or not it has expired by now. Nil before the first
  /// non-nil entry.
  @inlinable public var window: (start: Instant, end: Instant?, score: Double)? {
    guard let relevance else { return nil }
    return (
      Instant(milliseconds: start),
      relevance.windowEnd(start: start).map { Instant(milliseconds: $0) },
      relevance.score
    )
  }

  /// The start of the current window, nil before the first non-nil entry.
  @inlinable public var windowStart: Instant? { relevance == nil ? nil : Instant(milliseconds: start) }

  /// The end (exclusive) of the current window, nil when there is none or it is
  /// open-ended (`duration == 0`).
  @inlinable public var windowEnd: Instant? {
    relevance?.windowEnd(start: start).map { Instant(milliseconds: $0) }
  }
}
