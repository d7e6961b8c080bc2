extension DonationLog {
  /// The log in its CSV form (DESIGN.md §5), which `read(bytes:file:format:timeZone:)`
  /// reads back as an equal log.
  ///
  /// Header `timestamp,user,kind,intent,parameters`, then one row per donation in row
  /// (time) order, LF line ends. Timestamps are UTC `Z` (`ISO8601.format`: milliseconds
  /// only when not 0); a donation without intent has an empty `intent`; parameters are
  /// `ParameterText`, sorted by key. A field is quoted (RFC 4180, inner `"` doubled) only
  /// when it holds `,`, `"`, CR or LF, or starts or ends with a space.
  ///
  /// Names that read back differently are written as they are: an empty user reads back
  /// as `default`, an empty intent as none, and an empty parameter name is refused.
  ///
  /// - Complexity: O(n) in the size of the output; each distinct name and parameter set
  ///   is encoded once.
  public func csvText() -> String {
    let userFields = userNames.names.map { Self.csvField($0) }
    let kindFields = kindNames.names.map { Self.csvField($0) }
    let intentFields = intentNames.names.map { Self.csvField($0) }
    let setFields = parameterTable.indices.map {
      Self.csvField(ParameterText.encode(parameters(ofSet: Int32($0))))
    }
    var out: [UInt8] = []
    out.reserveCapacity(64 * (count + 1))
    out.append(contentsOf: "timestamp,user,kind,intent,parameters\n".utf8)
    for row in 0..<count {
      out.append(contentsOf: ISO8601.format(instant(row)).utf8)
      out.append(UInt8(ascii: ","))
      out.append(contentsOf: userFields[Int(users[row])])
      out.append(UInt8(ascii: ","))
      out.append(contentsOf: kindFields[Int(kinds[row])])
      out.append(UInt8(ascii: ","))
      if intents[row] >= 0 { out.append(contentsOf: intentFields[Int(intents[row])]) }
      out.append(UInt8(ascii: ","))
      out.append(contentsOf: setFields[Int(parameterSets[row])])
      out.append(UInt8(ascii: "\n"))
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// The log in its JSON Lines form, which reads back as an equal log: one object per
  /// donation, keys in the order `timestamp, user, kind, intent, parameters`, `intent`
  /// null when none, `parameters` an object sorted by key (`{}` when none), LF line ends.
  ///
  /// - Complexity: O(n) in the size of the output.
  public func jsonlText() -> String {
    let userTexts = userNames.names.map(JSONEscaping.quoted)
    let kindTexts = kindNames.names.map(JSONEscaping.quoted)
    let intentTexts = intentNames.names.map(JSONEscaping.quoted)
    let setTexts = parameterTable.indices.map { set -> String in
      let pairs = parameters(ofSet: Int32(set))
      return "{" + pairs.map { JSONEscaping.quoted($0.key) + ":" + JSONEscaping.quoted($0.value) }
        .joined(separator: ",") + "}"
    }
    var text = ""
    text.reserveCapacity(96 * count)
    for row in 0..<count {
      text += "{\"timestamp\":\"" + ISO8601.format(instant(row)) + "\",\"user\":"
      text += userTexts[Int(users[row])] + ",\"kind\":" + kindTexts[Int(kinds[row])]
      text += ",\"intent\":" + (intents[row] >= 0 ? intentTexts[Int(intents[row])] : "null")
      text += ",\"parameters\":" + setTexts[Int(parameterSets[row])] + "}\n"
    }
    return text
  }

  /// `text` as one CSV field's bytes, quoted when it must be.
  static func csvField(_ text: String) -> [UInt8] {
    let bytes = Array(text.utf8)
    let needsQuotes =
      bytes.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
      || bytes.first == UInt8(ascii: " ") || bytes.last == UInt8(ascii: " ")
    guard needsQuotes else { return bytes }
    var quoted: [UInt8] = [UInt8(ascii: "\"")]
    for b in bytes {
      quoted.append(b)
      if b == UInt8(ascii: "\"") { quoted.append(b) }
    }
    quoted.append(UInt8(ascii: "\""))
    return quoted
  }
}
