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

  /// `+01:00`, `-04:00`, `+05:45`, `+00:00` for an offset in seconds (seconds dropped).
  public static func offsetText(_ seconds: Int) -> String {
    let sign = seconds < 0 ? "-" : "+"
    let minutes = abs(seconds) / 60
    return sign + NumberFormat.format(minutes / 60, minimumDigits: 2) + ":"
      + NumberFormat.format(minutes % 60, minimumDigits: 2)
  }
}
