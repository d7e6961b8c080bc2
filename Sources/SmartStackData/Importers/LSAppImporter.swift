import SmartStackBase

/// Imports the LSApp dataset (Aliannejadi et al., "Context-aware target apps selection and
/// recommendation for enhancing personal mobile assistants", ACM TOIS 39(3), 2021): app
/// usage events of 292 Android users, as tab-separated values.
///
/// **Input.** A header row naming the columns, then one event per line:
///
///     user_id  session_id  timestamp            app_name  event_type
///     0        1           2018-01-16 06:01:05  Gmail     Opened
///
/// Columns are matched by exact name (unknown columns are ignored; the five are
/// required). Timestamps are naive local times read in `timeZone` (an explicit `Z` or
/// offset is honoured). `event_type` is `Opened`, `Closed`, `User Interaction` or
/// `Broken` (exact spelling).
///
/// **Mapping.**
/// - `Opened`: a donation of kind `app_name` by user `user_id` at `timestamp`, without
///   intent or parameters.
/// - `Closed`, `User Interaction`: counted, not donations.
/// - `Broken`: counted and dropped; only the field count and the event type of these
///   rows are checked, they take no part in anything else.
/// - Every session `(user_id, session_id)` (session ids are per user) becomes one visit
///   at the earliest timestamp among its rows that are not dropped, the moment the person
///   started using the phone. Visits at the same instant keep the order in which their
///   sessions first appear.
///
/// **Problems.** A wrong field count, invalid UTF-8, an empty line, an empty `user_id`,
/// `session_id` or `app_name`, a bad timestamp and an unknown event type are each reported
/// as `FILE:LINE:COLUMN: message`, every one up to `limit`; then the import fails. With
/// `skipBadRows`, such rows are counted (`bad_rows`), their problems returned in
/// `ImportResult.skippedRows`, and the import goes on. A missing or duplicated column
/// in the header always fails.
///
/// - Complexity: O(n) in the input, plus O(d log d) to sort d donations not in time
///   order.
public struct LSAppImporter: Sendable {
  /// The required columns, in the order LSApp writes them.
  public static let columns = ["user_id", "session_id", "timestamp", "app_name", "event_type"]

  /// LSApp's event types.
  public enum EventType: String, Sendable, CaseIterable {
    case opened = "Opened"
    case closed = "Closed"
    case userInteraction = "User Interaction"
    case broken = "Broken"
  }

  /// The zone naive timestamps are read in.
  public var timeZone: ZoneRules
  /// Count and skip bad rows instead of failing.
  public var skipBadRows: Bool
  /// How many problems to report before giving up (and how many skipped rows to list).
  public var limit: Int
  /// Told the bytes of text read (`ImportProgress`), or nil.
  public var progress: ImportProgress? = nil
  /// The unit of `progress`.
  public static let progressUnit = ImportProgress.Unit.bytes

  public init(
    timeZone: ZoneRules = .utc, skipBadRows: Bool = false,
    limit: Int = DiagnosticCollector.defaultLimit
  ) {
    self.timeZone = timeZone
    self.skipBadRows = skipBadRows
    self.limit = limit
  }

  /// Imports the text of `source`.
  public func read(_ source: ImportSource) throws -> ImportResult {
    try source.withText { try read($0, file: source.file) }
  }

  /// Imports LSApp text; `file` names it in diagnostics.
  ///
  /// - Throws: `DiagnosticList` with every problem found (up to `limit`).
  public func read(_ text: UnsafeBufferPointer<UInt8>, file: String) throws -> ImportResult {
    var problems = ImportProblems(file: file, limit: limit, skipBadRows: skipBadRows)
    var tsv = TabSeparatedReader(text)
    let columns = try Self.header(&tsv, file: file, limit: limit)

    var state = LSAppRows(columns: columns, timeZone: timeZone)
    progress?.report(tsv.offset, text.count)
    var row = RowProblems()
    loop: while !problems.isDone {
      let step = tsv.next()
      switch step {
      case .end: break loop
      case .problem(let offset, let message):
        state.counts.rows += 1
        row.removeAll()
        row.add(offset, message)
      case .record:
        state.counts.rows += 1
        row.removeAll()
        state.read(tsv, problems: &row)
      }
      if !row.isEmpty {
        let line = tsv.line
        problems.badRow(row) { TextPosition(line: line, column: tsv.column(of: $0)) }
      }
      if let progress, tsv.line % ImportProgress.stride == 0 { progress.report(tsv.offset, text.count) }
    }
    try problems.throwIfAny()
    progress?.report(text.count, text.count)
    return state.finish(file: file, badRows: problems.badRows, skipped: problems.skippedList)
  }

  /// The column index of each required field, in `columns` order.
  static func header(_ tsv: inout TabSeparatedReader, file: String, limit: Int) throws -> [Int] {
    var problems = DiagnosticCollector(file: file, limit: limit)
    let expected = columns.joined(separator: "<TAB>")
    switch tsv.next() {
    case .end:
      problems.report(
        line: 1, column: 1, "empty file: expected a header row naming the columns \(expected)")
    case .problem(let offset, let message):
      problems.report(line: 1, column: tsv.column(of: offset), message)
    case .record:
      let names = (0..<tsv.fields.count).map { String(decoding: tsv.field($0), as: UTF8.self) }
      let indices = ImportHeader.indices(
        names: names, columns: columns, required: Array(columns.indices),
        expectation: "the first line must be the header \(expected)", wrongSeparator: ",",
        separatorHint: "the columns must be separated by tabs, not commas",
        position: { TextPosition(line: 1, column: tsv.column(of: tsv.fields[$0].lowerBound)) },
        problems: &problems)
      try problems.throwIfAny()
      return indices
    }
    try problems.throwIfAny()
    return []
  }
}

/// The per-row work of `LSAppImporter`.
struct LSAppRows {
  let user: Int
  let session: Int
  let timestamp: Int
  let app: Int
  let event: Int
  let timeZone: ZoneRules
  var counts = ImportCounts()
  var accumulator = ImportAccumulator()
  /// Valid rows per event type, in `EventType.allCases` order.
  var eventCounts = [Int](repeating: 0, count: LSAppImporter.EventType.allCases.count)

  /// Session ids as text, and each session's slot by `user << 32 | session text id`.
  var sessionNames = Interner()
  var sessionSlots: [Int64: Int32] = [:]
  var sessionUsers: [Int32] = []
  var sessionStarts: [Int64] = []
  var lastSessionKey: Int64 = -1
  var lastSessionSlot: Int32 = -1

  init(columns: [Int], timeZone: ZoneRules) {
    (user, session, timestamp, app, event) = (
      columns[0], columns[1], columns[2], columns[3], columns[4]
    )
    self.timeZone = timeZone
  }

  static let eventNames: [[UInt8]] = LSAppImporter.EventType.allCases.map {
    Array($0.rawValue.utf8)
  }

  /// The event type of `field`, or nil.
  static func eventType(_ field: UnsafeBufferPointer<UInt8>) -> Int? {
    eventNames.firstIndex { $0.elementsEqual(field) }
  }

  mutating func read(_ tsv: TabSeparatedReader, problems: inout RowProblems) {
    let eventField = tsv.field(event)
    let type = Self.eventType(eventField)
    if type == nil {
      let shown = String(decoding: eventField, as: UTF8.self)
      problems.add(
        tsv.fields[event].lowerBound,
        eventField.isEmpty
          ? "event_type is empty (expected Opened, Closed, User Interaction or Broken)"
          : "unknown event_type '\(shown)' (expected Opened, Closed, User Interaction or Broken)")
    }
    if type == 3 {  // Broken: counted and dropped
      eventCounts[3] += 1
      return
    }

    let userField = tsv.field(user)
    if userField.isEmpty { problems.add(tsv.fields[user].lowerBound, "user_id is empty") }
    let sessionField = tsv.field(session)
    if sessionField.isEmpty { problems.add(tsv.fields[session].lowerBound, "session_id is empty") }
    let appField = tsv.field(app)
    if appField.isEmpty { problems.add(tsv.fields[app].lowerBound, "app_name is empty") }
    var milliseconds: Int64 = 0
    let timestampField = tsv.field(timestamp)
    if timestampField.isEmpty {
      problems.add(tsv.fields[timestamp].lowerBound, "timestamp is empty")
    } else {
      switch timeZone.instant(parsing: timestampField) {
      case .success(let instant): milliseconds = instant.milliseconds
      case .failure(let error):
        problems.add(tsv.fields[timestamp].lowerBound + error.offset, "timestamp: \(error.message)")
      }
    }
    guard problems.isEmpty, let type else { return }

    eventCounts[type] += 1
    let u = accumulator.user(userField)
    if type == 0 {
      accumulator.donate(at: milliseconds, user: u, app: appField)
    } else {
      counts.counted += 1
    }
    noteSession(user: u, session: sessionField, at: milliseconds)
  }

  /// Moves the session's start to `milliseconds` if earlier.
  mutating func noteSession(
    user u: Int32, session: UnsafeBufferPointer<UInt8>, at milliseconds: Int64
  ) {
    let key = Int64(u) << 32 | Int64(sessionNames.intern(session))
    var slot = lastSessionSlot
    if key != lastSessionKey {
      if let known = sessionSlots[key] {
        slot = known
      } else {
        slot = Int32(truncatingIfNeeded: sessionStarts.count)
        sessionSlots[key] = slot
        sessionUsers.append(u)
        sessionStarts.append(milliseconds)
      }
      lastSessionKey = key
      lastSessionSlot = slot
    }
    if milliseconds < sessionStarts[Int(slot)] { sessionStarts[Int(slot)] = milliseconds }
  }

  consuming func finish(file: String, badRows: Int, skipped: DiagnosticList) -> ImportResult {
    for slot in sessionStarts.indices {
      accumulator.visit(at: sessionStarts[slot], user: sessionUsers[slot])
    }
    var counts = self.counts
    counts.events = zip(LSAppImporter.EventType.allCases, eventCounts).map {
      NamedCount($0.rawValue, $1)
    }
    counts.dropped = [NamedCount("broken", eventCounts[3]), NamedCount("bad_rows", badRows)]
    let (log, visits) = accumulator.finish(file: file, counts: &counts)
    return ImportResult(donations: log, visits: visits, counts: counts, skippedRows: skipped)
  }
}
