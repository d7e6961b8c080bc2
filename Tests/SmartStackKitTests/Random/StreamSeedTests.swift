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

@Suite("Stream seeds")
struct StreamSeedTests {
  @Test func deriveWithoutComponentsIsTheMasterItself() {
    #expect(StreamSeed.derive(42) == 42)
    #expect(StreamSeed.derive(42, components: []) == 42)
  }

  @Test func oneComponentIsTheFirstSplitMix64OutputOfMasterXorScaledComponent() {
    for seed: UInt64 in [0, 1, 42, .max] {
      for component: UInt64 in [0, 1, 7, 1 << 40] {
        var expected = SplitMix64(seed: seed ^ (component &* 0x9E37_79B9_7F4A_7C15))
        #expect(
          StreamSeed.derive(seed, component) == expected.next(), "seed \(seed) c \(component)")
      }
    }
  }

  @Test func derivedSeedsAreFrozen() {
    // Checked against a Python port of the definition.
    #expect(StreamSeed.derive(42, 7) == 14_680_896_716_286_437_513)
    #expect(StreamSeed.derive(42, 1, 2) == 4_218_524_931_126_233_700)
    #expect(StreamSeed.derive(42, 2, 1) == 11_610_633_142_291_055_988)
  }

  @Test func orderAndNumberOfComponentsMatter() {
    var rng = SplitMix64(seed: 99)
    for _ in 0..<500 {
      let master = rng.next()
      let a = rng.next()
      let b = rng.next()
      if a == b { continue }
      #expect(
        StreamSeed.derive(master, a, b) != StreamSeed.derive(master, b, a), "master \(master)")
      #expect(StreamSeed.derive(master, a) != StreamSeed.derive(master, a, 0), "master \(master)")
    }
    #expect(StreamSeed.derive(5, 0) != StreamSeed.derive(5))
    #expect(StreamSeed.derive(5, 0, 0) != StreamSeed.derive(5, 0))
  }

  @Test func everyComponentAndEveryMasterGivesADifferentSeed() {
    let byComponent = Set((0..<10_000 as Range<UInt64>).map { StreamSeed.derive(42, $0) })
    #expect(byComponent.count == 10_000)
    let byMaster = Set((0..<10_000 as Range<UInt64>).map { StreamSeed.derive($0, 3) })
    #expect(byMaster.count == 10_000)
    let pairs = Set(
      (0..<100 as Range<UInt64>).flatMap { r in
        (0..<100 as Range<UInt64>).map { u in StreamSeed.derive(42, r, u) }
      })
    #expect(pairs.count == 10_000)
  }

  @Test func generatorIsXoshiroSeededWithTheDerivedSeed() {
    var a = StreamSeed.generator(42, 3, 4)
    var b = Xoshiro256StarStar(seed: StreamSeed.derive(42, 3, 4))
    var c = StreamSeed.generator(42, components: [3, 4])
    for _ in 0..<10 {
      let x = a.next()
      #expect(x == b.next())
      #expect(x == c.next())
    }
  }

  @Test func stableHashIsFNV1a64OverUTF8() {
    #expect(StreamSeed.stableHash("") == 0xCBF2_9CE4_8422_2325)
    #expect(StreamSeed.stableHash("a") == 0xAF63_DC4C_8601_EC8C)
    #expect(StreamSeed.stableHash("foobar") == 0x8594_4171_F739_67E8)
    #expect(StreamSeed.stableHash("recency") == 15_896_911_882_523_372_762)
    #expect(StreamSeed.stableHash("é") == 775_207_407_765_167_617)
    #expect(StreamSeed.stableHash("Grüße 🎉") == 9_689_178_043_323_804_312)
    // Canonically equivalent strings with different scalars hash differently: bytes count.
    #expect(StreamSeed.stableHash("\u{E9}") != StreamSeed.stableHash("e\u{301}"))
  }
}
