import SmartStackBase

/// A visit log: moments people saw the Home Screen (unlocks, home-button presses).
///
/// CSV (RFC 4180, UTF-8, header row, columns by name, unknown columns ignored):
/// the time (required): `timestamp` (ISO 8601 with `Z` or an offset, or naive local time
/// read in the given zone) or one epoch column (`timestamp_ms`/`epoch_ms` in
/// milliseconds, `timestamp_s`/`epoch_s` in seconds: `EpochUnit`), and `user` (optional;
/// default `default`), and `utc_offset` (optional: the row's own UTC offset in seconds
/// east of UTC; empty for none). A row's offset is its `utc_offset` when not empty, else
/// the numeric offset of its timestamp (`UTCOffset`); a visit's local-time features (hour
/// of day, hour of week, day) use it. Rows may be in any order.
///
/// Rows are held as columns: each row's person as a dense id into `userNames` (the
/// distinct names in order of first appearance), its time and its offset, in consecutive
/// chunks (`VisitChunk`: the parts a reader read on its cores, kept as read rather than
/// copied into one column; one chunk for a log made from arrays). 12 bytes a row, plus the
/// offsets (`UTCOffsetColumn`: a few numbers per chunk for a log written in one zone, at
/// most 4 bytes a row) and each distinct name once.
///
/// Two logs are equal when their file, names and rows are, however the rows are chunked.
public struct VisitLog: Sendable, Hashable {
  /// The file the visits came from (for outputs and messages).
  public var file: String
  /// The distinct people, in order of their first row.
  public private(set) var userNames: [String]
  /// The rows, in file order, in consecutive chunks (none when the log has no row).
  package private(set) var chunks: [VisitChunk]
  /// The number of rows. O(1).
  public private(set) var count: Int
  /// The row each chunk starts at: `chunkStarts[k]` rows are in the chunks before `k`.
  private var chunkStarts: [Int]

  /// A log of the rows (`users[i]`, `times[i]`, `utcOffsets[i]` when not empty).
  ///
  /// - Complexity: O(n) expected (the names are interned).
  public init(file: String, users: [String], times: [Int64], utcOffsets: [Int32] = []) {
    var names = Interner()
    var ids: [Int32] = []
    ids.reserveCapacity(users.count)
    for user in users { ids.append(names.intern(user)) }
    self.init(
      file: file, userNames: names.names,
      chunks: [VisitChunk(userIDs: ids, times: times, utcOffsets: UTCOffsetColumn(utcOffsets))])
  }

  /// A log of chunks as stored; their `userIDs` index `userNames`, whose names are distinct
  /// and in order of first appearance (the reader's invariant, which `==` relies on).
  /// Empty chunks are dropped.
  init(file: String, userNames: [String], chunks: [VisitChunk]) {
    self.file = file
    self.userNames = userNames
    self.chunks = chunks.filter { !$0.times.isEmpty }
    var starts: [Int] = []
    var count = 0
    for chunk in self.chunks {
      starts.append(count)
      count += chunk.times.count
    }
    self.count = count
    chunkStarts = starts
  }

  /// Moves the rows' chunks out, leaving a log without rows (its file and names stay),
  /// for a reader that spreads them elsewhere and lets each go when done with it. O(1).
  package mutating func takeChunks() -> [VisitChunk] {
    defer { (chunks, count, chunkStarts) = ([], 0, []) }
    return chunks
  }

  /// Per row, in file order: the person (an index into `userNames`). O(1) for a log of
  /// one chunk, else O(n) (the chunks joined): read it once, not per row.
  public var userIDs: [Int32] { chunks.count == 1 ? chunks[0].userIDs : chunks.flatMap(\.userIDs) }

  /// Per row, in file order: the visit time (epoch ms). O(1) for a log of one chunk, else
  /// O(n), as `userIDs`.
  public var times: [Int64] { chunks.count == 1 ? chunks[0].times : chunks.flatMap(\.times) }

  /// Per row, its own UTC offset in seconds east of UTC or `UTCOffset.none`; empty when
  /// no row has one. O(1) for a log of one chunk, else O(n), as `userIDs`.
  public var utcOffsets: [Int32] {
    guard chunks.contains(where: { !$0.utcOffsets.isEmpty }) else { return [] }
    var offsets: [Int32] = []
    offsets.reserveCapacity(count)
    for chunk in chunks {
      if chunk.utcOffsets.isEmpty {
        offsets.append(contentsOf: repeatElement(UTCOffset.none, count: chunk.times.count))
      } else {
        offsets.append(contentsOf: chunk.utcOffsets)
      }
    }
    return offsets
  }

  /// Row `i`'s chunk and its index in it: the last chunk starting at or before `i`.
  /// O(log chunks).
  private func locate(_ i: Int) -> (chunk: Int, row: Int) {
    precondition(i >= 0 && i < count, "visit row \(i) out of range 0..<\(count)")
    var low = 0
    var high = chunkStarts.count  // chunkStarts[low] <= i < chunkStarts[high] (or the end)
    while high - low > 1 {
      let middle = (low + high) / 2
      if chunkStarts[middle] <= i { low = middle } else { high = middle }
    }
    return (low, i - chunkStarts[low])
  }

  /// Row `i`'s person. O(log chunks).
  public func user(_ i: Int) -> String {
    let (k, row) = locate(i)
    return userNames[Int(chunks[k].userIDs[row])]
  }

  /// Every row's person, in file order. O(n): for whole-log uses, not per row.
  public var users: [String] { chunks.flatMap { $0.userIDs.map { userNames[Int($0)] } } }

  /// Row `i`'s own UTC offset, or `UTCOffset.none`. O(log chunks).
  public func utcOffset(_ i: Int) -> Int32 {
    let (k, row) = locate(i)
    return chunks[k].utcOffsets.isEmpty ? UTCOffset.none : chunks[k].utcOffsets[row]
  }

  public static func == (a: VisitLog, b: VisitLog) -> Bool {
    guard a.file == b.file, a.userNames == b.userNames, a.count == b.count else { return false }
    if a.chunks == b.chunks { return true }  // the same rows, chunked alike
    return a.times == b.times && a.userIDs == b.userIDs && a.utcOffsets == b.utcOffsets
  }

  /// Hashes the file, the names and the number of rows (equal logs agree on all three).
  public func hash(into hasher: inout Hasher) {
    hasher.combine(file)
    hasher.combine(userNames)
    hasher.combine(count)
  }
}

/// Consecutive rows of a `VisitLog`, as columns: per row its person (an index into the
/// log's `userNames`), its time (epoch ms) and its own UTC offset (empty when no row of
/// the chunk has one: every row's is then `UTCOffset.none`; runs of equal offsets are
/// stored once, `UTCOffsetColumn`).
package struct VisitChunk: Sendable, Hashable {
  package var userIDs: [Int32]
  package var times: [Int64]
  package var utcOffsets: UTCOffsetColumn

  package init(userIDs: [Int32], times: [Int64], utcOffsets: UTCOffsetColumn) {
    self.userIDs = userIDs
    self.times = times
    self.utcOffsets = utcOffsets
  }
}
