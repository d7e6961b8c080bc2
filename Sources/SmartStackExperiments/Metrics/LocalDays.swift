import SmartStackBase
import SmartStackData
import SmartStackEngine

/// Where one local day of a run lies in UTC: the UTC offsets, in seconds east of UTC, in
/// effect at its start and at its end (`daily.csv`'s `utc_offset` and `utc_offset_end`).
///
/// Day `d` (days since 1970-01-01 on the wall clock) starts at the instant
/// `d × 86 400 s − start` and ends, exclusive, at `(d + 1) × 86 400 s − end`: the local
/// day's 00:00 read in each offset. The two differ on a day the offset changes (daylight
/// saving time, travel), which is then not 24 hours long.
public struct DayOffsets: Sendable, Hashable {
  /// Seconds east of UTC at the day's start.
  public var start: Int32
  /// Seconds east of UTC at the day's end.
  public var end: Int32

  @inlinable public init(start: Int32, end: Int32) {
    self.start = start
    self.end = end
  }

  /// The instant (epoch ms) local day `day` starts at.
  @inlinable public func startInstant(day: Int64) -> Int64 {
    day &* Instant.millisecondsPerDay &- Int64(start) &* Instant.millisecondsPerSecond
  }

  /// The instant (epoch ms) local day `day` ends at (exclusive): the next day's start.
  @inlinable public func endInstant(day: Int64) -> Int64 {
    (day &+ 1) &* Instant.millisecondsPerDay &- Int64(end) &* Instant.millisecondsPerSecond
  }

  /// The offsets whose start and end instants are `start` and `end` for day `day`.
  @inlinable init(day: Int64, startInstant: Int64, endInstant: Int64) {
    self.init(
      start: Int32(truncatingIfNeeded: (day &* Instant.millisecondsPerDay &- startInstant) / 1000),
      end: Int32(truncatingIfNeeded: ((day &+ 1) &* Instant.millisecondsPerDay &- endInstant) / 1000))
  }
}

/// How the local days of a source lie in UTC: the `DayOffsets` of each day index, as the
/// engine reads visits' local days (README, "Local time").
///
/// - A visit read in the run's zone (`--timezone`, a scenario's `timezone`; a log row
///   without an offset of its own) belongs to the zone's local day: that day starts at the
///   zone's local midnight (`ZoneRules.startOfLocalDay(dayIndex:)`, the end of a gap when
///   midnight falls in one) and ends at the next day's.
/// - A visit with its own offset (`UTCOffset`) belongs to the day its offset gives; a
///   person's day then starts at 00:00 in the offset of that person's first visit of the
///   day and ends at the next 00:00 in the offset of the last one (read in the zone when
///   that visit has none), first and last in time, also when visits on other local days
///   come between them. A flight from Berlin to New York gives 3600 then -18000.
/// - A day pooled over several people (the rows of `daily.csv` are) spans from the earliest
///   of their starts to the latest of their ends, so every visit counted on it lies inside.
///
/// Which days a source has depends only on its visits (the same for every strategy), so
/// the offsets are computed once per source, not per run.
public struct LocalDays: Sendable {
  /// The zone visits without their own offset are read in.
  public let zone: ZoneRules
  /// Days that some visit with its own offset decides, ascending, and their offsets;
  /// empty when no visit has one (every day is then the zone's).
  @usableFromInline let rowDays: [Int64]
  @usableFromInline let rowOffsets: [DayOffsets]

  /// Days read in `zone` alone (simulations; logs without offsets).
  public init(zone: ZoneRules) {
    self.zone = zone
    rowDays = []
    rowOffsets = []
  }

  /// The days of a replay plan's scored visits, each read in its own offset when it has
  /// one (`ReplayPlan.Person.visitOffsets`), else in the plan's zone.
  ///
  /// - Complexity: O(V log t + D log D) for V scored visits, t zone transitions and D
  ///   distinct person-days.
  public init(plan: ReplayPlan) {
    var spans = Spans(zone: plan.options.zone)
    spans.add(plan)
    self = spans.days
  }

  /// The days of a plan given in blocks of people (`add(_:)`, in any order: a day spans
  /// from the earliest start to the latest end over its people, which no order changes),
  /// for a replay that never holds the whole plan (`Replay.runAll(blocks:…)`).
  public struct Spans: Sendable {
    let zone: ZoneRules
    /// Per day, the earliest start and latest end so far; only looked up, its keys sorted
    /// in `days`.
    private var spans: [Int64: (start: Int64, end: Int64)] = [:]
    private var hasRowOffsets = false

    public init(zone: ZoneRules) { self.zone = zone }

    /// Adds the days of `plan`'s people. O(V log t) for V scored visits.
    public mutating func add(_ plan: ReplayPlan) {
      guard plan.people.contains(where: { !$0.visitOffsets.isEmpty }) else { return }
      hasRowOffsets = true
      // Each person's days, on every core in blocks of people (`daySpans(of:)`).
      let people = plan.people
      let zone = zone
      let blocks = ParallelMap.map(ParallelMap.blocks(count: people.count, parts: 4 * ParallelMap.partCount)) { block in
        block.map { LocalDays.daySpans(of: people[$0], zone: zone) }
      }
      for block in blocks {
        for mine in block {
          for span in mine { merge(day: span.day, start: span.start, end: span.end) }
        }
      }
    }

    /// Adds the days of the plans added to `other` (of the same zone), as if each had
    /// been added here: a day's span is the earliest start and the latest end, which no
    /// order changes.
    public mutating func add(_ other: Spans) {
      guard other.hasRowOffsets else { return }
      hasRowOffsets = true
      for day in other.spans.keys.sorted() {
        let span = other.spans[day]!
        merge(day: day, start: span.start, end: span.end)
      }
    }

    /// Widens `day`'s span to take in `start...end` (the span itself when the day is new).
    /// O(1) expected.
    private mutating func merge(day: Int64, start: Int64, end: Int64) {
      let old = spans[day] ?? (start, end)
      spans[day] = (min(old.start, start), max(old.end, end))
    }

    /// The days of every plan added.
    public var days: LocalDays {
      guard hasRowOffsets else { return LocalDays(zone: zone) }
      let days = spans.keys.sorted()
      return LocalDays(
        zone: zone, rowDays: days,
        rowOffsets: days.map { d in
          let span = spans[d]!
          return DayOffsets(day: d, startInstant: span.start, endInstant: span.end)
        })
    }
  }

  private init(zone: ZoneRules, rowDays: [Int64], rowOffsets: [DayOffsets]) {
    self.zone = zone
    self.rowDays = rowDays
    self.rowOffsets = rowOffsets
  }

  /// A person's days in order of first visit, each from its first visit's start to its
  /// last visit's end (a day's visits need not be consecutive: per-row offsets can go back
  /// to an earlier local date, across the date line or between rows with and without
  /// offsets).
  ///
  /// - Complexity: O(v) for v visits, plus O(log t) for each visit without an offset of
  ///   its own.
  fileprivate static func daySpans(of person: ReplayPlan.Person, zone: ZoneRules) -> [(day: Int64, start: Int64, end: Int64)] {
    var mine: [(day: Int64, start: Int64, end: Int64)] = []
    var index: [Int64: Int] = [:]  // only looked up
    var current = -1  // the entry of the previous visit's day
    var offsets = person.visitOffsets.makeIterator()  // in order: O(1) a visit
    for time in person.visitTimes {
      let own = offsets.next() ?? UTCOffset.none
      let offset =
        own == UTCOffset.none
        ? Int64(zone.offsetSeconds(at: Instant(milliseconds: time))) * Instant.millisecondsPerSecond
        : Int64(own) * Instant.millisecondsPerSecond
      let visitDay = WallClock.dayIndex(time &+ offset)
      // The visit's day starts or ends where its own reading puts 00:00.
      let dayEnd =
        own == UTCOffset.none
        ? zone.startOfLocalDay(dayIndex: visitDay &+ 1).milliseconds
        : (visitDay &+ 1) &* Instant.millisecondsPerDay &- offset
      if current >= 0 && mine[current].day == visitDay {
        mine[current].end = dayEnd
      } else if let i = index[visitDay] {
        mine[i].end = dayEnd
        current = i
      } else {
        let dayStart =
          own == UTCOffset.none
          ? zone.startOfLocalDay(dayIndex: visitDay).milliseconds
          : visitDay &* Instant.millisecondsPerDay &- offset
        index[visitDay] = mine.count
        current = mine.count
        mine.append((visitDay, dayStart, dayEnd))
      }
    }
    return mine
  }

  /// The offsets of local day `day`.
  ///
  /// - Complexity: O(log D + log t).
  public func offsets(of day: Int64) -> DayOffsets {
    if !rowDays.isEmpty {
      var low = 0
      var high = rowDays.count
      while low < high {
        let mid = (low + high) / 2
        if rowDays[mid] < day { low = mid + 1 } else { high = mid }
      }
      if low < rowDays.count && rowDays[low] == day { return rowOffsets[low] }
    }
    return DayOffsets(
      day: day, startInstant: zone.startOfLocalDay(dayIndex: day).milliseconds,
      endInstant: zone.startOfLocalDay(dayIndex: day &+ 1).milliseconds)
  }
}
