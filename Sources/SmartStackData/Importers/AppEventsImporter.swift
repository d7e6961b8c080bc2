import SmartStackBase

/// Imports a generic foreground-app event log: CSV (RFC 4180, UTF-8, header row) with
/// the columns `timestamp`, `user` (optional, default `default`), `app` and `event`,
/// matched by exact name; unknown columns are ignored.
///
///     timestamp,user,app,event
///     2026-03-02T07:00:00Z,alice,,unlock
///     2026-03-02T07:00:10Z,alice,com.whatsapp,open
///
/// Timestamps are ISO 8601 with `Z` or an offset, or naive local times read in `timeZone`.
/// Event names are matched case-insensitively (ASCII); app names exactly.
///
/// **Mapping**, applied in this order to each valid row:
/// 1. a *visit event* (default `unlock`, `home`) is a Home Screen visit, whatever the app
///    column says (it may be empty);
/// 2. an event of a *launcher* app (`launcherApps`) is a visit when it is a donation
///    event (the launcher came to the foreground: the person is on the Home Screen), and
///    otherwise counted;
/// 3. an event of a *system* app (`systemApps`) is dropped and counted (`system_apps`);
/// 4. a *donation event* (default `open`, `resume`) is a donation of kind = `app`;
/// 5. a *counted event* (default `close`, `pause`) is counted.
///
/// Any other event name is a problem, as are an empty or bad timestamp, an empty event
/// and an empty app on a donation event: each reported as `FILE:LINE:COLUMN: message`
/// (all of them, up to `limit`), or, with `skipBadRows`, counted (`bad_rows`) and listed
/// in `ImportResult.skippedRows`.
///
/// - Complexity: O(n) in the input, plus O(d log d) to sort d donations not in time
///   order.
public struct AppEventsImporter: Sendable {
  /// The columns: `timestamp`, `app` and `event` are required, `user` is optional.
  public static let columns = ["timestamp", "user", "app", "event"]

  /// The zone naive timestamps are read in.
  public var timeZone: ZoneRules
  /// Count and skip bad rows instead of failing.
  public var skipBadRows: Bool
  /// How many problems to report before giving up (and how many skipped rows to list).
  public var limit: Int
  /// Events that are donations of the app (lowercase).
  public var donationEvents: [String]
  /// Events that are Home Screen visits (lowercase).
  public var visitEvents: [String]
  /// Events that are only counted (lowercase).
  public var countedEvents: [String]
  /// Apps whose foreground events are Home Screen visits (e.g. a launcher package).
  public var launcherApps: [String]
  /// Apps whose events are dropped and counted (e.g. the system UI).
  public var systemApps: [String]
  /// Told the bytes of text read (`ImportProgress`), or nil.
  public var progress: ImportProgress? = nil
  /// The unit of `progress`.
  public static let progressUnit = ImportProgress.Unit.bytes

  public init(
    timeZone: ZoneRules = .utc, skipBadRows: Bool = false,
    limit: Int = DiagnosticCollector.defaultLimit,
    donationEvents: [String] = ["open", "resume"], visitEvents: [String] = ["unlock", "home"],
    countedEvents: [String] = ["close", "pause"], launcherApps: [String] = [],
    systemApps: [String] = []
  ) {
    self.timeZone = timeZone
    self.skipBadRows = skipBadRows
    self.limit = limit
    self.donationEvents = donationEvents.map { $0.lowercased() }
    self.visitEvents = visitEvents.map { $0.lowercased() }
    self.countedEvents = countedEvents.map { $0.lowercased() }
    self.launcherApps = launcherApps
    self.systemApps = systemApps
  }

  /// What is wrong with the configuration, one sentence each; empty when it is usable.
  /// (An empty name, an event in two lists, an app both launcher and system, no donation
  /// and no visit event at all.)
  public var configurationProblems: [String] {
    var problems: [String] = []
    let lists = [
      ("donation", donationEvents), ("visit", visitEvents), ("counted", countedEvents),
    ]
    for (role, names) in lists where names.contains("") {
      problems.append("the \(role) events contain an empty name")
    }
    var seen: [(String, String)] = []
    for (role, names) in lists {
      for name in names where !name.isEmpty {
        if let earlier = seen.first(where: { $0.0 == name }), earlier.1 != role {
          problems.append("event '\(name)' is both a \(earlier.1) and a \(role) event")
        }
        seen.append((name, role))
      }
    }
    if donationEvents.isEmpty && visitEvents.isEmpty {
      problems.append("there are no donation events and no visit events: nothing would be imported")
    }
    for app in launcherApps where systemApps.contains(app) {
      problems.append("app '\(app)' is both a launcher and a system app")
    }
    if launcherApps.contains("") || systemApps.contains("") {
      problems.append("an app name given as launcher or system is empty")
    }
    return problems
  }

  /// Imports the text of `source`.
  public func read(_ source: ImportSource) throws -> ImportResult {
    try source.withText { try read($0, file: source.file) }
  }

  /// Imports app-event CSV text; `file` names it in diagnostics.
  ///
  /// - Throws: `DiagnosticList` with every problem found (up to `limit`).
  /// - Precondition: `configurationProblems` is empty (a programming error otherwise:
  ///   the command line checks it first).
  public func read(_ text: UnsafeBufferPointer<UInt8>, file: String) throws -> ImportResult {
    var problems = ImportProblems(file: file, limit: limit, skipBadRows: skipBadRows)
    var csv = CSVReader(text)
    let columns = try Self.header(&csv, file: file, limit: limit)
    var state = AppEventRows(importer: self, columns: columns)
    progress?.report(csv.offset, text.count)
    var row = RowProblems()
    loop: while !problems.isDone {
      switch csv.next() {
      case .end: break loop
      case .problem(let p):
        state.counts.rows += 1
        row.removeAll()
        row.add(p.offset, p.message)
        problems.badRow(row) { _ in
          TextPosition(line: p.line, column: p.column)
        }
      case .record:
        state.counts.rows += 1
        row.removeAll()
        state.read(csv, problems: &row)
        if !row.isEmpty { problems.badRow(row) { csv.position(ofByte: $0) } }
      }
      if let progress, state.counts.rows % ImportProgress.stride == 0 { progress.report(csv.offset, text.count) }
    }
    try problems.throwIfAny()
    progress?.report(text.count, text.count)
    return state.finish(file: file, badRows: problems.badRows, skipped: problems.skippedList)
  }

  /// The indices of `timestamp`, `user` (-1 when absent), `app` and `event`.
  static func header(_ csv: inout CSVReader, file: String, limit: Int) throws -> [Int] {
    var problems = DiagnosticCollector(file: file, limit: limit)
    switch csv.next() {
    case .end:
      problems.report(
        line: 1, column: 1,
        "empty file: expected a header row naming the columns timestamp, user, app, event")
    case .problem(let p):
      problems.report(line: p.line, column: p.column, p.message)
    case .record:
      let names = (0..<csv.fieldCount).map { String(decoding: csv.field($0), as: UTF8.self) }
      let indices = ImportHeader.indices(
        names: names, columns: columns, required: [0, 2, 3],
        expectation: "expected a header row timestamp,user,app,event", wrongSeparator: "\t",
        separatorHint: "the columns must be separated by commas, not tabs",
        position: { csv.position(ofByte: csv.fieldInfo($0).sourceStart) }, problems: &problems)
      try problems.throwIfAny()
      return indices
    }
    try problems.throwIfAny()
    return []
  }
}

/// The per-row work of `AppEventsImporter`.
struct AppEventRows {
  enum Role: UInt8 { case donation, visit, counted }
  enum AppRole: UInt8 { case launcher, system }

  let timestampColumn: Int
  let userColumn: Int
  let appColumn: Int
  let eventColumn: Int
  let timeZone: ZoneRules
  /// Every configured event name, lowercase, in count order (donation, visit, counted).
  let eventNames: Interner
  let eventRoles: [Role]
  let apps: Interner
  let appRoles: [AppRole]
  let expectedEvents: String
  var counts = ImportCounts()
  var accumulator = ImportAccumulator()
  var eventCounts: [Int]
  var droppedSystem = 0
  var defaultUser: Int32 = -1
  var lowered: [UInt8] = []

  init(importer: AppEventsImporter, columns: [Int]) {
    (timestampColumn, userColumn, appColumn, eventColumn) = (
      columns[0], columns[1], columns[2], columns[3]
    )
    timeZone = importer.timeZone
    var names = Interner()
    var roles: [Role] = []
    for (role, list) in [
      (Role.donation, importer.donationEvents), (.visit, importer.visitEvents),
      (.counted, importer.countedEvents),
    ] {
      for name in list where names.id(of: name) == nil {
        names.intern(name)
        roles.append(role)
      }
    }
    eventNames = names
    eventRoles = roles
    eventCounts = [Int](repeating: 0, count: names.count)
    expectedEvents = names.names.joined(separator: ", ")
    var apps = Interner()
    var appRoles: [AppRole] = []
    for (role, list) in [(AppRole.launcher, importer.launcherApps), (.system, importer.systemApps)]
    {
      for app in list where apps.id(of: app) == nil {
        apps.intern(app)
        appRoles.append(role)
      }
    }
    self.apps = apps
    self.appRoles = appRoles
  }

  /// The id of an event name: exact, else ASCII-lowercased.
  mutating func eventID(_ field: UnsafeBufferPointer<UInt8>) -> Int32? {
    if let id = eventNames.id(of: field) { return id }
    lowered.removeAll(keepingCapacity: true)
    var changed = false
    for c in field {
      let isUpper = c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z")
      changed = changed || isUpper
      lowered.append(isUpper ? c | 0x20 : c)
    }
    guard changed else { return nil }
    return lowered.withUnsafeBufferPointer { eventNames.id(of: $0) }
  }

  mutating func read(_ csv: CSVReader, problems: inout RowProblems) {
    var milliseconds: Int64 = 0
    let timestampField = csv.field(timestampColumn)
    if timestampField.isEmpty {
      problems.add(csv.sourceOffset(ofField: timestampColumn, byte: 0), "timestamp is empty")
    } else {
      switch timeZone.instant(parsing: timestampField) {
      case .success(let instant): milliseconds = instant.milliseconds
      case .failure(let error):
        problems.add(
          csv.sourceOffset(ofField: timestampColumn, byte: error.offset),
          "timestamp: \(error.message)")
      }
    }
    let appField = csv.field(appColumn)
    let eventField = csv.field(eventColumn)
    let event = eventID(eventField)
    if event == nil {
      let offset = csv.sourceOffset(ofField: eventColumn, byte: 0)
      if eventField.isEmpty {
        problems.add(offset, "event is empty (expected one of: \(expectedEvents))")
      } else {
        problems.add(
          offset,
          "unknown event '\(String(decoding: eventField, as: UTF8.self))' (expected one of: \(expectedEvents); change the mapping with --donation-events, --visit-events or --counted-events)"
        )
      }
    }
    let role = event.map { eventRoles[Int($0)] }
    let appRole = apps.count == 0 ? nil : apps.id(of: appField).map { appRoles[Int($0)] }
    if role == .donation && appRole == nil && appField.isEmpty {
      problems.add(
        csv.sourceOffset(ofField: appColumn, byte: 0),
        "app is empty (a '\(String(decoding: eventField, as: UTF8.self))' event needs the app that came to the foreground)"
      )
    }
    guard problems.isEmpty, let event, let role else { return }

    eventCounts[Int(event)] += 1
    var user: Int32
    if userColumn >= 0, case let field = csv.field(userColumn), !field.isEmpty {
      user = accumulator.user(field)
    } else {
      if defaultUser < 0 { defaultUser = accumulator.user(Donation.defaultUser) }
      user = defaultUser
    }
    if role == .visit {
      accumulator.visit(at: milliseconds, user: user)
      return
    }
    switch appRole {
    case .launcher?:
      if role == .donation {
        accumulator.visit(at: milliseconds, user: user)
        counts.launcherVisits += 1
      } else {
        counts.counted += 1
      }
    case .system?:
      droppedSystem += 1
    case nil:
      if role == .donation {
        accumulator.donate(at: milliseconds, user: user, app: appField)
      } else {
        counts.counted += 1
      }
    }
  }

  consuming func finish(file: String, badRows: Int, skipped: DiagnosticList) -> ImportResult {
    var counts = self.counts
    counts.events = eventNames.names.indices.map {
      NamedCount(eventNames.names[$0], eventCounts[$0])
    }
    counts.dropped = [NamedCount("system_apps", droppedSystem), NamedCount("bad_rows", badRows)]
    let (log, visits) = accumulator.finish(file: file, counts: &counts)
    return ImportResult(donations: log, visits: visits, counts: counts, skippedRows: skipped)
  }
}
