/// Offset and calendar queries on one zone's rules, remembering the interval between two
/// transitions that the last query fell in.
///
/// The engine asks for the hour and day of instants that increase over a run; a cursor
/// answers those in O(1) amortised (a range check, at most one step to the next interval),
/// and falls back to a binary search when an instant jumps elsewhere. Its answers are
/// always those of the underlying `ZoneRules`, whatever the query order.
///
/// ```swift
/// var cursor = rules.cursor()
/// for visit in visits { let hour = cursor.hourOfWeek(at: visit.time) ... }
/// ```
public struct ZoneCursor: Sendable {
  /// The rules queried.
  public let rules: ZoneRules
  /// The current interval: UTC milliseconds `lower ..< upper` have offset `offset` (ms).
  @usableFromInline var index: Int
  @usableFromInline var lower: Int64
  @usableFromInline var upper: Int64
  @usableFromInline var offset: Int64

  /// A cursor positioned on the first interval.
  @inlinable public init(_ rules: ZoneRules) {
    self.rules = rules
    self.index = 0
    self.lower = .min
    self.upper = .min
    self.offset = 0
    move(to: 0)
  }

  @inlinable mutating func move(to i: Int) {
    index = i
    lower = rules.starts[i]
    upper = i + 1 < rules.starts.count ? rules.starts[i + 1] : .max
    offset = rules.offsets[i]
  }

  /// The UTC offset at `instant`, in milliseconds.
  ///
  /// - Complexity: O(1) when `instant` is in the same interval as the last query or the
  ///   next one; O(log t) otherwise.
  @inline(__always)
  @inlinable public mutating func offsetMilliseconds(at instant: Instant) -> Int64 {
    let t = instant.milliseconds
    if t >= lower && t < upper { return offset }
    let next = index + 1
    if t >= upper && next < rules.starts.count
      && (next + 1 == rules.starts.count || t < rules.starts[next + 1])
    {
      move(to: next)
    } else {
      move(to: rules.intervalIndex(containing: t))
    }
    return offset
  }

  /// The UTC offset at `instant`, in seconds; equal to `rules.offsetSeconds(at:)`.
  @inlinable public mutating func offsetSeconds(at instant: Instant) -> Int {
    Int(offsetMilliseconds(at: instant) / 1_000)
  }

  /// The wall-clock time at `instant`; equal to `rules.localMilliseconds(at:)`.
  @inlinable public mutating func localMilliseconds(at instant: Instant) -> Int64 {
    instant.milliseconds &+ offsetMilliseconds(at: instant)
  }

  /// Local days since 1970-01-01; equal to `rules.dayIndex(at:)`.
  @inlinable public mutating func dayIndex(at instant: Instant) -> Int64 {
    WallClock.dayIndex(localMilliseconds(at: instant))
  }

  /// The local hour of the day, 0...23; equal to `rules.hourOfDay(at:)`.
  @inlinable public mutating func hourOfDay(at instant: Instant) -> Int {
    WallClock.hourOfDay(localMilliseconds(at: instant))
  }

  /// The local ISO weekday, 0 = Monday ... 6 = Sunday; equal to `rules.weekday(at:)`.
  @inlinable public mutating func weekday(at instant: Instant) -> Int {
    WallClock.weekday(localMilliseconds(at: instant))
  }

  /// The local hour of the week, 0...167; equal to `rules.hourOfWeek(at:)`.
  @inlinable public mutating func hourOfWeek(at instant: Instant) -> Int {
    WallClock.hourOfWeek(localMilliseconds(at: instant))
  }
}
