import SmartStackBase
import SmartStackData
import SmartStackEngine

// Value readers shared by the scenario format: local clock times, dates and weekday
// lists. Each reports what is wrong at the value (`PATH: message`) and returns nil, so
// a reader checks everything in one pass. Text is parsed over UTF-8 bytes.

extension JSONDecoding {
  /// A local clock time `HH:MM` (00:00 to 23:59) as minutes after midnight.
  mutating func clock(_ item: JSONItem) -> Int? {
    guard let text = requireString(item) else { return nil }
    if let minutes = ScenarioText.clock(text) { return minutes }
    report(
      "expected a local time \"HH:MM\" from 00:00 to 23:59, found \(JSONEscaping.quoted(text))",
      at: item)
    return nil
  }

  /// A local date `YYYY-MM-DD` as days since 1970-01-01.
  mutating func localDate(_ item: JSONItem) -> Int64? {
    guard let text = requireString(item) else { return nil }
    if let day = ScenarioText.date(text) { return day }
    report(
      "expected a date \"YYYY-MM-DD\" from 1970-01-01 to 2100-12-31, found \(JSONEscaping.quoted(text))",
      at: item)
    return nil
  }

  /// A list of weekday names (`mon` … `sun`, `weekdays`, `weekend`, `daily`) as a bit
  /// set, bit 0 = Monday.
  mutating func weekdays(_ item: JSONItem) -> UInt8? {
    guard let names = requireArray(item) else { return nil }
    if names.isEmpty {
      report("expected at least one day name", at: item)
      return nil
    }
    var bits: UInt8 = 0
    var valid = true
    for name in names {
      guard let text = requireString(name) else {
        valid = false
        continue
      }
      if let days = ScenarioText.weekdays(text) {
        bits |= days
      } else {
        valid = false
        report(
          "unknown day \(JSONEscaping.quoted(text)) (expected \"mon\", \"tue\", \"wed\", \"thu\", "
            + "\"fri\", \"sat\", \"sun\", \"weekdays\", \"weekend\" or \"daily\")", at: name)
      }
    }
    return valid ? bits : nil
  }
}

/// Byte-level parsers for the scenario's small text forms.
enum ScenarioText {
  /// `HH:MM` with 00 <= HH <= 23 and 00 <= MM <= 59, as minutes; nil otherwise.
  static func clock(_ text: String) -> Int? {
    let b = Array(text.utf8)
    guard b.count == 5, b[2] == UInt8(ascii: ":"), let h = twoDigits(b[0], b[1]),
      let m = twoDigits(b[3], b[4]), h < 24, m < 60
    else { return nil }
    return h * 60 + m
  }

  /// `A-B` (hours `A ..< B`, 0 <= A <= 23, 0 <= B <= 24, A != B; B < A wraps past
  /// midnight) or `A` (0...23, the hour `A` alone) as `(start, end)`; nil otherwise.
  static func hours(_ text: String) -> (start: Int, end: Int)? {
    let b = Array(text.utf8)
    if let dash = b.firstIndex(of: UInt8(ascii: "-")) {
      guard let a = number(b[..<dash]), let e = number(b[(dash + 1)...]), a <= 23, e <= 24, a != e
      else { return nil }
      return (a, e)
    }
    guard let a = number(b[...]), a < 24 else { return nil }
    return (a, a + 1)
  }

  /// `YYYY-MM-DD`, a real date from 1970-01-01 to 2100-12-31, as days since 1970-01-01.
  static func date(_ text: String) -> Int64? {
    let b = Array(text.utf8)
    guard b.count == 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
      let y1 = twoDigits(b[0], b[1]), let y2 = twoDigits(b[2], b[3]),
      let month = twoDigits(b[5], b[6]), let day = twoDigits(b[8], b[9])
    else { return nil }
    let year = y1 * 100 + y2
    guard year >= 1970, year <= 2100, month >= 1, month <= 12, day >= 1,
      day <= ISO8601.daysInMonth(year: year, month: month)
    else { return nil }
    return ISO8601.daysFromCivil(year: year, month: month, day: day)
  }

  /// A day name as a weekday bit set (bit 0 = Monday).
  static func weekdays(_ text: String) -> UInt8? {
    switch text {
    case "mon": 1
    case "tue": 2
    case "wed": 4
    case "thu": 8
    case "fri": 16
    case "sat": 32
    case "sun": 64
    case "weekdays": 31
    case "weekend": 96
    case "daily": 127
    default: nil
    }
  }

  private static func twoDigits(_ a: UInt8, _ b: UInt8) -> Int? {
    guard isDigit(a), isDigit(b) else { return nil }
    return Int(a - 48) * 10 + Int(b - 48)
  }

  /// 1 or 2 ASCII digits as a number.
  private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
    guard !bytes.isEmpty, bytes.count <= 2, bytes.allSatisfy(isDigit) else { return nil }
    return bytes.reduce(0) { $0 * 10 + Int($1 - 48) }
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
}
