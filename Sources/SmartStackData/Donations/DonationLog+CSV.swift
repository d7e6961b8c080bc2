import Foundation
import SmartStackBase

/// The fields of a donation, by name, as CSV columns and JSON Lines keys (DESIGN.md §5).
enum DonationField {
  static let timestamp = "timestamp"
  static let user = "user"
  static let kind = "kind"
  static let intent = "intent"
  static let parameters = "parameters"
  static let all = [timestamp, user, kind, intent, parameters]
}

extension DonationLog {
  /// Reads the CSV form (DESIGN.md §5).
  ///
  /// Header: columns are matched by exact, lowercase name; unknown and unnamed columns are
  /// ignored (each name told to the sink, `DonationSink.ignore(column:)`), except a near
  /// miss of an absent optional column (`User`, `user_id`, `params`), which is an error at
  /// its cell with a did-you-mean (`DonationColumnNames`); a name given twice is an error at its second cell; a missing `timestamp` or
  /// `kind` column is an error at 1:1 listing the columns found (`CSVHeaderText.found`:
  /// not when the first line names no column of the format). An input without a header
  /// row is an error; a header without rows is an empty log. The time may instead be one
  /// epoch column, `timestamp_ms`/`epoch_ms` (milliseconds) or `timestamp_s`/`epoch_s`
  /// (seconds; `EpochUnit`); two time columns are an error at the second.
  ///
  /// Rows: `timestamp` and `kind` must not be empty; an empty `user` is `default`; an empty
  /// `intent` is none; `parameters` is `ParameterText`. Naive timestamps are read in
  /// `timeZone`. A row's own UTC offset is its `utc_offset` cell when not empty, else the
  /// numeric offset of its timestamp (`UTCOffset`). Every problem is reported at the exact
  /// field or byte; then the reader throws.
  ///
  /// - Complexity: O(n) in the input length, plus O(r log r) to sort r rows not in time order.
  static func readCSV(
    _ bytes: UnsafeBufferPointer<UInt8>, file: String, timeZone: ZoneRules, limit: Int
  ) throws -> DonationLog {
    var builder = DonationLogBuilder()
    try readCSV(bytes, file: file, timeZone: timeZone, limit: limit, into: &builder)
    return builder.build()
  }

  /// Reads the CSV form (`readCSV(_:file:timeZone:limit:)`) into `sink`: every row read
  /// without a problem goes to it in file order; then the reader throws every problem.
  ///
  /// `passed(offset)`, when given, is called before each record with an offset before
  /// which the reader will never look again (the record's start), so the caller can let
  /// go of the bytes before it (`MappedInputFile.release(before:)`).
  static func readCSV<Sink: DonationSink>(
    _ bytes: UnsafeBufferPointer<UInt8>, file: String, timeZone: ZoneRules, limit: Int,
    into sink: inout Sink, passed: ((Int) -> Void)? = nil
  ) throws {
    var problems = DiagnosticCollector(file: file, limit: limit)
    var csv = CSVReader(bytes)

    // Header.
    switch csv.next() {
    case .end:
      problems.report(
        line: 1, column: 1,
        "empty file: expected a header row naming the columns (timestamp, user, kind, intent, parameters)"
      )
    case .problem(let p):
      problems.report(line: p.line, column: p.column, p.message)
    case .record:
      break
    }
    try problems.throwIfAny()
    let columns = try CSVColumns(csv, file: file, limit: limit)
    for name in columns.ignored { sink.ignore(column: name) }

    // Rows.
    var reader = CSVRowReader(columns: columns, timeZone: timeZone)
    sink.reserve(bytes.count / 64)
    loop: while !problems.truncated {
      if let passed { passed(csv.offset) }
      switch csv.next() {
      case .end: break loop
      case .problem(let p): problems.report(line: p.line, column: p.column, p.message)
      case .record: reader.read(csv, into: &sink, problems: &problems)
      }
    }
    try problems.throwIfAny()
  }
}

/// Where each known column is in a CSV log's header.
struct CSVColumns {
  /// The time column: `timestamp` (ISO 8601), or an epoch column (`EpochUnit`).
  var timestamp = -1
  /// The epoch unit of the time column, nil for `timestamp` (ISO 8601 text).
  var epoch: EpochUnit? = nil
  var user = -1
  var kind = -1
  var intent = -1
  var parameters = -1
  /// The `utc_offset` column (`UTCOffset`), or -1.
  var utcOffset = -1
  /// The non-empty names of the columns the reader ignores, in header order
  /// (`DonationColumnNames`: a near miss of an absent optional column is an error instead).
  var ignored: [String] = []

  /// Maps the header record `csv` holds, or throws every header problem.
  init(_ csv: CSVReader, file: String, limit: Int) throws {
    var problems = DiagnosticCollector(file: file, limit: limit)
    var names: [String] = []
    for i in 0..<csv.fieldCount {
      let name = String(decoding: csv.field(i), as: UTF8.self)
      if !name.isEmpty && names.contains(name) {
        let p = csv.position(ofByte: csv.fieldInfo(i).sourceStart)
        problems.report(line: p.line, column: p.column, "duplicate column '\(name)' in the header")
      }
      names.append(name)
      // The time: `timestamp` or one epoch column, never two (a repeated name is the
      // duplicate-column error above).
      if name == DonationField.timestamp || EpochUnit(columnName: name) != nil {
        if timestamp < 0 {
          timestamp = i
          epoch = EpochUnit(columnName: name)
        } else if names[timestamp] != name {
          let p = csv.position(ofByte: csv.fieldInfo(i).sourceStart)
          problems.report(
            line: p.line, column: p.column,
            "both '\(names[timestamp])' and '\(name)' name the time: keep one column")
        }
      }
      switch name {
      case DonationField.user: if user < 0 { user = i }
      case DonationField.kind: if kind < 0 { kind = i }
      case DonationField.intent: if intent < 0 { intent = i }
      case DonationField.parameters: if parameters < 0 { parameters = i }
      case UTCOffset.fieldName: if utcOffset < 0 { utcOffset = i }
      default: break
      }
    }
    for (i, name) in names.enumerated() where !name.isEmpty && !DonationColumnNames.isKnown(name) {
      if let message = DonationColumnNames.problem(name, among: names, what: "column") {
        let p = csv.position(ofByte: csv.fieldInfo(i).sourceStart)
        problems.report(line: p.line, column: p.column, message)
      } else if !ignored.contains(name) {
        ignored.append(name)
      }
    }
    let found = CSVHeaderText.found(
      names, known: DonationField.all + EpochUnit.columnNames + [UTCOffset.fieldName])
    for (required, index) in [(DonationField.timestamp, timestamp), (DonationField.kind, kind)]
    where index < 0 {
      var message = "missing required column '\(required)' \(found)"
      if let near = names.first(where: {
        $0.lowercased().trimmingCharacters(in: .whitespaces) == required
      }) {
        message += "; column names are matched exactly and in lowercase, found '\(near)'"
      } else if let near = names.first(where: { name in
        DonationColumnNames.nearMiss(of: name).map {
          $0 == required || (required == DonationField.timestamp && EpochUnit(columnName: $0) != nil)
        } ?? false
      }) {
        message += "; did you mean to name column '\(near)' '\(required)'?"
      }
      // A file that is a log but lacks the time gets the epoch columns' names; a file
      // that is not a log at all (nothing shown) does not.
      if required == DonationField.timestamp
        && CSVHeaderText.namesAny(names, of: DonationField.all + EpochUnit.columnNames)
      {
        message += "; epoch times go in a column named "
          + EpochUnit.columnNames.map { "'\($0)'" }.joined(separator: ", ")
      }
      problems.report(line: 1, column: 1, message)
    }
    try problems.throwIfAny()
  }
}

/// Turns CSV records into sink rows; keeps the interning caches between rows.
struct CSVRowReader {
  let columns: CSVColumns
  let timeZone: ZoneRules
  /// Distinct raw `parameters` texts, and for each its set id or -1 when malformed: a text
  /// is decoded once however many rows repeat it.
  private var parameterTexts = ParameterTextCache()
  private var decoder = ParameterText.Decoder()
  private var parameterProblems: [ParameterText.Problem] = []
  private var defaultUser: Int32 = -1
  /// This row's problems as (input offset, message), reported in offset order.
  private var rowProblems: [(offset: Int, message: String)] = []

  init(columns: CSVColumns, timeZone: ZoneRules) {
    self.columns = columns
    self.timeZone = timeZone
  }

  /// Reads the current record of `csv` into `sink`, or reports its problems.
  mutating func read<Sink: DonationSink>(
    _ csv: CSVReader, into sink: inout Sink, problems: inout DiagnosticCollector
  ) {
    rowProblems.removeAll(keepingCapacity: true)

    var milliseconds: Int64 = 0
    var utcOffset = UTCOffset.none
    let timestampField = csv.field(columns.timestamp)
    if timestampField.isEmpty {
      rowProblems.append(
        (csv.sourceOffset(ofField: columns.timestamp, byte: 0), "timestamp is empty"))
    } else if let unit = columns.epoch {
      switch unit.parse(timestampField) {
      case .success(let epochMilliseconds): milliseconds = epochMilliseconds
      case .failure(let error):
        rowProblems.append(
          (csv.sourceOffset(ofField: columns.timestamp, byte: error.offset), "timestamp: \(error.message)"))
      }
    } else {
      var local: LocalTimeKind? = nil
      var written = UTCOffset.none
      switch timeZone.instant(parsing: timestampField, local: &local, utcOffset: &written) {
      case .success(let instant):
        milliseconds = instant.milliseconds
        utcOffset = written
        if let local {
          sink.localTimes.note(local) {
            let p = csv.position(ofByte: csv.sourceOffset(ofField: columns.timestamp, byte: 0))
            return LocalTimeReport.Place(line: p.line, column: p.column)
          }
        }
      case .failure(let error):
        rowProblems.append(
          (
            csv.sourceOffset(ofField: columns.timestamp, byte: error.offset),
            "timestamp: \(error.message)"
          ))
      }
    }

    // A `utc_offset` value wins over an offset written in the timestamp.
    if columns.utcOffset >= 0, case let field = csv.field(columns.utcOffset), !field.isEmpty {
      switch UTCOffset.parse(field) {
      case .success(let seconds): utcOffset = seconds
      case .failure(let error):
        rowProblems.append(
          (csv.sourceOffset(ofField: columns.utcOffset, byte: error.offset), "utc_offset: \(error.message)"))
      }
    }

    var user: Int32
    if columns.user >= 0, case let field = csv.field(columns.user), !field.isEmpty {
      user = sink.intern(field, as: .user)
    } else {
      if defaultUser < 0 { defaultUser = sink.intern(Donation.defaultUser, as: .user) }
      user = defaultUser
    }

    let kindField = csv.field(columns.kind)
    var kind: Int32 = -1
    if kindField.isEmpty {
      rowProblems.append((csv.sourceOffset(ofField: columns.kind, byte: 0), "kind is empty"))
    } else {
      kind = sink.intern(kindField, as: .kind)
    }

    var intent: Int32 = -1
    if columns.intent >= 0, case let field = csv.field(columns.intent), !field.isEmpty {
      intent = sink.intern(field, as: .intent)
    }

    var parameterSet: Int32 = 0
    if columns.parameters >= 0, case let field = csv.field(columns.parameters), !field.isEmpty {
      parameterSet = internParameters(field, into: &sink)
      if parameterSet < 0 {
        parameterProblems.removeAll(keepingCapacity: true)
        decoder.decode(field, problems: &parameterProblems) { _, _, _ in }
        for p in parameterProblems {
          rowProblems.append(
            (
              csv.sourceOffset(ofField: columns.parameters, byte: p.offset),
              "parameters: \(p.message)"
            ))
        }
      }
    }

    if rowProblems.isEmpty {
      sink.append(
        timestamp: milliseconds, user: user, kind: kind, intent: intent, parameterSet: parameterSet,
        utcOffset: utcOffset)
      return
    }
    // Fields are checked in a fixed order; report in the order they appear on the line
    // (problems at one offset keep the order they were found in).
    let ordered = rowProblems.indices.sorted {
      let (a, b) = (rowProblems[$0].offset, rowProblems[$1].offset)
      return a != b ? a < b : $0 < $1
    }
    for p in ordered.map({ rowProblems[$0] }) {
      let position = csv.position(ofByte: p.offset)
      problems.report(line: position.line, column: position.column, p.message)
    }
  }

  /// The set id of a raw `parameters` text, or -1 when it is malformed. A sink that
  /// keeps raw texts (`DonationSink.cachesParameterTexts`) decodes each distinct text once.
  private mutating func internParameters<Sink: DonationSink>(
    _ field: UnsafeBufferPointer<UInt8>, into sink: inout Sink
  ) -> Int32 {
    if Sink.cachesParameterTexts, let set = parameterTexts.set(of: field) { return set }
    // Runs once per distinct text (or once per row for a sink that keeps no texts).
    var pairs: [ParameterID] = []
    var found: [ParameterText.Problem] = []
    decoder.decode(field, problems: &found) { key, value, _ in
      pairs.append(
        ParameterID(key: sink.intern(key, as: .parameterKey), value: sink.intern(value, as: .parameterValue)))
    }
    var set: Int32 = -1
    if found.isEmpty {
      pairs.sort()
      set = sink.internSet(pairs)
    }
    if Sink.cachesParameterTexts { parameterTexts.keep(set) }
    return set
  }
}
