import SmartStackBase

// The time of a JSON Lines donation: `timestamp` or one epoch key, and the row's own UTC
// offset, with the CSV reader's rules and messages.

extension JSONObjectReader {
  /// Reads a donation's time and its own UTC offset, reporting every problem at its byte.
  ///
  /// - The time is `timestamp` (ISO 8601 text; naive local times are read in `zone`) or
  ///   one epoch key, `timestamp_ms`/`epoch_ms` (milliseconds) or `timestamp_s`/`epoch_s`
  ///   (seconds, up to 3 decimals), as a JSON number or a string of the same text, read
  ///   by `EpochUnit.parse`. Two time keys are an error at the second; none is
  ///   `missing required key "timestamp"` with the epoch keys' names, as in CSV.
  /// - The offset (`UTCOffset`) is `utc_offset`, an integer number of seconds in
  ///   ±64800, when present and not null; else the numeric offset of a `timestamp`
  ///   (`+01:00`); else `UTCOffset.none`.
  ///
  /// Returns nil when a problem was reported; sets `localTime` to the kind of a naive
  /// `timestamp` and the offset of its value. O(n) in the values' length.
  mutating func donationTime(
    zone: ZoneRules, localTime: inout (kind: LocalTimeKind, offset: Int)?
  ) -> (milliseconds: Int64, utcOffset: Int32)? {
    var timeKey = has(DonationField.timestamp) ? DonationField.timestamp : nil
    var clean = true
    for name in EpochUnit.columnNames where has(name) {
      if let first = timeKey {
        if let item = member(name) {
          json.report("both '\(first)' and '\(name)' name the time: keep one key", at: item.offset)
        }
        clean = false
      } else {
        timeKey = name
      }
    }
    guard let timeKey, let item = member(timeKey) else {
      json.report(
        "missing required key \"timestamp\"; epoch times go in a key named "
          + EpochUnit.columnNames.map { "'\($0)'" }.joined(separator: ", "),
        at: object.offset, path: object.path)
      return nil
    }
    var result: (milliseconds: Int64, utcOffset: Int32)? = nil
    if let unit = EpochUnit(columnName: timeKey) {
      result = epochTime(item, unit: unit).map { ($0, UTCOffset.none) }
    } else if let text = json.requireString(item) {
      if text.isEmpty {
        json.report("timestamp is empty", at: item.offset)
      } else {
        var utf8 = text
        result = utf8.withUTF8 { bytes -> (Int64, Int32)? in
          var local: LocalTimeKind? = nil
          var written = UTCOffset.none
          switch zone.instant(parsing: bytes, local: &local, utcOffset: &written) {
          case .success(let instant):
            if let local { localTime = (local, item.offset) }
            return (instant.milliseconds, written)
          case .failure(let error):
            json.report(
              error.message, at: DonationLog.sourceOffset(in: json.bytes, string: item.offset, byte: error.offset),
              path: item.path)
            return nil
          }
        }
      }
    }
    if let offsetItem = optional(UTCOffset.fieldName) {
      if let seconds = json.requireInteger(offsetItem, in: -Int64(UTCOffset.limit)...Int64(UTCOffset.limit)) {
        result?.utcOffset = Int32(seconds)
      } else {
        clean = false
      }
    }
    return clean ? result : nil
  }

  /// The instant an epoch value writes: a JSON number (its literal as written) or a string.
  private mutating func epochTime(_ item: JSONItem, unit: EpochUnit) -> Int64? {
    let bytes = json.bytes
    let parsed: Result<Int64, ISO8601.ParseError>
    let start: (Int) -> Int
    switch item.value {
    case .number:
      var end = item.offset
      while end < bytes.count, Self.isNumberByte(bytes[end]) { end += 1 }
      parsed = bytes[item.offset..<end].withUnsafeBufferPointer { unit.parse($0) }
      start = { item.offset + $0 }
    case .string(let text):
      var utf8 = text
      parsed = utf8.withUTF8 { unit.parse($0) }
      start = { DonationLog.sourceOffset(in: bytes, string: item.offset, byte: $0) }
    default:
      json.report("expected a number, found \(json.found(item))", at: item)
      return nil
    }
    switch parsed {
    case .success(let milliseconds): return milliseconds
    case .failure(let error):
      json.report(error.message, at: start(error.offset), path: item.path)
      return nil
    }
  }

  /// The bytes a JSON number literal is written with.
  private static func isNumberByte(_ b: UInt8) -> Bool {
    (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) || b == UInt8(ascii: "-") || b == UInt8(ascii: "+")
      || b == UInt8(ascii: ".") || b == UInt8(ascii: "e") || b == UInt8(ascii: "E")
  }
}
