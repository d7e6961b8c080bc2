import SmartStackBase

/// What a donation log cannot hold, checked by the importers before a donation is kept, so
/// an import never writes a log that `validate` and `replay` refuse: a NUL byte in a field
/// (every reader refuses one), or a row longer than `InputLimits.maximumLineBytes` (1 MiB)
/// in CSV or in JSON Lines, whichever is longer (a `"` doubles in CSV, a control character
/// takes six bytes in JSON).
enum DonationFieldCheck {
  /// The bytes of a row besides its fields: timestamp with offset, user, separators, keys.
  static let rowOverhead = 160

  /// The problem of `donation` (`NUL byte (0x00) in the kind`, `the row would be N
  /// bytes, more than ...`), or nil when a log can hold it.
  static func problem(_ donation: Donation) -> String? {
    var fields: [(name: String, value: String)] = [("kind", donation.kind)]
    if let intent = donation.intent { fields.append(("intent", intent)) }
    for parameter in donation.parameters {
      fields.append(("parameter name", parameter.key))
      fields.append(("parameter \(parameter.key.prefix(64))", parameter.value))
    }
    var csv = rowOverhead
    var json = rowOverhead
    for (name, value) in fields {
      if value.utf8.contains(0) { return "NUL byte (0x00) in the \(name)" }
      let (c, j) = encodedBytes(value)
      csv += c
      json += j
    }
    let longest = max(csv, json)
    guard longest <= InputLimits.maximumLineBytes else {
      return "the row would be about \(longest) bytes long, more than the limit of "
        + "\(InputLimits.maximumLineBytes) bytes (1 MiB) a donation log line may hold"
    }
    return nil
  }

  /// An upper bound of `value`'s bytes written as a CSV field (quotes doubled, a
  /// parameter's percent escapes: at most three bytes for each ASCII byte that is not a
  /// letter or digit) and as a JSON string.
  static func encodedBytes(_ value: String) -> (csv: Int, json: Int) {
    var csv = 2
    var json = 2
    for byte in value.utf8 {
      let plain = byte >= 0x80 || (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A)
      csv += plain ? 1 : 3
      json += byte < 0x20 ? 6 : (byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") ? 2 : 1)
    }
    return (csv, json)
  }
}

/// The rows an importer leaves out for `DonationFieldCheck` problems: without
/// `--skip-bad-rows` the first one fails the import (`FILE: LOCATION: problem`); with it,
/// every one is counted (`bad_values`).
struct BadValueRows {
  let skip: Bool
  var count = 0

  /// False when `donation` can be written; else counts it (`skip`) and returns true, or
  /// throws `DatabaseError` naming `file` and `location`.
  mutating func refuses(_ donation: Donation, file: String, location: () -> String) throws -> Bool {
    guard let problem = DonationFieldCheck.problem(donation) else { return false }
    guard skip else {
      throw DatabaseError(
        file: file, message: "\(location()): \(problem); --skip-bad-rows skips and counts such rows")
    }
    count += 1
    return true
  }
}
