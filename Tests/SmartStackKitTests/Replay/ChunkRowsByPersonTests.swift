import Testing

@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine

/// A visit chunk's rows grouped by person (`ChunkRowsByPerson`, the plan's spread): each
/// person's rows in the chunk's order, rows of names that are no person left out, the
/// buffer reused from chunk to chunk.
@Suite("A visit chunk's rows grouped by person")
struct ChunkRowsByPersonTests {
  /// Person `i`'s (times, offsets) in the grouping.
  static func rows(_ g: ChunkRowsByPerson, _ i: Int) -> [(Int64, Int32)] {
    let r = g.rows(of: i)
    return r.map { (g.times[$0], g.offsets.isEmpty ? UTCOffset.none : g.offsets[$0]) }
  }

  @Test func groupsStablyAndLeavesOutNamesThatAreNoPerson() {
    // Names 0...3; name 2 is no person of the plan; people 0, 1, 2 (name 3 is person 0).
    let personOf: [Int32] = [1, 2, -1, 0]
    let chunk = VisitChunk(
      userIDs: [0, 1, 2, 0, 3, 1, 0, 2], times: [10, 11, 12, 13, 14, 15, 16, 17],
      utcOffsets: [3600, 0, 7, 3600, -18_000, 0, 7200, 7])
    var g = ChunkRowsByPerson(people: 3)
    g.group(chunk, personOf: personOf, offsets: true)
    #expect(g.people == [0, 1, 2])
    #expect(Self.rows(g, 0).map(\.0) == [14])
    #expect(Self.rows(g, 1).map(\.0) == [10, 13, 16])
    #expect(Self.rows(g, 1).map(\.1) == [3600, 3600, 7200])
    #expect(Self.rows(g, 2).map(\.0) == [11, 15])
    #expect(g.times.count == 6, "the two rows of name 2 are left out")

    // The next chunk replaces it: a person with rows before and none now is not listed.
    let next = VisitChunk(userIDs: [1, 1], times: [20, 21], utcOffsets: [])
    g.group(next, personOf: personOf, offsets: true)
    #expect(g.people == [2])
    #expect(Self.rows(g, 2).map(\.0) == [20, 21])
    #expect(Self.rows(g, 2).map(\.1) == [UTCOffset.none, UTCOffset.none], "a chunk without offsets: none")
    g.group(next, personOf: personOf, offsets: false)
    #expect(g.offsets.isEmpty)
  }

  /// Property: over random chunks, grouping then reading the people in order gives, for
  /// each person, the filter of the chunk's rows by that person.
  @Test func groupingIsTheFilterByPerson() {
    var rng = SplitMix64(seed: 11)
    var g = ChunkRowsByPerson(people: 7)
    for _ in 0..<200 {
      let names = 1 + rng.nextInt(below: 9)
      let personOf = (0..<names).map { _ in Int32(rng.nextInt(below: 8)) - 1 }  // -1...6
      let n = rng.nextInt(below: 60)
      let ids = (0..<n).map { _ in Int32(rng.nextInt(below: names)) }
      let times = (0..<n).map { _ in Int64(rng.nextInt(below: 1000)) }
      let offsets = (0..<n).map { _ in Int32(rng.nextInt(below: 3)) * 3600 }
      g.group(VisitChunk(userIDs: ids, times: times, utcOffsets: UTCOffsetColumn(offsets)), personOf: personOf, offsets: true)
      for person in 0..<7 {
        let expected = ids.indices.filter { personOf[Int(ids[$0])] == person }
        #expect(g.people.contains(person) == !expected.isEmpty)
        guard !expected.isEmpty else { continue }
        #expect(Self.rows(g, person).map(\.0) == expected.map { times[$0] })
        #expect(Self.rows(g, person).map(\.1) == expected.map { offsets[$0] })
      }
    }
  }
}
