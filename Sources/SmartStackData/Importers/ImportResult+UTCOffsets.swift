import SmartStackBase
extension ImportResult {
  /// The donation log as the importer writes it: `DonationLog.csvText()` or `jsonlText()`
  /// when the source records no UTC offsets; otherwise each timestamp with its row's own
  /// offset (`DeviceTime.format`) and a last column `utc_offset` (seconds east of UTC;
  /// empty, or `null` in JSON Lines, for a row without one), which the readers take as the
  /// row's own offset (`UTCOffset`).
  public func donationLogText(jsonLines: Bool) -> String {
    guard let offsets = donationOffsets else {
      return jsonLines ? donations.jsonlText() : donations.csvText()
    }
    let log = donations
    if jsonLines {
      var text = ""
      for row in 0..<log.count {
        let pairs = log.parameters(ofSet: log.parameterSets[row])
          .map { JSONEscaping.quoted($0.key) + ":" + JSONEscaping.quoted($0.value) }
        text += "{\"timestamp\":\""
          + DeviceTime.format(milliseconds: log.timestamps[row], utcOffset: offsets[row])
          + "\",\"user\":" + JSONEscaping.quoted(log.userNames[log.users[row]])
          + ",\"kind\":" + JSONEscaping.quoted(log.kindNames[log.kinds[row]])
          + ",\"intent\":"
          + (log.intents[row] >= 0 ? JSONEscaping.quoted(log.intentNames[log.intents[row]]) : "null")
          + ",\"parameters\":{" + pairs.joined(separator: ",") + "},\"utc_offset\":"
          + (offsets[row] == UTCOffset.none ? "null" : String(offsets[row])) + "}\n"
      }
      return text
    }
    var csv = CSVWriter(header: DonationField.all + ["utc_offset"])
    for row in 0..<log.count {
      csv.append(DeviceTime.format(milliseconds: log.timestamps[row], utcOffset: offsets[row]))
      csv.append(log.userNames[log.users[row]])
      csv.append(log.kindNames[log.kinds[row]])
      csv.append(log.intents[row] >= 0 ? log.intentNames[log.intents[row]] : "")
      csv.append(ParameterText.encode(log.parameters(ofSet: log.parameterSets[row])))
      csv.append(Self.offsetText(offsets[row]))
      csv.endRow()
    }
    return csv.text
  }

  /// A `utc_offset` cell: the seconds, or empty for `UTCOffset.none`.
  static func offsetText(_ offset: Int32) -> String { offset == UTCOffset.none ? "" : String(offset) }

  /// The visit log as the importer writes it: `VisitLog.csvText()` without offsets,
  /// otherwise `timestamp,user,utc_offset` with each timestamp in its row's own offset.
  public func visitLogText() -> String {
    guard let offsets = visitOffsets else { return visits.csvText() }
    var csv = CSVWriter(header: ["timestamp", "user", "utc_offset"])
    for i in 0..<visits.count {
      csv.append(DeviceTime.format(milliseconds: visits.times[i], utcOffset: offsets[i]))
      csv.append(visits.user(i))
      csv.append(Self.offsetText(offsets[i]))
      csv.endRow()
    }
    return csv.text
  }
}
