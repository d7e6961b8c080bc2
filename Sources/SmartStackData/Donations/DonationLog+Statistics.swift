import SmartStackBase

/// A summary of a donation log: what `smartstack validate` prints.
public struct DonationStatistics: Sendable, Hashable {
  /// Donations per local hour of the day.
  public struct HourCount: Sendable, Hashable {
    /// 0...23, on the wall clock of the donation's own UTC offset, else the time zone's.
    public var hour: Int
    public var donations: Int
  }

  /// The number of donations.
  public var events: Int
  /// Distinct users, kinds, intents and parameter keys.
  public var users: Int
  public var kinds: Int
  public var intents: Int
  public var parameterKeys: Int
  /// The first and last donation instants; nil for an empty log.
  public var first: Instant?
  public var last: Instant?
  /// The zone the hours are counted in.
  public var timeZone: String
  /// `hourCounts[h]` is the number of donations whose local hour of day is `h` (24
  /// entries): in each donation's own UTC offset when it has one, else in `timeZone`.
  public var hourCounts: [Int]

  /// `(last - first)` in days of 86,400 s (0 for an empty log).
  public var spanDays: Double {
    guard let first, let last else { return 0 }
    return Double(last - first) / Double(Instant.millisecondsPerDay)
  }

  /// The local hour of day (0...23) a donation at `milliseconds` counts in: on the wall
  /// clock of its own `utcOffset` (seconds) when it has one, else of `cursor`'s zone. O(1)
  /// for instants near the cursor's last one, O(log transitions) otherwise, in any order.
  @inline(__always)
  static func hourOfDay(_ milliseconds: Int64, utcOffset: Int32, cursor: inout ZoneCursor) -> Int {
    utcOffset == UTCOffset.none
      ? cursor.hourOfDay(at: Instant(milliseconds: milliseconds))
      : WallClock.hourOfDay(milliseconds + Int64(utcOffset) * Instant.millisecondsPerSecond)
  }

  /// The `limit` busiest local hours: donation count descending, then hour ascending.
  /// Hours without donations are left out.
  public func busiestHours(_ limit: Int = 3) -> [HourCount] {
    let counts = hourCounts
    let hours: [Int] = (0..<counts.count).filter { (h: Int) -> Bool in counts[h] > 0 }.sorted {
      (a: Int, b: Int) -> Bool in counts[a] != counts[b] ? counts[a] > counts[b] : a < b
    }
    return hours.prefix(max(0, limit)).map { HourCount(hour: $0, donations: hourCounts[$0]) }
  }
}

extension DonationLog {
  /// Counts, first and last instants, and donations per local hour: a donation with its
  /// own UTC offset (`utcOffsets`) counts at its hour in that offset, any other at its
  /// hour in `zone`, as replay's hour-of-day features count them.
  ///
  /// - Complexity: O(n); rows are in time order, so the zone lookups are O(1) amortised.
  public func statistics(in zone: ZoneRules = .utc) -> DonationStatistics {
    var hours = [Int](repeating: 0, count: 24)
    var cursor = zone.cursor()
    for (row, t) in timestamps.enumerated() {
      hours[DonationStatistics.hourOfDay(t, utcOffset: utcOffset(row), cursor: &cursor)] += 1
    }
    return DonationStatistics(
      events: count, users: userNames.count, kinds: kindNames.count,
      intents: intentNames.count, parameterKeys: parameterKeys.count,
      first: timestamps.first.map(Instant.init(milliseconds:)),
      last: timestamps.last.map(Instant.init(milliseconds:)),
      timeZone: zone.identifier, hourCounts: hours)
  }
}
