import SmartStackBase
import SmartStackData

// The session's clock: `context.now` and the local calendar fields (hour of day, hour
// of week, day index), cached for the local hour.
//
// Which offset local time is read in (README, "Local time"):
// - a donation or visit with its own UTC offset: that offset (`setRowOffset(_:)` before
//   the event), so a donation at 08:00 in New York counts at hour 8 whoever else runs;
// - a donation or visit without one: the session's zone (`UTCOffset.none`);
// - events that are no log row (relevance entries, revealed outcomes): the offset of the
//   latest donation or visit, as the device would still be where that row was written.
// Without any `setRowOffset(_:)` call (logs with no offsets, simulations) the clock is
// the zone's alone, exactly as before offsets existed.
extension StackSession {
  /// Moves `context.now` to `time` and updates the local calendar fields, in the offset
  /// the clock currently reads (`clockOffset`).
  ///
  /// - Complexity: O(1) within the local hour of the previous call; O(log t) for t zone
  ///   transitions otherwise.
  @inline(__always)
  @inlinable mutating package func advanceClock(to time: Int64) {
    if time == _context.now { return }
    if time < _context.now { invalidateRelevanceCache() }
    _context.now = time
    if time >= clockValidFrom && time < clockValidUntil { return }
    recomputeClockFields(time)
  }

  /// Makes the clock read local time in `utcOffset` seconds east of UTC, or in the zone
  /// for `UTCOffset.none`, from the next event on: the row about to be processed (a
  /// donation or a visit) passes its own offset. Recomputes the fields of `now` when the
  /// offset changes, so an event at the same instant sees them in the new offset.
  ///
  /// - Complexity: O(1) when the offset is unchanged; O(log t) otherwise.
  @inline(__always)
  @inlinable public mutating func setRowOffset(_ utcOffset: Int32) {
    if utcOffset == clockOffset { return }
    clockOffset = utcOffset
    if _context.now == Int64.min {
      clockValidFrom = .max
      clockValidUntil = .min
    } else {
      recomputeClockFields(_context.now)
    }
  }

  /// Sets the calendar fields of `time` in the clock's offset: for the zone exactly as
  /// `ZoneRules.hourOfDay(at:)`, `hourOfWeek(at:)` and `dayIndex(at:)` do; for a row's
  /// offset those of `time + offset`. Also sets the span they stay valid for: the local
  /// hour, clipped to the zone's offset interval.
  @inline(never)
  @inlinable mutating package func recomputeClockFields(_ time: Int64) {
    let offset: Int64
    let lower: Int64
    let upper: Int64
    if clockOffset == UTCOffset.none {
      let index = zone.intervalIndex(containing: time)
      offset = zone.offsets[index]
      lower = zone.starts[index]
      upper = index + 1 < zone.starts.count ? zone.starts[index + 1] : Int64.max
    } else {
      offset = Int64(clockOffset) * Instant.millisecondsPerSecond
      lower = Int64.min
      upper = Int64.max
    }
    let local = time &+ offset
    _context.hourOfDay = WallClock.hourOfDay(local)
    _context.hourOfWeek = WallClock.hourOfWeek(local)
    _context.dayIndex = WallClock.dayIndex(local)
    // Cache only for sane instants (far from overflow): the local hour, in UTC, clipped
    // to the offset interval.
    let limit: Int64 = 1 << 60
    guard time > -limit && time < limit && offset > -limit && offset < limit else {
      clockValidFrom = .max
      clockValidUntil = .min
      return
    }
    let hourStart = local - Instant.floorModulo(local, Instant.millisecondsPerHour)
    clockValidFrom = max(hourStart - offset, lower)
    clockValidUntil = min(hourStart + Instant.millisecondsPerHour - offset, upper)
  }
}
