import SmartStackBase

/// A regular time grid `from, from + step, from + 2·step, … <= to` on which timelines are
/// evaluated (`smartstack relevance`).
public struct RelevanceGrid: Sendable, Hashable {
  /// The most rows (grid times × instances) one evaluation may produce.
  public static let maximumRows = 10_000_000

  /// Why a grid cannot be built.
  public enum Problem: Error, Sendable, Hashable {
    /// `from` is after `to`.
    case fromAfterTo
    /// The step is zero or negative.
    case stepNotPositive
  }

  /// The first grid time.
  public let from: Instant
  /// The last time allowed (the last grid time is the largest `from + k·step <= to`).
  public let to: Instant
  /// The step in milliseconds, `> 0`.
  public let stepMilliseconds: Int64
  /// The number of grid times, `>= 1` (saturated at `Int.max`).
  public let count: Int

  /// - Throws: `Problem.fromAfterTo` when `from > to`, `Problem.stepNotPositive` when
  ///   `stepMilliseconds <= 0`.
  public init(from: Instant, to: Instant, stepMilliseconds: Int64) throws(Problem) {
    if from > to { throw .fromAfterTo }
    if stepMilliseconds <= 0 { throw .stepNotPositive }
    self.from = from
    self.to = to
    self.stepMilliseconds = stepMilliseconds
    // The difference as an unsigned magnitude is exact even when it exceeds Int64.max.
    let span = UInt64(bitPattern: to.milliseconds &- from.milliseconds)
    let steps = span / UInt64(stepMilliseconds)
    self.count = steps >= UInt64(Int.max) ? Int.max : Int(steps) + 1
  }

  /// The `index`-th grid time, `from + index·step`.
  ///
  /// - Precondition: `0 <= index < count`.
  @inlinable
  public func time(at index: Int) -> Instant {
    Instant(milliseconds: from.milliseconds &+ Int64(index) &* stepMilliseconds)
  }

  /// `count × instances`, or nil when that overflows `Int`.
  public func rowCount(instances: Int) -> Int? {
    let (product, overflow) = count.multipliedReportingOverflow(by: instances)
    return overflow ? nil : product
  }
}

/// One evaluated grid point of one instance.
public struct RelevanceGridRow: Sendable, Hashable {
  /// The grid time.
  public var time: Instant
  /// The instance's index in the file.
  public var instance: Int
  /// The instance's relevance state at `time`.
  public var state: RelevanceState
  /// The mid-rank percentile of the window's score among the scores provided with
  /// `date <= time` (per the normaliser's scope and window); nil when the state is `none`
  /// or `expired`.
  public var percentile: Double?
}

extension TimelineFile {
  /// Evaluates every instance at every grid time and hands the rows to `body` ordered by
  /// time, then by instance in file order. Check `grid.rowCount(instances:)` against
  /// `RelevanceGrid.maximumRows` first: this produces that many rows.
  ///
  /// The percentile at grid time `t` is computed over the scores of the entries with
  /// non-nil relevance dated `<= t` (the entries provided so far), pooled per instance or
  /// per kind as `normaliser.scope` says, within `normaliser.window`. The normaliser should
  /// be fresh (nothing recorded).
  ///
  /// - Complexity: O(E log E + R log E) for E entries and R rows, plus O(E) per entry for
  ///   the normaliser's sorted insertion.
  public func evaluate(
    on grid: RelevanceGrid, normaliser: PercentileNormaliser,
    _ body: (RelevanceGridRow) throws -> Void
  ) rethrows {
    if instances.isEmpty { return }
    var normaliser = normaliser
    let kindIndex = kindIndices().indices
    let timelines = instances.map { RelevanceTimeline($0.entries) }
    let keys = instances.indices.map { normaliser.key(instance: $0, kind: kindIndex[$0]) }

    // Record every score up front in global date order (ties: instance, then entry order),
    // so each key receives non-decreasing dates; percentile(at: t) then counts exactly
    // those dated <= t.
    var scored: [(date: Int64, instance: Int, order: Int, score: Double)] = []
    for (i, timeline) in timelines.enumerated() {
      for (order, entry) in timeline.entries.enumerated() {
        if let relevance = entry.relevance {
          scored.append((entry.date.milliseconds, i, order, relevance.score))
        }
      }
    }
    scored.sort { a, b in
      if a.date != b.date { return a.date < b.date }
      if a.instance != b.instance { return a.instance < b.instance }
      return a.order < b.order
    }
    for s in scored {
      normaliser.record(score: s.score, at: Instant(milliseconds: s.date), key: keys[s.instance])
    }

    var trackers = [RelevanceTracker](repeating: RelevanceTracker(), count: timelines.count)
    var next = [Int](repeating: 0, count: timelines.count)
    for step in 0..<grid.count {
      let t = grid.time(at: step)
      for i in timelines.indices {
        let entries = timelines[i].entries
        while next[i] < entries.count && entries[next[i]].date <= t {
          trackers[i].apply(entries[next[i]])
          next[i] += 1
        }
        let state = trackers[i].state(at: t)
        let percentile = state.windowScore.flatMap {
          normaliser.percentile(of: $0, scoredAt: trackers[i].windowStart, at: t, key: keys[i])
        }
        try body(RelevanceGridRow(time: t, instance: i, state: state, percentile: percentile))
      }
    }
  }
}
