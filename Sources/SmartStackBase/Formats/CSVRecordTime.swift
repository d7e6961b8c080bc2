/// Where a CSV file's rows keep their time: a `timestamp` column (ISO 8601 with `Z` or an
/// offset, or a naive local time read in a zone) or one epoch column (`EpochUnit`), and
/// an optional `utc_offset` column (seconds east of UTC; `UTCOffset.fieldName`).
///
/// A row's own offset is its `utc_offset` cell when not empty, else the numeric offset of
/// its ISO 8601 timestamp (`UTCOffset.ofTimestamp`), else `UTCOffset.none`.
package struct CSVRecordTime: Sendable {
  /// The time column's index, and its unit when it holds epoch numbers.
  package var column: Int
  package var epoch: EpochUnit?
  /// The `utc_offset` column's index, or -1.
  package var offsetColumn: Int

  package init(column: Int, epoch: EpochUnit?, offsetColumn: Int) {
    self.column = column
    self.epoch = epoch
    self.offsetColumn = offsetColumn
  }

  /// A problem with a row's time or offset: where, and what is wrong.
  package struct Problem: Sendable {
    package var position: TextPosition
    package var message: String
  }

  /// The current record's time (epoch ms) and own UTC offset, or nil with its problems
  /// appended to `problems` in the order a reader reports them: the time's (`empty
  /// timestamp`, `timestamp: …`) before the offset's (`utc_offset: …`).
  ///
  /// - Complexity: O(n) in the two cells' length.
  package func read(
    _ csv: borrowing CSVReader, zone: ZoneRules, problems: inout [Problem]
  ) -> (milliseconds: Int64, utcOffset: Int32)? {
    let field = csv.field(column)
    // The row's own offset: `utc_offset` when not empty, else the timestamp's.
    var utcOffset = UTCOffset.none
    let parsed: Result<Int64, ISO8601.ParseError> =
      if let epoch { epoch.parse(field) } else { zone.instant(parsing: field, utcOffset: &utcOffset).map(\.milliseconds) }
    let before = problems.count
    if case .failure(let error) = parsed {
      let offset = field.isEmpty ? csv.fieldInfo(column).sourceStart : csv.sourceOffset(ofField: column, byte: error.offset)
      problems.append(Problem(
        position: csv.position(ofByte: offset), message: field.isEmpty ? "empty timestamp" : "timestamp: \(error.message)"))
    }
    if offsetColumn >= 0, case let cell = csv.field(offsetColumn), !cell.isEmpty {
      switch UTCOffset.parse(cell) {
      case .success(let seconds): utcOffset = seconds
      case .failure(let error):
        problems.append(Problem(
          position: csv.position(ofByte: csv.sourceOffset(ofField: offsetColumn, byte: error.offset)),
          message: "\(UTCOffset.fieldName): \(error.message)"))
      }
    }
    if case .success(let milliseconds) = parsed, problems.count == before { return (milliseconds, utcOffset) }
    return nil
  }
}

extension CSVRecordTime {
  /// The time columns of `header`: the first `timestamp` or epoch column (a second one
  /// under another name is reported at it: `both 'a' and 'b' name the time: keep one
  /// column`) and the first `utc_offset` column; nil, with nothing reported, when the
  /// header has no time column (the format says how that is missing).
  ///
  /// - Complexity: O(n) in the header's fields.
  package init?(header: CSVHeader, problems: inout DiagnosticCollector) {
    var column = -1
    var offsetColumn = -1
    for (i, name) in header.names.enumerated() {
      if name == "timestamp" || EpochUnit(columnName: name) != nil {
        if column < 0 {
          column = i
        } else if header.names[column] != name {
          problems.report(
            line: header.positions[i].line, column: header.positions[i].column,
            "both '\(header.names[column])' and '\(name)' name the time: keep one column")
        }
      }
      if name == UTCOffset.fieldName && offsetColumn < 0 { offsetColumn = i }
    }
    guard column >= 0 else { return nil }
    self.init(column: column, epoch: EpochUnit(columnName: header.names[column]), offsetColumn: offsetColumn)
  }
}
