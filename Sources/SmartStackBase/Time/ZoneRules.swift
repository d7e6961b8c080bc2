import Foundation

/// The UTC offsets of one IANA time zone between 1970 and 2101, as sorted integer arrays.
///
/// All UTC-offset transitions from 1970-01-01T00:00:00Z up to 2101-01-01T00:00:00Z are read
/// from Foundation's `TimeZone` once, when the value is created. Every query afterwards is
/// integer arithmetic and a binary search: no `TimeZone`, `Calendar` or `Date`.
///
/// Outside the precomputed range the rules are extended flat: every instant before the
/// first transition after 1970 has the zone's offset at 1970-01-01T00:00:00Z, and every
/// instant after the last transition before 2101 keeps that transition's offset.
///
/// Wall-clock (local) times are milliseconds since 1970-01-01T00:00 of the zone's wall
/// clock, i.e. `instant.milliseconds + offsetSeconds * 1000`, the same scale as
/// `ISO8601.Timestamp.local`.
///
/// For many queries in increasing time order (the engine's loop), use a `ZoneCursor`,
/// which answers in O(1) amortised.
public struct ZoneRules: Sendable, Hashable, CustomStringConvertible {
  /// The identifier the rules were created with, e.g. `Europe/Berlin` or `UTC`.
  public let identifier: String

  /// `starts[i]` is the first UTC millisecond of interval `i`; `starts[0] == Int64.min`.
  /// Strictly increasing.
  @usableFromInline package let starts: [Int64]
  /// `offsets[i]` is the UTC offset in force during interval `i`, in milliseconds.
  /// Consecutive entries differ.
  @usableFromInline package let offsets: [Int64]
  /// `localEnds[i]` is the wall-clock millisecond at which interval `i` ends, read with
  /// interval `i`'s own offset: `starts[i + 1] + offsets[i]`; `Int64.max` for the last
  /// interval. Non-decreasing (made so by a running maximum, a no-op for every real zone).
  @usableFromInline package let localEnds: [Int64]

  /// Coordinated Universal Time: offset 0, no transitions. Built without Foundation.
  public static let utc = ZoneRules(identifier: "UTC", starts: [.min], offsets: [0])

  /// The rules of the IANA zone Foundation knows as `identifier` (e.g.
  /// `America/New_York`), or `UTC`; nil for an identifier Foundation does not know, and
  /// for the UTC offsets Foundation would otherwise accept as zones (`GMT+05:30`, `UTC+3`,
  /// `UT-2`: `GMT`, `UTC` or `UT` followed by `+` or `-`; `isUTCOffsetSpelling`), which
  /// are not IANA names. IANA's own fixed-offset zones (`Etc/GMT-3`) are accepted.
  ///
  /// - Complexity: O(t) `TimeZone` calls, t = the number of transitions (about 260 for a
  ///   zone with yearly daylight saving time); well under a millisecond in a release build.
  public init?(identifier: String) {
    if identifier == "UTC" {
      self = .utc
      return
    }
    guard !identifier.isEmpty, !Self.isUTCOffsetSpelling(identifier),
      let zone = TimeZone(identifier: identifier)
    else { return nil }
    self.init(timeZone: zone, identifier: identifier)
  }

  /// True for `GMT`, `UTC` or `UT` followed by `+` or `-` (any case): Foundation's
  /// spelling of a fixed UTC offset, not an IANA zone name.
  static func isUTCOffsetSpelling(_ identifier: String) -> Bool {
    let upper = identifier.uppercased()
    for prefix in ["GMT", "UTC", "UT"] where upper.hasPrefix(prefix) {
      let next = upper.dropFirst(prefix.count).first
      if next == "+" || next == "-" { return true }
    }
    return false
  }

  /// The rules of a Foundation time zone, named `identifier` (default: the zone's own).
  public init(timeZone zone: TimeZone, identifier: String? = nil) {
    let firstSecond: Int64 = 0
    let endSecond = Instant.endOfSupportedRange.milliseconds / Instant.millisecondsPerSecond
    var starts: [Int64] = [.min]
    var offsets: [Int64] = [
      Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(firstSecond)))) * 1_000
    ]
    var cursor = Date(timeIntervalSince1970: Double(firstSecond))
    // A guard against a Foundation that never advances: real zones have < 400 transitions.
    var remaining = 20_000
    while remaining > 0, let next = zone.nextDaylightSavingTimeTransition(after: cursor),
      next > cursor
    {
      remaining -= 1
      let second = Int64(next.timeIntervalSince1970.rounded())
      if second >= endSecond { break }
      cursor = next
      let offset =
        Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(second)))) * 1_000
      let start = second * 1_000
      if offset != offsets[offsets.count - 1] && start > starts[starts.count - 1] {
        starts.append(start)
        offsets.append(offset)
      }
    }
    self.init(identifier: identifier ?? zone.identifier, starts: starts, offsets: offsets)
  }

  /// Rules from explicit intervals (tests, and zones built by hand).
  ///
  /// - Parameters:
  ///   - starts: the first UTC millisecond of each interval; `starts[0]` must be
  ///     `Int64.min`, the rest strictly increasing.
  ///   - offsets: the UTC offset of each interval, in milliseconds.
  package init(identifier: String, starts: [Int64], offsets: [Int64]) {
    self.identifier = identifier
    self.starts = starts
    self.offsets = offsets
    var ends = [Int64]()
    ends.reserveCapacity(starts.count)
    var runningMax = Int64.min
    for i in starts.indices {
      let end = i + 1 < starts.count ? starts[i + 1] &+ offsets[i] : .max
      runningMax = max(runningMax, end)
      ends.append(runningMax)
    }
    self.localEnds = ends
  }

  /// The identifier.
  public var description: String { identifier }

  /// Equal when the identifiers and every interval are equal.
  public static func == (a: ZoneRules, b: ZoneRules) -> Bool {
    a.identifier == b.identifier && a.starts == b.starts && a.offsets == b.offsets
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(identifier)
    hasher.combine(starts.count)
  }

  // MARK: - Instant to wall clock

  /// The index of the interval that contains `milliseconds` (UTC).
  ///
  /// - Complexity: O(log t).
  @inlinable package func intervalIndex(containing milliseconds: Int64) -> Int {
    // The last i with starts[i] <= milliseconds; starts[0] == .min, so i >= 0.
    var low = 0
    var high = starts.count
    while high - low > 1 {
      let mid = (low + high) >> 1
      if starts[mid] <= milliseconds { low = mid } else { high = mid }
    }
    return low
  }

  /// The UTC offset in force at `instant`, in seconds (east of Greenwich positive:
  /// +3600 for Europe/Berlin in winter, -14400 for New York in summer).
  ///
  /// - Complexity: O(log t), t = the number of transitions.
  @inlinable public func offsetSeconds(at instant: Instant) -> Int {
    Int(offsets[intervalIndex(containing: instant.milliseconds)] / 1_000)
  }

  /// The wall-clock time at `instant`: `instant.milliseconds + offsetSeconds(at:) * 1000`.
  ///
  /// - Complexity: O(log t).
  @inlinable public func localMilliseconds(at instant: Instant) -> Int64 {
    instant.milliseconds &+ offsets[intervalIndex(containing: instant.milliseconds)]
  }

  // MARK: - Wall clock to instant

  /// The instant a wall-clock time denotes in this zone.
  ///
  /// Wall-clock times are ambiguous around offset transitions; the rules are:
  /// - **Gap** (spring forward: the wall-clock time never happens): the time is read with
  ///   the offset in force *before* the gap. In New York on 2026-03-08, 02:30 becomes
  ///   02:30 EST = 07:30Z, which the clock shows as 03:30 EDT.
  /// - **Overlap** (fall back: the wall-clock time happens twice): the *earlier* instant.
  ///   In New York on 2026-11-01, 01:30 becomes 01:30 EDT = 05:30Z, not 06:30Z.
  ///
  /// So `instant(fromLocal: localMilliseconds(at: x)) == x` for every `x` except the later
  /// pass through an overlap, which maps to the earlier one.
  ///
  /// - Complexity: O(log t).
  @inlinable public func instant(fromLocal localMilliseconds: Int64) -> Instant {
    let i = firstIntervalEnding(after: localMilliseconds)
    if i == 0 || localMilliseconds >= starts[i] &+ offsets[i] {
      return Instant(milliseconds: localMilliseconds) - offsets[i]
    }
    return Instant(milliseconds: localMilliseconds) - offsets[i - 1]  // in the gap before i
  }

  /// The instant of a parsed timestamp: `.absolute` as is, `.local` through
  /// `instant(fromLocal:)`.
  @inlinable public func resolve(_ timestamp: ISO8601.Timestamp) -> Instant {
    switch timestamp {
    case .absolute(let instant): return instant
    case .local(let milliseconds): return instant(fromLocal: milliseconds)
    }
  }

  /// The instant of a parsed timestamp, as `resolve(_:)`, or the error when it lies outside
  /// the supported range [1970-01-01T00:00:00Z, 2101-01-01T00:00:00Z)
  /// (`ISO8601.rangeError(_:)`, offset 0: the start of the timestamp). An `.absolute`
  /// timestamp from `ISO8601.parse` is always in range; a `.local` one can leave it when
  /// the zone's offset moves it across a boundary (`1970-01-01 00:00` in Asia/Kolkata).
  /// Every reader of timestamps from files goes through this, typically as
  /// `ISO8601.parse(text).flatMap(zone.checkedInstant)`.
  ///
  /// - Complexity: O(log t).
  @inlinable public func checkedInstant(_ timestamp: ISO8601.Timestamp) -> Result<Instant, ISO8601.ParseError> {
    let instant = resolve(timestamp)
    if let error = ISO8601.rangeError(instant) { return .failure(error) }
    return .success(instant)
  }

  /// `ISO8601.parse(bytes)` then `checkedInstant(_:)`, without the closure that
  /// `Result.flatMap(checkedInstant)` would make (and its copy of the zone's arrays) for
  /// every row: the form the log readers' hot paths use.
  ///
  /// - Complexity: O(n + log t).
  @inlinable public func instant(parsing bytes: UnsafeBufferPointer<UInt8>) -> Result<Instant, ISO8601.ParseError> {
    switch ISO8601.parse(bytes) {
    case .success(let timestamp): return checkedInstant(timestamp)
    case .failure(let error): return .failure(error)
    }
  }

  /// `instant(parsing:)`, also setting `utcOffset` to the offset the text writes
  /// (`ISO8601.parse(_:utcOffset:)`; `UTCOffset.none` when it writes none): the log
  /// readers' form, one pass over the text.
  ///
  /// - Complexity: O(n + log t).
  @inlinable package func instant(
    parsing bytes: UnsafeBufferPointer<UInt8>, utcOffset: inout Int32
  ) -> Result<Instant, ISO8601.ParseError> {
    switch ISO8601.parse(bytes, utcOffset: &utcOffset) {
    case .success(let timestamp): return checkedInstant(timestamp)
    case .failure(let error): return .failure(error)
    }
  }

  /// The first instant of local day `dayIndex` (days since 1970-01-01 on the wall clock):
  /// local midnight, or, when midnight falls in a gap, the end of the gap (the first
  /// instant whose wall-clock time is on that day). In an overlap, the earlier midnight.
  ///
  /// - Complexity: O(log t).
  @inlinable public func startOfLocalDay(dayIndex: Int64) -> Instant {
    let midnight = Instant.saturatingMultiply(dayIndex, Instant.millisecondsPerDay)
    let i = firstIntervalEnding(after: midnight)
    if i == 0 || midnight >= starts[i] &+ offsets[i] {
      return Instant(milliseconds: midnight) - offsets[i]
    }
    return Instant(milliseconds: starts[i])
  }

  /// The first interval `i` whose local end lies after `localMilliseconds`.
  @inlinable package func firstIntervalEnding(after localMilliseconds: Int64) -> Int {
    var low = 0
    var high = localEnds.count - 1  // localEnds.last == .max > any value
    while low < high {
      let mid = (low + high) >> 1
      if localEnds[mid] > localMilliseconds { high = mid } else { low = mid + 1 }
    }
    return low
  }
}
