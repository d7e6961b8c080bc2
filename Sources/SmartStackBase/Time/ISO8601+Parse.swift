// The byte-level timestamp parser: the hot path of every log reader.

extension ISO8601 {
  /// Parses one timestamp from UTF-8 bytes.
  ///
  /// Grammar (every byte must be consumed; no surrounding spaces):
  ///
  ///     timestamp = date [ ("T" / "t" / " ") time [ zone ] ]
  ///     date      = YYYY "-" MM "-" DD                 ; exactly 4, 2, 2 ASCII digits
  ///     time      = HH ":" MM [ ":" SS [ "." 1*9DIGIT ] ]
  ///     zone      = "Z" / "z" / ("+" / "-") HH [ [":"] MM ]
  ///
  /// Rules:
  /// - Years 1970...2100; months 01...12; days must exist in that month (leap years follow
  ///   the Gregorian rule, so 2028-02-29 exists and 2026-02-29 does not); hours 00...23
  ///   (`24:00` is rejected); minutes and seconds 00...59 (second 60, a leap second, is
  ///   rejected).
  /// - Fractions of a second are truncated to milliseconds (`.1239` is 123 ms).
  /// - With `Z` or an offset the result is `.absolute`; offsets lie in -18:00...+18:00 and
  ///   their minutes in 00...59. `-00:00` is read as UTC. The instant must lie in
  ///   [1970-01-01T00:00:00Z, 2101-01-01T00:00:00Z).
  /// - Without a zone designator the result is `.local` (a naive wall-clock time); a date
  ///   alone is local midnight. Its range is checked once a zone places it:
  ///   `ZoneRules.checkedInstant(_:)` (readers use it, so `1970-01-01 00:00` in
  ///   Asia/Kolkata, 1969-12-31T18:30Z, is refused as `1970-01-01T00:00+05:30` is).
  ///
  /// On failure, `ParseError.offset` is the byte offset where the problem starts: the first
  /// byte of the field that is malformed or out of range, or of the unexpected byte.
  ///
  /// - Complexity: O(n) in the number of bytes, no allocation on success.
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Timestamp, ParseError> {
    var ignored = UTCOffset.none
    return parse(bytes, utcOffset: &ignored)
  }

  /// `parse(_:)`, also setting `utcOffset` on success to the offset the text writes, in
  /// seconds east of UTC, exactly as `UTCOffset.ofTimestamp(_:)` reads it from the same
  /// text: `+01:00`, `-0500` or `+05` in seconds, `UTCOffset.none` for `Z`, `-00:00` and a
  /// naive time. The log readers' form: one pass over the text instead of a second scan
  /// for the offset. On failure `utcOffset` is unspecified.
  ///
  /// - Complexity: O(n) in the number of bytes, no allocation on success.
  @usableFromInline
  package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, utcOffset: inout Int32) -> Result<
    Timestamp, ParseError
  > {
    if let timestamp = parseCommonForm(bytes, utcOffset: &utcOffset) { return .success(timestamp) }
    return parseAnyForm(bytes, utcOffset: &utcOffset)
  }

  /// The forms logs nearly always write, `YYYY-MM-DDTHH:MM:SS`, optionally with `.mmm`
  /// (exactly three digits of milliseconds), followed by nothing, `Z`/`z` or `±HH:MM`,
  /// read a word at a time: their 19 leading bytes are checked as three 8-byte words
  /// (digits and separators in place), then the fields' ranges as `parseAnyForm` checks
  /// them. Nil for any other text, and for any text `parseAnyForm` would refuse, so that
  /// it alone says why: the result, when there is one, is `parseAnyForm`'s (a test
  /// compares them on thousands of texts near the grammar's edges).
  ///
  /// - Complexity: O(1); no allocation.
  @inline(__always)
  static func parseCommonForm(_ bytes: UnsafeBufferPointer<UInt8>, utcOffset: inout Int32)
    -> Timestamp?
  {
    let n = bytes.count
    // 19 bytes of date and time, 4 of `.mmm` or none, then 0, 1 (`Z`) or 6 (`±HH:MM`).
    guard n == 19 || n == 20 || n == 23 || n == 24 || n == 25 || n == 29,
      let base = bytes.baseAddress
    else { return nil }
    let raw = UnsafeRawPointer(base)
    // Little-endian lanes: byte k of a word is bits 8k..<8k+8.
    let date = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))  // YYYY-MM-
    let middle = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))  // DDTHH:MM
    let time = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 11, as: UInt64.self))  // HH:MM:SS
    guard
      digitsAndSeparators(date, digits: 0x00FF_FF00_FFFF_FFFF, separators: 0x2D00_002D_0000_0000),
      digitsAndSeparators(middle, digits: 0xFFFF_00FF_FF00_FFFF, separators: 0x0000_3A00_0054_0000),
      digitsAndSeparators(time, digits: 0xFFFF_00FF_FF00_FFFF, separators: 0x0000_3A00_003A_0000)
    else { return nil }
    @inline(__always) func digit(_ k: Int) -> Int { Int(base[k] &- 48) }
    let year = digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3)
    let month = digit(5) * 10 + digit(6)
    let day = digit(8) * 10 + digit(9)
    let hour = digit(11) * 10 + digit(12)
    let minute = digit(14) * 10 + digit(15)
    let second = digit(17) * 10 + digit(18)
    guard year >= 1970 && year <= 2100, month >= 1 && month <= 12, day >= 1,
      day <= daysInMonth(year: year, month: month), hour <= 23, minute <= 59, second <= 59
    else { return nil }
    // `.mmm` when the length leaves room for it (23, 24, 29); the zone starts after it.
    var millisecond = 0
    var zone = 19
    if n == 23 || n == 24 || n == 29 {
      guard base[19] == UInt8(ascii: "."), digit(20) < 10, digit(21) < 10, digit(22) < 10 else {
        return nil
      }
      millisecond = digit(20) * 100 + digit(21) * 10 + digit(22)
      zone = 23
    }
    let local =
      daysFromCivil(year: year, month: month, day: day) * Instant.millisecondsPerDay
      + Int64(hour * 3_600_000 + minute * 60_000 + second * 1_000 + millisecond)
    var offsetSeconds = 0
    switch n - zone {
    case 0:
      utcOffset = UTCOffset.none
      return .local(milliseconds: local)
    case 1:
      guard base[zone] == UInt8(ascii: "Z") || base[zone] == UInt8(ascii: "z") else { return nil }
      utcOffset = UTCOffset.none
    default:
      let sign = base[zone]
      guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"),
        base[zone + 3] == UInt8(ascii: ":"),
        digit(zone + 1) < 10, digit(zone + 2) < 10, digit(zone + 4) < 10, digit(zone + 5) < 10
      else { return nil }
      let offsetHour = digit(zone + 1) * 10 + digit(zone + 2)
      let offsetMinute = digit(zone + 4) * 10 + digit(zone + 5)
      guard offsetMinute <= 59, offsetHour * 60 + offsetMinute <= 18 * 60 else { return nil }
      offsetSeconds = offsetHour * 3_600 + offsetMinute * 60
      if sign == UInt8(ascii: "-") { offsetSeconds = -offsetSeconds }
      // `-00:00` is RFC 3339's "offset unknown", as in `parseAnyForm`.
      utcOffset =
        offsetSeconds != 0 || sign == UInt8(ascii: "+")
        ? Int32(truncatingIfNeeded: offsetSeconds) : UTCOffset.none
    }
    let utc = local - Int64(offsetSeconds) * Instant.millisecondsPerSecond
    guard
      utc >= Instant.earliestSupportedMilliseconds && utc < Instant.endOfSupportedRangeMilliseconds
    else { return nil }
    return .absolute(Instant(milliseconds: utc))
  }

  /// Whether every `digits` lane (0xFF bytes of the mask) of `x` is an ASCII digit and
  /// every other lane equals that lane of `separators`. A digit is a byte 0x30...0x39: its
  /// high nibble is 3, and adding 6 leaves it 3 (0x3A...0x3F become 0x40...0x45). A lane
  /// that carries when 6 is added (0xFA...0xFF) fails the first test, so a carry into the
  /// next lane never makes a word pass.
  @inline(__always)
  static func digitsAndSeparators(_ x: UInt64, digits: UInt64, separators: UInt64) -> Bool {
    let high = digits & 0xF0F0_F0F0_F0F0_F0F0
    let three = digits & 0x3030_3030_3030_3030
    let six = digits & 0x0606_0606_0606_0606
    return (x & high) == three && ((x &+ six) & high) == three && (x & ~digits) == separators
  }

  /// `parse(_:utcOffset:)` for every form of the grammar, byte by byte: the reference for
  /// `parseCommonForm`, and the one that says what is wrong.
  static func parseAnyForm(_ bytes: UnsafeBufferPointer<UInt8>, utcOffset: inout Int32) -> Result<
    Timestamp, ParseError
  > {
    utcOffset = UTCOffset.none
    let n = bytes.count
    guard n > 0 else { return fail(0, "empty timestamp") }

    // Date.
    let year = fourDigits(bytes, 0)
    guard year >= 0 else { return fail(0, "expected a 4-digit year") }
    guard year >= 1970 && year <= 2100 else {
      if byte(bytes, 4) &- 48 < 10 {  // `99999-…` is not year 9999
        return fail(
          0, "expected a 4-digit year, found more digits (years 1970...2100 are supported)")
      }
      return fail(0, "year \(pad2(year / 100))\(pad2(year % 100)) is out of range 1970...2100")
    }
    guard byte(bytes, 4) == UInt8(ascii: "-") else { return fail(4, "expected '-' after the year") }
    let month = twoDigits(bytes, 5)
    guard month >= 0 else { return fail(5, "expected a 2-digit month") }
    guard month >= 1 && month <= 12 else {
      return fail(5, "month \(pad2(month)) is out of range 01...12")
    }
    guard byte(bytes, 7) == UInt8(ascii: "-") else {
      return fail(7, "expected '-' after the month")
    }
    let day = twoDigits(bytes, 8)
    guard day >= 0 else { return fail(8, "expected a 2-digit day") }
    guard day >= 1 && day <= 31 else { return fail(8, "day \(pad2(day)) is out of range 01...31") }
    guard day <= daysInMonth(year: year, month: month) else {
      return fail(8, "day \(pad2(day)) does not exist in \(monthNames[month - 1]) \(year)")
    }
    let midnight = daysFromCivil(year: year, month: month, day: day) * Instant.millisecondsPerDay
    if n == 10 { return .success(.local(milliseconds: midnight)) }

    // Time.
    let separator = bytes[10]
    guard
      separator == UInt8(ascii: "T") || separator == UInt8(ascii: "t")
        || separator == UInt8(ascii: " ")
    else { return fail(10, "expected 'T' or a space between the date and the time") }
    let hour = twoDigits(bytes, 11)
    guard hour >= 0 else { return fail(11, "expected a 2-digit hour") }
    guard hour <= 23 else { return fail(11, "hour \(pad2(hour)) is out of range 00...23") }
    guard byte(bytes, 13) == UInt8(ascii: ":") else {
      return fail(13, "expected ':' after the hour")
    }
    let minute = twoDigits(bytes, 14)
    guard minute >= 0 else { return fail(14, "expected a 2-digit minute") }
    guard minute <= 59 else { return fail(14, "minute \(pad2(minute)) is out of range 00...59") }
    var index = 16
    var second = 0
    var millisecond = 0
    if byte(bytes, index) == UInt8(ascii: ":") {
      second = twoDigits(bytes, 17)
      guard second >= 0 else { return fail(17, "expected a 2-digit second") }
      guard second != 60 else {
        return fail(17, "second 60 is a leap second; leap seconds are not supported")
      }
      guard second <= 59 else { return fail(17, "second \(pad2(second)) is out of range 00...59") }
      index = 19
      if byte(bytes, index) == UInt8(ascii: ".") {
        index += 1
        let start = index
        var scale = 100
        while index < n {
          let digit = Int(bytes[index] &- 48)
          guard digit < 10 else { break }
          millisecond += digit * scale
          scale /= 10
          index += 1
        }
        guard index > start else { return fail(start, "expected digits after '.'") }
        guard index - start <= 9 else {
          return fail(start + 9, "more than 9 digits in the fraction of a second")
        }
      }
    } else if byte(bytes, index) == UInt8(ascii: ".") {
      return fail(index, "a fraction needs seconds: write HH:MM:SS.fff")
    }
    let local =
      midnight + Int64(hour * 3_600_000 + minute * 60_000 + second * 1_000 + millisecond)
    if index == n { return .success(.local(milliseconds: local)) }

    // Zone designator.
    var offsetSeconds = 0
    let designator = bytes[index]
    if designator == UInt8(ascii: "Z") || designator == UInt8(ascii: "z") {
      index += 1
    } else if designator == UInt8(ascii: "+") || designator == UInt8(ascii: "-") {
      let signStart = index
      let offsetHour = twoDigits(bytes, index + 1)
      guard offsetHour >= 0 else {
        return fail(index + 1, "expected a 2-digit hour in the UTC offset (+HH, +HHMM or +HH:MM)")
      }
      index += 3
      var offsetMinute = 0
      if byte(bytes, index) == UInt8(ascii: ":") {
        index += 1
        offsetMinute = twoDigits(bytes, index)
        guard offsetMinute >= 0 else {
          return fail(index, "expected 2-digit minutes in the UTC offset")
        }
        index += 2
      } else if index < n && bytes[index] &- 48 < 10 {
        offsetMinute = twoDigits(bytes, index)
        guard offsetMinute >= 0 else {
          return fail(index, "expected 2-digit minutes in the UTC offset")
        }
        index += 2
      }
      guard offsetMinute <= 59 else {
        return fail(index - 2, "offset minute \(pad2(offsetMinute)) is out of range 00...59")
      }
      let sign = designator == UInt8(ascii: "+") ? "+" : "-"
      guard offsetHour * 60 + offsetMinute <= 18 * 60 else {
        return fail(
          signStart,
          "offset \(sign)\(pad2(offsetHour)):\(pad2(offsetMinute)) is out of range -18:00...+18:00"
        )
      }
      offsetSeconds = offsetHour * 3_600 + offsetMinute * 60
      if sign == "-" { offsetSeconds = -offsetSeconds }
      // `-00:00` is RFC 3339's "offset unknown": the text places the instant, not the person.
      if offsetSeconds != 0 || sign == "+" { utcOffset = Int32(truncatingIfNeeded: offsetSeconds) }
    } else {
      return fail(index, "unexpected text after the timestamp")
    }
    guard index == n else { return fail(index, "unexpected text after the timestamp") }

    let utc = local - Int64(offsetSeconds) * Instant.millisecondsPerSecond
    if let error = rangeError(Instant(milliseconds: utc)) { return .failure(error) }
    return .success(.absolute(Instant(milliseconds: utc)))
  }

  /// Nil when `instant` lies in the supported range [1970-01-01T00:00:00Z,
  /// 2101-01-01T00:00:00Z); otherwise the error (at offset 0) that both an explicit offset
  /// and a time zone applied to a naive time (`ZoneRules.checkedInstant(_:)`) report.
  @inlinable
  public static func rangeError(_ instant: Instant) -> ParseError? {
    if instant.milliseconds < Instant.earliestSupportedMilliseconds {
      return ParseError(
        offset: 0, message: "the instant is before 1970-01-01T00:00:00Z, the earliest supported")
    }
    if instant.milliseconds >= Instant.endOfSupportedRangeMilliseconds {
      return ParseError(
        offset: 0,
        message: "the instant is at or after 2101-01-01T00:00:00Z, the end of the supported range")
    }
    return nil
  }

  // MARK: - Helpers

  @inline(__always)
  private static func fail(_ offset: Int, _ message: String) -> Result<Timestamp, ParseError> {
    .failure(ParseError(offset: offset, message: message))
  }

  /// The byte at `index`, or 0 past the end.
  @inline(__always)
  private static func byte(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> UInt8 {
    index < bytes.count ? bytes[index] : 0
  }

  /// The value of two ASCII digits at `index`, or -1.
  @inline(__always)
  private static func twoDigits(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
    guard index + 1 < bytes.count else { return -1 }
    let a = bytes[index] &- 48
    let b = bytes[index + 1] &- 48
    guard a < 10 && b < 10 else { return -1 }
    return Int(a) * 10 + Int(b)
  }

  /// The value of four ASCII digits at `index`, or -1.
  @inline(__always)
  private static func fourDigits(_ bytes: UnsafeBufferPointer<UInt8>, _ index: Int) -> Int {
    let high = twoDigits(bytes, index)
    let low = twoDigits(bytes, index + 2)
    guard high >= 0 && low >= 0 else { return -1 }
    return high * 100 + low
  }

  /// `7` -> `"07"`, for messages that quote two-digit fields as written.
  private static func pad2(_ value: Int) -> String { NumberFormat.format(value, minimumDigits: 2) }
}
