import SmartStackBase
/// The clocks of Apple device databases, converted to the toolkit's epoch milliseconds.
public enum DeviceTime {
  /// Seconds from 1970-01-01T00:00:00Z (Unix epoch) to 2001-01-01T00:00:00Z (Mac absolute
  /// time's epoch, `NSDate`'s reference date): exactly 978 307 200.
  public static let macEpochOffsetSeconds: Int64 = 978_307_200

  /// Epoch milliseconds of a Mac absolute time (`ZSTARTDATE`: seconds since
  /// 2001-01-01T00:00:00Z, a REAL): `seconds + 978307200` exactly, in integer arithmetic,
  /// the fraction taken to the nearest microsecond (a Double near 8·10^8 holds about
  /// seven decimals, so this recovers the stored decimal) and then truncated to the
  /// millisecond, as the donation log truncates fractions. Nil when not finite or
  /// outside the years 1970–2100 the logs support.
  public static func milliseconds(macAbsolute seconds: Double) -> Int64? {
    milliseconds(unixSeconds: seconds, plus: macEpochOffsetSeconds)
  }

  /// Epoch milliseconds of Unix seconds (a REAL, e.g. PowerLog's `timestamp` after its
  /// offset), with the same rounding as `milliseconds(macAbsolute:)`.
  public static func milliseconds(unixSeconds seconds: Double, plus shift: Int64 = 0) -> Int64? {
    guard seconds.isFinite, abs(seconds) < 1e11 else { return nil }
    let whole = seconds.rounded(.down)
    var micros = Int64(((seconds - whole) * 1_000_000).rounded())
    var wholeSeconds = Int64(whole) + shift
    if micros >= 1_000_000 {
      micros -= 1_000_000
      wholeSeconds += 1
    }
    let ms = wholeSeconds * 1_000 + micros / 1_000
    guard ms >= 0, ms < Instant.endOfSupportedRange.milliseconds else { return nil }
    return ms
  }

  /// `2026-03-02T09:01:05+01:00`: the instant as the wall clock `utcOffset` seconds east
  /// of UTC shows it, with that offset (`.mmm` only when the milliseconds are not 0).
  /// An offset of 0, or one that is not a whole number of minutes (ISO 8601 cannot write
  /// it), gives the UTC form `2026-03-02T08:01:05Z`; the exact offset is then only in the
  /// `utc_offset` column. `UTCOffset.none` (no offset) gives the UTC form too.
  public static func format(milliseconds: Int64, utcOffset: Int32) -> String {
    guard utcOffset != 0, utcOffset != UTCOffset.none, utcOffset % 60 == 0, abs(utcOffset) < 24 * 3600 else {
      return ISO8601.format(Instant(milliseconds: milliseconds))
    }
    let local = ISO8601.format(Instant(milliseconds: milliseconds + Int64(utcOffset) * 1_000))
    let minutes = Int(abs(utcOffset)) / 60
    let sign = utcOffset < 0 ? "-" : "+"
    let offset =
      sign + NumberFormat.format(minutes / 60, minimumDigits: 2) + ":"
      + NumberFormat.format(minutes % 60, minimumDigits: 2)
    return local.dropLast() + offset
  }
}
