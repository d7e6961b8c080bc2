import Testing

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
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

  @Test func equalityComparesNamesInOrder() {
    #expect(Interner(["a", "b", "a"]) == Interner(["a", "b"]))
    #expect(Interner(["a", "b"]) != Interner(["b", "a"]))
  }

  @Test func invalidUTF8GetsTheIdOfItsRepairedTextEveryTime() {
    var names = Interner()
    let bad: [UInt8] = [0x61, 0xFF, 0x62]  // "a", an invalid byte, "b"
    let first = bad.withUnsafeBufferPointer { names.intern($0) }
    let again = bad.withUnsafeBufferPointer { names.intern($0) }
    #expect(first == again)
    #expect(names.count == 1)
    #expect(names[first] == "a\u{FFFD}b")
    #expect(names.intern("a\u{FFFD}b") == first)
  }

  @Test func longNamesAreFoundByTheirBytes() {
    // Names above 15 bytes live on the heap, the rest inline in the `String`; both are
    // compared through their UTF-8 storage.
    var names = Interner()
    let long = String(repeating: "user-é-", count: 1000)
    let id = names.intern(long)
    #expect(names.intern("short") == id + 1)
    let bytes = Array(long.utf8)
    #expect(bytes.withUnsafeBufferPointer { names.intern($0) } == id)
    var almost = bytes
    almost[almost.count - 1] = UInt8(ascii: "x")
    #expect(almost.withUnsafeBufferPointer { names.id(of: $0) } == nil)
    #expect(names[id] == long)
  }

  @Test func appendNewSharesTheNameAndIsFoundLikeAnInternedOne() {
    var names = Interner(["b"])
    let long = String(repeating: "x", count: 100)
    #expect(names.appendNew(long) == 1)
    #expect(names.appendNew("a") == 2)
    #expect(names.intern(long) == 1)
    #expect(names.id(of: "a") == 2)
    #expect(names == Interner(["b", long, "a"]))
  }
}
