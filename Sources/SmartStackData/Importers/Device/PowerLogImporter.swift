import SmartStackBase
/// Imports a PowerLog database (`CurrentPowerlog.PLSQL`, iOS
/// `/private/var/containers/Shared/SystemGroup/<GUID>/Library/BatteryLife/`).
///
/// **Read** (tables and columns as iLEAPP's `scripts/artifacts/powerlog.py` reads them):
/// - `PLStorageOperator_EventForward_TimeOffset` (`timestamp`, `system`): the clock
///   correction (`PowerLogClock`), applied to every time below;
/// - `PLSpringBoardAgent_EventForward_SBLock` (`timestamp`, `Locked`): a row with
///   `Locked` = 0 (unlocked) is a Home Screen visit, other rows are counted;
/// - `PLApplicationAgent_EventForward_Application` (`timestamp`, `Identifier`, `State`):
///   a row entering `State` 8 (`BKSApplicationStateForegroundRunning`) from any other
///   state of the same app (or as the app's first row) is a launch, a donation of kind =
///   `Identifier`; other rows are counted;
/// - every table with a column named `isInStack` (ASCII case-insensitive): its rows are
///   the widget statistics (`PowerLogWidgetRows`).
///
/// A database without any of the first three tables is refused
/// (`FILE: no table ...: not a PowerLog database`). PowerLog records no UTC offset, so
/// the logs are written in UTC.
public struct PowerLogImporter: Sendable {
  public static let timeOffsetTable = "PLStorageOperator_EventForward_TimeOffset"
  public static let lockTable = "PLSpringBoardAgent_EventForward_SBLock"
  public static let applicationTable = "PLApplicationAgent_EventForward_Application"
  /// `BKSApplicationStateForegroundRunning`.
  public static let foregroundState: Int64 = 8
  /// `BKSApplicationStateForegroundRunningObscured`: still in front, not a new launch.
  public static let foregroundObscuredState: Int64 = 32

  /// What `read` returns: the logs and the widget statistics.
  public struct Output: Sendable {
    public var result: ImportResult
    public var widgets: PowerLogWidgetRows
  }

  /// Skip and count (`bad_values`) a launch whose app id a log cannot hold
  /// (`DonationFieldCheck`) instead of failing on it.
  public var skipBadRows: Bool
  /// Also read the charging state into `ImportResult.context` (`PowerLogContext`); its
  /// table's rows are not counted in `rows`.
  public var readsContext = false
  /// Told the rows read of the lock, application and widget tables (`ImportProgress`;
  /// the clock's few time offset rows are not counted), or nil.
  public var progress: ImportProgress? = nil
  /// The unit of `progress`.
  public static let progressUnit = ImportProgress.Unit.rows

  public init(skipBadRows: Bool = false) { self.skipBadRows = skipBadRows }

  /// Copies `path` (with `-wal`, `-shm`) to a temporary folder, imports the copy, removes it.
  public func read(path: String) throws -> Output {
    try SQLiteDatabase.withCopy(of: path) { try read($0) }
  }

  /// Imports an open PowerLog database.
  public func read(_ db: SQLiteDatabase) throws -> Output {
    let tables = try db.tables()
    let known = [Self.lockTable, Self.applicationTable, Self.timeOffsetTable]
    guard known.contains(where: tables.contains) else {
      throw DatabaseError(
        file: db.file,
        message: "no table \(known.joined(separator: ", ")): not a PowerLog database")
    }
    func require(_ table: String, _ columns: [String]) throws -> Bool {
      guard tables.contains(table) else { return false }
      let present = try db.columns(of: table).map { $0.lowercased() }
      for column in columns where !present.contains(column.lowercased()) {
        throw DatabaseError(file: db.file, message: "table \(table) has no column \(column)")
      }
      return true
    }
    var offsetRows: [(timestamp: Double, system: Double)] = []
    if try require(Self.timeOffsetTable, ["timestamp", "system"]) {
      try db.query("SELECT timestamp, system FROM \(Self.timeOffsetTable) ORDER BY timestamp, rowid")
      { row in
        if let t = row.values[0].double, let s = row.values[1].double { offsetRows.append((t, s)) }
      }
    }
    let clock = PowerLogClock(offsetRows)
    var state = PowerLogRows(clock: clock, badValues: BadValueRows(skip: skipBadRows), file: db.file)
    let readTables = [Self.lockTable, Self.applicationTable].filter(tables.contains)
    var rowProgress = RowProgress(
      progress,
      total: progress == nil ? 0 : try db.rowCount(of: readTables + PowerLogWidgetRows.tables(db, tables: tables)))
    if try require(Self.lockTable, ["timestamp", "Locked"]) {
      try db.query("SELECT timestamp, Locked FROM \(Self.lockTable) ORDER BY timestamp, rowid") {
        rowProgress.tick()
        state.lock($0)
      }
    }
    if try require(Self.applicationTable, ["timestamp", "Identifier", "State"]) {
      try db.query(
        "SELECT timestamp, Identifier, State, rowid FROM \(Self.applicationTable) ORDER BY timestamp, rowid"
      ) {
        rowProgress.tick()
        try state.application($0)
      }
    }
    let widgets = try PowerLogWidgetRows.read(db, tables: tables, clock: clock) { rowProgress.tick() }
    rowProgress.finish()
    var result = state.finish(file: db.file)
    result.counts.notes.append(
      NamedCount("texts with invalid UTF-8", db.invalidUTF8Values))
    result.counts.notes.append(NamedCount("widget rows", widgets.count))
    if readsContext { result.context = try PowerLogContext.read(db, clock: clock, require: require) }
    return Output(result: result, widgets: widgets)
  }
}

/// The per-row work of `PowerLogImporter`.
struct PowerLogRows {
  let clock: PowerLogClock
  var badValues: BadValueRows
  let file: String
  var builder = DeviceLogBuilder()
  var lockRows = 0
  var applicationRows = 0
  var counted = 0
  var badTimes = 0
  var noApp = 0
  var beforeFirstOffset = 0
  /// The last state seen per app (looked up, never iterated).
  var lastState: [String: Int64] = [:]

  mutating func time(_ value: SQLiteValue) -> Int64? {
    guard let raw = value.double, let ms = clock.milliseconds(raw: raw) else {
      badTimes += 1
      return nil
    }
    if clock.isBeforeFirst(raw) { beforeFirstOffset += 1 }
    return ms
  }

  mutating func lock(_ row: SQLiteRow) {
    lockRows += 1
    guard let ms = time(row.values[0]) else { return }
    if row.values[1].integer == 0 {
      builder.visit(at: ms, offset: UTCOffset.none)
    } else {
      counted += 1
    }
  }

  mutating func application(_ row: SQLiteRow) throws {
    applicationRows += 1
    guard let ms = time(row.values[0]) else { return }
    guard let app = row.values[1].text, !app.isEmpty else {
      noApp += 1
      return
    }
    let state = row.values[2].integer ?? -1
    let previous = lastState[app]
    lastState[app] = state
    let wasInFront =
      previous == PowerLogImporter.foregroundState
      || previous == PowerLogImporter.foregroundObscuredState
    if state == PowerLogImporter.foregroundState && !wasInFront {
      let donation = Donation(timestamp: Instant(milliseconds: ms), kind: app)
      let rowID = row.text(3) ?? "?"
      let table = PowerLogImporter.applicationTable
      if try badValues.refuses(donation, file: file, location: { "\(table) row \(rowID)" }) { return }
      builder.donate(donation, offset: UTCOffset.none)
    } else {
      counted += 1
    }
  }

  consuming func finish(file: String) -> ImportResult {
    var counts = ImportCounts()
    counts.rows = lockRows + applicationRows
    counts.events = [
      NamedCount(PowerLogImporter.lockTable, lockRows),
      NamedCount(PowerLogImporter.applicationTable, applicationRows),
    ]
    counts.counted = counted
    counts.dropped = [
      NamedCount("bad_times", badTimes), NamedCount("no_app", noApp),
      NamedCount("bad_values", badValues.count),
    ]
    counts.notes = [
      NamedCount("time offset rows", clock.offsets.count),
      NamedCount("rows before the first offset", beforeFirstOffset),
    ]
    var result = builder.finish(file: file, counts: counts)
    result.donationOffsets = nil
    result.visitOffsets = nil
    return result
  }
}
