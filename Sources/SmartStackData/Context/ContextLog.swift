import SmartStackBase

/// A context file: per person, time-stamped changes of what their device knows about
/// where they are and what they are doing (`ContextSignal`: place, point-of-interest
/// category, charging, headphones, workout, activity rings, sleep, Focus).
///
/// CSV (RFC 4180, UTF-8, header row, columns by name, unknown columns ignored), or JSON
/// Lines with the same keys (chosen as for a donation log: `DonationLogFormat.resolve`):
/// - the time (required): `timestamp` (ISO 8601 with `Z` or an offset, or a naive local
///   time read in the given zone) or one epoch column (`timestamp_ms`, `epoch_ms`,
///   `timestamp_s`, `epoch_s`);
/// - `user` (optional; default `default`): a person of the donation log;
/// - `signal` (required): a `ContextSignal` name;
/// - `value` (required): one of the signal's values (`ContextSignal.problem(with:)`);
/// - `utc_offset` (optional): the row's own UTC offset in seconds east of UTC; a row's
///   offset is this when not empty, else its timestamp's numeric offset.
///
/// Meaning: a row says that from its time on, the person's `signal` is `value`, until
/// their next row of the same signal. Rows may be in any order; each person's changes are
/// ordered by time, and at equal times for one person and signal the later row in the
/// file wins (`changes(of:)`). Every problem is reported as `FILE:LINE:COLUMN: message`,
/// and a file with any problem gives no log. Users the donation log does not know are
/// checked where both are known, still located here (`userPositions`).
public struct ContextLog: Sendable, Hashable {
  /// The file as the user named it (for messages and manifests).
  public var file: String
  /// Per row, in file order: the person, the time (epoch ms), the signal and its value.
  public var users: [String] = []
  public var times: [Int64] = []
  public var signals: [ContextSignal] = []
  public var values: [String] = []
  /// Per row, its own UTC offset in seconds east of UTC or `UTCOffset.none`; empty when
  /// no row has one.
  public var utcOffsets: [Int32] = []
  /// Per row, where its user stands in the file (the row's start for a user left out).
  public var userPositions: [TextPosition] = []

  public init(file: String) { self.file = file }

  /// The number of rows.
  public var count: Int { times.count }

  /// Row `i`'s own UTC offset, or `UTCOffset.none`. O(1).
  public func utcOffset(_ i: Int) -> Int32 { utcOffsets.isEmpty ? UTCOffset.none : utcOffsets[i] }

  /// The format's own column names, in the order the docs list them.
  public static let columnNames = ["timestamp", "user", "signal", "value", UTCOffset.fieldName]

  /// Reads a context file, reporting every problem as `FILE:LINE:COLUMN: message`.
  ///
  /// - Parameters:
  ///   - format: CSV or JSON Lines; nil chooses by extension, then by content.
  ///   - zone: The zone naive timestamps are read in.
  /// - Throws: `InputFileError` when the file cannot be read; `DiagnosticList` with every
  ///   problem (up to `limit`). Never a partial log.
  public static func read(
    path: String, format: DonationLogFormat? = nil, zone: ZoneRules = .utc,
    limit: Int = DiagnosticCollector.defaultLimit
  ) throws -> ContextLog {
    let bytes = try FileIO.readBytes(path)
    return try read(bytes: bytes, file: path, format: format, zone: zone, limit: limit)
  }

  /// Reads a context file from bytes; `file` names it in diagnostics.
  public static func read(
    bytes: [UInt8], file: String, format: DonationLogFormat? = nil, zone: ZoneRules = .utc,
    limit: Int = DiagnosticCollector.defaultLimit
  ) throws -> ContextLog {
    switch DonationLogFormat.resolve(format, path: file, bytes: bytes) {
    case .csv: try readCSV(bytes: bytes, file: file, zone: zone, limit: limit)
    case .jsonl: try readJSONLines(bytes: bytes, file: file, zone: zone, limit: limit)
    }
  }

  /// Checks one row's signal and value and appends it; otherwise reports what is wrong
  /// through `report`, at `signalAt` or `valueAt` (a reader's own notion of a place).
  ///
  /// - Returns: false when the row was reported.
  mutating func append<Place>(
    user: String, userPosition: TextPosition, time: Int64, utcOffset: Int32,
    signal signalName: String, signalAt: Place, value: String, valueAt: Place,
    report: (Place, String) -> Void
  ) -> Bool {
    guard let signal = ContextSignal(name: signalName) else {
      report(
        signalAt,
        signalName.isEmpty
          ? "empty signal: expected one of \(ContextSignal.namesList)"
          : "unknown signal '\(signalName)': expected one of \(ContextSignal.namesList)")
      return false
    }
    if let problem = signal.problem(with: value) {
      report(valueAt, problem)
      return false
    }
    users.append(user)
    userPositions.append(userPosition)
    times.append(time)
    signals.append(signal)
    values.append(value)
    // No offsets until the first row with one; then one per row.
    if !utcOffsets.isEmpty {
      utcOffsets.append(utcOffset)
    } else if utcOffset != UTCOffset.none {
      utcOffsets = Array(repeating: UTCOffset.none, count: times.count - 1) + [utcOffset]
    }
    return true
  }

  /// The distinct people, in byte order of their names.
  ///
  /// - Complexity: O(r log r) for r rows.
  public var people: [String] {
    Array(Set(users)).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
  }

  /// The rows of `user`, ordered by time; at equal times, by file order (so the later
  /// row of a signal is applied last and wins).
  ///
  /// - Complexity: O(r + k log k) for r rows, k of them the person's.
  public func changes(of user: String) -> [Int] {
    let rows = users.indices.filter { users[$0] == user }
    return rows.sorted { times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1 }
  }

  /// Every person's rows at once, people in byte order of their names, each person's rows
  /// as `changes(of:)` orders them: one sort instead of a scan of the file per person.
  ///
  /// - Complexity: O(r log r) for r rows.
  public func changesByPerson() -> [(user: String, rows: [Int])] {
    let order = users.indices.sorted {
      if users[$0] != users[$1] { return users[$0].utf8.lexicographicallyPrecedes(users[$1].utf8) }
      return times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1
    }
    var groups: [(user: String, rows: [Int])] = []
    for r in order {
      if groups.last?.user == users[r] { groups[groups.count - 1].rows.append(r) } else { groups.append((users[r], [r])) }
    }
    return groups
  }
}
