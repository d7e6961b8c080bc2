import SmartStackBase

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
/// percentiles with non-decreasing `now`. A record then costs O(1) amortised; a score
/// entering the population O(1) (O(n) in a population of more than 256 scores), one
/// leaving a window O(n); a percentile O(n) with a small constant (every score compared,
/// eight at a time, in SIMD registers: about 20 ns for 60 scores in a release build), or
/// O(log n) above 256 scores. Out-of-order records and decreasing `now` are handled
/// correctly too, at the price of finding that key's population again (O(log n + n),
/// plus O(n log n) above 256 scores).
///
/// A value type: copies are independent. The storage is shared between copies until one
/// of them mutates (copy-on-write, one uniqueness check per mutating call).
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
  @usableFromInline package let windowMilliseconds: Int64?
  /// Every key's records and population; written only after `makeUnique()`.
  @usableFromInline package var storage = Storage()

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
  @inlinable public mutating func record(score: Double, at date: Instant, key: Int) {
    makeUnique()
    record(score: score, at: date, key: key, storageIsUnique: ())
  }

  /// `record(score:at:key:)` for a caller that knows this value's storage is not shared
  /// (`makeStorageUnique()` since the value was last copied): no uniqueness check.
  @inline(__always)
  @inlinable mutating package func record(score: Double, at date: Instant, key: Int, storageIsUnique: Void) {
    precondition(key >= 0, "PercentileNormaliser keys are dense indices >= 0")
    if score.isNaN { return }
    if key >= storage.count { storage.addBuckets(through: key) }
    storage.bucket(key).pointee.record(score: score, at: date.milliseconds)
  }

  /// The mid-rank percentile of `s` among `key`'s population at `now`, in [0, 1], or nil
  /// when the population is empty (or `s` is NaN).
  ///
  /// `date` is the date of the entry that gave `s` (the current score): when a `days`
  /// window has dropped it from the population, `s` is counted in once more, so the
  /// current score is always part of its own population (an open window older than the
  /// span gets 0.5 on an otherwise empty population, not nil).
  ///
  /// Mutating because it advances the key's population to `now` (scores whose date has
  /// been reached enter it; with a window, scores that fell out of it leave).
  ///
  /// - Complexity: O(n) for a population of n <= 256 scores (a SIMD count), else
  ///   O(log n); plus O(1) per score entering the population since the last call
  ///   (O(n) above 256 scores) and O(n) per score leaving it; O(log n + n) more, and
  ///   O(n log n) above 256 scores, when `now` went backwards or a record arrived out of
  ///   order.
  @inlinable public mutating func percentile(of s: Double, scoredAt date: Instant? = nil, at now: Instant, key: Int) -> Double? {
    makeUnique()
    return percentile(of: s, scoredAt: date, at: now, key: key, storageIsUnique: ())
  }

  /// `percentile(of:at:key:)` for a caller that knows this value's storage is not shared
  /// (`makeStorageUnique()` since the value was last copied): no uniqueness check.
  ///
  /// Transparent: inlined where it is called even into a large caller in another
  /// layer (the engine's relevance refresh), where `@inline(__always)` is not honoured
  /// past the optimiser's size limits.
  @_transparent @usableFromInline
  mutating package func percentile(
    of s: Double, scoredAt date: Instant? = nil, at now: Instant, key: Int, storageIsUnique: Void
  ) -> Double? {
    guard key >= 0, key < storage.count, !s.isNaN else { return nil }
    let bucket = storage.bucket(key)
    bucket.pointee.advance(to: now.milliseconds, windowMilliseconds: windowMilliseconds)
    // The current score is part of its own population ("itself included"), also once
    // its entry has left a `days` window (an open window older than the span).
    var addingItself = false
    if let date, let windowMilliseconds {
      addingItself = date.milliseconds <= Bucket.limit(now.milliseconds, windowMilliseconds)
    }
    return bucket.pointee.percentile(of: s, addingItself: addingItself)
  }

  /// The number of scores in `key`'s population at the last `percentile` query for it.
  @inlinable public func populationCount(key: Int) -> Int {
    key >= 0 && key < storage.count ? storage.bucket(key).pointee.populationCount : 0
  }

  /// Copies the storage if another normaliser value shares it (copy-on-write by hand:
  /// one uniqueness check per mutating call).
  @inline(__always)
  @inlinable mutating package func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
  }

  /// Gives this value storage of its own (a copy), shared with no other value.
  @inlinable mutating package func makeStorageUnique() {
    storage = storage.copy()
  }
}
