/// Unix epoch times written as numbers, the way Android's UsageStatsManager, most
/// analytics exports and `date +%s` write them.
///
/// A log names its unit by its time column (README, "Formats"):
///
/// | column | unit | text |
/// |---|---|---|
/// | `timestamp_ms`, `epoch_ms` | milliseconds | ASCII digits, e.g. `1772438465123` |
/// | `timestamp_s`, `epoch_s` | seconds | ASCII digits, optionally `.` and 1–3 digits, e.g. `1772438465.123` |
///
/// The value counts from 1970-01-01T00:00:00Z, so it is an instant: no time zone applies
/// to it. The accepted range is the toolkit's, `[1970-01-01T00:00:00Z,
/// 2101-01-01T00:00:00Z)` (`Instant.endOfSupportedRange`), as for ISO 8601 text.
public enum EpochUnit: Sendable, Hashable {
  case seconds
  case milliseconds

  /// The time column names that hold epoch numbers, in the order the docs list them.
  public static let columnNames = ["timestamp_ms", "epoch_ms", "timestamp_s", "epoch_s"]

  /// The unit a time column's name declares, or nil when the name is not an epoch column.
  public init?(columnName: String) {
    switch columnName {
    case "timestamp_ms", "epoch_ms": self = .milliseconds
    case "timestamp_s", "epoch_s": self = .seconds
    default: return nil
    }
  }

  /// The instant (epoch milliseconds) that `text` writes in this unit, or where and why it
  /// is not one. Seconds with a fraction are exact: `1.5` is 1,500 ms, and more than three
  /// decimals (below a millisecond) are refused rather than rounded.
  ///
  /// - Complexity: O(n) in the text's length.
  public func parse(_ text: UnsafeBufferPointer<UInt8>) -> Result<Int64, ISO8601.ParseError> {
    let unitName = self == .seconds ? "seconds" : "milliseconds"
    guard !text.isEmpty else { return .failure(.init(offset: 0, message: "empty time")) }
    var value: Int64 = 0
    var i = 0
    let limit = Instant.endOfSupportedRange.milliseconds
    while i < text.count, text[i] >= UInt8(ascii: "0"), text[i] <= UInt8(ascii: "9") {
      // 19 digits cannot overflow before the range check below stops the loop.
      value = value &* 10 &+ Int64(text[i] &- UInt8(ascii: "0"))
      if value >= limit { return .failure(.init(offset: 0, message: Self.outOfRange(unitName))) }
      i += 1
    }
    if i == 0 {
      let found = text[0] == UInt8(ascii: "-") ? "a negative number (before 1970)" : "'\(Self.show(text[0]))'"
      return .failure(.init(offset: 0, message: "expected \(unitName) since 1970-01-01T00:00:00Z as digits, found \(found)"))
    }
    var milliseconds = value
    if self == .seconds {
      milliseconds = value &* 1000
      if i < text.count, text[i] == UInt8(ascii: ".") {
        i += 1
        var digits = 0
        var fraction: Int64 = 0
        while i < text.count, text[i] >= UInt8(ascii: "0"), text[i] <= UInt8(ascii: "9") {
          digits += 1
          if digits > 3 {
            return .failure(.init(offset: i, message: "more than 3 decimals: times are kept to the millisecond"))
          }
          fraction = fraction * 10 + Int64(text[i] - UInt8(ascii: "0"))
          i += 1
        }
        if digits == 0 { return .failure(.init(offset: i, message: "expected digits after '.'")) }
        while digits < 3 { fraction *= 10; digits += 1 }
        milliseconds += fraction
      }
    }
    if i < text.count {
      let hint = self == .milliseconds && text[i] == UInt8(ascii: ".") ? " (milliseconds are whole numbers)" : ""
      return .failure(.init(offset: i, message: "unexpected '\(Self.show(text[i]))' in a time in \(unitName)\(hint)"))
    }
    guard milliseconds < limit else { return .failure(.init(offset: 0, message: Self.outOfRange(unitName))) }
    return .success(milliseconds)
  }

  /// A byte as a person can read it in a message.
  static func show(_ byte: UInt8) -> String {
    byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "\\u{" + String(byte, radix: 16) + "}"
  }

  static func outOfRange(_ unitName: String) -> String {
    "the time is at or after 2101-01-01T00:00:00Z, the end of the supported range (is the unit right? this column holds \(unitName))"
  }
}
