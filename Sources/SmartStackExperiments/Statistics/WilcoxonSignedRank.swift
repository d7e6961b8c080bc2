import Foundation
import SmartStackBase
import SmartStackData
import SmartStackEngine
import SmartStackStrategies
import SmartStackWorld

/// The Wilcoxon signed-rank test of paired differences, two-sided.
///
/// Definition (zero method "wilcox", as SciPy's default): differences equal to 0 are
/// dropped; the n remaining ones are ranked by absolute value, tied absolute values
/// sharing the mean of their ranks; W⁺ is the sum of the ranks of positive differences.
/// - **Exact** when n <= `exactLimit` and no absolute values tie: the p-value is
///   `min(1, 2·min(P(W ≤ W⁺), P(W ≥ W⁺)))` under the null distribution of W (every sign
///   pattern equally likely), counted exactly.
/// - **Normal approximation** otherwise: z = (W⁺ - n(n+1)/4) / σ with the tie
///   correction σ² = n(n+1)(2n+1)/24 - Σ(t³ - t)/48 over groups of t tied absolute
///   values, no continuity correction, p = 2·Φ(-|z|) = erfc(|z|/√2).
/// With no nonzero difference (or σ = 0) there is no test: the result is nil.
///
/// These match `scipy.stats.wilcoxon(d, zero_method="wilcox", correction=False,
/// method="exact" or "approx")`.
public enum WilcoxonSignedRank {
  /// The largest n with an exact p-value.
  public static let exactLimit = 50

  public struct Result: Sendable, Hashable {
    /// Sum of the ranks of the positive differences.
    public var positiveRankSum: Double
    /// Nonzero differences.
    public var n: Int
    /// The two-sided p-value.
    public var pValue: Double
    /// True when the p-value is exact, false for the normal approximation.
    public var exact: Bool
  }

  /// Tests `differences` (NaN values must be removed first).
  ///
  /// - Complexity: O(n log n), plus O(n³) for the exact distribution (n <= 50).
  public static func test(_ differences: [Double]) -> Result? {
    let nonzero = differences.filter { $0 != 0 }
    let n = nonzero.count
    guard n > 0 else { return nil }
    let order = nonzero.indices.sorted {
      let a = abs(nonzero[$0])
      let b = abs(nonzero[$1])
      return a < b || (a == b && $0 < $1)
    }
    var ranks = Array(repeating: 0.0, count: n)
    var tieTerm = 0.0
    var hasTies = false
    var i = 0
    while i < n {
      var j = i
      while j + 1 < n && abs(nonzero[order[j + 1]]) == abs(nonzero[order[i]]) { j += 1 }
      let rank = Double(i + j + 2) / 2  // mean of 1-based ranks i+1 ... j+1
      for k in i...j { ranks[order[k]] = rank }
      let t = Double(j - i + 1)
      if j > i {
        hasTies = true
        tieTerm += t * t * t - t
      }
      i = j + 1
    }
    var positive = 0.0
    for k in 0..<n where nonzero[k] > 0 { positive += ranks[k] }

    if n <= exactLimit && !hasTies {
      let w = Int(positive.rounded())
      let p = exactTwoSided(n: n, w: w)
      return Result(positiveRankSum: positive, n: n, pValue: p, exact: true)
    }
    let nn = Double(n)
    let mean = nn * (nn + 1) / 4
    let variance = nn * (nn + 1) * (2 * nn + 1) / 24 - tieTerm / 48
    guard variance > 0 else { return nil }
    let z = (positive - mean) / variance.squareRoot()
    let p = min(1, erfc(abs(z) / 2.0.squareRoot()))
    return Result(positiveRankSum: positive, n: n, pValue: p, exact: false)
  }

  /// `min(1, 2·min(P(W ≤ w), P(W ≥ w)))` for the signed-rank statistic W of n untied
  /// ranks, from the exact counts of sign patterns per rank sum.
  static func exactTwoSided(n: Int, w: Int) -> Double {
    let maxSum = n * (n + 1) / 2
    // counts[s]: number of subsets of {1...k} with sum s (as Double: at most 2^50, exact).
    var counts = Array(repeating: 0.0, count: maxSum + 1)
    counts[0] = 1
    for k in 1...n {
      var s = k * (k + 1) / 2
      while s >= k {
        counts[s] += counts[s - k]
        s -= 1
      }
    }
    let total = Double(sign: .plus, exponent: n, significand: 1)  // 2^n
    var lower = 0.0
    for s in 0...min(max(w, 0), maxSum) { lower += counts[s] }
    var upper = 0.0
    for s in max(w, 0)...maxSum { upper += counts[s] }
    return min(1, 2 * min(lower, upper) / total)
  }
}
