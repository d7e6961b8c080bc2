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
