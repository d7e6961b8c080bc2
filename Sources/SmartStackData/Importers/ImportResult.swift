import SmartStackBase

/// A count with a name, for counts whose set depends on the format (event types, reasons
/// for dropping a row). Lists of them keep a fixed, documented order.
public struct NamedCount: Sendable, Hashable, CustomStringConvertible {
  public var name: String
  public var count: Int

  public init(_ name: String, _ count: Int) {
    self.name = name
    self.count = count
  }

  /// `name count`.
  public var description: String { "\(name) \(count)" }
}

/// What an import read and what it made of it.
///
/// Every data row is accounted for exactly once:
/// `rows == donationRows + visitRows + counted + dropped total`, where `visitRows` is 0
/// for LSApp (its visits are sessions, derived from the rows) and `visits` for
/// app-events.
public struct ImportCounts: Sendable, Hashable {
  /// Data rows read (the header not counted), good and bad.
  public var rows = 0
  /// Valid rows per event name, in the format's fixed order (LSApp: Opened, Closed,
  /// User Interaction, Broken; app-events: the donation, visit and counted events as
  /// configured).
  public var events: [NamedCount] = []
  /// Donations written: one per LSApp `Opened` row, one per app-events donation event.
  public var donations = 0
  /// Visits written: LSApp sessions; app-events visit events and launcher foreground
  /// events.
  public var visits = 0
  /// Of `visits`, those from foreground events of `--launcher` apps (app-events only).
  public var launcherVisits = 0
  /// Valid rows that are neither a donation nor a visit row and are only counted (LSApp
  /// `Closed` and `User Interaction`, which can still start a session; app-events counted
  /// events and the launchers' other events).
  public var counted = 0
  /// Rows dropped, by reason, in a fixed order (LSApp: `broken`, `bad_rows`; app-events:
  /// `system_apps`, `bad_rows`). `bad_rows` are rows with problems, skipped with
  /// `skipBadRows` (otherwise the import fails and it is 0).
  public var dropped: [NamedCount] = []
  /// Distinct users in the donation log or the visit log.
  public var users = 0
  /// Distinct apps (kinds) in the donation log.
  public var apps = 0
  /// Format-specific counts, in a fixed order, printed as `name: count` lines (e.g.
  /// knowledgeC `interactions not decoded`, the kind map's `unmapped ids`).
  public var notes: [NamedCount] = []

  public init() {}

  /// The number of rows dropped for `reason`, 0 when the format has no such reason.
  public func dropped(_ reason: String) -> Int {
    dropped.first { $0.name == reason }?.count ?? 0
  }

  /// The number of valid rows with event `name`, 0 when none.
  public func events(_ name: String) -> Int {
    events.first { $0.name == name }?.count ?? 0
  }
}

/// An imported donation log and visit log, with the counts.
public struct ImportResult: Sendable {
  /// The donations, sorted by time (stably: file order at equal times).
  public var donations: DonationLog
  /// The visits, sorted by time (stably: LSApp sessions in order of first appearance,
  /// app-events rows in file order).
  public var visits: VisitLog
  public var counts: ImportCounts
  /// With `skipBadRows`: the problems of the rows skipped, in file order, up to the
  /// reader's limit (`truncated` when there were more). Empty otherwise.
  public var skippedRows: DiagnosticList
  /// Per donation, in row order: the UTC offset (seconds east of UTC) the source recorded
  /// for it; nil when the source records none (the log is then written in UTC).
  public var donationOffsets: [Int32]?
  /// Per visit, in row order: its UTC offset in seconds; nil when the source has none.
  public var visitOffsets: [Int32]?
  /// The context changes the source holds, sorted by time, when the importer was asked
  /// for them (`KnowledgeCImporter.readsContext`, `PowerLogImporter.readsContext`); nil
  /// otherwise and for formats that hold none.
  public var context: ImportedContext?

  public init(
    donations: DonationLog, visits: VisitLog, counts: ImportCounts, skippedRows: DiagnosticList
  ) {
    self.donations = donations
    self.visits = visits
    self.counts = counts
    self.skippedRows = skippedRows
  }
}

/// Collects donations and visits as an importer reads, with users interned once.
struct ImportAccumulator {
  var builder = DonationLogBuilder()
  /// Every user named by an accepted row.
  private(set) var users = Interner()
  /// `builderUsers[u]` is user `u`'s id in `builder.userNames`, or -1.
  private var builderUsers: [Int32] = []
  private var userUsed: [Bool] = []
  private var visitUsers: [Int32] = []
  private var visitTimes: [Int64] = []

  /// The id of the user named `bytes`.
  mutating func user(_ bytes: UnsafeBufferPointer<UInt8>) -> Int32 {
    let id = users.intern(bytes)
    if Int(id) == builderUsers.count {
      builderUsers.append(-1)
      userUsed.append(false)
    }
    return id
  }

  /// The id of the user named `name`.
  mutating func user(_ name: String) -> Int32 {
    var name = name
    return name.withUTF8 { user($0) }
  }

  /// Adds a donation of kind `app` (no intent, no parameters).
  mutating func donate(at milliseconds: Int64, user: Int32, app: UnsafeBufferPointer<UInt8>) {
    let u = Int(user)
    if builderUsers[u] < 0 { builderUsers[u] = builder.userNames.intern(users[user]) }
    builder.append(
      timestamp: milliseconds, user: builderUsers[u], kind: builder.kindNames.intern(app),
      intent: -1, parameterSet: 0)
    userUsed[u] = true
  }

  /// Adds a visit.
  mutating func visit(at milliseconds: Int64, user: Int32) {
    visitUsers.append(user)
    visitTimes.append(milliseconds)
    userUsed[Int(user)] = true
  }

  /// The donation log and the visit log (sorted stably by time); sets `counts.donations`,
  /// `visits`, `users` and `apps`.
  consuming func finish(file: String, counts: inout ImportCounts) -> (DonationLog, VisitLog) {
    if let order = DonationLogBuilder.stableTimeOrder(visitTimes) {
      visitTimes = DonationLogBuilder.permute(visitTimes, order)
      visitUsers = DonationLogBuilder.permute(visitUsers, order)
    }
    let names = users
    let visits = VisitLog(file: file, users: visitUsers.map { names[$0] }, times: visitTimes)
    counts.users = userUsed.reduce(0) { $0 + ($1 ? 1 : 0) }
    let log = builder.build()
    counts.donations = log.count
    counts.visits = visits.count
    counts.apps = log.kindNames.count
    return (log, visits)
  }
}

/// The problems of one row, as (input offset, message), reported in offset order.
struct RowProblems {
  private(set) var items: [(offset: Int, message: String)] = []

  var isEmpty: Bool { items.isEmpty }

  mutating func removeAll() { items.removeAll(keepingCapacity: true) }

  mutating func add(_ offset: Int, _ message: String) { items.append((offset, message)) }

  /// The problems sorted by offset (stably: problems at one offset keep their order).
  var sorted: [(offset: Int, message: String)] {
    items.indices.sorted {
      let (a, b) = (items[$0].offset, items[$1].offset)
      return a != b ? a < b : $0 < $1
    }.map { items[$0] }
  }
}

/// Where an importer's row problems go: errors that fail the import, or, with
/// `skipBadRows`, warnings about rows that are counted and skipped.
struct ImportProblems {
  let skipBadRows: Bool
  var errors: DiagnosticCollector
  var skipped: DiagnosticCollector
  /// Rows with problems (each counted once, however many problems it has).
  private(set) var badRows = 0

  init(file: String, limit: Int, skipBadRows: Bool) {
    self.skipBadRows = skipBadRows
    errors = DiagnosticCollector(file: file, limit: limit)
    skipped = DiagnosticCollector(file: file, limit: limit)
  }

  /// True when reading can stop: failing anyway, with more problems than will be shown.
  var isDone: Bool { errors.truncated }

  /// Records a bad row and its problems at the positions `position` gives.
  mutating func badRow(_ row: RowProblems, position: (Int) -> TextPosition) {
    badRows += 1
    for item in row.sorted {
      let p = position(item.offset)
      if skipBadRows {
        skipped.report(line: p.line, column: p.column, item.message)
      } else {
        errors.report(line: p.line, column: p.column, item.message)
      }
    }
  }

  /// Throws every error found.
  func throwIfAny() throws { try errors.throwIfAny() }

  /// The skipped rows' problems.
  var skippedList: DiagnosticList {
    DiagnosticList(skipped.diagnostics, truncated: skipped.truncated)
  }
}
