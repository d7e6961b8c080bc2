import SmartStackBase
/// Imports CoreDuet's `knowledgeC.db` (iOS `/private/var/mobile/Library/CoreDuet/Knowledge/`,
/// macOS `~/Library/Application Support/Knowledge/`) as donations and Home Screen visits.
///
/// **Read** (schema as in mac4n6/APOLLO's `knowledge_app_intents`, `knowledge_app_inFocus`
/// and `knowledge_device_locked` modules): `ZOBJECT` rows whose `ZSTREAMNAME` is one of
/// `streams` or the visit stream, with `ZSTARTDATE` (Mac absolute time), `ZSECONDSFROMGMT`
/// (the row's UTC offset in seconds), `ZVALUESTRING`, `ZVALUEINTEGER`; `ZSOURCE.ZBUNDLEID`
/// through `ZOBJECT.ZSOURCE`; `ZSTRUCTUREDMETADATA.Z_DKINTENTMETADATAKEY__INTENTCLASS`,
/// `__INTENTVERB` and `__SERIALIZEDINTERACTION` through `ZOBJECT.ZSTRUCTUREDMETADATA`.
///
/// **Mapping.** A row of a donation stream is one donation at `ZSTARTDATE + 978307200`
/// (`DeviceTime.milliseconds(macAbsolute:)`), `kind` = `ZVALUESTRING` (the bundle id),
/// else `ZSOURCE.ZBUNDLEID`; `intent` = the intent class when present; parameters: the
/// intent verb as `intent_verb`, plus what `InteractionArchive` reads from the serialized
/// interaction. A row of the visit stream (`/device/isLocked` with `ZVALUEINTEGER` 0,
/// unlocked, or `/display/isBacklit` with 1, screen on) is a visit; its other rows are
/// counted. Every row keeps its own `ZSECONDSFROMGMT` as its UTC offset.
///
/// **Tolerated:** a missing `ZSOURCE` or `ZSTRUCTUREDMETADATA` table or any optional
/// column (the intent is then empty; a row without `ZSECONDSFROMGMT`, or with one beyond
/// ±`UTCOffset.limit`, has no offset, `UTCOffset.none`, so replay reads it in `--timezone`,
/// and is counted as `rows without utc offset`). The macOS 10.13 and 10.14 layouts are
/// tested (docs/importers.md, "Schema versions"). A serialized interaction
/// that cannot be decoded is counted (`interactions not decoded`), never an error.
public struct KnowledgeCImporter: Sendable {
  /// Which stream gives the visits.
  public enum VisitSource: String, Sendable, CaseIterable {
    /// `/device/isLocked` rows with value 0: the device was unlocked (the default).
    case locked
    /// `/display/isBacklit` rows with value 1: the screen came on.
    case backlit

    /// The stream name.
    public var stream: String { self == .locked ? "/device/isLocked" : "/display/isBacklit" }
    /// The `ZVALUEINTEGER` that makes a visit.
    public var value: Int64 { self == .locked ? 0 : 1 }
  }

  /// The donation streams, full names, in the order their counts are reported.
  public var streams: [String]
  public var visitSource: VisitSource
  /// Skip and count (`bad_values`) a donation a log cannot hold (`DonationFieldCheck`)
  /// instead of failing on it.
  public var skipBadRows: Bool
  /// Also read the context the database holds into `ImportResult.context`
  /// (`KnowledgeCContext`); its rows stay counted as `other streams`.
  public var readsContext = false
  /// Told the rows read of those the import selects (`ImportProgress`), or nil.
  public var progress: ImportProgress? = nil
  /// The unit of `progress`.
  public static let progressUnit = ImportProgress.Unit.rows

  /// The donation streams this importer knows by short name (`intents`, `inFocus`,
  /// `activity`): asked for and absent, they are simply counted as 0.
  public static let knownStreams = ["/app/intents", "/app/inFocus", "/app/activity"]

  public init(
    streams: [String] = ["/app/intents"], visitSource: VisitSource = .locked, skipBadRows: Bool = false
  ) {
    self.streams = streams.map(Self.streamName)
    self.visitSource = visitSource
    self.skipBadRows = skipBadRows
  }

  /// `intents` → `/app/intents`, `inFocus` → `/app/inFocus`, `activity` → `/app/activity`;
  /// a name starting with `/` is kept as it is.
  public static func streamName(_ name: String) -> String {
    name.hasPrefix("/") ? name : "/app/" + name
  }

  /// Copies `path` (with `-wal`, `-shm`) to a temporary folder, imports the copy, removes
  /// it. See `SQLiteDatabase.open(copying:)`.
  public func read(path: String) throws -> ImportResult {
    try SQLiteDatabase.withCopy(of: path) { try read($0) }
  }

  /// Imports an open knowledgeC database.
  ///
  /// - Throws: `DatabaseError` `FILE: no table ZOBJECT: not a knowledgeC database` (or a
  ///   missing `ZSTREAMNAME`/`ZSTARTDATE` column), or a SQLite failure.
  public func read(_ db: SQLiteDatabase) throws -> ImportResult {
    let tables = try db.tables()
    guard tables.contains("ZOBJECT") else {
      throw DatabaseError(file: db.file, message: "no table ZOBJECT: not a knowledgeC database")
    }
    let object = try db.columns(of: "ZOBJECT")
    for required in ["ZSTREAMNAME", "ZSTARTDATE"] where !object.contains(required) {
      throw DatabaseError(
        file: db.file, message: "ZOBJECT has no column \(required): not a knowledgeC database")
    }
    let source = tables.contains("ZSOURCE") ? try db.columns(of: "ZSOURCE") : []
    let metadata =
      tables.contains("ZSTRUCTUREDMETADATA") ? try db.columns(of: "ZSTRUCTUREDMETADATA") : []
    let intentKey = "Z_DKINTENTMETADATAKEY__"
    func column(_ table: String, _ columns: [String], _ name: String, as alias: String) -> String {
      columns.contains(name) ? "\(table).\(name) AS \(alias)" : "NULL AS \(alias)"
    }
    let joinSource = object.contains("ZSOURCE") && source.contains("Z_PK")
    let joinMetadata = object.contains("ZSTRUCTUREDMETADATA") && metadata.contains("Z_PK")
    if joinSource { try refuseDuplicateKeys("ZSOURCE", db) }
    if joinMetadata { try refuseDuplicateKeys("ZSTRUCTUREDMETADATA", db) }
    let interaction = intentKey + "SERIALIZEDINTERACTION"
    let selected = [
      "o.rowid AS row_id", "o.ZSTREAMNAME AS stream", "o.ZSTARTDATE AS start",
      column("o", object, "ZSECONDSFROMGMT", as: "gmt"),
      column("o", object, "ZVALUESTRING", as: "value_string"),
      column("o", object, "ZVALUEINTEGER", as: "value_integer"),
      column("s", joinSource ? source : [], "ZBUNDLEID", as: "bundle"),
      column("m", joinMetadata ? metadata : [], intentKey + "INTENTCLASS", as: "intent_class"),
      column("m", joinMetadata ? metadata : [], intentKey + "INTENTVERB", as: "intent_verb"),
      // The interaction is read by rowid afterwards (`SQLiteDatabase.blob`), so that a
      // huge one is skipped unread.
      joinMetadata && metadata.contains(interaction) ? "m.rowid AS interaction_row" : "NULL AS interaction_row",
    ]
    let allStreams = streams + [visitSource.stream]
    var sql = "SELECT " + selected.joined(separator: ", ") + " FROM ZOBJECT o"
    if joinSource { sql += " LEFT JOIN ZSOURCE s ON o.ZSOURCE = s.Z_PK" }
    if joinMetadata { sql += " LEFT JOIN ZSTRUCTUREDMETADATA m ON o.ZSTRUCTUREDMETADATA = m.Z_PK" }
    sql += " WHERE o.ZSTREAMNAME IN (" + allStreams.map { _ in "?" }.joined(separator: ", ") + ")"
    sql += " ORDER BY o.ZSTARTDATE, o.rowid"

    var rows = KnowledgeCRows(importer: self, hasOffsets: object.contains("ZSECONDSFROMGMT"), file: db.file)
    // The joins add no rows (their keys are unique, checked above): the query gives as
    // many rows as ZOBJECT has of these streams.
    var selectedRows = 0
    if progress != nil {
      let streamList = allStreams.map { _ in "?" }.joined(separator: ", ")
      try db.query(
        "SELECT COUNT(*) FROM ZOBJECT WHERE ZSTREAMNAME IN (\(streamList))", bind: allStreams.map { .text($0) }
      ) { selectedRows = Int($0.values[0].integer ?? 0) }
    }
    var rowProgress = RowProgress(progress, total: selectedRows)
    try db.query(sql, bind: allStreams.map { .text($0) }) { row in
      rowProgress.tick()
      let interactionRow = row["interaction_row"]?.integer
      try rows.add(row) {
        interactionRow.map { db.blob(table: "ZSTRUCTUREDMETADATA", column: interaction, rowid: $0) }
          ?? .bytes([])
      }
    }
    try refuseUnknownEmptyStreams(rows.streamCounts, db)
    var total = 0
    try db.query("SELECT COUNT(*) FROM ZOBJECT") { total = Int($0.values[0].integer ?? 0) }
    rowProgress.finish()
    var result = rows.finish(file: db.file, totalRows: total, invalidUTF8: db.invalidUTF8Values)
    if readsContext {
      result.context = try KnowledgeCContext.read(db, object: object, metadata: joinMetadata ? metadata : [])
    }
    return result
  }
}

extension KnowledgeCImporter {
  /// Refuses `table` when its `Z_PK` (the key ZOBJECT joins on) is not unique: every
  /// ZOBJECT row would be repeated once per duplicate (300 rows of `Z_PK` 1 in each
  /// table turn a 24 KB file into millions of donations).
  ///
  /// - Throws: `DatabaseError` `FILE: table ZSOURCE: Z_PK 1 is not unique (300 rows, the first at rowid 1) ...`.
  func refuseDuplicateKeys(_ table: String, _ db: SQLiteDatabase) throws {
    try db.query(
      "SELECT substr(Z_PK, 1, 64), COUNT(*), MIN(rowid) FROM \(table) WHERE Z_PK IS NOT NULL"
        + " GROUP BY Z_PK HAVING COUNT(*) > 1 ORDER BY MIN(rowid) LIMIT 1"
    ) { row in
      throw DatabaseError(
        file: db.file,
        message: "table \(table): Z_PK \(row.text(0) ?? "?") is not unique (\(row.text(1) ?? "?") rows, "
          + "the first at rowid \(row.text(2) ?? "?")); each ZOBJECT row joined to it would be repeated, "
          + "so the database is refused")
    }
  }

  /// A requested stream that is not one of `knownStreams` and has no row in the database
  /// is most likely misspelt (`--streams bogus` reads `/app/bogus`): refused, naming the
  /// streams the database has (by name, with their row counts, the first 20; control
  /// characters escaped), instead of importing nothing from it.
  ///
  /// - Throws: `DatabaseError` `FILE: no rows of stream /app/bogus (its streams: …)`.
  func refuseUnknownEmptyStreams(_ counts: [Int], _ db: SQLiteDatabase) throws {
    let missing = streams.indices.filter { counts[$0] == 0 && !Self.knownStreams.contains(streams[$0]) }
    guard !missing.isEmpty else { return }
    var present: [String] = []
    var more = 0
    try db.query("SELECT ZSTREAMNAME, COUNT(*) FROM ZOBJECT GROUP BY ZSTREAMNAME ORDER BY ZSTREAMNAME") {
      if present.count < 20 {
        present.append("\($0.values[0].text ?? "NULL") (\($0.values[1].integer ?? 0))")
      } else {
        more += 1
      }
    }
    if more > 0 { present.append("and \(more) more") }
    let names = missing.map { streams[$0] }.joined(separator: ", ")
    throw DatabaseError(
      file: db.file,
      message: TerminalText.escapingControls(
        "no rows of stream\(missing.count == 1 ? "" : "s") \(names) (its streams: "
          + (present.isEmpty ? "none" : present.joined(separator: ", ")) + ")"))
  }
}

/// The per-row work of `KnowledgeCImporter`.
struct KnowledgeCRows {
  let importer: KnowledgeCImporter
  /// Whether ZOBJECT has ZSECONDSFROMGMT (without it every row counts as without offset).
  let hasOffsets: Bool
  var builder = DeviceLogBuilder()
  var streamCounts: [Int]
  var counted = 0
  var badTimes = 0
  var noApp = 0
  var notDecoded = 0
  var withoutOffset = 0
  var tooLarge = 0
  var badValues: BadValueRows
  let file: String

  init(importer: KnowledgeCImporter, hasOffsets: Bool, file: String) {
    self.importer = importer
    self.hasOffsets = hasOffsets
    self.file = file
    badValues = BadValueRows(skip: importer.skipBadRows)
    streamCounts = [Int](repeating: 0, count: importer.streams.count + 1)
  }

  /// Takes one row; `interaction` reads its serialized interaction (only for a donation).
  mutating func add(_ row: SQLiteRow, interaction: () -> SQLiteDatabase.BlobRead) throws {
    let stream = row["stream"]?.text ?? ""
    let streamIndex = importer.streams.firstIndex(of: stream) ?? importer.streams.count
    streamCounts[streamIndex] += 1
    guard let start = row["start"]?.double, let ms = DeviceTime.milliseconds(macAbsolute: start)
    else {
      badTimes += 1
      return
    }
    var offset = UTCOffset.none
    if let gmt = row["gmt"]?.integer, gmt.magnitude <= UInt64(UTCOffset.limit) {
      offset = Int32(gmt)
    } else {
      withoutOffset += 1
    }
    if streamIndex == importer.streams.count {
      if row["value_integer"]?.integer == importer.visitSource.value {
        builder.visit(at: ms, offset: offset)
      } else {
        counted += 1
      }
      return
    }
    let kind = [row["value_string"]?.text, row["bundle"]?.text].compactMap { $0 }
      .first { !$0.isEmpty }
    guard let kind else {
      noApp += 1
      return
    }
    var intent: String?
    if let c = row["intent_class"]?.text, !c.isEmpty { intent = c }
    var parameters: [Parameter] = []
    switch interaction() {
    case .tooLarge: tooLarge += 1
    case .unavailable: notDecoded += 1
    case .bytes(let bytes) where !bytes.isEmpty:
      if let archive = InteractionArchive(bytes) {
        parameters = archive.stringEntries
      } else {
        notDecoded += 1
      }
    case .bytes: break
    }
    if let verb = row["intent_verb"]?.text, !verb.isEmpty {
      parameters.removeAll { $0.key == "intent_verb" }
      parameters.append(Parameter("intent_verb", verb))
    }
    let donation = Donation(
      timestamp: Instant(milliseconds: ms), kind: kind, intent: intent, parameters: parameters)
    let rowID = row["row_id"]?.text ?? "?"
    if try badValues.refuses(donation, file: file, location: { "ZOBJECT row \(rowID)" }) { return }
    builder.donate(donation, offset: offset)
  }

  consuming func finish(file: String, totalRows: Int, invalidUTF8: Int) -> ImportResult {
    var counts = ImportCounts()
    let names = importer.streams + [importer.visitSource.stream]
    counts.events = names.indices.map { NamedCount(names[$0], streamCounts[$0]) }
    let read = streamCounts.reduce(0, +)
    counts.rows = max(totalRows, read)
    counts.counted = counted + (counts.rows - read)
    counts.dropped = [
      NamedCount("bad_times", badTimes), NamedCount("no_app", noApp),
      NamedCount("bad_values", badValues.count),
    ]
    counts.notes = [
      NamedCount("other streams", counts.rows - read),
      NamedCount("interactions not decoded", notDecoded),
      NamedCount("interactions over 16 MiB", tooLarge),
      NamedCount("rows without utc offset", withoutOffset),
      NamedCount("texts with invalid UTF-8", invalidUTF8),
    ]
    return builder.finish(file: file, counts: counts)
  }
}
