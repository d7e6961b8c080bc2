/// Turns a relevance score into the mid-rank percentile of that score among the scores
/// provided so far (DESIGN.md §4, "Normalised relevance"; reference rule 1 and Q1).
///
/// Definition: for a key (a dense instance index, or a dense kind index with scope
/// `kind`) the population at `now` is every score recorded for that key with
/// `date <= now` — and, with `Window.days(N)`, also `date > now - N × 86 400 000 ms` —
/// and the percentile of a score `s` is
///
///     (count(s' < s) + 0.5 × count(s' == s)) / count
///
/// So a constant scorer sits at 0.5, the largest of n distinct scores at `1 - 0.5/n`
/// and the smallest at `0.5/n`. The current score must itself have been recorded (it is
/// part of the population). With no score in the population the percentile is nil.
///
/// Window boundary: `days(N)` counts scores dated in the half-open interval
/// `(now - N days, now]`: a score dated exactly N days before `now` no longer counts,
/// one dated at `now` does. Days are fixed 24-hour spans (86 400 000 ms), not local
/// calendar days, so DST does not change a window's length. `days(N)` with `N <= 0` is
/// an empty window (the percentile is always nil).
///
/// Scores are expected to be finite; a NaN score is ignored by `record` and its
/// percentile is nil. `-0.0` and `0.0` are equal.
///
/// Usage in time order (the engine's and `smartstack relevance`'s pattern): record every
/// score, in date order, as its entry arrives (or all of them up front), and ask for
/// percentiles with non-decreasing `now`. Both then cost O(log n) for the search plus an
/// O(n) array insertion or removal per score as it enters or leaves the population.
/// Out-of-order records and decreasing `now` are handled correctly too, at the price of
/// rebuilding that key's population (O(n log n)).
public struct PercentileNormaliser: Sendable {
  /// Whose scores a score is compared with.
  public enum Scope: String, Sendable, Hashable, CaseIterable {
    /// The same widget instance's scores (the default).
    case instance
    /// Every instance of the same widget kind, pooled.
    case kind
  }

  /// Which past scores count.
  public enum Window: Sendable, Hashable {
    /// Every score provided so far.
    case all
    /// The scores dated in `(now - N days, now]`.
    case days(Int)
  }

  /// The population scope. The normaliser itself only sees keys; `key(instance:kind:)`
  /// picks the right one for this scope.
  public let scope: Scope
  /// The history window.
  public let window: Window
  /// The window length in ms, nil for `.all`; saturated for absurdly many days.
  private let windowMilliseconds: Int64?
  private var buckets: [Bucket] = []

  public init(scope: Scope = .instance, window: Window = .all) {
    self.scope = scope
    self.window = window
    switch window {
    case .all:
      windowMilliseconds = nil
    case .days(let n):
      let (product, overflow) = Int64(n).multipliedReportingOverflow(by: 86_400_000)
      windowMilliseconds = overflow ? (n < 0 ? Int64.min : Int64.max) : product
    }
  }

  /// The key to use for an instance: `instance` with scope `.instance`, `kind` with scope
  /// `.kind`. Both are dense indices (0, 1, 2, …) chosen by the caller.
  @inlinable
  public func key(instance: Int, kind: Int) -> Int {
    scope == .instance ? instance : kind
  }

  /// Adds `score`, provided at `date`, to the population of `key`.
  ///
  /// - Precondition: `key >= 0` (a dense index chosen by the program, never by input).
  /// - Complexity: O(1) amortised when dates arrive in non-decreasing order per key;
  ///   O(n) for an out-of-order date.
  public mutating func record(score: Double, at date: Instant, key: Int) {
    precondition(key >= 0, "PercentileNormaliser keys are dense indices >= 0")
    if score.isNaN { return }
    while buckets.count <= key { buckets.append(Bucket()) }
    buckets[key].record(score: score, at: date.milliseconds)
  }

  /// The mid-rank percentile of `s` among `key`'s population at `now`, in [0, 1], or nil
  /// when the population is empty (or `s` is NaN).
  ///
  /// Mutating because it advances the key's population to `now` (scores whose date has
  /// been reached enter it; with a window, scores that fell out of it leave).
  ///
  /// - Complexity: O(log n) plus O(n) per score entering or leaving the population since
  ///   the last call; O(n log n) when `now` went backwards or a record arrived out of
  ///   order.
  public mutating func percentile(of s: Double, at now: Instant, key: Int) -> Double? {
    guard key >= 0, key < buckets.count, !s.isNaN else { return nil }
    buckets[key].advance(to: now.milliseconds, windowMilliseconds: windowMilliseconds)
    return buckets[key].percentile(of: s)
  }

  /// The number of scores in `key`'s population at the last `percentile` query for it.
  public func populationCount(key: Int) -> Int {
    key >= 0 && key < buckets.count ? buckets[key].population.count : 0
  }
}

extension PercentileNormaliser {
  /// One key's scores.
  ///
  /// `dates`/`scores` hold every record, sorted by date (stable). Records in
  /// `head..<tail` form the population at `lastNow` and their scores are kept, sorted
  /// ascending, in `population`: `tail` is the first record dated after `lastNow`, `head`
  /// the first record still inside the window.
  struct Bucket: Sendable {
    var dates: [Int64] = []
    var scores: [Double] = []
    var head = 0
    var tail = 0
    var population: [Double] = []
    var lastNow = Int64.min
    /// Set when a record landed before `tail`: the population must be rebuilt.
    var needsRebuild = false
    /// The last score inserted into `population` and its `(count(< s), count(<= s))`
    /// right after the insertion, valid while `insertedValid` (no other change since):
    /// the engine asks for the percentile of the score it has just recorded, and this
    /// saves walking the population a second time.
    var inserted = 0.0
    var insertedBelow = 0
    var insertedUpTo = 0
    var insertedValid = false

    mutating func record(score: Double, at date: Int64) {
      if let last = dates.last, date < last {
        let position = Self.upperBound(date, in: dates)
        dates.insert(date, at: position)
        scores.insert(score, at: position)
        if position < tail { needsRebuild = true }
      } else {
        dates.append(date)
        scores.append(score)
      }
    }

    mutating func advance(to now: Int64, windowMilliseconds: Int64?) {
      if needsRebuild || now < lastNow {
        head = 0
        tail = 0
        population.removeAll(keepingCapacity: true)
        needsRebuild = false
        insertedValid = false
      }
      lastNow = now
      while tail < dates.count && dates[tail] <= now {
        let score = scores[tail]
        let (below, upTo) = Self.bounds(score, in: population)
        population.insert(score, at: upTo)
        inserted = score
        insertedBelow = below
        insertedUpTo = upTo &+ 1
        insertedValid = true
        tail += 1
      }
      guard let windowMilliseconds else { return }
      // Scores dated <= now - window have left the window (it is (now - window, now]).
      let (cutoff, overflow) = now.subtractingReportingOverflow(windowMilliseconds)
      let limit = overflow ? (windowMilliseconds > 0 ? Int64.min : Int64.max) : cutoff
      while head < tail && dates[head] <= limit {
        let score = scores[head]
        let index = Self.lowerBound(score, in: population)
        if index < population.count && population[index] == score {
          population.remove(at: index)
          insertedValid = false
        }
        head += 1
      }
    }

    func percentile(of s: Double) -> Double? {
      if population.isEmpty { return nil }
      let (below, upTo) = insertedValid && s == inserted ? (insertedBelow, insertedUpTo) : Self.bounds(s, in: population)
      return (Double(below) + 0.5 * Double(upTo - below)) / Double(population.count)
    }

    /// `(lowerBound(value), upperBound(value))` in one pass for small arrays: walk the
    /// elements below `value`, then those equal to it, and stop (two mispredicted
    /// branches instead of one per binary-search step).
    static func bounds(_ value: Double, in array: [Double]) -> (Int, Int) {
      if array.count > countingLimit {
        return (lowerBound(value, in: array), upperBound(value, in: array))
      }
      return array.withUnsafeBufferPointer { a in
        var i = 0
        while i < a.count && a[i] < value { i &+= 1 }
        let below = i
        while i < a.count && a[i] == value { i &+= 1 }
        return (below, i)
      }
    }

    /// Up to this many elements a bound is found by walking from the start (one
    /// mispredicted branch, at the end) rather than by binary search, whose branches
    /// mispredict about half the time on scores.
    static let countingLimit = 128

    /// The first index whose element is `>= value` in an ascending array.
    static func lowerBound(_ value: Double, in array: [Double]) -> Int {
      array.withUnsafeBufferPointer { a in
        if a.count <= countingLimit {
          var i = 0
          while i < a.count && a[i] < value { i &+= 1 }
          return i
        }
        var low = 0
        var high = a.count
        while low < high {
          let mid = low + (high - low) / 2
          if a[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
      }
    }

    /// The first index whose element is `> value` in an ascending array.
    static func upperBound(_ value: Double, in array: [Double]) -> Int {
      array.withUnsafeBufferPointer { a in
        if a.count <= countingLimit {
          var i = 0
          while i < a.count && a[i] <= value { i &+= 1 }
          return i
        }
        var low = 0
        var high = a.count
        while low < high {
          let mid = low + (high - low) / 2
          if a[mid] <= value { low = mid + 1 } else { high = mid }
        }
        return low
      }
    }

    /// The first index whose element is `> value` in an ascending array.
    static func upperBound<T: Comparable>(_ value: T, in array: [T]) -> Int {
      var low = 0
      var high = array.count
      while low < high {
        let mid = low + (high - low) / 2
        if array[mid] <= value { low = mid + 1 } else { high = mid }
      }
      return low
    }
  }
}
