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

  /// The hash spreads names into the low bits the table's mask keeps: 4,096 names of each
  /// family fill at least 60 % of the 4,096 values of the hash's low 12 bits (a random
  /// function fills 1 - 1/e, about 63.2 %, give or take 0.5 %). The families are those
  /// logs hold and those that stress a multiplicative hash: numbered users, zero-padded
  /// numbers of 13 bytes, numbers of 1...4 digits, one byte changed at each position of a
  /// 16-byte name, random bytes of every length 1...16, and names longer than 16 bytes.
  @Test func theHashSpreadsNamesOverTheTablesLowBits() {
    var rng = SplitMix64(seed: 12)
    let base16 = Array("ViewRecentOrders".utf8)
    let families: [(String, (Int) -> [UInt8])] = [
      ("user-i", { Array("user-\($0)".utf8) }),
      ("13-byte zero-padded", { Array(("u" + String(repeating: "0", count: 12 - String($0).count) + String($0)).utf8) }),
      ("digits", { Array(String($0).utf8) }),
      ("one byte apart", { i in var b = base16; b[i % 16] = UInt8(i / 16); return b }),
      ("random 1...16", { _ in (0..<(1 + rng.nextInt(below: 16))).map { _ in UInt8(truncatingIfNeeded: rng.next()) } }),
      ("longer than 16", { Array("a-much-longer-user-name-\($0)".utf8) }),
    ]
    for (family, name) in families {
      var seen = Set<UInt64>()
      var names = Set<[UInt8]>()
      for i in 0..<4096 {
        let bytes = name(i)
        guard names.insert(bytes).inserted else { continue }
        seen.insert(bytes.withUnsafeBufferPointer { Interner.hash($0) } & 4095)
      }
      #expect(names.count >= 4000, "\(family): \(names.count) distinct names")
      #expect(Double(seen.count) >= 0.60 * Double(names.count), "\(family): \(seen.count) of \(names.count)")
    }
  }

  /// Remapping renumbers only the ids from `start` on, keeps negative ids (none), and
  /// leaves the ids alone under the identity map.
  @Test func remapRenumbersFromStartAndKeepsNone() {
    var ids: [Int32] = [0, 1, 2, -1, 0, 2]
    Interner.remap(&ids, from: 2, through: [5, 3, 4])
    #expect(ids == [0, 1, 4, -1, 5, 4])
    var same: [Int32] = [2, 0, -1, 1]
    Interner.remap(&same, through: [0, 1, 2])
    #expect(same == [2, 0, -1, 1])
    var empty: [Int32] = []
    Interner.remap(&empty, through: [1, 0])
    #expect(empty.isEmpty)
  }

  @Test func equalityComparesNamesInOrder() {
    #expect(Interner(["a", "b", "a"]) == Interner(["a", "b"]))
    #expect(Interner(["a", "b"]) != Interner(["b", "a"]))
  }
}
