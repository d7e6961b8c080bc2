import SmartStackBase

/// One visit row as `VisitSpill` writes it to disk: its time, its own UTC offset
/// (`UTCOffset.none` for none) and its person (a user id of the donation log's spill).
struct SpilledVisit {
  var time: Int64
  var utcOffset: Int32
  var person: Int32
}

/// A visit log read once and held on disk in buckets of people, laid out like the
/// `DonationSpill` it belongs to (bucket `b` holds the rows of people
/// `b * usersPerBucket ..< (b + 1) * usersPerBucket`, each person's in file order): what a
/// replay in blocks of people reads each block's visits from (`visits(people:)`).
///
/// A row's person is the donation log's user of the same name; rows of names that are no
/// user of the donation log are counted and not kept (`unknownRows`, `unknownExamples`),
/// as a replay of the whole log ignores them.
///
/// Memory: the visit log's distinct names and one bucket buffer per bucket written to; on
/// disk, 16 bytes a row.
package struct VisitSpill {
  let spillFile: SpillFile
  package let usersPerBucket: Int
  /// The visit log's path, as given.
  package let file: String
  /// True when some row of the log has its own UTC offset (every person's visits then
  /// come with an offset column, as a replay of the whole log gives them).
  package let hasOffsets: Bool
  /// Rows kept (of people of the donation log).
  package let count: Int
  /// Rows of names that are no person of the donation log, and the first three such
  /// names in order of first appearance in the file.
  package let unknownRows: Int
  package let unknownExamples: [String]
  /// Rows kept per person (user ids of the donation spill).
  package let personRows: [Int]

  /// Bytes a visit row takes on disk (`SpilledVisit`).
  package static var rowBytes: Int { MemoryLayout<SpilledVisit>.stride }

  /// Reads the visit log at `path` (`VisitLog.stream`) into buckets of the people of
  /// `donations`.
  ///
  /// - Throws: exactly what `VisitLog.read(path:zone:limit:)` throws for the same file;
  ///   `OutputFileError` when the spill cannot be written.
  /// - Complexity: O(n) in the file's length.
  package static func read(
    path: String, zone: ZoneRules = .utc, limit: Int = DiagnosticCollector.defaultLimit, people donations: DonationSpill
  ) throws -> VisitSpill {
    var spillFile = try SpillFile(prefix: "smartstack-visits")
    let usersPerBucket = donations.usersPerBucket
    var personOf: [Int32] = []
    var unknownName: [Bool] = []
    var (count, unknown, hasOffsets) = (0, 0, false)
    var names: [String] = []
    var personRows = [Int](repeating: 0, count: donations.userRows.count)
    try VisitLog.stream(
      path: path, zone: zone, limit: limit,
      restart: {
        // Read again from the start: everything so far goes.
        spillFile.remove()
        spillFile = try SpillFile(prefix: "smartstack-visits")
        (personOf, unknownName, names) = ([], [], [])
        (count, unknown, hasOffsets) = (0, 0, false)
        personRows = [Int](repeating: 0, count: donations.userRows.count)
      }
    ) { chunk, chunkNames in
      names = chunkNames
      while personOf.count < names.count {
        personOf.append(donations.userNames.id(of: names[personOf.count]) ?? -1)
        unknownName.append(false)
      }
      hasOffsets = hasOffsets || !chunk.utcOffsets.isEmpty
      var offsets = chunk.utcOffsets.makeIterator()  // empty: every row's is none
      for (row, id) in chunk.userIDs.enumerated() {
        let offset = offsets.next() ?? UTCOffset.none
        let person = personOf[Int(id)]
        guard person >= 0 else {
          unknown += 1
          unknownName[Int(id)] = true
          continue
        }
        try spillFile.append(
          SpilledVisit(time: chunk.times[row], utcOffset: offset, person: person), to: Int(person) / usersPerBucket)
        count += 1
        personRows[Int(person)] += 1
      }
    }
    try spillFile.flush()
    return VisitSpill(
      spillFile: spillFile, usersPerBucket: usersPerBucket, file: path, hasOffsets: hasOffsets, count: count,
      unknownRows: unknown,
      unknownExamples: unknownName.indices.filter { unknownName[$0] }.prefix(3).map { names[$0] },
      personRows: personRows)
  }

  /// The visits of the people `people` (user ids of the donation spill), per person in file
  /// order: `times[j]` are person `people.lowerBound + j`'s, and, when the log has
  /// offsets (`hasOffsets`), `offsets[j]` theirs (`UTCOffset.none` for a row without one;
  /// else `offsets` is empty).
  ///
  /// - Throws: `InputFileError` when a bucket cannot be read back.
  /// - Complexity: O(r + p) for the r rows of the buckets holding `people`.
  package func visits(people: Range<Int>) throws -> (times: [[Int64]], offsets: [UTCOffsetColumn]) {
    var times = [[Int64]](repeating: [], count: people.count)
    var offsets = hasOffsets ? [UTCOffsetColumn](repeating: [], count: people.count) : []
    guard !people.isEmpty else { return (times, offsets) }
    let buckets = (people.lowerBound / usersPerBucket)...((people.upperBound - 1) / usersPerBucket)
    for bucket in buckets where bucket < spillFile.bucketCount {
      for r in try spillFile.read(bucket, as: SpilledVisit.self) where people.contains(Int(r.person)) {
        let j = Int(r.person) - people.lowerBound
        times[j].append(r.time)
        if hasOffsets { offsets[j].append(r.utcOffset, count: 1) }
      }
    }
    return (times, offsets)
  }
}
