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
/// distinct names in order of first appearance), its time and its offset. 16 bytes a
/// row at most (12 without offsets), plus each distinct name once.
public struct VisitLog: Sendable, Hashable {
  /// The file the visits came from (for outputs and messages).
  public var file: String
  /// The distinct people, in order of their first row.
  public private(set) var userNames: [String]
  /// Per row, in file order: the person (an index into `userNames`).
  public private(set) var userIDs: [Int32]
  /// Per row, in file order: the visit time (epoch ms).
  public private(set) var times: [Int64]
  /// Per row, its own UTC offset in seconds east of UTC or `UTCOffset.none`; empty when
  /// no row has one.
  public private(set) var utcOffsets: [Int32]

  /// A log of the rows (`users[i]`, `times[i]`, `utcOffsets[i]` when not empty).
  ///
  /// - Complexity: O(n) expected (the names are interned).
  public init(file: String, users: [String], times: [Int64], utcOffsets: [Int32] = []) {
    var names = Interner()
    var ids: [Int32] = []
    ids.reserveCapacity(users.count)
    for user in users { ids.append(names.intern(user)) }
    self.init(file: file, userNames: names.names, userIDs: ids, times: times, utcOffsets: utcOffsets)
  }

  /// A log of columns as stored; `userIDs` index `userNames`, whose names are distinct and
  /// in order of first appearance (the reader's invariant, which `==` relies on).
  init(file: String, userNames: [String], userIDs: [Int32], times: [Int64], utcOffsets: [Int32]) {
    self.file = file
    self.userNames = userNames
    self.userIDs = userIDs
    self.times = times
    self.utcOffsets = utcOffsets
  }

  /// Moves the rows' columns out, leaving a log without rows (its file and names stay),
  /// for a reader that spreads them elsewhere and lets each go when done with it. O(1).
  package mutating func takeColumns() -> (userIDs: [Int32], times: [Int64], utcOffsets: [Int32]) {
    defer { (userIDs, times, utcOffsets) = ([], [], []) }
    return (userIDs, times, utcOffsets)
  }

  /// Row `i`'s person. O(1).
  public func user(_ i: Int) -> String { userNames[Int(userIDs[i])] }

  /// Every row's person, in file order. O(n): for whole-log uses, not per row.
  public var users: [String] { userIDs.map { userNames[Int($0)] } }

  /// Row `i`'s own UTC offset, or `UTCOffset.none`. O(1).
  public func utcOffset(_ i: Int) -> Int32 { utcOffsets.isEmpty ? UTCOffset.none : utcOffsets[i] }

  public var count: Int { times.count }
}
