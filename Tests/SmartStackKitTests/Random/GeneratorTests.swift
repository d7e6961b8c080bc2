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

/// Generators that make draws observable (shared by the Random test files).
enum RandomTesting {}

extension RandomTesting {
  /// Replays fixed outputs, to drive rejection paths by hand.
  struct Scripted: RandomNumberGenerator {
    var outputs: [UInt64]
    var position = 0
    init(_ outputs: [UInt64]) { self.outputs = outputs }
    mutating func next() -> UInt64 {
      defer { position += 1 }
      return outputs[position]
    }
  }

  /// Counts the 64-bit outputs a draw consumes.
  struct Counting: RandomNumberGenerator {
    var base: Xoshiro256StarStar
    var count = 0
    init(seed: UInt64) { base = Xoshiro256StarStar(seed: seed) }
    mutating func next() -> UInt64 {
      count += 1
      return base.next()
    }
  }
}

@Suite("Generators")
struct GeneratorTests {
  // Golden values below were checked against the reference C (gcc) and a Python port.

  @Test func splitMix64MatchesTheReferenceOutputs() {
    var zero = SplitMix64(seed: 0)
    #expect(
      (0..<3).map { _ in zero.next() }
        == [16_294_208_416_658_607_535, 7_960_286_522_194_355_700, 487_617_019_471_545_679])
    var fortyTwo = SplitMix64(seed: 42)
    #expect(
      (0..<5).map { _ in fortyTwo.next() } == [
        13_679_457_532_755_275_413, 2_949_826_092_126_892_291, 5_139_283_748_462_763_858,
        6_349_198_060_258_255_764, 701_532_786_141_963_250,
      ])
  }

  @Test func xoshiroWithSeed42MatchesTheReferenceC() {
    var g = Xoshiro256StarStar(seed: 42)
    #expect(
      (0..<5).map { _ in g.next() } == [
        1_546_998_764_402_558_742, 6_990_951_692_964_543_102, 12_544_586_762_248_559_009,
        17_057_574_109_182_124_193, 18_295_552_978_065_317_476,
      ])
  }

  @Test func jumpAndLongJumpMatchTheReferenceC() {
    var jumped = Xoshiro256StarStar(seed: 42)
    jumped.jump()
    #expect(
      (0..<3).map { _ in jumped.next() }
        == [5_766_981_335_298_035_530, 13_414_075_677_763_163_907, 6_818_771_422_820_058_410])
    var longJumped = Xoshiro256StarStar(seed: 42)
    longJumped.longJump()
    #expect(
      (0..<3).map { _ in longJumped.next() }
        == [11_575_600_654_643_926_073, 12_220_922_501_490_792_721, 16_399_520_464_761_058_929])
  }

  @Test func allZeroStateIsReplacedBySeedZero() {
    let zero = Xoshiro256StarStar(state: (0, 0, 0, 0))
    #expect(zero == Xoshiro256StarStar(seed: 0))
    #expect(zero.state != (0, 0, 0, 0))
  }

  @Test func sameSeedGivesSameSequenceAndCopiesAreIndependent() {
    var a = Xoshiro256StarStar(seed: 7)
    var b = Xoshiro256StarStar(seed: 7)
    var c = Xoshiro256StarStar(seed: 8)
    let sa = (0..<100).map { _ in a.next() }
    var copy = a
    _ = copy.next()
    #expect(sa == (0..<100).map { _ in b.next() })
    #expect(sa != (0..<100).map { _ in c.next() })
    #expect(a.next() == b.next(), "advancing a copy must not move the original")
  }

  @Test func nextUnitWithSeed42IsFrozen() {
    var g = Xoshiro256StarStar(seed: 42)
    #expect(
      (0..<5).map { _ in g.nextUnit() } == [
        0.08386297105988216, 0.3789802506626686, 0.6800434110281394, 0.9246929453253876,
        0.9918039142821028,
      ])
  }

  @Test func nextIntWithSeed42IsFrozen() {
    var g = Xoshiro256StarStar(seed: 42)
    #expect((0..<10).map { _ in g.nextInt(below: 10) } == [0, 3, 6, 9, 9, 7, 7, 8, 7, 5])
    var h = Xoshiro256StarStar(seed: 42)
    #expect(
      (0..<5).map { _ in h.nextInt(below: 1_000_000_007) }
        == [83_862_971, 378_980_253, 680_043_415, 924_692_951, 991_803_921])
  }

  @Test func nextUnitStaysInTheHalfOpenUnitInterval() {
    #expect(RandomTesting.Scripted([0]).nextUnitFirst() == 0)
    #expect(RandomTesting.Scripted([.max]).nextUnitFirst() == 1 - 0x1p-53)
    var g = Xoshiro256StarStar(seed: 1)
    for _ in 0..<10_000 {
      let u = g.nextUnit()
      #expect(u >= 0 && u < 1)
    }
  }

  @Test func lemireRejectsTheBiasedLowWords() {
    // bound 3: 2^64 mod 3 == 1, so an output whose product has low word 0 is rejected.
    // 0 * 3 has low word 0 (rejected); 2^63 * 3 = 2^64 + 2^63 gives high 1, low 2^63.
    var g = RandomTesting.Scripted([0, 1 << 63])
    #expect(g.nextInt(below: 3) == 1)
    #expect(g.position == 2)
    // A power-of-two bound never rejects: 2^64 mod 4 == 0.
    var h = RandomTesting.Scripted([0, 5])
    #expect(h.nextInt(below: 4) == 0)
    #expect(h.position == 1)
  }

  @Test func nextIntInClosedRangeCoversNegativeAndFullRanges() {
    var full = RandomTesting.Scripted([.max])
    #expect(full.nextInt(in: Int.min...Int.max) == -1)
    #expect(full.position == 1)
    var single = RandomTesting.Scripted([123])
    #expect(single.nextInt(in: Int.min...Int.min) == Int.min)
    var g = Xoshiro256StarStar(seed: 3)
    var seen = Set<Int>()
    for _ in 0..<2_000 {
      let value = g.nextInt(in: -3...2)
      #expect((-3...2).contains(value))
      seen.insert(value)
      let wide = g.nextInt(in: (Int.max - 5)...Int.max)
      #expect(wide >= Int.max - 5)
      let half = g.nextInt(in: 10..<12)
      #expect(half == 10 || half == 11)
    }
    #expect(seen == Set(-3...2))
  }

  @Test func nextIntBelowTenIsUniformByChiSquare() {
    var g = Xoshiro256StarStar(seed: 2026)
    var counts = [Int](repeating: 0, count: 10)
    let draws = 100_000
    for _ in 0..<draws { counts[g.nextInt(below: 10)] += 1 }
    let expected = Double(draws) / 10
    let chiSquare = counts.reduce(0.0) {
      $0 + (Double($1) - expected) * (Double($1) - expected) / expected
    }
    // 9 degrees of freedom: P(chi² > 33.7) = 0.0001.
    #expect(chiSquare < 33.7, "counts \(counts), chi² \(chiSquare)")
  }

  @Test func nextBoolHonoursItsProbabilityAndAlwaysDrawsOnce() {
    var g = RandomTesting.Counting(seed: 5)
    var trues = 0
    for _ in 0..<1_000 {
      let never = g.nextBool(probability: 0)
      let always = g.nextBool(probability: 1)
      let negative = g.nextBool(probability: -.infinity)
      let nan = g.nextBool(probability: .nan)
      #expect(!never && always && !negative && !nan)
    }
    #expect(g.count == 4_000)
    for _ in 0..<20_000 where g.nextBool(probability: 0.3) { trues += 1 }
    #expect(abs(Double(trues) / 20_000 - 0.3) < 0.015, "frequency \(trues)")
  }

  @Test func nextDoubleInRangeStaysInside() {
    var g = Xoshiro256StarStar(seed: 9)
    for _ in 0..<5_000 {
      let x = g.nextDouble(in: -2.5..<7.0)
      #expect(x >= -2.5 && x < 7.0)
    }
  }
}

extension RandomTesting.Scripted {
  fileprivate func nextUnitFirst() -> Double {
    var copy = self
    return copy.nextUnit()
  }
}
