import Foundation

// Continuous and count distributions with frozen algorithms. The integer draws feeding
// them are bit-exact everywhere; results go through the platform's `log`, `exp`, `cos` and
// `pow`, which agree to the last bit on the toolkit's platforms in practice but are not
// guaranteed to across C libraries.

extension RandomNumberGenerator {
  /// An exponential variate with rate `rate` (mean `1 / rate`): `-log(1 - u) / rate`
  /// by inversion, `u = nextUnit()`. Consumes one output.
  ///
  /// - Precondition: `rate > 0`.
  @inlinable
  public mutating func nextExponential(rate: Double) -> Double {
    precondition(rate > 0, "nextExponential(rate:) needs a positive rate, got \(rate)")
    return -log1p(-nextUnit()) / rate
  }

  /// An exponential variate with mean `mean`: `-mean * log(1 - u)`. Consumes one output.
  ///
  /// - Precondition: `mean > 0`.
  @inlinable
  public mutating func nextExponential(mean: Double) -> Double {
    precondition(mean > 0, "nextExponential(mean:) needs a positive mean, got \(mean)")
    return -log1p(-nextUnit()) * mean
  }

  /// A standard normal variate (mean 0, variance 1) by the Box–Muller transform:
  /// `sqrt(-2 log u1) * cos(2π u2)` with `u1 = 1 - nextUnit()` (in (0, 1]) and
  /// `u2 = nextUnit()`. The sine half is discarded so the generator needs no cache.
  /// Consumes exactly two outputs.
  @inlinable
  public mutating func nextNormal() -> Double {
    let u1 = 1 - nextUnit()
    let u2 = nextUnit()
    return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
  }

  /// A normal variate: `mean + standardDeviation * nextNormal()`.
  @inlinable
  public mutating func nextNormal(mean: Double, standardDeviation: Double) -> Double {
    mean + standardDeviation * nextNormal()
  }

  /// A Gamma(shape, 1) variate (mean `shape`, variance `shape`).
  ///
  /// Marsaglia & Tsang, "A simple method for generating gamma variables" (ACM TOMS 2000):
  /// for `shape >= 1`, with `d = shape - 1/3`, `c = 1 / sqrt(9d)`, repeat: draw
  /// `x = nextNormal()` until `v = 1 + c x > 0`, cube `v`, draw `u = nextUnit()`; accept
  /// `d v` when `u < 1 - 0.0331 x^4` or `log u < x²/2 + d (1 - v + log v)`. For
  /// `shape < 1`, the boost: `Gamma(shape + 1) * u^(1/shape)` with `u = 1 - nextUnit()`.
  ///
  /// - Precondition: `shape > 0` and finite.
  @inlinable public mutating func nextGamma(shape: Double) -> Double {
    precondition(shape > 0 && shape.isFinite, "nextGamma(shape:) needs a positive shape")
    if shape >= 1 { return marsagliaTsang(shape: shape) }
    let boosted = marsagliaTsang(shape: shape + 1)
    return boosted * pow(1 - nextUnit(), 1 / shape)
  }

  /// A Gamma(shape, scale) variate (mean `shape * scale`): `scale * nextGamma(shape:)`.
  @inlinable public mutating func nextGamma(shape: Double, scale: Double) -> Double {
    scale * nextGamma(shape: shape)
  }

  /// A Beta(a, b) variate (mean `a / (a + b)`): `X / (X + Y)` for `X ~ Gamma(a)` drawn
  /// first and `Y ~ Gamma(b)`, computed from their logarithms so that tiny shapes, whose
  /// gamma variates underflow to 0, still give a value in [0, 1] instead of NaN.
  ///
  /// - Precondition: `a > 0` and `b > 0`, both finite.
  @inlinable public mutating func nextBeta(_ a: Double, _ b: Double) -> Double {
    precondition(a > 0 && a.isFinite && b > 0 && b.isFinite, "nextBeta needs positive shapes")
    let logX = nextLogGamma(shape: a)
    let logY = nextLogGamma(shape: b)
    return 1 / (1 + exp(logY - logX))
  }

  /// A Poisson variate with mean `mean`.
  ///
  /// - For `mean < 10`, Knuth's multiplication method: multiply `nextUnit()` draws until
  ///   the product is at most `exp(-mean)`; the result is the number of draws minus one
  ///   (so about `mean + 1` outputs).
  /// - For `mean >= 10`, Hörmann's transformed rejection with squeeze, PTRS ("The
  ///   transformed rejection method for generating Poisson random variables", Insurance:
  ///   Mathematics and Economics 1993), as NumPy uses it: two `nextUnit()` draws per try,
  ///   about 1.1 tries on average.
  /// - `mean == 0` returns 0 without consuming anything.
  ///
  /// - Precondition: `0 <= mean <= 1e15`.
  @inlinable public mutating func nextPoisson(mean: Double) -> Int {
    precondition(mean >= 0 && mean <= 1e15, "nextPoisson(mean:) needs 0 <= mean <= 1e15")
    if mean == 0 { return 0 }
    if mean < 10 {
      let limit = exp(-mean)
      var count = 0
      var product = nextUnit()
      while product > limit {
        count += 1
        product *= nextUnit()
      }
      return count
    }
    let rootMean = mean.squareRoot()
    let logMean = log(mean)
    let b = 0.931 + 2.53 * rootMean
    let a = -0.059 + 0.02483 * b
    let inverseAlpha = 1.1239 + 1.1328 / (b - 3.4)
    let vr = 0.9277 - 3.6224 / (b - 2)
    while true {
      let u = nextUnit() - 0.5
      let v = nextUnit()
      let us = 0.5 - abs(u)
      let k = ((2 * a / us + b) * u + mean + 0.43).rounded(.down)
      if us >= 0.07 && v <= vr { return Int(k) }
      if k < 0 || (us < 0.013 && v > us) { continue }
      // us > 0 here, and k is below mean + a few hundred standard deviations.
      if log(v) + log(inverseAlpha) - log(a / (us * us) + b)
        <= -mean + k * logMean - PoissonSupport.logFactorial(k)
      {
        return Int(k)
      }
    }
  }

  /// Marsaglia–Tsang for `shape >= 1`.
  @inlinable mutating func marsagliaTsang(shape: Double) -> Double {
    let d = shape - 1.0 / 3.0
    let c = 1 / (9 * d).squareRoot()
    while true {
      var x: Double
      var v: Double
      repeat {
        x = nextNormal()
        v = 1 + c * x
      } while v <= 0
      v = v * v * v
      let u = nextUnit()
      let x2 = x * x
      if u < 1 - 0.0331 * x2 * x2 { return d * v }
      if log(u) < 0.5 * x2 + d * (1 - v + log(v)) { return d * v }
    }
  }

  /// The logarithm of a Gamma(shape, 1) variate, with exactly the draws of
  /// `nextGamma(shape:)`; finite for every positive shape.
  @inlinable mutating func nextLogGamma(shape: Double) -> Double {
    if shape >= 1 { return log(marsagliaTsang(shape: shape)) }
    let boosted = marsagliaTsang(shape: shape + 1)
    return log(boosted) + log(1 - nextUnit()) / shape
  }
}

/// Helpers of `nextPoisson(mean:)`.
@usableFromInline enum PoissonSupport {
  /// `log(k!)` for an integral `k >= 0`, as `log Γ(k + 1)`: Stirling's series with ten
  /// terms after shifting the argument to at least 7 (NumPy's `random_loggam`). Pure, so
  /// unlike C's `lgamma` it touches no global `signgam`.
  @inlinable static func logFactorial(_ k: Double) -> Double {
    logGammaFunction(k + 1)
  }

  @inlinable static func logGammaFunction(_ x: Double) -> Double {
    let coefficients: [Double] = [
      8.333333333333333e-02, -2.777777777777778e-03, 7.936507936507937e-04,
      -5.952380952380952e-04, 8.417508417508418e-04, -1.917526917526918e-03,
      6.410256410256410e-03, -2.955065359477124e-02, 1.796443723688307e-01,
      -1.39243221690590e+00,
    ]
    if x == 1 || x == 2 { return 0 }
    let shift = x < 7 ? Int(7 - x) : 0
    var x0 = x + Double(shift)
    let x2 = (1 / x0) * (1 / x0)
    var series = coefficients[9]
    for index in stride(from: 8, through: 0, by: -1) {
      series = series * x2 + coefficients[index]
    }
    var result = series / x0 + 0.5 * 1.8378770664093453 + (x0 - 0.5) * log(x0) - x0
    if shift > 0 {
      for _ in 1...shift {
        result -= log(x0 - 1)
        x0 -= 1
      }
    }
    return result
  }
}
