import SmartStackBase

/// One widget instance's relevance entries, queryable at any instant.
///
/// The rules (DESIGN.md §4, reference rules 3 and 5, Q3):
/// - the entries are ordered by date, stably: at equal dates the one later in the input
///   wins;
/// - the *governing* entry at `t` is the last entry in that order with `date <= t` and
///   non-nil relevance; entries dated after `t` have no effect yet, and entries with nil
///   relevance change nothing;
/// - with no governing entry the state is `none`;
/// - a governing entry at `t0` with duration `d > 0` covers `[t0, t0 + d)` (half-open: the
///   instant `t0 + d` is already expired); with `d == 0` it lasts until the next entry
///   with non-nil relevance; a newer non-nil entry replaces an open window at once;
/// - inside the window, `score > 0` is `active` and `score <= 0` is `suppressed`; after
///   it, `expired`.
///
/// The timeline is immutable; for the engine's event-by-event form see
/// `RelevanceTracker`, which gives the same states.
public struct RelevanceTimeline: Sendable {
  /// All entries, stably sorted by date (ties keep input order).
  public let entries: [RelevanceEntry]
  /// Dates (epoch ms) of the entries with non-nil relevance, in `entries` order.
  private let windowStarts: [Int64]
  /// The relevance of those entries, parallel to `windowStarts`.
  private let windowRelevances: [Relevance]

  /// Sorts `entries` stably by date.
  ///
  /// - Complexity: O(n log n) for n entries.
  public init(_ entries: some Sequence<RelevanceEntry>) {
    // Sort by (date, input position) so the order is stable whatever the sort algorithm.
    let sorted = entries.enumerated()
      .sorted { a, b in
        a.element.date != b.element.date ? a.element.date < b.element.date : a.offset < b.offset
      }
      .map(\.element)
    self.entries = sorted
    var starts: [Int64] = []
    var relevances: [Relevance] = []
    for entry in sorted {
      if let relevance = entry.relevance {
        starts.append(entry.date.milliseconds)
        relevances.append(relevance)
      }
    }
    self.windowStarts = starts
    self.windowRelevances = relevances
  }

  /// The number of entries with non-nil relevance (each one opens a window).
  public var windowCount: Int { windowStarts.count }

  /// The state at `instant`.
  ///
  /// - Complexity: O(log n): a binary search for the governing entry.
  public func state(at instant: Instant) -> RelevanceState {
    guard let index = governingIndex(at: instant.milliseconds) else { return .none }
    let relevance = windowRelevances[index]
    if let end = relevance.windowEnd(start: windowStarts[index]), instant.milliseconds >= end {
      return .expired
    }
    return RelevanceState(windowScore: relevance.score)
  }

  /// The window that contains `instant`, or nil when the state there is `none` or
  /// `expired`.
  ///
  /// `end` is the window's own end (exclusive), nil for an open-ended window (`duration
  /// == 0`). A later non-nil entry may cut the window short; that does not change the
  /// state at `instant`, so it is not reflected here.
  ///
  /// - Complexity: O(log n).
  public func window(at instant: Instant) -> (start: Instant, end: Instant?, score: Double)? {
    guard let index = governingIndex(at: instant.milliseconds) else { return nil }
    let start = windowStarts[index]
    let relevance = windowRelevances[index]
    let end = relevance.windowEnd(start: start)
    if let end, instant.milliseconds >= end { return nil }
    return (Instant(milliseconds: start), end.map { Instant(milliseconds: $0) }, relevance.score)
  }

  /// The index in `windowStarts` of the last window opened at or before `t`.
  private func governingIndex(at t: Int64) -> Int? {
    // First index whose start is > t (upper bound); the one before it governs.
    var low = 0
    var high = windowStarts.count
    while low < high {
      let mid = low + (high - low) / 2
      if windowStarts[mid] <= t { low = mid + 1 } else { high = mid }
    }
    return low == 0 ? nil : low - 1
  }
}
