import Foundation

// Gamma and Beta variates driven by the ziggurat normal: the fast path of the `bandit`
// strategy. Separate from `nextGamma(shape:)` and `nextBeta(_:_:)` (Box–Muller based),
// whose outputs stay as they were.

extension ZigguratNormal {
  /// A Gamma(shape, 1) variate (mean `shape`, variance `shape`).
  ///
  /// Marsaglia & Tsang, "A simple method for generating gamma variables" (ACM TOMS 2000),
  /// with this ziggurat for the normal and the constants `d`, `c` taken from `shape`:
  /// repeat: draw `z = next(using:)` until `v = 1 + c z > 0`, cube `v`, draw
  /// `u = nextUnit()`; accept `d v` when `u < 1 - 0.0331 z⁴` (the squeeze, no logarithm) or
  /// `log u < z²/2 + d (1 - v + log v)`. Each try costs one normal (1.022 outputs on
  /// average) and one output; a variate takes 2.12 outputs on average for shape 1, 2.06 for
  /// shape 2, 2.02 for shape 30 (fewer rejections as the shape grows). The logarithms are
  /// needed only when the squeeze fails: 8 % of tries whatever the shape (the squeeze
  /// depends on z alone, `P(u >= 1 - 0.0331 z⁴) = 0.083`).
  ///
  /// For `shape < 1`, the boost: `Gamma(shape + 1) · u^(1/shape)` with `u = 1 - nextUnit()`
  /// drawn after the Gamma(shape + 1) variate (one more output and a `pow`). That product can
  /// underflow to 0 for tiny shapes; `beta(_:_:using:)` avoids it by working with logarithms.
  ///
  /// Always inlined (see `ZigguratNormal.next(using:)`).
  ///
  /// - Complexity: O(1) expected.
  @inlinable @inline(__always)
  public func gamma<G: RandomNumberGenerator>(_ shape: GammaShape, using generator: inout G) -> Double {
    let core = marsagliaTsang(d: shape.d, c: shape.c, using: &generator)
    if !shape.isBoosted { return core }
    return core * pow(1 - generator.nextUnit(), shape.inverseShape)
  }

  /// A Beta(a, b) variate (mean `a / (a + b)`): `X / (X + Y)` with `X ~ Gamma(a)` drawn
  /// first, then `Y ~ Gamma(b)`, both with the draws of `gamma(_:_:using:)` in that order
  /// (the Gamma(a or a + 1) core, then the boost's uniform if `a < 1`; then the same for
  /// `b`).
  ///
  /// When both shapes are at least 1 both variates are positive, so the quotient is taken
  /// directly: about 4 outputs and no transcendental function on most draws. When a shape
  /// is below 1 the quotient is computed from the logarithms, `1 / (1 + exp(log Y - log X))`
  /// with `log X = log Gamma(a + 1) + log(u) / a`, so tiny shapes, whose variates underflow
  /// to 0, still give a value in [0, 1] and never NaN.
  ///
  /// Always inlined (see `ZigguratNormal.next(using:)`): the generator never leaves the
  /// caller.
  ///
  /// - Returns: a value in [0, 1] (in (0, 1] when both shapes are at least 1).
  /// - Complexity: O(1) expected.
  @inlinable @inline(__always)
  public func beta<G: RandomNumberGenerator>(
    _ a: GammaShape, _ b: GammaShape, using generator: inout G
  ) -> Double {
    let x = marsagliaTsang(d: a.d, c: a.c, using: &generator)
    let boostX = a.isBoosted ? 1 - ZigguratNormal.unit(generator.next()) : 1
    let y = marsagliaTsang(d: b.d, c: b.c, using: &generator)
    let boostY = b.isBoosted ? 1 - ZigguratNormal.unit(generator.next()) : 1
    if _fastPath(!a.isBoosted && !b.isBoosted) { return x / (x + y) }
    return ZigguratNormal.betaFromLogarithms(x, boostX, a, y, boostY, b)
  }

  /// `beta(_:_:using:)` for shapes known to be at least 1: the same draws and the same
  /// value, `X / (X + Y)`, without testing the shapes. A caller that knows no shape is
  /// below 1 (the bandit with both priors at least 1: its shapes only grow) keeps the
  /// boost and logarithm paths, and the shape loads they need, out of its loop.
  ///
  /// - Precondition: `!a.isBoosted && !b.isBoosted` (checked in debug builds only: a
  ///   shape below 1 would give a draw from the wrong distribution). Internal for that
  ///   reason: the bandit is its one caller and guarantees it.
  /// - Complexity: O(1) expected; about 4.1 outputs.
  @inline(__always)
  @inlinable package func betaOfUnboostedShapes<G: RandomNumberGenerator>(
    _ a: GammaShape, _ b: GammaShape, using generator: inout G
  ) -> Double {
    assert(!a.isBoosted && !b.isBoosted, "betaOfUnboostedShapes needs shapes of at least 1")
    let x = marsagliaTsang(d: a.d, c: a.c, using: &generator)
    let y = marsagliaTsang(d: b.d, c: b.c, using: &generator)
    return x / (x + y)
  }

  /// `beta(_:_:using:)` when a shape is below 1: `1 / (1 + exp(log Y - log X))` with
  /// `log X = log(x) + log(boostX) / a` (just `log(x)` when `a >= 1`), the same for `Y`.
  @usableFromInline
  static package func betaFromLogarithms(
    _ x: Double, _ boostX: Double, _ a: GammaShape, _ y: Double, _ boostY: Double, _ b: GammaShape
  ) -> Double {
    let logX = log(x) + (a.isBoosted ? log(boostX) * a.inverseShape : 0)
    let logY = log(y) + (b.isBoosted ? log(boostY) * b.inverseShape : 0)
    return 1 / (1 + exp(logY - logX))
  }

  /// Marsaglia–Tsang for a shape `d + 1/3 >= 1`, `c = 1 / sqrt(9d)`. Always inlined (see
  /// `ZigguratNormal.next(using:)`).
  @inlinable @inline(__always)
  package func marsagliaTsang<G: RandomNumberGenerator>(d: Double, c: Double, using generator: inout G) -> Double {
    while true {
      let z = next(using: &generator)
      let v = 1 + c * z
      if _slowPath(v <= 0) { continue }
      let v3 = v * v * v
      let u = ZigguratNormal.unit(generator.next())
      let z2 = z * z
      if _fastPath(u < 1 - 0.0331 * z2 * z2) { return d * v3 }
      if log(u) < 0.5 * z2 + d * (1 - v3 + log(v3)) { return d * v3 }
    }
  }
}
