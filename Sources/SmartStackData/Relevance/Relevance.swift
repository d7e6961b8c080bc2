import SmartStackBase

/// The relevance a timeline entry carries: WidgetKit's `TimelineEntryRelevance(score:duration:)`.
///
/// Scores are only comparable with the same widget's own scores (reference rule 1); the
/// toolkit normalises them with `PercentileNormaliser`.
public struct Relevance: Hashable, Sendable {
  /// The app's score. `score > 0` makes the widget eligible for rotation while the window
  /// is open; `score <= 0` suppresses it (reference rule 3). Expected to be finite.
  public var score: Double
  /// How long the window lasts, in milliseconds from the entry's date.
  ///
  /// `0` (WidgetKit's default) means "until the next entry with non-nil relevance".
  /// Negative durations are invalid: readers reject them, and the model treats one as an
  /// empty window (expired from the entry's date on) so that it can never crash.
  public var durationMilliseconds: Int64

  @inlinable public init(score: Double, durationMilliseconds: Int64 = 0) {
    self.score = score
    self.durationMilliseconds = durationMilliseconds
  }

  /// The end (exclusive) of a window opened at `start` with this duration, in epoch
  /// milliseconds, or nil when the window is open-ended (`duration == 0`).
  ///
  /// The window covers `[start, end)`: the instant `end` itself is already expired. The
  /// sum saturates at `Int64.max` instead of overflowing; a negative duration gives
  /// `end == start` (an empty window).
  @inlinable package func windowEnd(start: Int64) -> Int64? {
    if durationMilliseconds == 0 { return nil }
    if durationMilliseconds < 0 { return start }
    let (sum, overflow) = start.addingReportingOverflow(durationMilliseconds)
    return overflow ? Int64.max : sum
  }
}

/// One timeline entry: a date and an optional relevance (DESIGN.md §4, "Relevance entry").
///
/// An entry with `relevance == nil` changes nothing: the previous window carries over
/// unchanged (it is neither ended nor extended).
public struct RelevanceEntry: Hashable, Sendable {
  /// When the entry takes effect.
  public var date: Instant
  /// The relevance it sets, or nil for "no change".
  public var relevance: Relevance?

  @inlinable public init(date: Instant, relevance: Relevance? = nil) {
    self.date = date
    self.relevance = relevance
  }
}

/// The relevance state of one widget instance at one instant.
///
/// - `none`: no entry with non-nil relevance is dated at or before the instant;
/// - `active(score:)`: inside a window whose score is `> 0` (eligible for rotation);
/// - `suppressed(score:)`: inside a window whose score is `<= 0` (never rotated to);
/// - `expired`: the last window has ended and no newer non-nil entry has opened one;
///   the score counts as 0.
public enum RelevanceState: Hashable, Sendable {
  case none
  case active(score: Double)
  case suppressed(score: Double)
  case expired

  /// The state inside a window with score `score`: `active` when `score > 0`, else
  /// `suppressed` (a NaN score is never `> 0`, so it suppresses).
  @inlinable
  public init(windowScore score: Double) {
    self = score > 0 ? .active(score: score) : .suppressed(score: score)
  }

  /// `none`, `active`, `suppressed` or `expired`: the name written into outputs.
  public var name: String {
    switch self {
    case .none: "none"
    case .active: "active"
    case .suppressed: "suppressed"
    case .expired: "expired"
    }
  }

  /// True only for `active`: the widget may be rotated to.
  @inlinable
  public var isEligible: Bool {
    if case .active = self { return true }
    return false
  }

  /// The score of the open window (`active` or `suppressed`), else nil. This is the
  /// provided score a percentile is computed for; `none` and `expired` have none.
  @inlinable
  public var windowScore: Double? {
    switch self {
    case .active(let score), .suppressed(let score): score
    case .none, .expired: nil
    }
  }

  /// The case without its score, as one byte (`StackFeatures.relevanceKind`).
  @inlinable
  public var kind: Kind {
    switch self {
    case .none: .none
    case .active: .active
    case .suppressed: .suppressed
    case .expired: .expired
    }
  }

  /// The case of a `RelevanceState` without its score: `none` 0, `active` 1,
  /// `suppressed` 2, `expired` 3. A strategy can index a small table with `rawValue`
  /// instead of branching on the state, which mispredicts when states vary from one
  /// instance to the next (`RelevanceStrategy` does).
  public enum Kind: UInt8, Sendable, Hashable, CaseIterable {
    case none = 0
    case active = 1
    case suppressed = 2
    case expired = 3
  }

  /// The score the state counts with: the window's score inside a window, `0` when
  /// expired, nil for `none`.
  @inlinable
  public var effectiveScore: Double? {
    switch self {
    case .active(let score), .suppressed(let score): score
    case .expired: 0
    case .none: nil
    }
  }
}
