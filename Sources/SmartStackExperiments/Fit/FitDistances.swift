import Foundation

/// The distances and tolerances of `fit --report` (docs/fit.md, "Tolerances").
public enum FitDistances {
  /// The allowance for modelling error added to every sampling tolerance.
  public static let allowance = 0.05

  /// The two-sample Kolmogorov–Smirnov statistic: `sup_x |F_a(x) − F_b(x)|` over the
  /// empirical distribution functions (ties handled: both functions step at a value
  /// before they are compared). 0 when either sample is empty.
  /// - Complexity: O((n + m) log(n + m)).
  public static func ks(_ a: [Double], _ b: [Double]) -> Double {
    guard !a.isEmpty, !b.isEmpty else { return 0 }
    let x = a.sorted()
    let y = b.sorted()
    var i = 0
    var j = 0
    var best = 0.0
    while i < x.count || j < y.count {
      let v = min(i < x.count ? x[i] : .infinity, j < y.count ? y[j] : .infinity)
      while i < x.count && x[i] == v { i += 1 }
      while j < y.count && y[j] == v { j += 1 }
      best = max(best, abs(Double(i) / Double(x.count) - Double(j) / Double(y.count)))
    }
    return best
  }

  /// The KS tolerance for samples of sizes `n` and `m`: the 1 % critical value
  /// `1.63 √((n + m) / (n m))` plus `allowance`.
  public static func ksTolerance(_ n: Int, _ m: Int) -> Double {
    guard n > 0, m > 0 else { return allowance }
    return allowance + 1.63 * ((Double(n) + Double(m)) / (Double(n) * Double(m))).squareRoot()
  }

  /// Total variation distance `½ Σᵢ |aᵢ/A − bᵢ/B|` between two count vectors of equal
  /// length (A, B their sums); 0 when either sum is 0.
  public static func tv(_ a: [Double], _ b: [Double]) -> Double {
    let sa = a.reduce(0, +)
    let sb = b.reduce(0, +)
    guard sa > 0, sb > 0 else { return 0 }
    var sum = 0.0
    for i in a.indices { sum += abs(a[i] / sa - b[i] / sb) }
    return sum / 2
  }

  /// The TV tolerance: the expected TV distance between two samples of sizes A and B
  /// drawn from the pooled distribution p (normal approximation,
  /// `½ Σᵢ √(2/π) √(pᵢ(1 − pᵢ)(1/A + 1/B))`), plus `allowance`.
  public static func tvTolerance(_ a: [Double], _ b: [Double]) -> Double {
    let sa = a.reduce(0, +)
    let sb = b.reduce(0, +)
    guard sa > 0, sb > 0 else { return allowance }
    var sum = 0.0
    for i in a.indices {
      let p = (a[i] + b[i]) / (sa + sb)
      sum += (p * (1 - p) * (1 / sa + 1 / sb)).squareRoot()
    }
    return allowance + 0.5 * (2 / Double.pi).squareRoot() * sum
  }
}
