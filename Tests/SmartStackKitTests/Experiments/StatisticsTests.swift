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

@Suite("Wilcoxon signed-rank test")
struct WilcoxonTests {
  /// Expected values from SciPy 1.17.1:
  /// `scipy.stats.wilcoxon(d, zero_method="wilcox", correction=False, method=M).pvalue`.
  @Test func exactPValueMatchesSciPyWithoutTies() throws {
    let r = try #require(WilcoxonSignedRank.test([1.5, -0.5, 2.0, 3.0, -1.0, 4.5, 0.25]))
    #expect(r.exact)
    #expect(r.n == 7)
    // Ranks by |d|: 0.25→1, -0.5→2, -1→3, 1.5→4, 2→5, 3→6, 4.5→7; W+ = 1+4+5+6+7 = 23.
    #expect(r.positiveRankSum == 23)
    #expect(abs(r.pValue - 0.15625) < 1e-12)
  }

  @Test func zerosAreDroppedBeforeRanking() throws {
    let r = try #require(WilcoxonSignedRank.test([0, 1, -2, 3, 4, 0, 5, -6, 7]))
    #expect(r.n == 7)
    #expect(r.exact)
    #expect(abs(r.pValue - 0.375) < 1e-12)
  }

  @Test func allPositiveExactPValueIsTwoOverTwoToTheN() throws {
    let r = try #require(WilcoxonSignedRank.test([1, 2, 3, 4, 5, 6, 7, 8]))
    #expect(r.pValue == 2.0 / 256)
  }

  @Test func tiesUseTheNormalApproximationWithTieCorrection() throws {
    let r = try #require(WilcoxonSignedRank.test([1, 1, -1, 2, 2, -2, 3, 3, 3, -0.5, 4, 4]))
    #expect(!r.exact)
    #expect(abs(r.pValue - 0.022230404776220177) < 1e-12)
  }

  @Test func largeSamplesUseTheNormalApproximation() throws {
    let d: [Double] = (0..<60).map { (i: Int) -> Double in Double((i * 37) % 23 - 9) / 7 }
    let r = try #require(WilcoxonSignedRank.test(d))
    #expect(!r.exact)
    #expect(abs(r.pValue - 0.04353205576279501) < 1e-12)
  }

  @Test func noNonzeroDifferenceHasNoTest() {
    #expect(WilcoxonSignedRank.test([]) == nil)
    #expect(WilcoxonSignedRank.test([0, 0, 0]) == nil)
  }

  /// The exact null distribution is symmetric, so flipping every sign keeps p.
  @Test func flippingSignsKeepsThePValue() throws {
    for seed in 0..<50 as Range<UInt64> {
      var g = SplitMix64(seed: seed)
      let n = 1 + g.nextInt(below: 30)
      let d = (0..<n).map { _ in Double(g.nextInt(below: 1000)) / 10 - 50 }
      let a = WilcoxonSignedRank.test(d)
      let b = WilcoxonSignedRank.test(d.map { -$0 })
      #expect(a?.pValue == b?.pValue, "seed \(seed)")
      if let p = a?.pValue { #expect(p > 0 && p <= 1, "seed \(seed)") }
    }
  }
}

@Suite("Bootstrap intervals")
struct BootstrapTests {
  @Test func quantileInterpolatesLikeNumPy() {
    let sorted = [1.0, 2, 3, 4, 10]
    // numpy.quantile([1,2,3,4,10], [0, 0.25, 0.5, 0.9, 1]) = 1, 2, 3, 7.6, 10
    #expect(Bootstrap.quantile(sorted: sorted, 0) == 1)
    #expect(Bootstrap.quantile(sorted: sorted, 0.25) == 2)
    #expect(Bootstrap.quantile(sorted: sorted, 0.5) == 3)
    #expect(abs(Bootstrap.quantile(sorted: sorted, 0.9) - 7.6) < 1e-12)
    #expect(Bootstrap.quantile(sorted: sorted, 1) == 10)
  }

  @Test func oneValueGivesAPointAndNoValueGivesNothing() {
    var g = SplitMix64(seed: 1)
    #expect(Bootstrap.meanInterval([0.25], using: &g)! == (0.25, 0.25))
    #expect(Bootstrap.meanInterval([], using: &g) == nil)
  }

  @Test func equalValuesGiveAZeroWidthInterval() throws {
    var g = SplitMix64(seed: 3)
    let i = try #require(Bootstrap.meanInterval([2, 2, 2, 2], using: &g))
    #expect(i.low == 2 && i.high == 2)
  }

  @Test func intervalContainsTheMeanAndIsDeterministic() throws {
    for seed in 0..<40 as Range<UInt64> {
      var data = SplitMix64(seed: seed)
      let n = 2 + data.nextInt(below: 40)
      let values = (0..<n).map { _ in data.nextUnit() * data.nextUnit() * 10 }
      let key = "summary|s|mfu|hit_rate"
      var g1 = Bootstrap.generator(masterSeed: seed, rowKey: key)
      var g2 = Bootstrap.generator(masterSeed: seed, rowKey: key)
      let a = try #require(Bootstrap.meanInterval(values, resamples: 500, using: &g1))
      let b = try #require(Bootstrap.meanInterval(values, resamples: 500, using: &g2))
      let mean = Bootstrap.mean(values)
      #expect(a.low == b.low && a.high == b.high, "seed \(seed)")
      #expect(a.low <= mean && mean <= a.high, "seed \(seed): \(a) vs mean \(mean)")
      #expect(a.low >= values.min()! && a.high <= values.max()!, "seed \(seed)")
    }
  }

  /// The batch's generator takes a concrete overload (its body specialised for speed in
  /// debug builds); any other caller the generic one. Both draw the same indices in the
  /// same order, so they give the same interval, bit for bit.
  @Test func theBatchsGeneratorGivesTheIntervalOfTheGenericBody() throws {
    func throughGeneric<G: RandomNumberGenerator>(_ values: [Double], _ g: inout G) -> (low: Double, high: Double)? {
      Bootstrap.meanInterval(values, resamples: 300, using: &g)
    }
    for seed in 0..<20 as Range<UInt64> {
      var data = SplitMix64(seed: seed)
      let values: [Double] = (0..<(1 + data.nextInt(below: 30))).map { _ in data.nextUnit() }
      var concrete = Bootstrap.generator(masterSeed: seed, rowKey: "k")
      var generic = Bootstrap.generator(masterSeed: seed, rowKey: "k")
      let a = try #require(Bootstrap.meanInterval(values, resamples: 300, using: &concrete))
      let b = try #require(throughGeneric(values, &generic))
      #expect(a.low.bitPattern == b.low.bitPattern && a.high.bitPattern == b.high.bitPattern, "seed \(seed)")
      #expect(concrete.next() == generic.next(), "seed \(seed): both drew as many numbers")
    }
  }

  @Test func rowKeysGiveDifferentStreams() {
    var a = Bootstrap.generator(masterSeed: 1, rowKey: "summary|s|mfu|hit_rate")
    var b = Bootstrap.generator(masterSeed: 1, rowKey: "summary|s|mfu|mrr")
    var c = Bootstrap.generator(masterSeed: 2, rowKey: "summary|s|mfu|hit_rate")
    let x = a.next()
    #expect(x != b.next())
    #expect(x != c.next())
  }

  /// A 95% interval from 2000 resamples of a sample of 200 standard-uniform-like values
  /// is about ±1.96·σ/√n = ±0.04 around the mean.
  @Test func widthIsAboutTheNormalTheory() throws {
    var data = SplitMix64(seed: 11)
    let values = (0..<200).map { _ in data.nextUnit() }
    var g = Bootstrap.generator(masterSeed: 1, rowKey: "k")
    let i = try #require(Bootstrap.meanInterval(values, using: &g))
    let width = i.high - i.low
    let expected = 2 * 1.96 * (1.0 / 12).squareRoot() / 200.0.squareRoot()
    #expect(abs(width - expected) < 0.25 * expected, "width \(width), normal theory \(expected)")
  }
}
