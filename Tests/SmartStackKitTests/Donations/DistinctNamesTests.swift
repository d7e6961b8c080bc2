import Foundation
import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData

@Suite("DistinctNames counts exactly the distinct byte strings it was given")
struct DistinctNamesTests {
  /// A deterministic mix: empty, short ASCII, non-ASCII (precomposed and decomposed é, which
  /// are equal as `String`s but not as bytes, so the oracle is a set of byte arrays), names
  /// that differ only in their last byte, and long names (1 MiB, crossing 8 MiB chunks).
  private static func names(count: Int, seed: UInt64) -> [[UInt8]] {
    var state = seed
    func next(_ n: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(state >> 33) % n
    }
    let pieces: [[UInt8]] = [
      [], Array("a".utf8), Array("é".utf8), Array("e\u{301}".utf8), Array("日本".utf8),
      Array("user-".utf8), [0x00], [0xFF], Array("k".utf8),
    ]
    var out: [[UInt8]] = []
    for _ in 0..<count {
      var name: [UInt8] = []
      for _ in 0..<next(4) { name += pieces[next(pieces.count)] }
      if next(3) == 0 { name += Array(String(next(200)).utf8) }
      out.append(name)
    }
    return out
  }

  private static func check(_ names: [[UInt8]], hashMask: UInt64) {
    var set = DistinctNames(hashMask: hashMask)
    var oracle = Set<[UInt8]>()
    for name in names {
      let new = name.withUnsafeBufferPointer { set.insert($0) }
      #expect(new == oracle.insert(name).inserted)
    }
    #expect(set.count == oracle.count)
    for name in oracle { #expect(name.withUnsafeBufferPointer { set.contains($0) }) }
    let absent = Array("never-inserted-\u{1F600}".utf8)
    #expect(!absent.withUnsafeBufferPointer { set.contains($0) })
  }

  @Test(arguments: [UInt64.max, 0, 3])
  func matchesASetOfByteArrays(hashMask: UInt64) {
    // hashMask 0 and 3: every name hashes to one or four values, so every probe collides.
    let names = Self.names(count: hashMask == .max ? 20_000 : 2_000, seed: 7 &+ hashMask)
    Self.check(names, hashMask: hashMask)
  }

  @Test func emptyNameIsOneName() {
    var set = DistinctNames()
    let first = set.insert("")
    let again = set.insert("")
    let nul = set.insert("\u{0}")
    #expect(first && !again && nul)
    #expect(set.count == 2)
  }

  @Test func longNamesCrossChunksAndAnOversizedNameGetsItsOwnChunk() {
    // Nine names of 1 MiB fill more than one 8 MiB chunk; one of 9 MiB is bigger than a
    // chunk; names equal but for their last byte must stay distinct.
    var names: [[UInt8]] = []
    for i in 0..<9 {
      var name = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
      name[name.count - 1] = UInt8(i)
      names.append(name)
    }
    names.append([UInt8](repeating: UInt8(ascii: "y"), count: 9 << 20))
    names.append(Array("short".utf8))
    Self.check(names + names, hashMask: .max)
    Self.check(names, hashMask: 0)
    var set = DistinctNames()
    for name in names { _ = name.withUnsafeBufferPointer { set.insert($0) } }
    // 9 MiB of 1 MiB names in 8 MiB chunks: two chunks, then the 9 MiB one, then "short".
    #expect(set.arenaBytes >= 9 << 20 + 9 << 20)
    #expect(set.arenaBytes <= 4 * DistinctNames.chunkBytes + (9 << 20) + 16)
  }

  @Test func theTableStaysBetweenThreeEighthsAndThreeQuartersFull() {
    var set = DistinctNames()
    for i in 0..<100_000 {
      set.insert("u\(i)")
      #expect(set.count * 4 <= set.capacity * 3)
    }
    #expect(set.count * 8 >= set.capacity * 3)
  }
}
