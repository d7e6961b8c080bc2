/// A point in time: whole milliseconds since 1970-01-01T00:00:00Z (the Unix epoch, UTC).
///
/// `Instant` is the toolkit's only representation of absolute time on hot paths: a single
/// `Int64`, compared and subtracted with integer arithmetic, never a `Foundation.Date`.
/// Leap seconds do not exist in this scale (as in POSIX time): every day has exactly
/// 86 400 000 milliseconds.
///
/// Arithmetic saturates instead of trapping: `Instant(milliseconds: .max) + 1` is
/// `Instant(milliseconds: .max)`. Values read from files always lie in
/// [1970-01-01T00:00:00Z, 2101-01-01T00:00:00Z) (see `ISO8601.parse`), far from the limits.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Milliseconds since 1970-01-01T00:00:00Z; negative before the epoch.
  public var milliseconds: Int64

  /// The instant `milliseconds` ms after 1970-01-01T00:00:00Z.
  @inlinable
  public init(milliseconds: Int64) {
    self.milliseconds = milliseconds
  }

  /// The instant `seconds` s after 1970-01-01T00:00:00Z (saturating at the `Int64` limits).
  @inlinable
  public init(seconds: Int64) {
    self.milliseconds = Instant.saturatingMultiply(seconds, Instant.millisecondsPerSecond)
  }

  /// Whole seconds since the epoch, rounded towards negative infinity
  /// (`-1 ms` is second `-1`).
  @inlinable
  public var seconds: Int64 {
    Instant.floorDivide(milliseconds, Instant.millisecondsPerSecond)
  }

  /// The instant `duration` milliseconds later (earlier when negative), saturating.
  @inlinable
  public static func + (instant: Instant, duration: Int64) -> Instant {
    Instant(milliseconds: saturatingAdd(instant.milliseconds, duration))
  }

  /// The instant `duration` milliseconds earlier (later when negative), saturating.
  @inlinable
  public static func - (instant: Instant, duration: Int64) -> Instant {
    let (difference, overflow) = instant.milliseconds.subtractingReportingOverflow(duration)
    if !overflow { return Instant(milliseconds: difference) }
    return Instant(milliseconds: duration > 0 ? .min : .max)
  }

  /// The milliseconds from `b` to `a` (`a - b`), saturating.
  @inlinable
  public static func - (a: Instant, b: Instant) -> Int64 {
    let (difference, overflow) = a.milliseconds.subtractingReportingOverflow(b.milliseconds)
    if !overflow { return difference }
    return b.milliseconds > 0 ? .min : .max
  }

  /// Moves the instant by `duration` milliseconds, saturating.
  @inlinable
  public static func += (instant: inout Instant, duration: Int64) {
    instant = instant + duration
  }

  /// Moves the instant back by `duration` milliseconds, saturating.
  @inlinable
  public static func -= (instant: inout Instant, duration: Int64) {
    instant = instant - duration
  }

  @inlinable
  public static func < (a: Instant, b: Instant) -> Bool {
    a.milliseconds < b.milliseconds
  }

  /// `ISO8601.format(self)`, e.g. `2026-03-02T08:01:05Z` or `2026-03-02T08:01:05.250Z`.
  public var description: String { ISO8601.format(self) }
}

// MARK: - Constants

extension Instant {
  /// 1970-01-01T00:00:00Z.
  public static let epoch = Instant(milliseconds: 0)
  /// The first instant a timestamp in a file may denote: 1970-01-01T00:00:00Z.
  public static let earliestSupported = Instant(milliseconds: 0)
  /// The first instant *after* the supported range: 2101-01-01T00:00:00Z
  /// (day 47 847 since the epoch).
  public static let endOfSupportedRange = Instant(milliseconds: 47_847 * 86_400_000)
  /// `earliestSupported.milliseconds` as a constant the compiler folds: the readers' range
  /// check runs on every row, and a `static let` is reached through its accessor.
  @inlinable static var earliestSupportedMilliseconds: Int64 { 0 }
  /// `endOfSupportedRange.milliseconds`, folded as `earliestSupportedMilliseconds`.
  @inlinable static var endOfSupportedRangeMilliseconds: Int64 { 47_847 * 86_400_000 }

  /// 1 000.
  public static let millisecondsPerSecond: Int64 = 1_000
  /// 60 000.
  public static let millisecondsPerMinute: Int64 = 60_000
  /// 3 600 000.
  public static let millisecondsPerHour: Int64 = 3_600_000
  /// 86 400 000: every day in this time scale has exactly this many milliseconds.
  public static let millisecondsPerDay: Int64 = 86_400_000
  /// 604 800 000.
  public static let millisecondsPerWeek: Int64 = 604_800_000
}

// MARK: - Integer helpers

extension Instant {
  /// `a / b` rounded towards negative infinity. `b` must be positive.
  @inlinable
  static package func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b < 0) ? q - 1 : q
  }

  /// `a mod b` in `0..<b`. `b` must be positive.
  @inlinable
  static package func floorModulo(_ a: Int64, _ b: Int64) -> Int64 {
    let r = a % b
    return r < 0 ? r + b : r
  }

  @inlinable
  static package func saturatingAdd(_ a: Int64, _ b: Int64) -> Int64 {
    let (sum, overflow) = a.addingReportingOverflow(b)
    if !overflow { return sum }
    return b > 0 ? .max : .min
  }

  @inlinable
  static package func saturatingMultiply(_ a: Int64, _ b: Int64) -> Int64 {
    let (product, overflow) = a.multipliedReportingOverflow(by: b)
    if !overflow { return product }
    return (a < 0) == (b < 0) ? .max : .min
  }
}
