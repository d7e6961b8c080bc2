// Uniform draws with frozen algorithms.
//
// The standard library's `random(in:using:)`, `shuffled(using:)` and `randomElement(using:)`
// may change their algorithms in a future Swift version, which would silently change every
// simulated result. The draws below are defined here, exactly, and never change: each says
// how many 64-bit outputs it consumes.

extension RandomNumberGenerator {
  /// A uniform `Double` in [0, 1): the top 53 bits of one output, times 2^-53.
  ///
  /// Every value is a multiple of 2^-53; 0 is possible, 1 is not. Consumes one output.
  @inlinable
  public mutating func nextUnit() -> Double {
    Double(next() >> 11) * 0x1p-53
  }

  /// A uniform `Double` in `range` (`lowerBound + width * nextUnit()`); consumes one output.
  ///
  /// - Precondition: the bounds are finite.
  @inlinable
  public mutating func nextDouble(in range: Range<Double>) -> Double {
    precondition(range.lowerBound.isFinite && range.upperBound.isFinite, "bounds must be finite")
    let value = range.lowerBound + (range.upperBound - range.lowerBound) * nextUnit()
    return value < range.upperBound ? value : range.lowerBound  // rounding can reach the bound
  }

  /// A uniform integer in `0 ..< bound`, unbiased.
  ///
  /// Lemire's multiply-shift with rejection ("Fast random integer generation in an
  /// interval", ACM TOMACS 2019): the high word of `next() * bound` is the result unless the
  /// low word falls below `2^64 mod bound`, in which case the draw is repeated. Consumes one
  /// output, rarely more (never more for a power-of-two bound).
  ///
  /// - Precondition: `bound > 0`.
  @inlinable
  public mutating func nextUInt64(below bound: UInt64) -> UInt64 {
    precondition(bound > 0, "nextUInt64(below:) needs a positive bound")
    var product = next().multipliedFullWidth(by: bound)
    if product.low < bound {
      let threshold = (0 &- bound) % bound  // 2^64 mod bound
      while product.low < threshold {
        product = next().multipliedFullWidth(by: bound)
      }
    }
    return product.high
  }

  /// A uniform integer in `0 ..< n`, unbiased (see `nextUInt64(below:)`).
  ///
  /// - Precondition: `n > 0`.
  @inlinable
  public mutating func nextInt(below n: Int) -> Int {
    precondition(n > 0, "nextInt(below:) needs a positive bound, got \(n)")
    return Int(truncatingIfNeeded: nextUInt64(below: UInt64(n)))
  }

  /// A uniform integer in `range`, both ends included, unbiased. The whole `Int` range
  /// consumes exactly one output; other ranges draw `nextUInt64(below: count)`.
  @inlinable
  public mutating func nextInt(in range: ClosedRange<Int>) -> Int {
    let lower = UInt64(truncatingIfNeeded: range.lowerBound)
    let width = UInt64(truncatingIfNeeded: range.upperBound) &- lower  // count - 1
    if width == .max { return Int(truncatingIfNeeded: next()) }
    return Int(truncatingIfNeeded: lower &+ nextUInt64(below: width + 1))
  }

  /// A uniform integer in `range`, unbiased.
  ///
  /// - Precondition: `range` is not empty.
  @inlinable
  public mutating func nextInt(in range: Range<Int>) -> Int {
    precondition(!range.isEmpty, "nextInt(in:) needs a non-empty range")
    return nextInt(in: range.lowerBound...(range.upperBound - 1))
  }

  /// True with probability `p`: `nextUnit() < p`. Always consumes exactly one output, so
  /// the stream stays aligned whatever `p` is; `p <= 0` (or NaN) is never true, `p >= 1`
  /// always.
  @inlinable
  public mutating func nextBool(probability p: Double) -> Bool {
    nextUnit() < p
  }
}
