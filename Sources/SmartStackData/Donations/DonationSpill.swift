import SmartStackBase

/// A donation log read once and held on disk in blocks of users, not in memory: what a
/// replay of a log bigger than it wants to hold reads one block of people at a time
/// (docs/performance.md, "Streaming replay").
///
/// `read(path:…)` reads the file in one pass (mapped, let go of behind the reader, as
/// `DonationStatistics.read(path:…)` does) and writes each row to a bucket of a
/// `SpillFile` by its user. What stays in memory is the log's names (the same
/// `Interner`s a `DonationLog` of the whole file has, with the same canonical ids), each
/// user's number of rows and the log's first and last instant. `log(users:)` then gives
/// the rows of a range of users as a `DonationLog` equal, user by user, to the whole
/// log's: the same ids, the same rows in the same order.
///
/// **Order and ids.** Canonical ids are in order of first appearance in the time-sorted
/// rows (`DonationLog`). When the file's rows ascend in time (the usual case), the
/// reader's first-appearance ids are already canonical and every bucket holds whole users
/// in canonical order. Otherwise each name's first use (smallest time, then row) gives
/// its canonical id, and the spilled rows are rewritten once, with canonical ids, into
/// buckets by canonical user: an unsorted log costs one more pass over its rows on disk.
///
/// Memory: the distinct names and parameter sets, about 24 bytes per user, and one
/// bucket buffer (`SpillFile.bufferBytes`) per bucket written to; on disk, 40 bytes a
/// row (`SpilledDonation`).
package struct DonationSpill {
  /// The spill file holding the buckets; bucket `b` holds the rows of the users
  /// `b * usersPerBucket ..< (b + 1) * usersPerBucket` (canonical ids), in file order.
  let spillFile: SpillFile
  package let usersPerBucket: Int
  /// The number of rows.
  package let count: Int
  /// The earliest and latest instant (epoch ms), nil for a log without rows.
  package let firstTimestamp: Int64?
  package let lastTimestamp: Int64?
  /// True when some row has its own UTC offset (each block's log then has an offset
  /// column, as the whole log does).
  package let hasOffsets: Bool
  package let userNames: Interner
  package let kindNames: Interner
  package let intentNames: Interner
  package let parameterKeys: Interner
  package let parameterValues: Interner
  package let parameterTable: [[ParameterID]]
  /// Rows per user (canonical ids).
  package let userRows: [Int]
  /// The naive local times the log holds, as `DonationLog.read(path:…localTimes:)` gives them.
  package let localTimes: LocalTimeReport

  /// Reads the donation log at `path` into a new spill file (see the type).
  ///
  /// - Parameter usersPerBucket: Users per bucket (the finest blocks `blocks(maxRows:)`
  ///   makes).
  /// - Throws: exactly what `DonationLog.read(path:format:timeZone:limit:)` throws for
  ///   the same file (`InputFileError`; `DiagnosticList` with every problem, up to
  ///   `limit`); `OutputFileError` when the spill cannot be written.
  /// - Complexity: O(n) in the file's length, plus O(r) disk writes and reads again for
  ///   r rows not in time order.
  package static func read(
    path: String, format: DonationLogFormat? = nil, timeZone: ZoneRules = .utc,
    limit: Int = DiagnosticCollector.defaultLimit, usersPerBucket: Int = 256
  ) throws -> DonationSpill {
    let file = try MappedInputFile(path: path)
    let sink = try file.withBytes { bytes -> DonationSpillSink in
      let resolved = DonationLogFormat.resolve(format, path: path, bytes: bytes)
      // A big log on every core, in parts joined in file order (`DonationLog.chunked`), as
      // `DonationLog.read` reads it; a small one, or one with a problem, in one pass, which
      // reports every problem.
      if bytes.count >= CSVChunks.minimumBytes {
        var sink = DonationSpillSink(spillFile: try SpillFile(prefix: "smartstack-spill"), usersPerBucket: usersPerBucket)
        let read = DonationLog.chunked(bytes, file: path, format: resolved, timeZone: timeZone, mapped: file) {
          part, _, lineOffset in sink.append(part, lineOffset: lineOffset)
        }
        if read { return sink }
        sink.spillFile.remove()
      }
      var sink = DonationSpillSink(spillFile: try SpillFile(prefix: "smartstack-spill"), usersPerBucket: usersPerBucket)
      let passed = { (offset: Int) in file.release(before: offset) }
      switch resolved {
      case .csv:
        try DonationLog.readCSV(bytes, file: path, timeZone: timeZone, limit: limit, into: &sink, passed: passed)
      case .jsonl:
        try DonationLog.readJSONLines(bytes, file: path, timeZone: timeZone, limit: limit, into: &sink, passed: passed)
      }
      return sink
    }
    if let failure = sink.failure { throw failure }
    try sink.spillFile.flush()
    return try DonationSpill(sink)
  }

  /// The spill of a finished sink: canonical names, and the buckets rewritten by canonical
  /// user when the reader's ids are not canonical.
  private init(_ sink: DonationSpillSink) throws {
    let users = Self.canonicalOrder(sink.userFirst)
    let kinds = Self.canonicalOrder(sink.kindFirst)
    let intents = Self.canonicalOrder(sink.intentFirst)
    // Set 0 (no parameters) is always first, then the others by first use.
    let sets = [0] + Self.canonicalOrder(sink.setFirst).filter { $0 != 0 }
    let names = sink.names
    userNames = Interner(users.map { names.userNames[Int32($0)] })
    kindNames = Interner(kinds.map { names.kindNames[Int32($0)] })
    intentNames = Interner(intents.map { names.intentNames[Int32($0)] })
    (parameterTable, parameterKeys, parameterValues) = DonationLogBuilder.canonicalParameters(
      names.parameterTable, keys: names.parameterKeys, values: names.parameterValues,
      order: sets.map { Int32($0) })
    userRows = users.map { sink.userRows[$0] }
    count = Int(sink.rows)
    firstTimestamp = sink.rows > 0 ? sink.firstTimestamp : nil
    lastTimestamp = sink.rows > 0 ? sink.lastTimestamp : nil
    hasOffsets = sink.hasOffsets
    localTimes = sink.localTimes
    usersPerBucket = sink.usersPerBucket

    func isIdentity(_ order: [Int], count: Int) -> Bool {
      order.count == count && order.enumerated().allSatisfy { $0.offset == $0.element }
    }
    if isIdentity(users, count: names.userNames.count) && isIdentity(kinds, count: names.kindNames.count)
      && isIdentity(intents, count: names.intentNames.count) && isIdentity(sets, count: names.parameterTable.count)
    {
      spillFile = sink.spillFile
      return
    }
    // Rewritten with canonical ids into buckets by canonical user, bucket by bucket (a
    // user's rows all lie in one bucket, in file order, and stay so).
    func inverse(_ order: [Int], count: Int) -> [Int32] {
      var map = [Int32](repeating: -1, count: count)
      for (canonical, old) in order.enumerated() { map[old] = Int32(canonical) }
      return map
    }
    let userMap = inverse(users, count: names.userNames.count)
    let kindMap = inverse(kinds, count: names.kindNames.count)
    let intentMap = inverse(intents, count: names.intentNames.count)
    let setMap = inverse(sets, count: names.parameterTable.count)
    let rewritten = try SpillFile(prefix: "smartstack-spill")
    for bucket in 0..<sink.spillFile.bucketCount {
      for var r in try sink.spillFile.read(bucket, as: SpilledDonation.self) {
        r.user = userMap[Int(r.user)]
        r.kind = kindMap[Int(r.kind)]
        r.intent = r.intent < 0 ? -1 : intentMap[Int(r.intent)]
        r.parameterSet = setMap[Int(r.parameterSet)]
        try rewritten.append(r, to: Int(r.user) / usersPerBucket)
      }
      sink.spillFile.clear(bucket)
    }
    try rewritten.flush()
    sink.spillFile.remove()
    spillFile = rewritten
  }

  /// The ids with a use, ordered by first use (`FirstUse`): canonical id k is the k-th.
  private static func canonicalOrder(_ first: [FirstUse]) -> [Int] {
    first.indices.filter { first[$0] != .never }.sorted { first[$0] < first[$1] }
  }

  /// Bytes a donation row takes on disk (`SpilledDonation`).
  package static var rowBytes: Int { MemoryLayout<SpilledDonation>.stride }

  /// Consecutive ranges of users (canonical ids), each of whole buckets, covering every
  /// user: a range ends before the bucket that would take its rows on disk past
  /// `maxBytes` (a single bucket over it is a range alone). A user's rows on disk are its
  /// donations' (`rowBytes` each) and, given `visitRows` (per user), its visits'
  /// (`VisitSpill.rowBytes` each): about what its part of a block's plan takes in memory,
  /// up to a small factor (docs/performance.md, "Streaming replay").
  ///
  /// `fit` is true when every range is within `maxBytes` on disk (none is a single bucket
  /// over it): what a caller holding two blocks' plans at once needs to know.
  ///
  /// - Complexity: O(users).
  package func blocks(maxBytes: Int, visitRows: [Int]? = nil) -> (ranges: [Range<Int>], fit: Bool) {
    var blocks: [Range<Int>] = []
    var fit = true
    var start = 0
    var bytes = 0
    var bucketStart = 0
    while bucketStart < userRows.count {
      let bucketEnd = min(bucketStart + usersPerBucket, userRows.count)
      let bucketBytes = self.bytes(bucketStart..<bucketEnd, visitRows: visitRows)
      if bucketStart > start && bytes + bucketBytes > maxBytes {
        blocks.append(start..<bucketStart)
        fit = fit && bytes <= maxBytes
        start = bucketStart
        bytes = 0
      }
      bytes += bucketBytes
      bucketStart = bucketEnd
    }
    if start < userRows.count {
      blocks.append(start..<userRows.count)
      fit = fit && bytes <= maxBytes
    }
    return (blocks, fit)
  }

  /// The bytes the users `users` (canonical ids) take on disk: their donations'
  /// (`rowBytes` each) and, given `visitRows` (per user), their visits'
  /// (`VisitSpill.rowBytes` each). O(users).
  package func bytes(_ users: Range<Int>, visitRows: [Int]? = nil) -> Int {
    var bytes = 0
    for u in users { bytes += userRows[u] * Self.rowBytes + (visitRows.map { $0[u] } ?? 0) * VisitSpill.rowBytes }
    return bytes
  }

  /// The rows of the users `users` (canonical ids) as a log with the whole log's names
  /// and ids: `rows(ofUser:)` of a user in `users` gives the same donations in the same
  /// order as the whole log's, every other user has none. Its rows are in time order
  /// (equal times in file order), as a log's are; its ids are the whole log's, not
  /// first-appearance ids of these rows alone.
  ///
  /// - Throws: `InputFileError` when a bucket cannot be read back.
  /// - Complexity: O(r log r) for the r rows of the buckets holding `users`.
  package func log(users: Range<Int>) throws -> DonationLog {
    var records: [SpilledDonation] = []
    if !users.isEmpty {
      let buckets = (users.lowerBound / usersPerBucket)...((users.upperBound - 1) / usersPerBucket)
      for bucket in buckets where bucket < spillFile.bucketCount {
        records += try spillFile.read(bucket, as: SpilledDonation.self).filter { users.contains(Int($0.user)) }
      }
    }
    records.sort { ($0.timestamp, $0.row) < ($1.timestamp, $1.row) }
    return DonationLog(
      timestamps: records.map(\.timestamp), users: records.map(\.user), kinds: records.map(\.kind),
      intents: records.map(\.intent), parameterSets: records.map(\.parameterSet),
      parameterTable: parameterTable, userNames: userNames, kindNames: kindNames,
      intentNames: intentNames, parameterKeys: parameterKeys, parameterValues: parameterValues,
      utcOffsets: hasOffsets ? records.map(\.utcOffset) : [])
  }
}
