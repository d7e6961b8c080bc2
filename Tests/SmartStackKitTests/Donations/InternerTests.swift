import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

@Suite("Interner")
struct InternerTests {
  @Test func idsAreDenseAndInFirstAppearanceOrder() {
    var names = Interner()
    let ids = ["kiwi", "apple", "kiwi", "fig", "apple", "", "fig"].map { names.intern($0) }
    #expect(ids == [0, 1, 0, 2, 1, 3, 2])
    #expect(names.names == ["kiwi", "apple", "fig", ""])
    #expect(names.count == 4)
    #expect(names[2] == "fig")
  }

  @Test func internFromBytesAgreesWithInternFromString() {
    var names = Interner()
    let bytes = Array("café".utf8)
    let a = bytes.withUnsafeBufferPointer { names.intern($0) }
    #expect(names.intern("café") == a)
    #expect(names.id(of: "café") == a)
    #expect(names.id(of: "cafe") == nil)
    #expect(bytes.withUnsafeBufferPointer { names.id(of: $0) } == a)
  }

  @Test func manyNamesSurviveTableGrowth() {
    var names = Interner()
    for i in 0..<5000 { #expect(names.intern("name-\(i)") == Int32(i)) }
    for i in stride(from: 4999, through: 0, by: -7) {
      #expect(names.id(of: "name-\(i)") == Int32(i))
    }
    // Prefixes and lengths that share 8-byte words must not collide into one id.
    let long = (0..<40).map { String(repeating: "a", count: $0) }
    var lengths = Interner()
    for (i, s) in long.enumerated() { #expect(lengths.intern(s) == Int32(i)) }
    #expect(lengths.count == 40)
  }

  /// Names of every length up to 40 (kept in the table's slots up to 16 bytes, compared in
  /// the arena beyond) that differ from one another in one byte, at every position, get
  /// ids of their own, and each is found again.
  @Test func namesThatDifferInOneByteStayApart() {
    var rng = SplitMix64(seed: 31)
    var names = Interner()
    var all: [[UInt8]] = []
    for count in 0...40 {
      let a = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
      all.append(a)
      for position in 0..<count {
        var b = a
        b[position] &+= 1 + UInt8(rng.nextInt(below: 255))
        all.append(b)
      }
    }
    for (i, name) in all.enumerated() {
      #expect(name.withUnsafeBufferPointer { names.intern($0) } == Int32(i), "name \(i) of length \(name.count)")
    }
    for (i, name) in all.enumerated() {
      #expect(name.withUnsafeBufferPointer { names.id(of: $0) } == Int32(i))
    }
    #expect(names.count == all.count)
    // Names of one length that differ only in their middle or last byte stay apart.
    var people = Interner()
    for i in 0..<300 { #expect(people.intern("person-\(String(1000 + i))") == Int32(i)) }
    for i in 0..<300 { #expect(people.id(of: "person-\(String(1000 + i))") == Int32(i)) }
    #expect(people.id(of: "person-0999") == nil)
  }

  /// The hash of a name of at most 16 bytes made from its key is the hash of its bytes,
  /// for every length 0...16 (one of them read from the middle of a larger buffer, so
  /// unaligned), so a short name hashes the same whichever way it is looked up.
  @Test func aShortNamesHashFromItsKeyIsItsBytesHash() {
    var rng = SplitMix64(seed: 16)
    for count in 0...16 {
      for _ in 0..<200 {
        let buffer = (0..<(count + 3)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        buffer.withUnsafeBufferPointer { all in
          let name = UnsafeBufferPointer(rebasing: all[3..<(3 + count)])
          let expected = Interner.hash(name)
          let fromKey = Interner.hash(Interner.Key(name), count: count)
          if fromKey != expected { Issue.record("\(Array(name)): \(fromKey), expected \(expected)") }
        }
      }
    }
  }

  @Test func equalityComparesNamesInOrder() {
    #expect(Interner(["a", "b", "a"]) == Interner(["a", "b"]))
    #expect(Interner(["a", "b"]) != Interner(["b", "a"]))
  }
}
