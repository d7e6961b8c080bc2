import SmartStackBase

/// One donation row as `DonationSpill` writes it to disk: its time, its row in the file
/// (0-based, file order: the tie-break of equal times), its ids (provisional while the
/// log is read, canonical once `DonationSpill` is made) and its own UTC offset.
struct SpilledDonation {
  var timestamp: Int64
  var row: Int64
  var user: Int32
  var kind: Int32
  var intent: Int32
  var parameterSet: Int32
  var utcOffset: Int32
}

/// The first use of a name or parameter set in the log's time order: the smallest
/// (timestamp, row) of the rows that carry it. Canonical ids are in this order
/// (`DonationLog`, "Canonical ids").
struct FirstUse: Comparable {
  var timestamp: Int64
  var row: Int64
  static let never = FirstUse(timestamp: .max, row: .max)
  static func < (a: FirstUse, b: FirstUse) -> Bool { (a.timestamp, a.row) < (b.timestamp, b.row) }
}

/// The sink `DonationSpill.read` fills: it interns names as `DonationLogBuilder` does
/// (ids in order of first appearance in the file: provisional), writes each row to the
/// spill bucket of its user's provisional id, and keeps, per id, the row count (users)
/// and the first use (every name and set), so that canonical ids can be found without
/// the rows.
///
/// Memory: the distinct names and parameter sets, 16 bytes per name for its first use
/// and 8 per user for its row count, and the spill file's buffers.
struct DonationSpillSink: DonationSink {
  static var cachesParameterTexts: Bool { true }

  /// The names and parameter sets; it never holds a row.
  var names = DonationLogBuilder()
  var localTimes = LocalTimeReport()
  let spillFile: SpillFile
  let usersPerBucket: Int
  private(set) var rows: Int64 = 0
  private(set) var firstTimestamp = Int64.max
  private(set) var lastTimestamp = Int64.min
  /// True while every row's time is at or after the previous row's (file order).
  private(set) var ascending = true
  private var previous = Int64.min
  private(set) var hasOffsets = false
  private(set) var userRows: [Int] = []
  private(set) var userFirst: [FirstUse] = []
  private(set) var kindFirst: [FirstUse] = []
  private(set) var intentFirst: [FirstUse] = []
  private(set) var setFirst: [FirstUse] = [.never]
  /// The first error writing a bucket: rows are not written after it, and
  /// `DonationSpill.read` throws it once the reader is done.
  private(set) var failure: (any Error)?
  /// The columns or keys the reader ignored, in the order first met.
  private(set) var ignoredColumns: [String] = []

  init(spillFile: SpillFile, usersPerBucket: Int) {
    self.spillFile = spillFile
    self.usersPerBucket = max(1, usersPerBucket)
  }

  func reserve(_ rows: Int) {}

  @inline(__always)
  mutating func intern(_ bytes: UnsafeBufferPointer<UInt8>, as field: DonationNameField) -> Int32 {
    names.intern(bytes, as: field)
  }

  mutating func internSet(_ pairs: [ParameterID]) -> Int32 { names.internSet(pairs) }

  mutating func ignore(column name: String) {
    if !ignoredColumns.contains(name) { ignoredColumns.append(name) }
  }

  mutating func append(
    timestamp: Int64, user: Int32, kind: Int32, intent: Int32, parameterSet: Int32,
    utcOffset: Int32
  ) {
    let use = FirstUse(timestamp: timestamp, row: rows)
    Self.note(use, of: user, in: &userFirst)
    Self.note(use, of: kind, in: &kindFirst)
    if intent >= 0 { Self.note(use, of: intent, in: &intentFirst) }
    while setFirst.count <= Int(parameterSet) { setFirst.append(.never) }
    setFirst[Int(parameterSet)] = min(setFirst[Int(parameterSet)], use)
    while userRows.count <= Int(user) { userRows.append(0) }
    userRows[Int(user)] += 1
    if timestamp < previous { ascending = false }
    previous = timestamp
    firstTimestamp = min(firstTimestamp, timestamp)
    lastTimestamp = max(lastTimestamp, timestamp)
    if utcOffset != UTCOffset.none { hasOffsets = true }
    if failure == nil {
      do {
        try spillFile.append(
          SpilledDonation(
            timestamp: timestamp, row: rows, user: user, kind: kind, intent: intent,
            parameterSet: parameterSet, utcOffset: utcOffset),
          to: Int(user) / usersPerBucket)
      } catch {
        failure = error
      }
    }
    rows += 1
  }

  /// Adds the rows of `part`, read after the rows so far (`DonationLog.chunked`): its
  /// names interned here in its order of first appearance (as `DonationLogBuilder.append`
  /// joins parts), then each row as the one-pass reader hands it over, and its naive local
  /// times' places moved down by `lineOffset` lines.
  ///
  /// - Complexity: O(rows of `part` + its distinct names and parameter sets).
  mutating func append(_ part: DonationLogBuilder, lineOffset: Int) {
    let (users, kinds, intents, sets) = names.internNames(of: part)
    for i in 0..<part.count {
      let intent = part.intents[i]
      append(
        timestamp: part.timestamps[i], user: users[Int(part.users[i])], kind: kinds[Int(part.kinds[i])],
        intent: intent < 0 ? -1 : intents[Int(intent)], parameterSet: sets[Int(part.parameterSets[i])],
        utcOffset: part.utcOffsets.isEmpty ? UTCOffset.none : part.utcOffsets[i])
    }
    localTimes.append(part.localTimes, lineOffset: lineOffset)
  }

  /// Records `use` for `id` (a name interned for a row with a problem, which is never
  /// appended, leaves its id without a use: `.never`).
  @inline(__always)
  private static func note(_ use: FirstUse, of id: Int32, in first: inout [FirstUse]) {
    let i = Int(id)
    while first.count <= i { first.append(.never) }
    if use < first[i] { first[i] = use }
  }
}
