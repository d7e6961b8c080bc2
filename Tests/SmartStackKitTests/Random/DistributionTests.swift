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

/// Sample mean and (unbiased) variance.
private func moments(_ count: Int, _ draw: () -> Double) -> (mean: Double, variance: Double) {
  var sum = 0.0
  var sumSquares = 0.0
  for _ in 0..<count {
    let x = draw()
    sum += x
    sumSquares += x * x
  }
  let mean = sum / Double(count)
  return (mean, (sumSquares - Double(count) * mean * mean) / Double(count - 1))
}

@Suite("Distributions")
struct DistributionTests {
  let count = 40_000

  /// Checks sample moments against exact ones: the mean within 5 standard errors, the
  /// variance within a relative `varianceTolerance`.
  func check(
    _ name: String, mean: Double, variance: Double, varianceTolerance: Double = 0.06,
    _ sample: (mean: Double, variance: Double)
  ) {
    let standardError = (variance / Double(count)).squareRoot()
    #expect(
      abs(sample.mean - mean) < 5 * standardError, "\(name): mean \(sample.mean), expected \(mean)")
    #expect(
      abs(sample.variance - variance) < varianceTolerance * variance,
      "\(name): variance \(sample.variance), expected \(variance)")
  }

  @Test func exponentialHasMeanOneOverRate() {
    var g = Xoshiro256StarStar(seed: 1)
    check("exp(2)", mean: 0.5, variance: 0.25, moments(count) { g.nextExponential(rate: 2) })
    check("exp(mean 3)", mean: 3, variance: 9, moments(count) { g.nextExponential(mean: 3) })
  }

  @Test func normalIsStandard() {
    var g = Xoshiro256StarStar(seed: 2)
    check("normal", mean: 0, variance: 1, moments(count) { g.nextNormal() })
    check(
      "normal(5, 2)", mean: 5, variance: 4,
      moments(count) { g.nextNormal(mean: 5, standardDeviation: 2) })
  }

  @Test(arguments: [0.3, 1.0, 2.5, 9.0])
  func gammaHasMeanAndVarianceShape(shape: Double) {
    var g = Xoshiro256StarStar(seed: 3)
    check(
      "gamma(\(shape))", mean: shape, variance: shape, varianceTolerance: 0.08,
      moments(count) { g.nextGamma(shape: shape) })
  }

  @Test func gammaWithScaleScalesTheMean() {
    var g = Xoshiro256StarStar(seed: 4)
    check("gamma(2, 3)", mean: 6, variance: 18, moments(count) { g.nextGamma(shape: 2, scale: 3) })
  }

  @Test func betaMatchesItsMoments() {
    var g = Xoshiro256StarStar(seed: 5)
    let (a, b) = (2.0, 5.0)
    let variance = a * b / ((a + b) * (a + b) * (a + b + 1))
    check("beta(2,5)", mean: a / (a + b), variance: variance, moments(count) { g.nextBeta(a, b) })
    let (c, d) = (0.5, 0.5)
    check(
      "beta(0.5,0.5)", mean: 0.5, variance: c * d / ((c + d) * (c + d) * (c + d + 1)),
      moments(count) { g.nextBeta(c, d) })
  }

  @Test func betaWithTinyShapesStaysInTheUnitInterval() {
    var g = Xoshiro256StarStar(seed: 6)
    var ones = 0
    for _ in 0..<5_000 {
      let x = g.nextBeta(0.001, 0.001)
      #expect(x >= 0 && x <= 1, "got \(x)")
      if x > 0.5 { ones += 1 }
    }
    #expect(ones > 2_200 && ones < 2_800, "Beta(0.001, 0.001) is symmetric: \(ones)")
  }

  @Test(arguments: [0.5, 3.5, 9.99, 10.0, 50.0, 1_000.0])
  func poissonHasMeanAndVarianceEqualToTheMean(mean: Double) {
    var g = Xoshiro256StarStar(seed: 7)
    check(
      "poisson(\(mean))", mean: mean, variance: mean, varianceTolerance: 0.06,
      moments(count) { Double(g.nextPoisson(mean: mean)) })
  }

  @Test func poissonOfMeanZeroIsZeroWithoutADraw() {
    var g = RandomTesting.Counting(seed: 1)
    #expect(g.nextPoisson(mean: 0) == 0)
    #expect(g.count == 0)
  }

  @Test func poissonProbabilitiesMatchForSmallAndLargeMeans() {
    // P(X = k) for the mode, from the exact formula, against the sample frequency.
    for mean in [4.0, 30.0] {
      var g = Xoshiro256StarStar(seed: 8)
      let mode = Int(mean)
      var hits = 0
      for _ in 0..<count where g.nextPoisson(mean: mean) == mode { hits += 1 }
      let p = exp(-mean + Double(mode) * log(mean) - PoissonSupport.logFactorial(Double(mode)))
      let standardError = (p * (1 - p) / Double(count)).squareRoot()
      #expect(abs(Double(hits) / Double(count) - p) < 5 * standardError, "mean \(mean)")
    }
  }

  @Test func logFactorialMatchesTheExactSum() {
    var exact = 0.0
    for k in 0...300 {
      if k > 0 { exact += log(Double(k)) }
      let approx = PoissonSupport.logFactorial(Double(k))
      #expect(abs(approx - exact) <= 1e-10 * max(1, exact), "k = \(k): \(approx) vs \(exact)")
    }
  }

  @Test func drawCountsAreAsDocumented() {
    var g = RandomTesting.Counting(seed: 9)
    _ = g.nextExponential(rate: 1)
    #expect(g.count == 1)
    _ = g.nextNormal()
    #expect(g.count == 3)
  }

  /// Golden values from a Python port of the same definitions.
  @Test func distributionOutputsForSeed42AreFrozen() {
    var g = Xoshiro256StarStar(seed: 42)
    let poisson = (0..<8).map { _ in g.nextPoisson(mean: 3) }
    let large = (0..<4).map { _ in g.nextPoisson(mean: 200) }
    let normal = (0..<3).map { _ in g.nextNormal() }
    let gamma = (0..<3).map { _ in g.nextGamma(shape: 0.7) }
    #expect(poisson == [1, 9, 7, 1, 3, 3, 7, 7])
    #expect(large == [203, 217, 201, 186])
    for (x, y) in zip(normal, [-0.15151546035285207, 0.20717241199362282, -0.867914364021375]) {
      #expect(abs(x - y) < 1e-12, "\(normal)")
    }
    for (x, y) in zip(gamma, [0.6805528218377902, 0.546552736278252, 0.9214824008018268]) {
      #expect(abs(x - y) < 1e-12, "\(gamma)")
    }
  }
}
