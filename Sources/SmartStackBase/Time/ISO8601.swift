/// Reading and writing timestamps in the ISO 8601 / RFC 3339 profile the toolkit's files use.
///
/// Accepted input (see `parse(_:)` for every rule):
///
///     2026-03-02T08:01:05Z          2026-03-02T08:01:05.123456789+01:00
///     2026-03-02 08:01              2026-03-02t08:01:05-0530
///     2026-03-02                    2026-03-02T08:01:05+09
///
/// A timestamp with a zone designator (`Z` or an offset) is an absolute instant; one
/// without is a naive wall-clock time, resolved later in a time zone
/// (`ZoneRules.resolve(_:)`). Parsing and formatting work over UTF-8 bytes with integer
/// arithmetic only: no `DateFormatter`, `ISO8601DateFormatter` or `Calendar`.
public enum ISO8601 {
  /// A parsed timestamp: an absolute instant, or a naive wall-clock time.
  public enum Timestamp: Equatable, Sendable {
    /// The text carried `Z` or a UTC offset.
    case absolute(Instant)
    /// The text carried no zone designator: a wall-clock time as milliseconds since
    /// 1970-01-01T00:00 *of that wall clock* (as if the clock were UTC). Always in
    /// `0 ..< Instant.endOfSupportedRange.milliseconds`.
    case local(milliseconds: Int64)
  }

  /// Why a text is not an accepted timestamp, and where.
  public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 0-based byte offset inside the parsed text where the problem starts. Add it to
    /// the field's column (for ASCII text a byte is a column) to point a person at it.
    public var offset: Int
    /// What is wrong, e.g. `month 13 is out of range 01...12` (no trailing period).
    public var message: String

    public init(offset: Int, message: String) {
      self.offset = offset
      self.message = message
    }

    /// The message alone: callers prefix the location.
    public var description: String { message }
  }

  /// Parses a timestamp from its UTF-8 text.
  ///
  /// Equivalent to `parse(_:)` on the bytes of `text`.
  public static func parse(_ text: String) -> Result<Timestamp, ParseError> {
    var text = text
    return text.withUTF8 { parse($0) }
  }

  /// Parses a timestamp from any collection of UTF-8 bytes (an `ArraySlice` of a file,
  /// for example). Contiguous storage is read in place; anything else is copied once.
  public static func parse<Bytes: Collection>(utf8 bytes: Bytes) -> Result<Timestamp, ParseError>
  where Bytes.Element == UInt8 {
    if let result = bytes.withContiguousStorageIfAvailable({ parse($0) }) {
      return result
    }
    return Array(bytes).withUnsafeBufferPointer { parse($0) }
  }

  /// `2026-03-02T08:01:05Z`, with `.mmm` before the `Z` only when the milliseconds are not 0.
  ///
  /// Always UTC. Years outside 0000...9999 are written with as many digits as needed and a
  /// leading `-` when negative (such instants never come from `parse`).
  ///
  /// - Complexity: O(1); one `String` allocation.
  public static func format(_ instant: Instant) -> String {
    let ms = instant.milliseconds
    let days = Instant.floorDivide(ms, Instant.millisecondsPerDay)
    let msOfDay = Int(Instant.floorModulo(ms, Instant.millisecondsPerDay))
    let (year, month, day) = civil(fromDays: days)
    let hour = msOfDay / 3_600_000
    let minute = msOfDay / 60_000 % 60
    let second = msOfDay / 1_000 % 60
    let millisecond = msOfDay % 1_000

    if year < 0 || year > 9_999 {
      // Rare and never produced by parse(): a readable, slower path.
      var text = year < 0 ? "-" : ""
      let magnitude = year.magnitude
      text += NumberFormat.format(Int(magnitude), minimumDigits: 4)
      return text + formatTail(month, day, hour, minute, second, millisecond)
    }

    let length = millisecond == 0 ? 20 : 24
    return String(unsafeUninitializedCapacity: length) { buffer in
      @inline(__always) func put2(_ value: Int, at index: Int) {
        buffer[index] = UInt8(truncatingIfNeeded: 48 + value / 10)
        buffer[index + 1] = UInt8(truncatingIfNeeded: 48 + value % 10)
      }
      put2(year / 100, at: 0)
      put2(year % 100, at: 2)
      buffer[4] = UInt8(ascii: "-")
      put2(month, at: 5)
      buffer[7] = UInt8(ascii: "-")
      put2(day, at: 8)
      buffer[10] = UInt8(ascii: "T")
      put2(hour, at: 11)
      buffer[13] = UInt8(ascii: ":")
      put2(minute, at: 14)
      buffer[16] = UInt8(ascii: ":")
      put2(second, at: 17)
      if millisecond != 0 {
        buffer[19] = UInt8(ascii: ".")
        buffer[20] = UInt8(truncatingIfNeeded: 48 + millisecond / 100)
        put2(millisecond % 100, at: 21)
      }
      buffer[length - 1] = UInt8(ascii: "Z")
      return length
    }
  }

  private static func formatTail(
    _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int, _ millisecond: Int
  ) -> String {
    func two(_ v: Int) -> String { NumberFormat.format(v, minimumDigits: 2) }
    var text = "-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))"
    if millisecond != 0 { text += "." + NumberFormat.format(millisecond, minimumDigits: 3) }
    return text + "Z"
  }
}
