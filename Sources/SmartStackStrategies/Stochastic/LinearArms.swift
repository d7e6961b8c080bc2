/// Disjoint ridge regressions over 0/1 features, one per arm (`context-bandit`'s model).
///
/// For arm `i`: `A_i = λ·I + Σ x xᵀ` and `b_i = Σ r·x` over the updates of that arm, kept
/// as `A_i⁻¹` (updated by Sherman–Morrison, never inverted) and `θ_i = A_i⁻¹ b_i`.
/// Feature vectors are given by the indices of their ones (`active`), which must be
/// distinct and below `dimension`.
///
/// Invariants: `inverse` holds `instances` row-major `d × d` blocks, each symmetric
/// positive definite; `theta` and `b` hold `instances` blocks of `d`.
///
/// - Complexity: `prediction` O(k²) for k active features; `update` O(d²); memory
///   O(instances · d²).
struct LinearArms: Sendable {
  let dimension: Int
  var inverse: [Double]
  var theta: [Double]
  var b: [Double]

  /// Every arm at its prior: `A_i⁻¹ = I/λ`, `θ_i = b_i = 0`.
  init(instances: Int, dimension d: Int, lambda: Double) {
    dimension = d
    inverse = [Double](repeating: 0, count: instances * d * d)
    for i in 0..<instances {
      for j in 0..<d { inverse[i * d * d + j * d + j] = 1 / lambda }
    }
    theta = [Double](repeating: 0, count: instances * d)
    b = theta
  }

  /// `(θ_iᵀx, xᵀA_i⁻¹x)` for the `x` whose ones are `active`.
  func prediction(_ arm: Int, active: ArraySlice<Int>) -> (mean: Double, variance: Double) {
    let d = dimension
    let base = arm * d * d
    var mean = 0.0
    var variance = 0.0
    for j in active {
      mean += theta[arm * d + j]
      for l in active { variance += inverse[base + j * d + l] }
    }
    return (mean, variance)
  }

  /// Adds the observation `(x, reward)` to `arm`:
  /// `A⁻¹ ← A⁻¹ − (A⁻¹x)(A⁻¹x)ᵀ / (1 + xᵀA⁻¹x)`, `b ← b + reward·x`, `θ ← A⁻¹ b`.
  mutating func update(_ arm: Int, active: ArraySlice<Int>, reward: Double) {
    let d = dimension
    let base = arm * d * d
    var u = [Double](repeating: 0, count: d)
    for j in active {
      for l in 0..<d { u[l] += inverse[base + l * d + j] }
    }
    var quadratic = 0.0
    for j in active { quadratic += u[j] }
    let scale = 1 / (1 + quadratic)
    for r in 0..<d where u[r] != 0 {
      let ur = u[r] * scale
      for c in 0..<d { inverse[base + r * d + c] -= ur * u[c] }
    }
    for j in active { b[arm * d + j] += reward }
    for r in 0..<d {
      var sum = 0.0
      for c in 0..<d where b[arm * d + c] != 0 { sum += inverse[base + r * d + c] * b[arm * d + c] }
      theta[arm * d + r] = sum
    }
  }
}
