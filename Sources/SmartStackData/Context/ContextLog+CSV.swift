import SmartStackBase

extension ContextLog {
  /// Reads the CSV form (`ContextLog`), reporting every problem (up to `limit`) in file
  /// order as `FILE:LINE:COLUMN: message`.
  ///
  /// - Complexity: O(n) in the input's length.
  static func readCSV(bytes: [UInt8], file: String, zone: ZoneRules, limit: Int) throws -> ContextLog {
    var problems = DiagnosticCollector(file: file, limit: limit)
    var log = ContextLog(file: file)
    var time: CSVRecordTime? = nil
    var userColumn: Int? = nil
    var signalColumn = -1
    var valueColumn = -1
    bytes.withUnsafeBufferPointer { buffer in
      CSVWithHeader.read(
        buffer, problems: &problems, emptyFile: "empty file: expected a header row with 'timestamp', 'signal' and 'value'"
      ) { names, problems in
        time = CSVRecordTime(header: names, problems: &problems)
        userColumn = names.firstIndex(of: "user")
        signalColumn = names.firstIndex(of: "signal") ?? -1
        valueColumn = names.firstIndex(of: "value") ?? -1
        let missing = (time == nil ? ["'timestamp'"] : []) + (signalColumn < 0 ? ["'signal'"] : [])
          + (valueColumn < 0 ? ["'value'"] : [])
        if missing.isEmpty { return true }
        problems.report(line: 1, column: 1, names.missingColumns(missing, known: Self.columnNames + EpochUnit.columnNames))
        return false
      } record: { csv, problems in
        func position(_ c: Int) -> TextPosition { csv.position(ofByte: csv.fieldInfo(c).sourceStart) }
        var user = Donation.defaultUser
        var userPosition = csv.position(ofByte: csv.recordStart)
        if let c = userColumn {
          userPosition = position(c)
          let u = csv.field(c)
          if u.count > 0 { user = String(decoding: u, as: UTF8.self) }
        }
        var found: [CSVRecordTime.Problem] = []
        if let t = time!.read(csv, zone: zone, problems: &found) {
          _ = log.append(
            user: user, userPosition: userPosition, time: t.milliseconds, utcOffset: t.utcOffset,
            signal: String(decoding: csv.field(signalColumn), as: UTF8.self), signalAt: position(signalColumn),
            value: String(decoding: csv.field(valueColumn), as: UTF8.self), valueAt: position(valueColumn)
          ) { p, message in problems.report(line: p.line, column: p.column, message) }
        }
        for p in found { problems.report(line: p.position.line, column: p.position.column, p.message) }
      }
    }
    try problems.throwIfAny()
    return log
  }

  /// The context log in its CSV form, which `ContextLog.read` reads back as the same
  /// rows: header `timestamp,user,signal,value,utc_offset` (the last only when some row
  /// has an offset), one row per change in file order, timestamps in UTC
  /// (`ISO8601.format`), written by `CSVWriter` (LF line ends, minimal quoting).
  ///
  /// - Complexity: O(n) in the size of the output.
  public func csvText() -> String {
    let withOffsets = !utcOffsets.isEmpty
    var csv = CSVWriter(header: ["timestamp", "user", "signal", "value"] + (withOffsets ? [UTCOffset.fieldName] : []))
    for i in 0..<count {
      csv.append(ISO8601.format(Instant(milliseconds: times[i])))
      csv.append(users[i])
      csv.append(signals[i].name)
      csv.append(values[i])
      if withOffsets { csv.append(utcOffset(i) == UTCOffset.none ? "" : String(utcOffset(i))) }
      csv.endRow()
    }
    return csv.text
  }
}
