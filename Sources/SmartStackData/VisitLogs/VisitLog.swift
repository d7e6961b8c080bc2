import SmartStackBase

/// A visit log: moments people saw the Home Screen (unlocks, home-button presses).
///
/// CSV (RFC 4180, UTF-8, header row, columns by name, unknown columns ignored):
/// the time (required): `timestamp` (ISO 8601 with `Z` or an offset, or naive local time
/// read in the given zone) or one epoch column (`timestamp_ms`/`epoch_ms` in
/// milliseconds, `timestamp_s`/`epoch_s` in seconds: `EpochUnit`), and `user` (optional;
/// default `default`), and `utc_offset` (optional: the row's own UTC offset in seconds
/// east of UTC; empty for none). A row's offset is its `utc_offset` when not empty, else
/// the numeric offset of its timestamp (`UTCOffset`); a visit's local-time features (hour
/// of day, hour of week, day) use it. Rows may be in any order.
public struct VisitLog: Sendable, Hashable {
  /// The file the visits came from (for outputs and messages).
  public var file: String
  /// Per row: the person's name and the visit time (epoch ms), in file order.
  public var users: [String]
  public var times: [Int64]
  /// Per row, its own UTC offset in seconds east of UTC or `UTCOffset.none`; empty when
  /// no row has one.
  public var utcOffsets: [Int32]

  public init(file: String, users: [String], times: [Int64], utcOffsets: [Int32] = []) {
    self.file = file
    self.users = users
    self.times = times
    self.utcOffsets = utcOffsets
  }

  /// Row `i`'s own UTC offset, or `UTCOffset.none`. O(1).
  public func utcOffset(_ i: Int) -> Int32 { utcOffsets.isEmpty ? UTCOffset.none : utcOffsets[i] }

  public var count: Int { times.count }

  /// Reads a visit log, reporting every problem as `FILE:LINE:COLUMN: message`.
  public static func read(path: String, zone: ZoneRules = .utc, limit: Int = DiagnosticCollector.defaultLimit) throws -> VisitLog {
    let bytes = try FileIO.readBytes(path)
    return try read(bytes: bytes, file: path, zone: zone, limit: limit)
  }

  /// Reads a visit log from bytes; `file` names it in diagnostics.
  public static func read(bytes: [UInt8], file: String, zone: ZoneRules = .utc, limit: Int = DiagnosticCollector.defaultLimit) throws -> VisitLog {
    var problems = DiagnosticCollector(file: file, limit: limit)
    var users: [String] = []
    var times: [Int64] = []
    var offsets: [Int32] = []
    bytes.withUnsafeBufferPointer { buffer in
      var csv = CSVReader(buffer)
      var timestampColumn = -1
      var epoch: EpochUnit? = nil
      var userColumn = -1
      var offsetColumn = -1
      var header = true
      while !problems.isFull {
        switch csv.next() {
        case .end:
          if header { problems.report(line: 1, column: 1, "empty file: expected a header row with a 'timestamp' column") }
          return
        case .problem(let p):
          problems.report(line: p.line, column: p.column, p.message)
          if header { return }
        case .record:
          if header {
            header = false
            let header = CSVHeader(csv, problems: &problems) { i, header, problems in
              let name = header.names[i]
              // The time: `timestamp` or one epoch column (`EpochUnit`), never two.
              if name == "timestamp" || EpochUnit(columnName: name) != nil {
                if timestampColumn < 0 {
                  timestampColumn = i
                  epoch = EpochUnit(columnName: name)
                } else if header.names[timestampColumn] != name {
                  let position = header.positions[i]
                  problems.report(
                    line: position.line, column: position.column,
                    "both '\(header.names[timestampColumn])' and '\(name)' name the time: keep one column")
                }
              }
              if name == "user" { userColumn = i }
              if name == UTCOffset.fieldName && offsetColumn < 0 { offsetColumn = i }
            }
            let names = header.names
            if timestampColumn < 0 {
              problems.report(
                line: 1, column: 1,
                header.missingColumns(["'timestamp'"], known: ["timestamp", "user"] + EpochUnit.columnNames)
                  + (CSVHeaderText.namesAny(names, of: ["timestamp", "user"] + EpochUnit.columnNames)
                    ? "; epoch times go in a column named " + EpochUnit.columnNames.map { "'\($0)'" }.joined(separator: ", ")
                    : ""))
              return
            }
            continue
          }
          let field = csv.field(timestampColumn)
          let parsed: Result<Int64, ISO8601.ParseError> =
            if let epoch { epoch.parse(field) } else { zone.instant(parsing: field).map(\.milliseconds) }
          // The row's own offset: `utc_offset` when not empty, else the timestamp's.
          var utcOffset = UTCOffset.none
          var offsetProblem: (position: TextPosition, message: String)? = nil
          if case .success = parsed, epoch == nil { utcOffset = UTCOffset.ofTimestamp(field) }
          if offsetColumn >= 0, case let cell = csv.field(offsetColumn), !cell.isEmpty {
            switch UTCOffset.parse(cell) {
            case .success(let seconds): utcOffset = seconds
            case .failure(let error):
              offsetProblem = (
                csv.position(ofByte: csv.sourceOffset(ofField: offsetColumn, byte: error.offset)),
                "utc_offset: \(error.message)"
              )
            }
          }
          defer {
            if let offsetProblem {
              problems.report(
                line: offsetProblem.position.line, column: offsetProblem.position.column, offsetProblem.message)
            }
          }
          switch parsed {
          case .success(let milliseconds) where offsetProblem == nil:
            var user = "default"
            if userColumn >= 0 {
              let u = csv.field(userColumn)
              if u.count > 0 { user = String(decoding: u, as: UTF8.self) }
            }
            users.append(user)
            times.append(milliseconds)
            // No column until the first row with an offset; then one per row.
            if !offsets.isEmpty {
              offsets.append(utcOffset)
            } else if utcOffset != UTCOffset.none {
              offsets = Array(repeating: UTCOffset.none, count: times.count - 1) + [utcOffset]
            }
          case .success:
            break
          case .failure(let error):
            let offset: Int
            if field.isEmpty {
              offset = csv.fieldInfo(timestampColumn).sourceStart
            } else {
              offset = csv.sourceOffset(ofField: timestampColumn, byte: error.offset)
            }
            let position = csv.position(ofByte: offset)
            problems.report(
              line: position.line, column: position.column,
              field.isEmpty ? "empty timestamp" : "timestamp: \(error.message)")
          }
        }
      }
    }
    try problems.throwIfAny()
    return VisitLog(file: file, users: users, times: times, utcOffsets: offsets)
  }
}
