extension ISO8601 {
  /// The local time of `instant` in `zone` with its offset: `2026-03-02T09:01:05+01:00`
  /// (`.mmm` when the milliseconds are not 0; `+00:00` in UTC). The same instant as
  /// `format(_:)`, written as people in that zone read it.
  ///
  /// - Complexity: O(log t), t = the zone's transitions.
  public static func formatLocal(_ instant: Instant, zone: ZoneRules) -> String {
    let offset = zone.offsetSeconds(at: instant)
    var text = format(Instant(milliseconds: zone.localMilliseconds(at: instant)))
    text.removeLast()  // the "Z"
    return text + offsetText(offset)
  }

  /// The local time of `instant` at a fixed UTC offset (`offsetSeconds` east of UTC, a
  /// row's own `UTCOffset`) with that offset: `formatLocal(_:zone:)` for one offset.
  ///
  /// - Complexity: O(1).
  public static func formatLocal(_ instant: Instant, offsetSeconds: Int) -> String {
    var text = format(instant + Int64(offsetSeconds) * Instant.millisecondsPerSecond)
    text.removeLast()  // the "Z"
    return text + offsetText(offsetSeconds)
  }

  /// `+01:00`, `-04:00`, `+05:45`, `+00:00` for an offset in seconds (seconds dropped).
  public static func offsetText(_ seconds: Int) -> String {
    let sign = seconds < 0 ? "-" : "+"
    let minutes = abs(seconds) / 60
    return sign + NumberFormat.format(minutes / 60, minimumDigits: 2) + ":"
      + NumberFormat.format(minutes % 60, minimumDigits: 2)
  }
}
