import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// Percentile bootstrap confidence intervals of a mean.
///
/// Definition: draw `resamples` samples of size n from the n values with replacement
/// (each index by `nextInt(below: n)` of the given generator, in order), take each
/// sample's mean (summed in draw order), sort the means, and return their quantiles at
/// (1 - level) / 2 and (1 + level) / 2. Quantiles interpolate linearly between order
/// statistics (Hyndman & Fan type 7, NumPy's default): for sorted means m₀…m_{B-1} and
/// probability p, h = (B - 1)·p, q = m_⌊h⌋ + (h - ⌊h⌋)(m_⌊h⌋+1 - m_⌊h⌋).
///
/// With the same values and the same generator state the interval is the same, on every
/// platform: the draws are the toolkit's frozen `nextInt(below:)`.
public enum Bootstrap {
  /// The number of resamples the batch uses (B).
  public static let resamples = 2_000
  /// The confidence level the batch uses.
  public static let level = 0.95

  /// The percentile interval of the mean of `values`; nil for no values. One value gives
  /// the interval [x, x].
  ///
  /// - Complexity: O(B·n + B log B) time, O(B) memory.
  public static func meanInterval<G: RandomNumberGenerator>(
    _ values: [Double], resamples: Int = Bootstrap.resamples, level: Double = Bootstrap.level,
    using generator: inout G
  ) -> (low: Double, high: Double)? {
    interval(values, resamples: resamples, level: level, using: &generator)
  }

  /// `meanInterval` with the generator the batch uses (`Bootstrap.generator`): the same
  /// draws and result. The compiler specialises the shared body for this type here, in
  /// this file. A caller in another file cannot when the module is not compiled whole
  /// (debug builds, so the tests and the sanitizers): the generic body then drew through
  /// the protocol's witness table, half of a batch test's time (docs/performance.md).
  static func meanInterval(
    _ values: [Double], resamples: Int = Bootstrap.resamples, level: Double = Bootstrap.level,
    using generator: inout Xoshiro256StarStar
  ) -> (low: Double, high: Double)? {
    interval(values, resamples: resamples, level: level, using: &generator)
  }

  private static func interval<G: RandomNumberGenerator>(
    _ values: [Double], resamples: Int, level: Double, using generator: inout G
  ) -> (low: Double, high: Double)? {
    let n = values.count
    guard n > 0, resamples > 0 else { return nil }
    if n == 1 { return (values[0], values[0]) }
    var means: [Double] = []
    means.reserveCapacity(resamples)
    values.withUnsafeBufferPointer { v in
      for _ in 0..<resamples {
        var sum = 0.0
        for _ in 0..<n { sum += v[generator.nextInt(below: n)] }
        means.append(sum / Double(n))
      }
    }
    means.sort()
    return (quantile(sorted: means, (1 - level) / 2), quantile(sorted: means, (1 + level) / 2))
  }

  /// The type-7 quantile of ascending `sorted` values at probability `p` in 0...1.
  ///
  /// - Precondition: `sorted` is not empty.
  public static func quantile(sorted: [Double], _ p: Double) -> Double {
    let h = Double(sorted.count - 1) * min(max(p, 0), 1)
    let lower = Int(h.rounded(.down))
    let upper = min(lower + 1, sorted.count - 1)
    return sorted[lower] + (h - Double(lower)) * (sorted[upper] - sorted[lower])
  }

  /// The arithmetic mean, summed in order; NaN for no values.
  public static func mean(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    var sum = 0.0
    for x in values { sum += x }
    return sum / Double(values.count)
  }

  /// The generator for one output row: xoshiro256** seeded with
  /// `StreamSeed.derive(masterSeed, FNV1a("bootstrap"), FNV1a(rowKey))`, where `rowKey`
  /// is e.g. `summary|sample|mfu|hit_rate` (see docs/batch.md).
  public static func generator(masterSeed: UInt64, rowKey: String) -> Xoshiro256StarStar {
    StreamSeed.generator(masterSeed, FNV1a.hash("bootstrap".utf8), FNV1a.hash(rowKey.utf8))
  }
}
