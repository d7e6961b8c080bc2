import SmartStackBase
import SmartStackData

// The session's clock: `context.now` and the local calendar fields (hour of day, hour
// of week, day index) in the session's time zone, cached for the local hour.
extension StackSession {
  /// Moves `context.now` to `time` and updates the local calendar fields.
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

  /// Sets the calendar fields of `time` exactly as `ZoneRules.hourOfDay(at:)`,
  /// `hourOfWeek(at:)` and `dayIndex(at:)` do, and the span they stay valid for.
  @inline(never)
  @inlinable mutating package func recomputeClockFields(_ time: Int64) {
    let index = zone.intervalIndex(containing: time)
    let offset = zone.offsets[index]
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
    let lower = zone.starts[index]
    let upper = index + 1 < zone.starts.count ? zone.starts[index + 1] : Int64.max
    clockValidFrom = max(hourStart - offset, lower)
    clockValidUntil = min(hourStart + Instant.millisecondsPerHour - offset, upper)
  }
}
