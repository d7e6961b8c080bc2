import Foundation

import SmartStackKit
@testable import SmartStackBase
@testable import SmartStackData
@testable import SmartStackEngine
@testable import SmartStackStrategies
@testable import SmartStackWorld
@testable import SmartStackExperiments
@testable import SmartStackCounterfactual
@testable import SmartStackBench

extension RandomTesting {
  /// The first four sample moments of `values`: mean, unbiased variance, skewness
  /// `m3 / m2^1.5` and excess kurtosis `m4 / m2² - 3` (central moments `m_k`).
  struct Moments {
    var mean: Double
    var variance: Double
    var skewness: Double
    var excessKurtosis: Double

    init(_ values: [Double]) {
      let n = Double(values.count)
      mean = values.reduce(0, +) / n
      var m2 = 0.0
      var m3 = 0.0
      var m4 = 0.0
      for value in values {
        let d = value - mean
        let d2 = d * d
        m2 += d2
        m3 += d2 * d
        m4 += d2 * d2
      }
      variance = m2 / (n - 1)
      m2 /= n
      m3 /= n
      m4 /= n
      skewness = m3 / (m2 * m2.squareRoot())
      excessKurtosis = m4 / (m2 * m2) - 3
    }
  }

  /// The Kolmogorov–Smirnov statistic `D = sup |F_n(x) - F(x)|` of `values` against `cdf`.
  static func kolmogorovSmirnov(_ values: [Double], _ cdf: (Double) -> Double) -> Double {
    let sorted = values.sorted()
    let n = Double(sorted.count)
    var d = 0.0
    for (index, value) in sorted.enumerated() {
      let p = cdf(value)
      d = max(d, Double(index + 1) / n - p, p - Double(index) / n)
    }
    return d
  }

  /// The asymptotic 1 % critical value of the one-sample KS statistic for `n` values:
  /// `1.6276 / sqrt(n)` (Kolmogorov distribution, `K(1.6276) = 0.99`).
  static func kolmogorovSmirnovCritical1Percent(_ n: Int) -> Double {
    1.6276 / Double(n).squareRoot()
  }

  /// The standard normal CDF, `erfc(-x / sqrt 2) / 2`.
  static func normalCDF(_ x: Double) -> Double {
    0.5 * erfc(-x / 2.0.squareRoot())
  }

  /// The Beta(a, b) CDF for integer shapes: `I_x(a, b) = P(Binomial(a + b - 1, x) >= a)`.
  static func betaCDF(_ x: Double, a: Int, b: Int) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    let n = a + b - 1
    var total = 0.0
    var choose = 1.0  // C(n, j), built up from C(n, 0)
    for j in 0...n {
      if j >= a { total += choose * pow(x, Double(j)) * pow(1 - x, Double(n - j)) }
      choose = choose * Double(n - j) / Double(j + 1)
    }
    return min(1, total)
  }

  /// A 64-bit output that the ziggurat reads as layer `layer`, sign `negative` and
  /// uniform `u` (rounded down to a multiple of 2^-53).
  static func zigguratOutput(layer: Int, negative: Bool = false, u: Double) -> UInt64 {
    (UInt64(u * 0x1p53) << 11) | (negative ? 0x100 : 0) | UInt64(layer)
  }

  /// An output whose `nextUnit()` is `u` (rounded down to a multiple of 2^-53).
  static func unitOutput(_ u: Double) -> UInt64 {
    UInt64(u * 0x1p53) << 11
  }
}
