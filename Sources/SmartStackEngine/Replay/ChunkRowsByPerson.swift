import SmartStackBase
import SmartStackData

/// One visit chunk's rows grouped by person, in a reused buffer: what `ReplayPlan`'s
/// spread appends to each person's visits a person at a time.
///
/// `group` is a counting sort of the chunk's rows by person: stable, so a person's rows
/// keep the chunk's (file) order. Rows of names that are no person of the plan
/// (`personOf` -1) are left out.
///
/// - Complexity: `group` is O(n + p) for a chunk of n rows and p people; memory, one chunk's
///   rows (times, offsets, row order) and two counts per person, reused chunk after chunk.
struct ChunkRowsByPerson {
  /// The grouped rows' times: person `i`'s are `times[rows(of: i)]`.
  private(set) var times: [Int64] = []
  /// The grouped rows' offsets (empty unless `group` was asked for them).
  private(set) var offsets: [Int32] = []
  /// The people with rows in the chunk, ascending.
  private(set) var people: [Int] = []
  /// `starts[i] ..< starts[i + 1]` are person `i`'s grouped rows (valid for `people`).
  private var starts: [Int]
  /// Rows counted per person, then each person's next free slot while scattering.
  private var next: [Int]

  init(people count: Int) {
    starts = [Int](repeating: 0, count: count + 1)
    next = [Int](repeating: 0, count: count)
  }

  /// Person `i`'s rows in `times` and `offsets`.
  func rows(of i: Int) -> Range<Int> { starts[i]..<starts[i + 1] }

  /// Groups `chunk`'s rows, replacing the last chunk's; `offsets` says whether to carry
  /// the rows' UTC offsets (`UTCOffset.none` for a chunk without any).
  mutating func group(_ chunk: VisitChunk, personOf: [Int32], offsets withOffsets: Bool) {
    for i in people { next[i] = 0 }
    people.removeAll(keepingCapacity: true)
    for id in chunk.userIDs {
      let i = Int(personOf[Int(id)])
      if i >= 0 { next[i] += 1 }
    }
    // Starts by person, over the people met (ascending, so the layout is the people's order).
    var total = 0
    for i in next.indices where next[i] > 0 {
      people.append(i)
      starts[i] = total
      total += next[i]
      starts[i + 1] = total
      next[i] = starts[i]
    }
    times.removeAll(keepingCapacity: true)
    times.append(contentsOf: repeatElement(0, count: total))
    offsets.removeAll(keepingCapacity: true)
    if withOffsets { offsets.append(contentsOf: repeatElement(UTCOffset.none, count: total)) }
    var chunkOffsets = chunk.utcOffsets.makeIterator()  // empty: every row's is none
    for (row, id) in chunk.userIDs.enumerated() {
      let offset = withOffsets ? chunkOffsets.next() ?? UTCOffset.none : UTCOffset.none
      let i = Int(personOf[Int(id)])
      guard i >= 0 else { continue }
      let slot = next[i]
      next[i] = slot + 1
      times[slot] = chunk.times[row]
      if withOffsets { offsets[slot] = offset }
    }
  }
}

/// A `ChunkRowsByPerson` that one task of the spread groups a chunk into
/// (`ParallelMap`): a box, so the task mutates it in place.
///
/// **Invariant:** within one `ParallelMap.map`, at most one task writes a box, and no task
/// reads a box another task writes; the spread reads the boxes only in the next map, after
/// the one that wrote them has returned.
final class GroupedVisitChunk {
  var rows: ChunkRowsByPerson

  init(people: Int) { rows = ChunkRowsByPerson(people: people) }
}

/// The visits (times, and offsets when the log has any) of a block of consecutive people
/// (`people`), as the spread builds them: one task of a `ParallelMap.map` appends to a
/// block, and no other task touches it (the invariant of `GroupedVisitChunk`).
final class VisitSpreadBlock {
  let people: Range<Int>
  /// Person `people.lowerBound + j`'s times are `times[j]`, reserved for all its rows.
  var times: [[Int64]]
  /// Likewise its offsets, as runs (they need no room reserved); empty without offsets.
  var offsets: [UTCOffsetColumn]

  /// A block of `people` with `rows[i]` rows for person `i`; `offsets` when the log has any.
  init(people: Range<Int>, rows: ArraySlice<Int>, offsets: Bool) {
    self.people = people
    times = rows.map { n -> [Int64] in
      var t: [Int64] = []
      t.reserveCapacity(n)
      return t
    }
    self.offsets = offsets ? [UTCOffsetColumn](repeating: [], count: people.count) : []
  }

  /// Appends the block's people's rows of `chunks`, chunk after chunk (file order).
  ///
  /// - Complexity: O(the block's rows in `chunks` + the people with rows in them).
  func append(_ chunks: ArraySlice<GroupedVisitChunk>) {
    for chunk in chunks {
      let grouped = chunk.rows
      // Read through buffers: a slice of the chunk's arrays per person retained and released
      // them, and with every core doing so their reference counts went from core to core.
      grouped.times.withUnsafeBufferPointer { groupedTimes in
        grouped.offsets.withUnsafeBufferPointer { groupedOffsets in
          for i in grouped.people where people.contains(i) {
            let rows = grouped.rows(of: i)
            let j = i - people.lowerBound
            times[j].append(contentsOf: UnsafeBufferPointer(rebasing: groupedTimes[rows]))
            guard !offsets.isEmpty else { continue }
            // As runs: a person's offsets within a chunk are nearly always one value.
            var r = rows.lowerBound
            while r < rows.upperBound {
              let value = groupedOffsets[r]
              var end = r + 1
              while end < rows.upperBound && groupedOffsets[end] == value { end += 1 }
              offsets[j].append(value, count: end - r)
              r = end
            }
          }
        }
      }
    }
  }
}
