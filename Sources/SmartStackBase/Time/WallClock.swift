/// Calendar fields of a wall-clock time, by integer arithmetic.
///
/// A wall-clock time is milliseconds since 1970-01-01T00:00 of some wall clock (see
/// `ISO8601.Timestamp.local` and `ZoneRules.localMilliseconds(at:)`). Every day of a wall
/// clock has 86 400 000 ms, so the fields below are plain floor divisions; days before
/// 1970 are negative and still get the right hour and weekday.
///
/// - Complexity: O(1) for every function; no Foundation.
public enum WallClock {
  /// Days since 1970-01-01 (floor division: -1 ms is day -1).
  @inlinable
  public static func dayIndex(_ localMilliseconds: Int64) -> Int64 {
    Instant.floorDivide(localMilliseconds, Instant.millisecondsPerDay)
  }

  /// Milliseconds since the start of the day, 0 ..< 86 400 000.
  @inlinable
  public static func millisecondOfDay(_ localMilliseconds: Int64) -> Int {
    Int(Instant.floorModulo(localMilliseconds, Instant.millisecondsPerDay))
  }

  /// The hour of the day, 0...23.
  @inlinable
  public static func hourOfDay(_ localMilliseconds: Int64) -> Int {
    millisecondOfDay(localMilliseconds) / 3_600_000
  }

  /// The ISO weekday of day `dayIndex`: 0 = Monday ... 6 = Sunday (1970-01-01 was a
  /// Thursday, 3).
  @inlinable
  public static func weekday(dayIndex: Int64) -> Int {
    Int(Instant.floorModulo(dayIndex &+ 3, 7))
  }

  /// The ISO weekday, 0 = Monday ... 6 = Sunday.
  @inlinable
  public static func weekday(_ localMilliseconds: Int64) -> Int {
    weekday(dayIndex: dayIndex(localMilliseconds))
  }

  /// `weekday * 24 + hourOfDay`, 0...167 (0 = Monday 00:00-00:59).
  @inlinable
  public static func hourOfWeek(_ localMilliseconds: Int64) -> Int {
    weekday(localMilliseconds) * 24 + hourOfDay(localMilliseconds)
  }
}
