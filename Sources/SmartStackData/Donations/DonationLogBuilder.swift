import SmartStackBase

/// Collects rows in input order, then sorts them stably by time and renumbers every id
/// canonically (see `DonationLog`). Used by `DonationLog.init(_:)` and the readers.
struct DonationLogBuilder {
  /// The naive local times the reader met (`DonationSink.localTimes`).
  var localTimes = LocalTimeReport()
  var timestamps: [Int64] = []
  var users: [Int32] = []
  var kinds: [Int32] = []
  var intents: [Int32] = []
  var parameterSets: [Int32] = []
  /// Per row, seconds east of UTC or `UTCOffset.none`; empty while no row has an offset
  /// (so logs without offsets carry no column).
  var utcOffsets: [Int32] = []

  var userNames = Interner()
  var kindNames = Interner()
  var intentNames = Interner()
  var parameterKeys = Interner()
  var parameterValues = Interner()
  /// The distinct parameter sets, set 0 empty; looked up by content, never iterated.
  var parameterTable: [[ParameterID]] = [[]]
  private var setIDs: [[ParameterID]: Int32] = [[]: 0]

  var count: Int { timestamps.count }

  mutating func reserve(_ rows: Int) {
    timestamps.reserveCapacity(rows)
    users.reserveCapacity(rows)
    kinds.reserveCapacity(rows)
    intents.reserveCapacity(rows)
    parameterSets.reserveCapacity(rows)
  }

  /// The id of a parameter set given as pairs sorted by (key id, value id).
  mutating func internSet(_ pairs: [ParameterID]) -> Int32 {
    if pairs.isEmpty { return 0 }
    if let id = setIDs[pairs] { return id }
    let id = Int32(truncatingIfNeeded: parameterTable.count)
    parameterTable.append(pairs)
    setIDs[pairs] = id
    return id
  }

  @inline(__always)
  mutating func append(
    timestamp: Int64, user: Int32, kind: Int32, intent: Int32, parameterSet: Int32,
    utcOffset: Int32 = UTCOffset.none
  ) {
    timestamps.append(timestamp)
    users.append(user)
    kinds.append(kind)
    intents.append(intent)
    parameterSets.append(parameterSet)
    if utcOffset != UTCOffset.none || !utcOffsets.isEmpty { appendOffset(utcOffset) }
  }

  /// Adds row `count - 1`'s offset, first filling `none` for the rows before the first
  /// row with an offset.
  @inline(never)
  private mutating func appendOffset(_ utcOffset: Int32) {
    if utcOffsets.isEmpty {
      utcOffsets = Array(repeating: UTCOffset.none, count: timestamps.count - 1)
      utcOffsets.reserveCapacity(timestamps.capacity)
    }
    utcOffsets.append(utcOffset)
  }

  /// The finished log: rows sorted stably by time, ids canonical; for `rows` rows or more,
  /// finished on two threads.
  ///
  /// - Complexity: O(n) when the rows are already in time order, O(n log n) otherwise.
  consuming func build(inParallelFrom rows: Int = rowsFinishedInParallel) -> DonationLog {
    if let order = Self.stableTimeOrder(timestamps, inParallelFrom: rows) {
      timestamps = Self.permute(timestamps, order)
      users = Self.permute(users, order)
      kinds = Self.permute(kinds, order)
      intents = Self.permute(intents, order)
      parameterSets = Self.permute(parameterSets, order)
      if !utcOffsets.isEmpty { utcOffsets = Self.permute(utcOffsets, order) }
    }
    // Moved out of self (not copied), so renumbering mutates the only reference.
    var (users, userNames) = (self.users, self.userNames)
    var (kinds, kindNames) = (self.kinds, self.kindNames)
    var (intents, intentNames) = (self.intents, self.intentNames)
    (self.users, self.kinds, self.intents) = ([], [], [])
    (self.userNames, self.kindNames, self.intentNames) = (Interner(), Interner(), Interner())
    // Two halves of about equal work, at the same time for a big log: the users (and
    // the log's rows grouped by user, `DonationLog.groupByUser`), and everything else.
    var groups: DonationLog.UserGroups?
    let byUser = {
      Self.renumber(&users, &userNames)
      groups = DonationLog.groupByUser(users, userCount: userNames.count)
    }
    let rest = {
      Self.renumber(&kinds, &kindNames)
      Self.renumber(&intents, &intentNames)
      self.canonicaliseParameters()
    }
    _ = ParallelMap.both(byUser, rest, inParallel: count >= rows)
    return DonationLog(
      timestamps: timestamps, users: users, kinds: kinds, intents: intents,
      parameterSets: parameterSets, parameterTable: parameterTable, userNames: userNames,
      kindNames: kindNames, intentNames: intentNames, parameterKeys: parameterKeys,
      parameterValues: parameterValues, utcOffsets: utcOffsets, userGroups: groups)
  }

  /// The fewest rows `build()` finishes on two threads (and checks the time order of on
  /// every core): below it, starting a thread costs more than it saves. Tests pass their
  /// own to compare both ways; the result is the same.
  static let rowsFinishedInParallel = 1 << 16

  static func permute<T>(_ column: [T], _ order: [Int32]) -> [T] {
    order.map { column[Int($0)] }
  }

  /// The permutation that sorts `timestamps` stably, or nil when they already are sorted.
  static func stableTimeOrder(
    _ timestamps: [Int64], inParallelFrom rows: Int = rowsFinishedInParallel
  ) -> [Int32]? {
    // Whether each row is at or after the one before, in blocks on every core for a big
    // log (each block compares its first row with the row before it).
    let n = timestamps.count
    let blocks = n >= rows ? ParallelMap.blocks(count: n, parts: ParallelMap.partCount) : [0..<n]
    let sorted = ParallelMap.map(blocks) { block in
      var i = max(block.lowerBound, 1)
      while i < block.upperBound {
        if timestamps[i] < timestamps[i - 1] { return false }
        i += 1
      }
      return true
    }
    if !sorted.contains(false) { return nil }
    // Fast path: (timestamp, row) packed in one UInt64 sorts as the pair does. Parsed
    // instants lie in [0, 2^42) ms (before 2109); 22 bits hold the row for up to 4 Mi rows.
    let rowBits = 22
    if n <= 1 << rowBits, timestamps.allSatisfy({ $0 >= 0 && $0 < 1 << (64 - rowBits) }) {
      var keys = [UInt64](repeating: 0, count: n)
      for row in 0..<n {
        keys[row] = UInt64(timestamps[row]) << UInt64(rowBits) | UInt64(row)
      }
      keys.sort()
      let mask = UInt64(1 << rowBits - 1)
      return keys.map { Int32(truncatingIfNeeded: $0 & mask) }
    }
    var order = (0..<Int32(truncatingIfNeeded: n)).map { $0 }
    timestamps.withUnsafeBufferPointer { t in
      // The row index breaks ties, so the result is stable whatever the sort algorithm.
      order.sort { a, b in
        let ta = t[Int(a)]
        let tb = t[Int(b)]
        return ta != tb ? ta < tb : a < b
      }
    }
    return order
  }

  /// Renumbers `column` (ids into `names`; -1 kept) in order of first appearance, dropping
  /// names no row uses. A no-op when the ids already are in that order.
  static func renumber(_ column: inout [Int32], _ names: inout Interner) {
    var next: Int32 = 0
    var canonical = true
    for id in column where id >= 0 {
      if id == next {
        next += 1
      } else if id > next {
        canonical = false
        break
      }
    }
    if canonical && Int(next) == names.count { return }
    var map = [Int32](repeating: -1, count: names.count)
    var renamed = Interner()
    for i in column.indices {
      let old = column[i]
      if old < 0 { continue }
      if map[Int(old)] < 0 { map[Int(old)] = renamed.intern(names[old]) }
      column[i] = map[Int(old)]
    }
    names = renamed
  }

  /// Renumbers parameter sets by first use in the rows, and keys and values by walking the
  /// sets in that order, each set's pairs in (key, value) text order.
  private mutating func canonicaliseParameters() {
    var setMap = [Int32](repeating: -1, count: parameterTable.count)
    setMap[0] = 0
    var order: [Int32] = [0]
    for i in parameterSets.indices {
      let old = parameterSets[i]
      if setMap[Int(old)] < 0 {
        setMap[Int(old)] = Int32(truncatingIfNeeded: order.count)
        order.append(old)
      }
      parameterSets[i] = setMap[Int(old)]
    }
    (parameterTable, parameterKeys, parameterValues) = Self.canonicalParameters(
      parameterTable, keys: parameterKeys, values: parameterValues, order: order)
    setIDs = [:]
  }

  /// The parameter table of the sets `order` (old ids, set 0 first), in that order, with
  /// keys and values renumbered by walking those sets, each set's pairs in (key, value)
  /// text order: the canonical table (`DonationLog`, "Canonical ids"), also for
  /// `DonationSpill`, which finds `order` without the rows.
  static func canonicalParameters(
    _ table: [[ParameterID]], keys oldKeys: Interner, values oldValues: Interner, order: [Int32]
  ) -> (table: [[ParameterID]], keys: Interner, values: Interner) {
    var keys = Interner()
    var values = Interner()
    var canonical: [[ParameterID]] = []
    canonical.reserveCapacity(order.count)
    for old in order {
      let named: [(key: String, value: String)] = table[Int(old)]
        .map { (id: ParameterID) -> (key: String, value: String) in
          (key: oldKeys[id.key], value: oldValues[id.value])
        }
        .sorted { (a, b) -> Bool in a.key != b.key ? a.key < b.key : a.value < b.value }
      var pairs = named.map {
        ParameterID(key: keys.intern($0.key), value: values.intern($0.value))
      }
      pairs.sort()
      canonical.append(pairs)
    }
    return (canonical, keys, values)
  }
}
