/// A row's own UTC offset: whole seconds east of UTC, as a device records it when it writes
/// the row (`ZSECONDSFROMGMT` in knowledgeC, the `utc_offset` column of a log). Berlin in
/// winter is 3600, New York in summer -14400.
///
/// Logs keep offsets dense: one `Int32` per row, `UTCOffset.none` for a row without one,
/// and an empty column for a log where no row has one. Nothing is allocated per row.
///
/// Where a row's offset comes from (README, "Local time"):
/// - a `utc_offset` field (CSV column or JSON Lines key) that is not empty or null, else
/// - a numeric offset written in an ISO 8601 timestamp (`2026-03-02T08:00:00-05:00` is
///   -18000), else
/// - none: `Z`, `-00:00` (RFC 3339's "local offset unknown"), a naive local time and an
///   epoch number say where the instant is, not where the person was, and the run's
///   `--timezone` decides the row's local time.
public enum UTCOffset {
  /// The marker of a row without an offset of its own.
  public static let none: Int32 = .min
  /// The largest offset magnitude accepted: 18 hours, as for offsets in ISO 8601 text.
  public static let limit: Int32 = 64_800
  /// The name of the offset field in donation and visit logs.
  public static let fieldName = "utc_offset"

  /// The offset that `text` (a `utc_offset` field, not empty) writes: an optional sign
  /// and ASCII digits, within ±`limit`; or where and why it is not one.
  ///
  /// - Complexity: O(n) in the text's length.
  public static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Result<Int32, ISO8601.ParseError> {
    var i = 0
    var negative = false
    if i < text.count && (text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+")) {
      negative = text[i] == UInt8(ascii: "-")
      i += 1
    }
    let digitsStart = i
    var value: Int64 = 0
    while i < text.count, text[i] >= UInt8(ascii: "0"), text[i] <= UInt8(ascii: "9") {
      value = min(value &* 10 &+ Int64(text[i] &- UInt8(ascii: "0")), Int64(Int32.max))
      i += 1
    }
    if i == digitsStart || i < text.count {
      return .failure(.init(offset: i, message: expected))
    }
    guard value <= Int64(limit) else {
      return .failure(.init(offset: 0, message: outOfRange(negative ? -value : value)))
    }
    return .success(Int32(negative ? -value : value))
  }

  /// The offset an integer value (a JSON number) gives, or the message why it is none.
  public static func checked(_ value: Int64) -> Result<Int32, ISO8601.ParseError> {
    guard value >= -Int64(limit) && value <= Int64(limit) else {
      return .failure(.init(offset: 0, message: outOfRange(value)))
    }
    return .success(Int32(value))
  }

  /// The offset written at the end of an ISO 8601 timestamp that `ISO8601.parse` accepted:
  /// `+01:00`, `-0500` or `+05` in seconds, or `none` for `Z`, `-00:00` and a naive time
  /// (and for a text `ISO8601.parse` refuses).
  ///
  /// - Complexity: O(n) in the text's length; no allocation.
  public static func ofTimestamp(_ text: UnsafeBufferPointer<UInt8>) -> Int32 {
    // The parser reads the offset as it goes (the readers' one pass); this is its answer.
    var offset = none
    guard case .success = ISO8601.parse(text, utcOffset: &offset) else { return none }
    return offset
  }

  static let expected = "expected whole seconds east of UTC, e.g. 3600 or -18000"

  static func outOfRange(_ value: Int64) -> String {
    "\(value) seconds is beyond ±\(limit) (18 hours): utc_offset holds seconds east of UTC"
  }
}
