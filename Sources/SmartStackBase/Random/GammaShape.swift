/// A Gamma shape with the constants of Marsaglia–Tsang precomputed, for repeated draws
/// with `ZigguratNormal.gamma(_:using:)` and `ZigguratNormal.beta(_:_:using:)`.
///
/// For `shape >= 1`: `d = shape - 1/3`, `c = 1 / sqrt(9d)`. For `shape < 1` the sampler
/// draws Gamma(shape + 1) and boosts it (see `ZigguratNormal.gamma(_:using:)`), so `d` and
/// `c` are those of `shape + 1` and `inverseShape = 1 / shape`. Making one costs a square
/// root; drawing with it costs none, which is why a caller that draws many times from the
/// same shape (the bandit: one shape per arm, changed only by an outcome) keeps it.
public struct GammaShape: Sendable, Hashable {
  /// The shape `k` of Gamma(k, 1) (mean `k`, variance `k`).
  public let shape: Double
  /// `s - 1/3`, with `s = shape` (or `shape + 1` when `shape < 1`).
  @usableFromInline package let d: Double
  /// `1 / sqrt(9d)`.
  @usableFromInline package let c: Double
  /// `1 / shape` when `shape < 1`, else 0.
  @usableFromInline package let inverseShape: Double

  /// Precomputes the constants for `shape`.
  ///
  /// - Precondition: `shape > 0` and finite.
  @inlinable
  public init(_ shape: Double) {
    precondition(shape > 0 && shape.isFinite, "GammaShape needs a positive finite shape, got \(shape)")
    self.shape = shape
    let boosted = shape < 1
    d = (boosted ? shape + 1 : shape) - 1.0 / 3.0
    c = 1 / (9 * d).squareRoot()
    inverseShape = boosted ? 1 / shape : 0
  }

  /// True when `shape < 1`: draws take the slower boosted path.
  @inlinable
  public var isBoosted: Bool { shape < 1 }
}
