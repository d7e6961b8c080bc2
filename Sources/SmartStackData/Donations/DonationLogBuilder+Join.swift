import SmartStackBase

extension DonationLogBuilder {
  /// Appends the rows of `part`, read after these rows, its names interned here (ids are
  /// made canonical by `build()` in any case) and its naive local times' places moved down
  /// by `lineOffset` lines (`LocalTimeReport.append(_:lineOffset:)`). A part of `rows` rows
  /// or more is joined on two threads.
  ///
  /// - Complexity: O(rows of `part` + its distinct names and parameter sets).
  mutating func append(
    _ part: DonationLogBuilder, lineOffset: Int, inParallelFrom rows: Int = rowsJoinedInParallel
  ) {
    let (users, kinds, intents, sets) = internNames(of: part)
    // Column by column (what `append(timestamp:…)` does row by row, as the one-pass reader
    // does): offsets appear with the first row that has one, `none` before it.
    let before = count
    // Each id column copied, then renumbered in place (`Interner.remap`): renumbering into
    // a new array first allocated and touched a temporary column per part. The join runs
    // while the other cores wait, so a big part's columns are joined two halves at a time
    // (`ParallelMap.both`), each half moved out of `self` (so appending copies nothing more).
    func join<T>(_ column: inout [T], _ rows: [T]) { column.append(contentsOf: rows) }
    func join(_ column: inout [Int32], _ rows: [Int32], through map: [Int32]) {
      column.append(contentsOf: rows)
      Interner.remap(&column, from: before, through: map)
    }
    var (timeColumn, userColumn, kindColumn) = (timestamps, self.users, self.kinds)
    var (intentColumn, setColumn) = (self.intents, parameterSets)
    (timestamps, self.users, self.kinds, self.intents, parameterSets) = ([], [], [], [], [])
    let first = {
      join(&timeColumn, part.timestamps)
      join(&userColumn, part.users, through: users)
      join(&kindColumn, part.kinds, through: kinds)
    }
    let second = {
      join(&intentColumn, part.intents, through: intents)
      join(&setColumn, part.parameterSets, through: sets)
    }
    _ = ParallelMap.both(first, second, inParallel: part.count >= rows)
    (timestamps, self.users, self.kinds) = (timeColumn, userColumn, kindColumn)
    (self.intents, parameterSets) = (intentColumn, setColumn)
    if !part.utcOffsets.isEmpty {
      if utcOffsets.isEmpty {
        utcOffsets.reserveCapacity(max(timestamps.capacity, count))
        utcOffsets.append(contentsOf: repeatElement(UTCOffset.none, count: before))
      }
      utcOffsets.append(contentsOf: part.utcOffsets)
    } else if !utcOffsets.isEmpty {
      utcOffsets.append(contentsOf: repeatElement(UTCOffset.none, count: part.count))
    }
    localTimes.append(part.localTimes, lineOffset: lineOffset)
  }

  /// The fewest rows of a part whose columns `append(_:lineOffset:)` joins on two threads:
  /// below it, starting a thread costs more than it saves. Tests pass their own to compare
  /// both ways; the result is the same.
  static let rowsJoinedInParallel = 1 << 14

  /// Interns `part`'s names and parameter sets here, in `part`'s order of first
  /// appearance, and gives, for each of `part`'s user, kind, intent and set ids, its id
  /// here: how a part read after these rows joins them (`append(_:lineOffset:)`,
  /// `DonationSpillSink.append(_:lineOffset:)`).
  ///
  /// - Complexity: O(`part`'s distinct names and parameter sets).
  mutating func internNames(
    of part: DonationLogBuilder
  ) -> (users: [Int32], kinds: [Int32], intents: [Int32], sets: [Int32]) {
    let users = part.userNames.names.map { userNames.intern($0) }
    let kinds = part.kindNames.names.map { kindNames.intern($0) }
    let intents = part.intentNames.names.map { intentNames.intern($0) }
    let keys = part.parameterKeys.names.map { parameterKeys.intern($0) }
    let values = part.parameterValues.names.map { parameterValues.intern($0) }
    let sets = part.parameterTable.map { pairs in
      internSet(pairs.map { ParameterID(key: keys[Int($0.key)], value: values[Int($0.value)]) }.sorted())
    }
    return (users, kinds, intents, sets)
  }
}
