/// A column of rows' UTC offsets (`UTCOffset`: seconds east of UTC, or `UTCOffset.none`),
/// stored in the smallest of three ways the rows so far allow.
///
/// - **Runs** of equal values (8 bytes a run). A person's rows, and the rows of a log
///   written in one zone, change offset only at a daylight-saving change or a trip: a
///   month of one person's visits is one to three runs, not 4 bytes a row.
/// - **A palette**: the distinct values (at most 256) and one byte a row naming one. A
///   log of people in several zones, interleaved, changes offset nearly every row, but
///   has few distinct offsets.
/// - **Plain**: one `Int32` a row, once a 257th distinct value appears.
///
/// A column starts as runs. From 16 runs on, once the runs would take more room than a
/// palette (`8 * runs > count`), it becomes a palette; a palette becomes plain at its
/// 257th value. It never goes back. Whatever the storage, it is the same sequence:
/// equality and hashing are by elements.
///
/// **Invariants** (`mode`):
/// - `.runs`: `starts` ascends from 0, `starts.count == values.count`, run `k` covers rows
///   `starts[k]..<starts[k + 1]` (the last up to `count`), adjacent runs differ in value;
///   `codes` and `plain` empty.
/// - `.palette`: `values` distinct (at most 256), `codes.count == count`, row `i` is
///   `values[codes[i]]`; `quarterHourCodes` has 145 entries, entry `offset / 900 + 72` of
///   a whole quarter-hour offset within ±18 hours being 1 + its code, or 0 when it is not
///   in `values`; `starts` and `plain` empty.
/// - `.plain`: `plain.count == count`; `starts`, `values`, `codes` and `quarterHourCodes`
///   empty. (`.runs` too has no `quarterHourCodes`.)
///
/// Runs start at `Int32` row numbers: a column of runs holds at most `Int32.max` rows (a
/// person's rows or a reader's chunk; appending beyond traps rather than wrapping).
///
/// - Complexity: `append` O(1) amortised (a palette's: O(p) for p ≤ 256 values when the
///   value differs from the row before and is not a whole quarter hour within ±18 hours,
///   which every zone's offset is); `subscript` O(1) for one run, a palette or a
///   plain column, else O(log r) for r runs; iteration O(1) a row; building from a
///   sequence O(n).
public struct UTCOffsetColumn: RandomAccessCollection, Sendable, Hashable, ExpressibleByArrayLiteral {
  /// How the rows are held.
  enum Mode: UInt8, Sendable { case runs, palette, plain }

  var mode = Mode.runs
  /// The first row of each run (`.runs`).
  var starts: [Int32] = []
  /// The value of each run (`.runs`) or the palette (`.palette`).
  var values: [Int32] = []
  /// Each row's index into `values` (`.palette`).
  var codes: [UInt8] = []
  /// Every row's value (`.plain`).
  var plain: [Int32] = []
  /// A palette's codes of the quarter-hour offsets (`.palette`, see the invariants): a
  /// row of a log of people in several zones, interleaved, finds its code without a
  /// search of the palette (the search was most of appending to a visit chunk's column).
  var quarterHourCodes: [UInt16] = []
  /// Rows a reader said it would append (`reserveCapacity`), given to a palette's codes or
  /// a plain column when the column turns into one.
  var reservedRows = 0
  /// The number of rows.
  public private(set) var count = 0

  /// An empty column.
  public init() {}

  /// The column of `offsets`, in order.
  public init(_ offsets: some Sequence<Int32>) {
    for offset in offsets { append(offset) }
  }

  public init(arrayLiteral elements: Int32...) { self.init(elements) }

  public var startIndex: Int { 0 }
  public var endIndex: Int { count }

  /// The offset of row `i`. The replay reads it once a visit and once a donation when
  /// rows carry offsets; it is not `@inlinable`, as measured: made inlinable, it and the
  /// iterator's `next` saved nothing that eight alternating runs of the replay
  /// could tell apart, and as calls they are 0.07 % and 0.2 % of its samples.
  public subscript(i: Int) -> Int32 {
    precondition(i >= 0 && i < count, "UTCOffsetColumn index out of range")
    switch mode {
    case .plain: return plain[i]
    case .palette: return values[Int(codes[i])]
    case .runs:
      if values.count == 1 { return values[0] }
      // The last run starting at or before i: starts[low] <= i < starts[high].
      var low = 0
      var high = starts.count
      while high - low > 1 {
        let middle = (low + high) / 2
        if Int(starts[middle]) <= i { low = middle } else { high = middle }
      }
      return values[low]
    }
  }

  /// Walks the rows in order in O(1) a row (the subscript searches the runs).
  public struct Iterator: IteratorProtocol {
    let column: UTCOffsetColumn
    var row = 0
    /// The run holding `row` (`.runs`) and the row where the next run starts.
    var run = 0
    var nextStart = 0

    init(_ column: UTCOffsetColumn) {
      self.column = column
      nextStart = column.mode == .runs && column.starts.count > 1 ? Int(column.starts[1]) : Int.max
    }

    public mutating func next() -> Int32? {
      guard row < column.count else { return nil }
      defer { row += 1 }
      switch column.mode {
      case .plain: return column.plain[row]
      case .palette: return column.values[Int(column.codes[row])]
      case .runs:
        if row == nextStart {
          run += 1
          nextStart = run + 1 < column.starts.count ? Int(column.starts[run + 1]) : Int.max
        }
        return column.values[run]
      }
    }
  }

  public func makeIterator() -> Iterator { Iterator(self) }

  /// The number of runs of equal values. O(1) for runs, else O(n).
  public var runCount: Int { mode == .runs ? values.count : runs.count }

  /// Appends `offset` as the last row.
  public mutating func append(_ offset: Int32) {
    switch mode {
    case .plain:
      plain.append(offset)
    case .palette:
      appendToPalette(offset)
    case .runs:
      if values.last != offset {
        if values.count >= 16 && 8 * (values.count + 1) > count + 1 {
          turnIntoPalette()
          if mode == .palette { appendToPalette(offset) } else { plain.append(offset) }
        } else {
          starts.append(Int32(count))
          values.append(offset)
        }
      }
    }
    count += 1
  }

  /// Appends `n` rows of `offset`. - Complexity: O(1) as runs, else O(n).
  public mutating func append(_ offset: Int32, count n: Int) {
    guard n > 0 else { return }
    append(offset)
    switch mode {
    case .runs: break
    case .palette: codes.append(contentsOf: repeatElement(codes[codes.count - 1], count: n - 1))
    case .plain: plain.append(contentsOf: repeatElement(offset, count: n - 1))
    }
    count += n - 1
  }

  /// Says `rows` rows in all are coming: room for them is made when the column is, or
  /// turns into, a palette or a plain column (runs need none).
  public mutating func reserveCapacity(_ rows: Int) {
    reservedRows = Swift.max(reservedRows, rows)
    switch mode {
    case .runs: break
    case .palette: codes.reserveCapacity(rows)
    case .plain: plain.reserveCapacity(rows)
    }
  }

  /// Removes the first `k` rows. - Complexity: O(r) as runs, else O(n).
  public mutating func removeFirst(_ k: Int) {
    precondition(k >= 0 && k <= count, "UTCOffsetColumn.removeFirst beyond the end")
    guard k > 0 else { return }
    switch mode {
    case .plain: plain.removeFirst(k)
    case .palette: codes.removeFirst(k)
    case .runs:
      if k == count {
        (starts, values) = ([], [])
      } else {
        // The run holding row k becomes the first, starting at 0.
        var first = 0
        while first + 1 < starts.count && Int(starts[first + 1]) <= k { first += 1 }
        starts.removeFirst(first)
        values.removeFirst(first)
        starts[0] = 0
        for r in 1..<Swift.max(1, starts.count) { starts[r] -= Int32(k) }
      }
    }
    count -= k
  }

  /// Removes the last `k` rows. - Complexity: O(r) as runs, else O(k).
  public mutating func removeLast(_ k: Int) {
    precondition(k >= 0 && k <= count, "UTCOffsetColumn.removeLast beyond the start")
    guard k > 0 else { return }
    switch mode {
    case .plain: plain.removeLast(k)
    case .palette: codes.removeLast(k)
    case .runs:
      // The runs starting at or after the new end go.
      let end = count - k
      while let start = starts.last, Int(start) >= end {
        starts.removeLast()
        values.removeLast()
      }
    }
    count -= k
  }

  /// The column's runs in order: (value, rows), with equal neighbours merged.
  /// - Complexity: O(r) as runs, else O(n).
  public var runs: [(value: Int32, rows: Int)] {
    var result: [(value: Int32, rows: Int)] = []
    if mode == .runs {
      for k in values.indices {
        let end = k + 1 < starts.count ? Int(starts[k + 1]) : count
        result.append((values[k], end - Int(starts[k])))
      }
    } else {
      for v in self {
        if let last = result.last, last.value == v { result[result.count - 1].rows += 1 } else { result.append((v, 1)) }
      }
    }
    return result
  }

  /// Rows as a palette: the distinct run values, one code a row. O(n + r).
  private mutating func turnIntoPalette() {
    var palette: [Int32] = []
    var newCodes: [UInt8] = []
    newCodes.reserveCapacity(Swift.max(reservedRows, count))
    for (value, rows) in runs {
      let code = palette.firstIndex(of: value) ?? { palette.append(value); return palette.count - 1 }()
      guard code < 256 else { return turnPlain() }
      newCodes.append(contentsOf: repeatElement(UInt8(code), count: rows))
    }
    var quarterHours = [UInt16](repeating: 0, count: 145)
    for (code, value) in palette.enumerated() {
      if let slot = Self.quarterHourSlot(value) { quarterHours[slot] = UInt16(code + 1) }
    }
    (starts, values, codes, quarterHourCodes, mode) = ([], palette, newCodes, quarterHours, .palette)
  }

  /// Rows as one value each. O(n).
  private mutating func turnPlain() {
    var all: [Int32] = []
    all.reserveCapacity(Swift.max(reservedRows, count))
    all.append(contentsOf: self)
    (starts, values, codes, quarterHourCodes, plain, mode) = ([], [], [], [], all, .plain)
  }

  /// Appends a row to a palette, turning plain at a 257th value.
  private mutating func appendToPalette(_ offset: Int32) {
    if let last = codes.last, values[Int(last)] == offset {
      codes.append(last)
    } else if let code = paletteCode(offset) {
      codes.append(code)
    } else if values.count < 256 {
      values.append(offset)
      if let slot = Self.quarterHourSlot(offset) { quarterHourCodes[slot] = UInt16(values.count) }
      codes.append(UInt8(values.count - 1))
    } else {
      turnPlain()
      plain.append(offset)
    }
  }

  /// The palette's code of `offset`, or nil when it is not in the palette.
  private func paletteCode(_ offset: Int32) -> UInt8? {
    if let slot = Self.quarterHourSlot(offset) {
      let code = quarterHourCodes[slot]
      return code == 0 ? nil : UInt8(code - 1)
    }
    return values.firstIndex(of: offset).map { UInt8($0) }
  }

  /// `offset / 900 + 72` for a whole quarter-hour offset within ±18 hours, else nil.
  @inline(__always)
  static func quarterHourSlot(_ offset: Int32) -> Int? {
    guard offset % 900 == 0, offset >= -64_800, offset <= 64_800 else { return nil }
    return Int(offset / 900) + 72
  }

  public static func == (a: UTCOffsetColumn, b: UTCOffsetColumn) -> Bool {
    guard a.count == b.count else { return false }
    if a.mode == .runs && b.mode == .runs { return a.starts == b.starts && a.values == b.values }
    return a.elementsEqual(b)
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for run in runs {
      hasher.combine(run.value)
      hasher.combine(run.rows)
    }
  }
}
