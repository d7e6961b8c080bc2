// Calendar fields of an instant in a zone: the wall-clock time, then integer arithmetic
// (`WallClock`). Days are local days, so a day in a zone with daylight saving time can
// last 23 or 25 hours.

extension ZoneRules {
  /// Local days since 1970-01-01 at `instant`.
  ///
  /// - Complexity: O(log t), t = the number of transitions.
  @inlinable public func dayIndex(at instant: Instant) -> Int64 {
    WallClock.dayIndex(localMilliseconds(at: instant))
  }

  /// The local hour of the day at `instant`, 0...23.
  ///
  /// - Complexity: O(log t).
  @inlinable public func hourOfDay(at instant: Instant) -> Int {
    WallClock.hourOfDay(localMilliseconds(at: instant))
  }

  /// The local ISO weekday at `instant`: 0 = Monday ... 6 = Sunday.
  ///
  /// - Complexity: O(log t).
  @inlinable public func weekday(at instant: Instant) -> Int {
    WallClock.weekday(localMilliseconds(at: instant))
  }

  /// The local hour of the week at `instant`: `weekday * 24 + hourOfDay`, 0...167.
  ///
  /// - Complexity: O(log t).
  @inlinable public func hourOfWeek(at instant: Instant) -> Int {
    WallClock.hourOfWeek(localMilliseconds(at: instant))
  }

  /// A cursor over these rules for queries in (mostly) increasing time order.
  @inlinable public func cursor() -> ZoneCursor {
    ZoneCursor(self)
  }
}
