import SmartStackBase

extension DonationLog {
  /// The log in its CSV form (DESIGN.md §5), which `read(bytes:file:format:timeZone:)`
  /// reads back as an equal log.
  ///
  /// Header `timestamp,user,kind,intent,parameters`, then one row per donation in row
  /// (time) order, written by `CSVWriter` (LF line ends; a field is quoted only when it
  /// holds `,`, `"`, CR or LF, or starts or ends with a space). Timestamps are UTC `Z`
  /// (`ISO8601.format`: milliseconds only when not 0); a donation without intent has an
  /// empty `intent`; parameters are `ParameterText`, sorted by key.
  ///
  /// A log with UTC offsets (`utcOffsets` not empty) gets a last column `utc_offset`:
  /// seconds east of UTC, empty for a row without one.
  ///
  /// Names that read back differently are written as they are: an empty user reads back
  /// as `default`, an empty intent as none, and an empty parameter name is refused.
  ///
  /// - Complexity: O(n) in the size of the output; each distinct parameter set is
  ///   encoded once.
  public func csvText() -> String {
    let sets = parameterTable.indices.map { ParameterText.encode(parameters(ofSet: Int32($0))) }
    let hasOffsets = !utcOffsets.isEmpty
    var csv = CSVWriter(header: DonationField.all + (hasOffsets ? [UTCOffset.fieldName] : []))
    for row in 0..<count {
      csv.append(ISO8601.format(instant(row)))
      csv.append(userNames[users[row]])
      csv.append(kindNames[kinds[row]])
      csv.append(intents[row] >= 0 ? intentNames[intents[row]] : "")
      csv.append(sets[Int(parameterSets[row])])
      if hasOffsets { csv.append(utcOffsets[row] == UTCOffset.none ? "" : String(utcOffsets[row])) }
      csv.endRow()
    }
    return csv.text
  }

  /// The log in its JSON Lines form, which reads back as an equal log: one object per
  /// donation, keys in the order `timestamp, user, kind, intent, parameters`, `intent`
  /// null when none, `parameters` an object sorted by key (`{}` when none), then, in a log
  /// with UTC offsets, `utc_offset` (seconds east of UTC, null for none); LF line ends.
  ///
  /// - Complexity: O(n) in the size of the output.
  public func jsonlText() -> String {
    let userTexts = userNames.names.map(JSONEscaping.quoted)
    let kindTexts = kindNames.names.map(JSONEscaping.quoted)
    let intentTexts = intentNames.names.map(JSONEscaping.quoted)
    let setTexts = parameterTable.indices.map { set -> String in
      let pairs = parameters(ofSet: Int32(set))
      return "{"
        + pairs.map { JSONEscaping.quoted($0.key) + ":" + JSONEscaping.quoted($0.value) }
        .joined(separator: ",") + "}"
    }
    var text = ""
    text.reserveCapacity(96 * count)
    for row in 0..<count {
      text += "{\"timestamp\":\"" + ISO8601.format(instant(row)) + "\",\"user\":"
      text += userTexts[Int(users[row])] + ",\"kind\":" + kindTexts[Int(kinds[row])]
      text += ",\"intent\":" + (intents[row] >= 0 ? intentTexts[Int(intents[row])] : "null")
      text += ",\"parameters\":" + setTexts[Int(parameterSets[row])]
      if !utcOffsets.isEmpty {
        text += ",\"utc_offset\":" + (utcOffsets[row] == UTCOffset.none ? "null" : String(utcOffsets[row]))
      }
      text += "}\n"
    }
    return text
  }
}
