import SmartStackBase

extension VisitLog {
  /// Reads a visit log, reporting every problem as `FILE:LINE:COLUMN: message`.
  ///
  /// The file is mapped (`MappedInputFile`) and let go of behind the reader, so what is
  /// resident of it is about one window (`CSVChunks.windowBytes`); a body of at least
  /// `CSVChunks.minimumBytes` is read on every core (`CSVChunks`), with the same result
  /// and the same problems as one pass.
  public static func read(path: String, zone: ZoneRules = .utc, limit: Int = DiagnosticCollector.defaultLimit) throws -> VisitLog {
    let mapped = try MappedInputFile(path: path)
    return try mapped.withBytes { try read($0, file: path, zone: zone, limit: limit, mapped: mapped) }
  }

  /// Reads a visit log from bytes; `file` names it in diagnostics.
  public static func read(bytes: [UInt8], file: String, zone: ZoneRules = .utc, limit: Int = DiagnosticCollector.defaultLimit) throws -> VisitLog {
    try bytes.withUnsafeBufferPointer { try read($0, file: file, zone: zone, limit: limit, mapped: nil) }
  }

  /// The reader: in parts on every core when it can (`chunked`), else, or when a part meets
  /// a problem, in one pass (`onePass`), which alone reports problems.
  static func read(
    _ bytes: UnsafeBufferPointer<UInt8>, file: String, zone: ZoneRules, limit: Int, mapped: MappedInputFile?
  ) throws -> VisitLog {
    if bytes.count >= CSVChunks.minimumBytes, let log = chunked(bytes, file: file, zone: zone, mapped: mapped) {
      return log
    }
    var problems = DiagnosticCollector(file: file, limit: limit)
    var csv = CSVReader(bytes)
    var columns = VisitColumns()
    if let rows = VisitRows.header(&csv, zone: zone, problems: &problems) {
      while !problems.isFull, rows.next(&csv, into: &columns, problems: &problems) {
        mapped?.release(before: csv.offset)
      }
    }
    try problems.throwIfAny()
    return columns.log(file: file)
  }

  /// The log read in windows of parts at the same time (`CSVChunks`), or nil when any part
  /// (or the header) meets a problem.
  static func chunked(
    _ bytes: UnsafeBufferPointer<UInt8>, file: String, zone: ZoneRules, mapped: MappedInputFile?,
    windowBytes: Int = CSVChunks.windowBytes, parts: Int = ParallelMap.partCount
  ) -> VisitLog? {
    var names: [String] = []
    var chunks: [VisitChunk] = []
    let read = chunked(bytes, file: file, zone: zone, mapped: mapped, windowBytes: windowBytes, parts: parts) {
      chunk, namesSoFar in
      chunks.append(chunk)
      names = namesSoFar
    }
    return read ? VisitLog(file: file, userNames: names, chunks: chunks) : nil
  }

  /// `chunked(_:file:zone:mapped:windowBytes:parts:)` handing each part, in file order, to
  /// `join` as a chunk whose ids index the names met so far (given with it, in order of
  /// first appearance), instead of keeping them: what `VisitSpill` writes to disk as it
  /// reads. False when any part (or the header) meets a problem; the parts before it were
  /// handed over.
  static func chunked(
    _ bytes: UnsafeBufferPointer<UInt8>, file: String, zone: ZoneRules, mapped: MappedInputFile?,
    windowBytes: Int = CSVChunks.windowBytes, parts: Int = ParallelMap.partCount,
    join: (VisitChunk, _ names: [String]) -> Void
  ) -> Bool {
    var problems = DiagnosticCollector(file: file, limit: 1)
    var csv = CSVReader(bytes)
    guard let rows = VisitRows.header(&csv, zone: zone, problems: &problems), problems.isEmpty,
      let fieldCount = csv.expectedFieldCount
    else { return false }
    // The parts are handed over as read, each a chunk of the log, with their names
    // renumbered into the log's (in file order, so the names stay in order of first
    // appearance): no row is copied into a joined column.
    var names = Interner()
    // Rows and bytes of the windows joined so far: what later parts reserve by.
    var (rowsRead, bytesRead) = (0, 0)
    let read = CSVChunks.read(
      bytes, from: csv.offset, mapped: mapped, windowBytes: windowBytes, parts: parts,
      readPart: { range -> VisitColumns? in
        var problems = DiagnosticCollector(file: file, limit: 1)
        var csv = CSVReader(chunk: UnsafeBufferPointer(rebasing: bytes[range]), expectedFieldCount: fieldCount)
        var part = VisitColumns()
        // The first window's parts count their lines (at most one row a line); later ones
        // reserve by the rows per byte so far plus 1/16 (`CSVChunks.estimatedRows`), so the
        // columns grow by copying only where the file gets denser. Counting every part's
        // lines was a pass of its own over the bytes, 5 % of reading a visit log.
        part.reserve(
          rowsRead > 0
            ? CSVChunks.estimatedRows(rowsRead, in: bytesRead, remaining: range.count)
            : CSVChunks.lineFeeds(in: bytes, range) + 1)
        while problems.isEmpty, rows.next(&csv, into: &part, problems: &problems) {}
        return problems.isEmpty ? part : nil
      },
      join: { part, range in
        (rowsRead, bytesRead) = (rowsRead + part.times.count, bytesRead + range.count)
        var chunk = VisitChunk(userIDs: part.ids, times: part.times, utcOffsets: part.offsets)
        Interner.remap(&chunk.userIDs, through: part.names.names.map { names.intern($0) })
        join(chunk, names.names)
      })
    return read
  }
}

/// Visit rows being read: the columns of a `VisitChunk`, the names interned as met.
struct VisitColumns {
  var names = Interner()
  var ids: [Int32] = []
  var times: [Int64] = []
  /// Empty until the first row with an offset; then one per row (as runs, while they
  /// are smaller: `UTCOffsetColumn`).
  var offsets = UTCOffsetColumn()

  mutating func append(user: UnsafeBufferPointer<UInt8>?, time: Int64, offset: Int32) {
    if let user {
      ids.append(names.intern(user))
    } else {
      ids.append(names.intern("default"))
    }
    times.append(time)
    if !offsets.isEmpty {
      offsets.append(offset)
    } else if offset != UTCOffset.none {
      offsets.append(UTCOffset.none, count: times.count - 1)
      offsets.append(offset)
    }
  }

  /// Reserves room for `rows` rows in every column (the offsets: when they need room,
  /// `UTCOffsetColumn.reserveCapacity`).
  mutating func reserve(_ rows: Int) {
    ids.reserveCapacity(rows)
    times.reserveCapacity(rows)
    offsets.reserveCapacity(rows)
  }

  func log(file: String) -> VisitLog {
    VisitLog(file: file, userNames: names.names, chunks: [VisitChunk(userIDs: ids, times: times, utcOffsets: offsets)])
  }
}

/// The columns a visit log's header names, and the reading of one row by them.
struct VisitRows: Sendable {
  var timestampColumn: Int
  var epoch: EpochUnit?
  var userColumn: Int
  var offsetColumn: Int
  var zone: ZoneRules

  /// Reads the header record (reporting an empty file, a bad header or a missing time
  /// column); nil when the rows cannot be read.
  static func header(_ csv: inout CSVReader, zone: ZoneRules, problems: inout DiagnosticCollector) -> VisitRows? {
    while true {
      switch csv.next() {
      case .end:
        problems.report(line: 1, column: 1, "empty file: expected a header row with a 'timestamp' column")
        return nil
      case .problem(let p):
        problems.report(line: p.line, column: p.column, p.message)
        return nil
      case .record:
        var timestampColumn = -1
        var epoch: EpochUnit? = nil
        var userColumn = -1
        var offsetColumn = -1
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
          return nil
        }
        return VisitRows(
          timestampColumn: timestampColumn, epoch: epoch, userColumn: userColumn, offsetColumn: offsetColumn,
          zone: zone)
      }
    }
  }

  /// Reads the next record into `columns`, reporting its problems; false at the end.
  func next(_ csv: inout CSVReader, into columns: inout VisitColumns, problems: inout DiagnosticCollector) -> Bool {
    switch csv.next() {
    case .end:
      return false
    case .problem(let p):
      problems.report(line: p.line, column: p.column, p.message)
      return true
    case .record:
      break
    }
    let field = csv.field(timestampColumn)
    // The row's own offset: `utc_offset` when not empty, else the timestamp's.
    var utcOffset = UTCOffset.none
    let parsed: Result<Int64, ISO8601.ParseError> =
      if let epoch { epoch.parse(field) } else { zone.instant(parsing: field, utcOffset: &utcOffset).map(\.milliseconds) }
    var offsetProblem: (position: TextPosition, message: String)? = nil
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
        problems.report(line: offsetProblem.position.line, column: offsetProblem.position.column, offsetProblem.message)
      }
    }
    switch parsed {
    case .success(let milliseconds) where offsetProblem == nil:
      var user: UnsafeBufferPointer<UInt8>? = nil
      if userColumn >= 0, case let u = csv.field(userColumn), u.count > 0 { user = u }
      columns.append(user: user, time: milliseconds, offset: utcOffset)
    case .success:
      break
    case .failure(let error):
      let offset = field.isEmpty ? csv.fieldInfo(timestampColumn).sourceStart : csv.sourceOffset(ofField: timestampColumn, byte: error.offset)
      let position = csv.position(ofByte: offset)
      problems.report(
        line: position.line, column: position.column, field.isEmpty ? "empty timestamp" : "timestamp: \(error.message)")
    }
    return true
  }
}

extension VisitLog {
  /// Reads the visit log at `path` once, handing its rows to `body` in consecutive
  /// chunks (of up to `chunkRows` rows in one pass; a big log is read in parts on every
  /// core, a part a chunk), in file order, with the names met so far (a
  /// chunk's `userIDs` index them; names are in order of first appearance, as
  /// `VisitLog.userNames`), and keeps nothing: what `VisitSpill` reads a big visit log
  /// with. The file is mapped and let go of behind the reader.
  ///
  /// `body` may be called with rows before a later problem is found: the reader then throws
  /// what `read(path:zone:limit:)` throws for the same file (every problem, in one pass),
  /// and the caller drops what it was given. When the parts read on every core meet a
  /// problem (or a quoted field cut between parts), `restart` is called, the caller drops
  /// what it was given, and the file is read again in one pass from its start.
  ///
  /// - Throws: `InputFileError`, `DiagnosticList`, as `read(path:zone:limit:)`; whatever
  ///   `body` throws.
  package static func stream(
    path: String, zone: ZoneRules = .utc, limit: Int = DiagnosticCollector.defaultLimit, chunkRows: Int = 1 << 16,
    restart: () throws -> Void = {}, _ body: (VisitChunk, _ names: [String]) throws -> Void
  ) throws {
    let mapped = try MappedInputFile(path: path)
    try mapped.withBytes { bytes in
      // A big log on every core, in parts handed over in file order (`chunked`), as `read`
      // reads it; when a part meets a problem, `restart` drops what was handed over and
      // one pass reads the file again, reporting every problem.
      if bytes.count >= CSVChunks.minimumBytes {
        var failure: (any Error)? = nil
        var handed = false
        let read = chunked(bytes, file: path, zone: zone, mapped: mapped) { chunk, names in
          guard failure == nil else { return }
          handed = true
          do { try body(chunk, names) } catch { failure = error }
        }
        if let failure { throw failure }
        if read { return }
        if handed { try restart() }
      }
      var problems = DiagnosticCollector(file: path, limit: limit)
      var csv = CSVReader(bytes)
      var columns = VisitColumns()
      let rows = max(1, chunkRows)
      if let reader = VisitRows.header(&csv, zone: zone, problems: &problems) {
        while !problems.isFull, reader.next(&csv, into: &columns, problems: &problems) {
          mapped.release(before: csv.offset)
          if columns.times.count >= rows { try Self.emit(&columns, body) }
        }
      }
      try problems.throwIfAny()
      try Self.emit(&columns, body)
    }
  }

  /// Hands `columns`' rows to `body` as a chunk (when there are any) and empties them,
  /// keeping the names.
  private static func emit(_ columns: inout VisitColumns, _ body: (VisitChunk, [String]) throws -> Void) throws {
    guard !columns.times.isEmpty else { return }
    let chunk = VisitChunk(userIDs: columns.ids, times: columns.times, utcOffsets: columns.offsets)
    columns.ids.removeAll(keepingCapacity: true)
    columns.times.removeAll(keepingCapacity: true)
    columns.offsets = UTCOffsetColumn()
    try body(chunk, columns.names.names)
  }
}
