import Testing

@testable import SmartStackBase

@Suite("UTC offset columns: runs of equal offsets, the same rows as a plain array")
struct UTCOffsetColumnTests {
  /// A sequence of `n` offsets drawn from `values` that changes value with probability
  /// `change` a row: few changes make few runs, `change` 1 alternates.
  func offsets(_ n: Int, change: Double, values: [Int32], seed: UInt64) -> [Int32] {
    var g = SplitMix64(seed: seed)
    var result: [Int32] = []
    var current = values[0]
    for _ in 0..<n {
      if Double(g.next() % 1_000_000) / 1_000_000 < change { current = values[Int(g.next() % UInt64(values.count))] }
      result.append(current)
    }
    return result
  }

  @Test(arguments: [0.0, 0.001, 0.05, 0.5, 1.0])
  func appendedRowsReadBackByIndexAndInOrder(change: Double) {
    for seed: UInt64 in 1...30 {
      // Four values, or 400 (plain once more than 256 appear).
      let values: [Int32] = seed % 3 == 0 ? (0..<400).map { Int32($0) * 60 } : [3600, 7200, UTCOffset.none, -18000]
      let rows = offsets(Int(seed) * 97, change: change, values: values, seed: seed)
      var column = UTCOffsetColumn()
      for r in rows { column.append(r) }
      #expect(column.count == rows.count)
      #expect(Array(column) == rows)
      #expect(rows.indices.allSatisfy { column[$0] == rows[$0] })
      #expect(UTCOffsetColumn(rows) == column)
      // Runs are the maximal stretches of equal values, whatever the storage.
      var runs = 0
      for i in rows.indices where i == 0 || rows[i] != rows[i - 1] { runs += 1 }
      #expect(column.runs.count == runs)
      #expect(column.runs.map(\.rows).reduce(0, +) == rows.count)
    }
  }

  @Test func fewRunsStayRunsFewDistinctValuesMakeAPaletteAndManyArePlain() {
    let steady = UTCOffsetColumn(Array(repeating: Int32(3600), count: 1000) + Array(repeating: Int32(7200), count: 1000))
    #expect(steady.mode == .runs)
    #expect(steady.runCount == 2)
    // People of four zones interleaved: a run a row, but four values.
    let zones: [Int32] = [32400, 19800, 7200, -18000]
    let interleaved = UTCOffsetColumn((0..<1000).map { zones[$0 % 4] })
    #expect(interleaved.mode == .palette)
    #expect(interleaved.values == zones)
    #expect(interleaved.codes.count == 1000 && interleaved.starts.isEmpty && interleaved.plain.isEmpty)
    #expect(interleaved.runCount == 1000)
    // 257 distinct values: plain.
    let many = UTCOffsetColumn((0..<600).map { (i: Int) -> Int32 in Int32(i % 257) * 60 })
    #expect(many.mode == .plain)
    let manyValues: [Int32] = (0..<600).map { (i: Int) -> Int32 in Int32(i % 257) * 60 }
    #expect(Array(many) == manyValues)
    #expect(many.values.isEmpty && many.codes.isEmpty)
    // 15 changes in 1000 rows stay runs; the switch needs at least 16 runs.
    let fewChanges = UTCOffsetColumn((0..<1000).map { Int32($0 / 63) })
    #expect(fewChanges.mode == .runs)
    // 40 runs in 1000 rows are smaller than 1000 codes: still runs.
    let fortyRuns = UTCOffsetColumn((0..<1000).map { Int32($0 / 25 % 2) })
    #expect(fortyRuns.mode == .runs)
  }

  /// A palette finds a quarter-hour offset's code in its table and any other by search:
  /// rows of every quarter hour within ±18 hours, interleaved with offsets that are not
  /// (`none`, odd seconds, beyond ±18 hours), read back; the table names exactly the
  /// palette's quarter-hour values.
  @Test func aPalettesQuarterHourTableAgreesWithItsValues() {
    let quarterHours = (-72...72).map { Int32($0) * 900 }
    let others: [Int32] = [UTCOffset.none, 3601, -1, 64_801, -65_700, 19_799]
    var g = SplitMix64(seed: 5)
    var rows: [Int32] = (0..<40).map { Int32($0 % 2) * 3600 }  // a palette from the start
    for _ in 0..<3000 {
      rows.append(g.nextInt(below: 5) == 0 ? others[g.nextInt(below: others.count)] : quarterHours[g.nextInt(below: quarterHours.count)])
    }
    let column = UTCOffsetColumn(rows)
    #expect(column.mode == .palette)
    #expect(Array(column) == rows)
    #expect(column.quarterHourCodes.count == 145)
    for slot in 0..<145 {
      let offset = Int32(slot - 72) * 900
      let code = column.values.firstIndex(of: offset).map { UInt16($0 + 1) } ?? 0
      #expect(column.quarterHourCodes[slot] == code, "offset \(offset)")
    }
    #expect(UTCOffsetColumn.quarterHourSlot(3601) == nil && UTCOffsetColumn.quarterHourSlot(65_700) == nil)
    #expect(UTCOffsetColumn.quarterHourSlot(UTCOffset.none) == nil)
  }

  @Test func aPaletteTurnsPlainAtItsTwoHundredFiftySeventhValue() {
    var column = UTCOffsetColumn((0..<100).map { Int32($0 % 2) })
    #expect(column.mode == .palette)
    for v in 2..<256 { column.append(Int32(v)) }
    #expect(column.mode == .palette)
    #expect(column.values.count == 256)
    column.append(256)
    #expect(column.mode == .plain)
    let expected: [Int32] = (0..<100).map { Int32($0 % 2) } + (2...256).map { Int32($0) }
    #expect(Array(column) == expected)
  }

  @Test func equalRowsAreEqualAndHashAlikeWhetherHeldAsRunsOrPlain() {
    let rows: [Int32] = (0..<40).map { Int32($0 % 2) } + Array(repeating: 5, count: 100)
    let plain = UTCOffsetColumn(rows)
    #expect(plain.mode == .palette)
    var runs = UTCOffsetColumn()
    // Built from the other end: the same rows, held as runs once the prefix is gone.
    runs.append(5, count: 100)
    #expect(runs.mode == .runs)
    var tail = plain
    tail.removeFirst(40)
    #expect(tail == runs)
    #expect(tail.hashValue == runs.hashValue)
    #expect(plain != runs)
  }

  @Test(arguments: [0.0, 0.01, 0.3, 1.0])
  func removingRowsFromEitherEndLeavesTheRestOfTheRows(change: Double) {
    for seed: UInt64 in 1...20 {
      // Three values, or 300 (a plain column when rows change often).
      let values: [Int32] = seed % 2 == 0 ? [0, 3600, -3600] : (0..<300).map { Int32($0) * 60 }
      let rows = offsets(200 + Int(seed) * 20, change: change, values: values, seed: seed)
      for k in [0, 1, 7, 50, 199, rows.count] {
        // The first k rows gone, the last k rows gone, and (as a split's window cuts a
        // person's visits) the last k and then some of the first.
        let low = Swift.min(k, rows.count - k) / 2
        let cases: [(cut: (inout UTCOffsetColumn) -> Void, rest: ArraySlice<Int32>)] = [
          ({ $0.removeFirst(k) }, rows.dropFirst(k)),
          ({ $0.removeLast(k) }, rows.dropLast(k)),
          ({ $0.removeLast(k); $0.removeFirst(low) }, rows.dropLast(k).dropFirst(low)),
        ]
        for (cut, rest) in cases {
          var column = UTCOffsetColumn(rows)
          cut(&column)
          #expect(Array(column) == Array(rest))
          #expect(column == UTCOffsetColumn(rest))
          column.append(42)
          #expect(Array(column) == Array(rest) + [42])
        }
      }
    }
  }

  @Test func appendingManyRowsOfOneValueIsOneRunOrPlainRows() {
    var column: UTCOffsetColumn = [1, 2]
    column.append(2, count: 3)
    column.append(UTCOffset.none, count: 0)
    #expect(Array(column) == [1, 2, 2, 2, 2])
    #expect(column.runCount == 2)
    var palette = UTCOffsetColumn((0..<64).map { Int32($0 % 2) })
    #expect(palette.mode == .palette)
    palette.append(9, count: 4)
    #expect(Array(palette.suffix(5)) == [1, 9, 9, 9, 9])
    #expect(palette.count == 68)
    var plain = UTCOffsetColumn((0..<600).map { Int32($0) })
    #expect(plain.mode == .plain)
    plain.append(9, count: 4)
    #expect(Array(plain.suffix(5)) == [599, 9, 9, 9, 9])
    #expect(plain.count == 604)
  }
}
