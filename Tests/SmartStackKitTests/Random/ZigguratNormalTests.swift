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

@Suite("Ziggurat normal")
struct ZigguratNormalTests {
  let normal = ZigguratNormal()

  @Test func tablesHaveEqualLayersThatCloseAtZero() {
    let x = normal.x
    let f = normal.f
    #expect(x.count == 257 && f.count == 257)
    #expect(x[1] == ZigguratNormal.tailStart && x[256] == 0 && f[256] == 1)
    for i in 1..<256 {
      #expect(x[i] > x[i + 1], "x[\(i)] = \(x[i]) <= x[\(i + 1)] = \(x[i + 1])")
      #expect(abs(f[i] - exp(-0.5 * x[i] * x[i])) < 1e-15, "f[\(i)]")
    }
    // Every layer has area v (to rounding), the base rectangle included.
    let v = ZigguratNormal.layerArea(tailStart: ZigguratNormal.tailStart)
    #expect(abs(v - 0.00492867323399) < 1e-13)  // Marsaglia & Tsang (2000), 256 layers
    #expect(abs(x[0] * f[1] - v) < 1e-16)
    for i in 1..<255 {
      #expect(abs(x[i] * (f[i + 1] - f[i]) - v) < 1e-15 * Double(i), "layer \(i)")
    }
    #expect(normal.closingError < 1e-12, "top layer area off by \(normal.closingError)")
  }

  @Test func momentsAreThoseOfTheStandardNormal() {
    var g = Xoshiro256StarStar(seed: 11)
    let n = 400_000
    let sample = (0..<n).map { _ in normal.next(using: &g) }
    let m = RandomTesting.Moments(sample)
    let rn = Double(n).squareRoot()
    // Standard errors of the moments for a normal sample: 1, √2, √6, √24 over √n.
    #expect(abs(m.mean) < 5 / rn, "mean \(m.mean)")
    #expect(abs(m.variance - 1) < 5 * 2.0.squareRoot() / rn, "variance \(m.variance)")
    #expect(abs(m.skewness) < 5 * 6.0.squareRoot() / rn, "skewness \(m.skewness)")
    #expect(abs(m.excessKurtosis) < 5 * 24.0.squareRoot() / rn, "excess kurtosis \(m.excessKurtosis)")
  }

  @Test func kolmogorovSmirnovAgainstTheNormalCDFPassesAtOnePercent() {
    for seed: UInt64 in [1, 2] {
      var g = Xoshiro256StarStar(seed: seed)
      let sample = (0..<200_000).map { _ in normal.next(using: &g) }
      let d = RandomTesting.kolmogorovSmirnov(sample, RandomTesting.normalCDF)
      #expect(
        d < RandomTesting.kolmogorovSmirnovCritical1Percent(sample.count), "seed \(seed): D = \(d)")
    }
  }

  /// |X| > r happens with probability erfc(r / √2) ≈ 2.58e-4; both signs equally.
  @Test func tailBeyondTheTableAppearsAtTheRightFrequency() {
    var g = Xoshiro256StarStar(seed: 12)
    let r = ZigguratNormal.tailStart
    let n = 1_000_000
    var above = 0
    var below = 0
    for _ in 0..<n {
      let z = normal.next(using: &g)
      if z > r { above += 1 } else if z < -r { below += 1 }
    }
    let expected = Double(n) * erfc(r / 2.0.squareRoot())
    let total = Double(above + below)
    #expect(abs(total - expected) < 4 * expected.squareRoot(), "tail count \(total), expected \(expected)")
    #expect(abs(Double(above - below)) < 4 * total.squareRoot(), "signs \(above) vs \(below)")
  }

  /// The tail sampler alone matches P(X <= t | X >= r) = 1 - erfc(t/√2) / erfc(r/√2).
  @Test func tailSamplerFollowsTheConditionalNormalTail() {
    var g = Xoshiro256StarStar(seed: 13)
    let r = ZigguratNormal.tailStart
    let sample = (0..<50_000).map { _ in normal.tail(using: &g) }
    #expect(sample.allSatisfy { $0 >= r })
    let tailMass = erfc(r / 2.0.squareRoot())
    let d = RandomTesting.kolmogorovSmirnov(sample) { 1 - erfc($0 / 2.0.squareRoot()) / tailMass }
    #expect(d < RandomTesting.kolmogorovSmirnovCritical1Percent(sample.count), "D = \(d)")
  }

  @Test func insideALayerOneOutputGivesTheScaledUniformWithItsSign() {
    var g = RandomTesting.Scripted([
      RandomTesting.zigguratOutput(layer: 3, u: 0.5),
      RandomTesting.zigguratOutput(layer: 3, negative: true, u: 0.5),
    ])
    #expect(normal.next(using: &g) == 0.5 * normal.x[3])
    #expect(normal.next(using: &g) == -0.5 * normal.x[3])
    #expect(g.position == 2)
  }

  /// In the wedge of layer 100 a point above the curve is rejected and the next output
  /// starts over; a point below it is accepted.
  @Test func wedgePointsAreAcceptedOnlyUnderTheDensity() {
    let i = 100
    let u = (normal.x[i + 1] / normal.x[i] + 1) / 2  // x halfway into the wedge
    let wedge = RandomTesting.zigguratOutput(layer: i, u: u)
    let x = Double(wedge >> 11) * 0x1p-53 * normal.x[i]
    #expect(x > normal.x[i + 1] && x < normal.x[i])
    var g = RandomTesting.Scripted([
      wedge, RandomTesting.unitOutput(0.999_999),  // y near f(x[i+1]) > f(x): rejected
      RandomTesting.zigguratOutput(layer: 7, u: 0.25),
      wedge, RandomTesting.unitOutput(0),  // y = f(x[i]) < f(x): accepted
    ])
    #expect(normal.next(using: &g) == 0.25 * normal.x[7])
    #expect(g.position == 3)
    #expect(normal.next(using: &g) == x)
    #expect(g.position == 5)
  }

  /// Layer 0 beyond r goes to the tail: t = -log(1 - u1) / r, accepted when
  /// 2 (-log(1 - u2)) > t².
  @Test func baseLayerBeyondTheTailStartDrawsFromTheTail() {
    let r = ZigguratNormal.tailStart
    var g = RandomTesting.Scripted([
      RandomTesting.zigguratOutput(layer: 0, negative: true, u: 0.99),
      RandomTesting.unitOutput(0.5), RandomTesting.unitOutput(0.5),
    ])
    #expect(0.99 * normal.x[0] > r)
    #expect(normal.next(using: &g) == -(r + log(2) / r))
    #expect(g.position == 3)
  }

  @Test func averageOutputsPerVariateAreAboutOne() {
    var g = RandomTesting.Counting(seed: 14)
    let n = 200_000
    for _ in 0..<n { _ = normal.next(using: &g) }
    let perVariate = Double(g.count) / Double(n)
    #expect(perVariate > 1.0 && perVariate < 1.04, "\(perVariate) outputs per variate")
  }

  /// The same seed gives the same first 20 draws, from any copy of the tables. The pinned
  /// values were computed by this implementation after the statistical tests above passed
  /// (they freeze it: a change to the tables or the steps shows here).
  @Test func sameSeedGivesTheSameDraws() {
    var a = Xoshiro256StarStar(seed: 2026)
    var b = Xoshiro256StarStar(seed: 2026)
    let first = (0..<20).map { _ in normal.next(using: &a) }
    let again = (0..<20).map { _ in ZigguratNormal().next(using: &b) }
    #expect(first == again)
    #expect(first[0] == 1.4857213224515038)
    #expect(first[1] == 0.2555881653961782)
    #expect(first[3] == -3.082532579843418)
    #expect(first[19] == 0.9628537022102598)
  }
}
