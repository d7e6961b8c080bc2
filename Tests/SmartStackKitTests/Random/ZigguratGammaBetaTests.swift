import Foundation
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

@Suite("Ziggurat gamma and beta")
struct ZigguratGammaBetaTests {
  let normal = ZigguratNormal()
  let count = 100_000

  @Test func gammaShapePrecomputesMarsagliaTsangConstants() {
    let two = GammaShape(2)
    #expect(two.d == 2 - 1.0 / 3.0 && two.c == 1 / (9 * two.d).squareRoot() && !two.isBoosted)
    let small = GammaShape(0.25)
    #expect(small.isBoosted && small.inverseShape == 4 && small.d == 1.25 - 1.0 / 3.0)
    #expect(GammaShape(1).isBoosted == false)
  }

  /// Mean `k` within 5 standard errors, variance `k` within 5 of its standard errors
  /// (`k sqrt((2 + 6/k) / n)`, from the fourth cumulant `6k`); positive, finite.
  @Test(arguments: [1.0, 1.5, 2.0, 5.0, 30.0, 0.3])
  func gammaHasMeanAndVarianceShape(shape: Double) {
    var g = Xoshiro256StarStar(seed: 21)
    let gs = GammaShape(shape)
    let sample = (0..<count).map { _ in normal.gamma(gs, using: &g) }
    #expect(sample.allSatisfy { $0 >= 0 && $0.isFinite })
    let m = RandomTesting.Moments(sample)
    let n = Double(count)
    #expect(abs(m.mean - shape) < 5 * (shape / n).squareRoot(), "gamma(\(shape)): mean \(m.mean)")
    let varianceError = shape * ((2 + 6 / shape) / n).squareRoot()
    #expect(abs(m.variance - shape) < 5 * varianceError, "gamma(\(shape)): variance \(m.variance)")
  }

  /// Gamma(1) is Exp(1): KS against 1 - e^-x.
  @Test func gammaOfShapeOneIsExponential() {
    var g = Xoshiro256StarStar(seed: 22)
    let sample = (0..<count).map { _ in normal.gamma(GammaShape(1), using: &g) }
    let d = RandomTesting.kolmogorovSmirnov(sample) { 1 - exp(-$0) }
    #expect(d < RandomTesting.kolmogorovSmirnovCritical1Percent(count), "D = \(d)")
  }

  static let betaShapes: [(Double, Double)] = [(1, 1), (2, 5), (30, 3), (0.5, 0.5), (1e-3, 1e-3)]

  /// Mean and variance of Beta(a, b) within 5 standard errors (the variance's from the
  /// exact fourth central moment); every draw in [0, 1], never NaN.
  @Test(arguments: betaShapes)
  func betaHasItsMeanAndVariance(a: Double, b: Double) {
    var g = Xoshiro256StarStar(seed: 23)
    let (sa, sb) = (GammaShape(a), GammaShape(b))
    let sample = (0..<count).map { _ in normal.beta(sa, sb, using: &g) }
    #expect(sample.allSatisfy { $0 >= 0 && $0 <= 1 }, "Beta(\(a), \(b)) left [0, 1] or gave NaN")
    let mean = a / (a + b)
    let variance = a * b / ((a + b) * (a + b) * (a + b + 1))
    let m = RandomTesting.Moments(sample)
    let n = Double(count)
    #expect(abs(m.mean - mean) < 5 * (variance / n).squareRoot(), "Beta(\(a), \(b)): mean \(m.mean)")
    // Raw moments E[X^k] = Π_{r<k} (a + r) / (a + b + r), then the central fourth moment.
    let raw = (0...4).map { k in (0..<k).reduce(1.0) { $0 * (a + Double($1)) / (a + b + Double($1)) } }
    let m4 = raw[4] - 4 * mean * raw[3] + 6 * mean * mean * raw[2] - 3 * pow(mean, 4)
    let varianceError = ((m4 - variance * variance) / n).squareRoot()
    #expect(
      abs(m.variance - variance) < 5 * varianceError,
      "Beta(\(a), \(b)): variance \(m.variance), expected \(variance)")
  }

  @Test(arguments: [(1, 1), (2, 5), (30, 3)])
  func betaWithIntegerShapesPassesKolmogorovSmirnov(a: Int, b: Int) {
    var g = Xoshiro256StarStar(seed: 24)
    let (sa, sb) = (GammaShape(Double(a)), GammaShape(Double(b)))
    let sample = (0..<count).map { _ in normal.beta(sa, sb, using: &g) }
    let d = RandomTesting.kolmogorovSmirnov(sample) { RandomTesting.betaCDF($0, a: a, b: b) }
    #expect(d < RandomTesting.kolmogorovSmirnovCritical1Percent(count), "Beta(\(a), \(b)): D = \(d)")
  }

  /// Mixed and tiny shapes go through the log domain: never NaN, always in [0, 1], over
  /// many seeds; Beta(0.001, 0.001) is symmetric (each half with probability 1/2).
  @Test func betaWithShapesBelowOneNeverGivesNaN() {
    let shapes: [(Double, Double)] = [(1e-3, 1e-3), (1e-3, 1000), (1000, 1e-3), (0.5, 2), (3, 0.2)]
    for seed: UInt64 in 0..<20 {
      var g = SplitMix64(seed: seed)
      for (a, b) in shapes {
        let (sa, sb) = (GammaShape(a), GammaShape(b))
        for _ in 0..<500 {
          let x = normal.beta(sa, sb, using: &g)
          #expect(x >= 0 && x <= 1, "seed \(seed), Beta(\(a), \(b)) gave \(x)")
        }
      }
    }
    var g = Xoshiro256StarStar(seed: 25)
    let tiny = GammaShape(1e-3)
    let upper = (0..<10_000).filter { _ in normal.beta(tiny, tiny, using: &g) > 0.5 }.count
    #expect(abs(upper - 5_000) < 250, "\(upper) of 10,000 above 1/2")  // 5 standard errors
  }

  /// With both shapes at least 1, X then Y come from `gamma` in that order.
  @Test func betaDrawsXThenYLikeGamma() {
    var a = Xoshiro256StarStar(seed: 26)
    var b = a
    let (sa, sb) = (GammaShape(2.5), GammaShape(7))
    for _ in 0..<100 {
      let x = normal.gamma(sa, using: &b)
      let y = normal.gamma(sb, using: &b)
      #expect(normal.beta(sa, sb, using: &a) == x / (x + y))
    }
    #expect(a == b)
  }

  /// The same seed gives the same first 20 Beta(3, 8) draws. The pinned values were
  /// computed by this implementation after the statistical tests above passed.
  @Test func sameSeedGivesTheSameDraws() {
    var g = Xoshiro256StarStar(seed: 2026)
    let (sa, sb) = (GammaShape(3), GammaShape(8))
    let first = (0..<20).map { _ in normal.beta(sa, sb, using: &g) }
    var h = Xoshiro256StarStar(seed: 2026)
    #expect(first == (0..<20).map { _ in ZigguratNormal().beta(sa, sb, using: &h) })
    #expect(first[0] == 0.37523010052800804)
    #expect(first[1] == 0.4527941219423385)
    #expect(first[12] == 0.05697860182269711)
    #expect(first[19] == 0.4052128560081085)
  }

  /// For shapes of at least 1, `betaOfUnboostedShapes` is `beta`, draw for draw: the same
  /// values (bits) and the same generator state afterwards.
  @Test func unboostedBetaIsBetaDrawForDraw() {
    let shapes = [1.0, 1.5, 2, 7, 30, 4097].map(GammaShape.init)
    var g1 = Xoshiro256StarStar(seed: 5)
    var g2 = Xoshiro256StarStar(seed: 5)
    for round in 0..<2_000 {
      let a = shapes[round % shapes.count]
      let b = shapes[(round / shapes.count) % shapes.count]
      let plain = normal.beta(a, b, using: &g1)
      let fast = normal.betaOfUnboostedShapes(a, b, using: &g2)
      #expect(plain.bitPattern == fast.bitPattern, "round \(round)")
    }
    #expect(g1.next() == g2.next())
  }
}
