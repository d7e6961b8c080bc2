/// The `GammaShape`s of `base + n` for the whole numbers `n` in `0..<count`, precomputed.
///
/// `self[n]` is `GammaShape(base + Double(n))`, bit for bit: a table read for
/// `n < count`, computed (a square root and a division) beyond. A caller whose shapes are
/// a prior plus a count (the bandit: `prior + taps`, one refresh per outcome) reads its
/// new shape instead of computing it. The table lives in a copy-on-write array, so copies
/// (of a strategy holding one) share it and cost nothing.
///
/// ```swift
/// let table = GammaShapeTable(base: 1, count: 4096)
/// table[3] == GammaShape(4)  // true
/// ```
public struct GammaShapeTable: Sendable {
  /// The shape of `self[0]`.
  public let base: Double
  /// `shapes[n] = GammaShape(base + Double(n))`.
  @usableFromInline package let shapes: [GammaShape]

  /// Builds the table: `count` square roots and divisions, once.
  ///
  /// - Precondition: `base > 0` and finite, `count >= 0`.
  /// - Complexity: O(count) time and memory (32 bytes per entry).
  public init(base: Double, count: Int) {
    precondition(count >= 0, "GammaShapeTable needs a count >= 0, got \(count)")
    self.base = base
    shapes = (0..<count).map { GammaShape(base + Double($0)) }
  }

  /// The number of precomputed shapes.
  @inlinable public var count: Int { shapes.count }

  /// `GammaShape(base + Double(n))`.
  ///
  /// - Precondition: `n >= 0`.
  /// - Complexity: O(1): a read for `n < count`, a square root and a division beyond.
  @inlinable @inline(__always)
  public subscript(n: Int) -> GammaShape {
    n < shapes.count ? shapes[n] : GammaShape(base + Double(n))
  }
}
