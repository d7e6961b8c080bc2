import Foundation

/// Student's t distribution: its distribution function and quantiles, for intervals of a
/// mean over few replicates (`EstimatorValidation`'s bias interval).
///
/// Definitions, for ν > 0 degrees of freedom and x = ν / (ν + t²):
/// - `cdf(t, ν)` = 1 − ½·I_x(ν/2, ½) for t ≥ 0 and ½·I_x(ν/2, ½) for t < 0, where I is the
///   regularised incomplete beta function, evaluated by its continued fraction (modified
///   Lentz, Numerical Recipes §6.4) to a relative error below 1e-14;
/// - `quantile(p, ν)` = the t with `cdf(t, ν)` = p, found by bisection on the
///   distribution function (monotone) to 1e-12 of t's magnitude; exact symmetry
///   `quantile(1 − p) = −quantile(p)`.
///
/// Checked against published values (t₀.₉₇₅: ν = 1: 12.7062, 2: 4.3027, 19: 2.0930,
/// 59: 2.0010; large ν tends to the normal 1.95996) in `StudentTTests`.
public enum StudentT {
  /// P(T ≤ t) for T with `degreesOfFreedom` (> 0) degrees of freedom.
  public static func cdf(_ t: Double, degreesOfFreedom nu: Double) -> Double {
    precondition(nu > 0, "degrees of freedom must be positive")
    if t.isNaN { return .nan }
    if t.isInfinite { return t > 0 ? 1 : 0 }
    let x = nu / (nu + t * t)
    let tail = 0.5 * regularisedIncompleteBeta(x, a: nu / 2, b: 0.5)
    return t >= 0 ? 1 - tail : tail
  }

  /// The p-quantile (0 < p < 1) of the t distribution with `degreesOfFreedom` (> 0).
  ///
  /// - Complexity: O(1): at most 200 bisection steps of one continued fraction each.
  public static func quantile(_ p: Double, degreesOfFreedom nu: Double) -> Double {
    precondition(p > 0 && p < 1, "p must be within (0, 1)")
    if p == 0.5 { return 0 }
    if p < 0.5 { return -quantile(1 - p, degreesOfFreedom: nu) }
    // Bracket: the t quantile is at least the normal one's magnitude; double until past.
    var low = 0.0
    var high = 2.0
    while cdf(high, degreesOfFreedom: nu) < p { low = high; high *= 2 }
    for _ in 0..<200 {
      let mid = (low + high) / 2
      if cdf(mid, degreesOfFreedom: nu) < p { low = mid } else { high = mid }
      if high - low <= 1e-12 * high { break }
    }
    return (low + high) / 2
  }

  /// I_x(a, b), the regularised incomplete beta function, for 0 ≤ x ≤ 1, a, b > 0.
  static func regularisedIncompleteBeta(_ x: Double, a: Double, b: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    let logBeta: Double = lgamma(a) + lgamma(b) - lgamma(a + b)
    let logPowers: Double = a * log(x) + b * log(1 - x)
    let logFront = logPowers - logBeta
    let front = exp(logFront)
    // The continued fraction converges fast for x < (a + 1) / (a + b + 2); use the
    // symmetry I_x(a, b) = 1 − I_{1−x}(b, a) otherwise.
    if x < (a + 1) / (a + b + 2) {
      return front * continuedFraction(x, a: a, b: b) / a
    }
    return 1 - front * continuedFraction(1 - x, a: b, b: a) / b
  }

  /// The continued fraction of the incomplete beta function (modified Lentz).
  private static func continuedFraction(_ x: Double, a: Double, b: Double) -> Double {
    let tiny = 1e-300
    var c = 1.0
    var d = 1 - (a + b) * x / (a + 1)
    if abs(d) < tiny { d = tiny }
    d = 1 / d
    var h = d
    for m in 1...300 {
      let m = Double(m)
      let m2 = 2 * m
      // Even step.
      var aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2))
      d = 1 + aa * d
      if abs(d) < tiny { d = tiny }
      c = 1 + aa / c
      if abs(c) < tiny { c = tiny }
      d = 1 / d
      h *= d * c
      // Odd step.
      aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))
      d = 1 + aa * d
      if abs(d) < tiny { d = tiny }
      c = 1 + aa / c
      if abs(c) < tiny { c = tiny }
      d = 1 / d
      let delta = d * c
      h *= delta
      if abs(delta - 1) < 1e-15 { break }
    }
    return h
  }
}
