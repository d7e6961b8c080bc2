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

  /// The word-at-a-time comparison of short names agrees with comparing the bytes, for
  /// every length up to 40 and a difference at every position.
  @Test func sameBytesAgreesWithComparingEveryByte() {
    var rng = SplitMix64(seed: 31)
    for count in 0...40 {
      let a = (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
      for position in -1..<count {
        var b = a
        if position >= 0 { b[position] &+= 1 + UInt8(rng.nextInt(below: 255)) }
        let same = a.withUnsafeBytes { x in
          b.withUnsafeBytes { y in
            count == 0 ? true : Interner.sameBytes(x.baseAddress!, y.baseAddress!, count: count)
          }
        }
        #expect(same == (a == b), "length \(count), difference at \(position)")
      }
    }
    // Names of one length that differ only in their middle or last byte stay apart.
    var names = Interner()
    for i in 0..<300 { #expect(names.intern("person-\(String(1000 + i))") == Int32(i)) }
    for i in 0..<300 { #expect(names.id(of: "person-\(String(1000 + i))") == Int32(i)) }
  }

  @Test func equalityComparesNamesInOrder() {
    #expect(Interner(["a", "b", "a"]) == Interner(["a", "b"]))
    #expect(Interner(["a", "b"]) != Interner(["b", "a"]))
  }
}
