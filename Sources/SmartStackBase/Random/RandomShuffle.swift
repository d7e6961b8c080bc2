/// Shuffling and weighted choice with frozen algorithms, built on `nextInt(below:)` and
/// `nextUnit()` (never the standard library's `shuffle(using:)`, whose algorithm may change
/// between Swift versions).
public enum RandomShuffle {
  /// Shuffles `elements` in place, uniformly over all permutations (Fisher–Yates, Durstenfeld's
  /// form): for `i` from `count - 1` down to 1, swap positions `i` and `nextInt(below: i + 1)`
  /// (positions counted from `startIndex`). Consumes `count - 1` bounded draws; an empty or
  /// one-element collection consumes none.
  ///
  /// - Complexity: O(n).
  @inlinable public static func shuffle<
    C: MutableCollection & RandomAccessCollection, G: RandomNumberGenerator
  >(
    _ elements: inout C, using generator: inout G
  ) {
    var i = elements.count - 1
    while i > 0 {
      let j = generator.nextInt(below: i + 1)
      if j != i {
        elements.swapAt(
          elements.index(elements.startIndex, offsetBy: i),
          elements.index(elements.startIndex, offsetBy: j))
      }
      i -= 1
    }
  }

  /// A shuffled copy of `elements` (see `shuffle(_:using:)`).
  @inlinable public static func shuffled<S: Sequence, G: RandomNumberGenerator>(
    _ elements: S, using generator: inout G
  ) -> [S.Element] {
    var copy = Array(elements)
    shuffle(&copy, using: &generator)
    return copy
  }

  /// An index drawn with probability proportional to its weight, or nil when no weight is
  /// positive.
  ///
  /// Weights that are negative, NaN or infinite count as 0. With total `W` (summed in index
  /// order), draws `u = nextUnit() * W` and returns the first index whose running sum
  /// exceeds `u` (the last positive-weight index if rounding leaves none). Consumes exactly
  /// one output when the result is not nil, none otherwise. If the finite weights sum to
  /// more than `Double.greatestFiniteMagnitude`, they are first divided by the largest one.
  ///
  /// - Complexity: O(n).
  @inlinable public static func weightedIndex<G: RandomNumberGenerator>(
    _ weights: [Double], using generator: inout G
  ) -> Int? {
    var total = 0.0
    var largest = 0.0
    var lastPositive = -1
    for (index, weight) in weights.enumerated() where usable(weight) {
      total += weight
      largest = max(largest, weight)
      lastPositive = index
    }
    guard lastPositive >= 0 else { return nil }
    let scale = total.isFinite ? 1.0 : 1.0 / largest
    if !total.isFinite {
      total = 0
      for weight in weights where usable(weight) { total += weight * scale }
    }
    let target = generator.nextUnit() * total
    var running = 0.0
    for (index, weight) in weights.enumerated() where usable(weight) {
      running += weight * scale
      if running > target { return index }
    }
    return lastPositive
  }

  @inline(__always)
  @inlinable static func usable(_ weight: Double) -> Bool {
    weight > 0 && weight.isFinite
  }
}
