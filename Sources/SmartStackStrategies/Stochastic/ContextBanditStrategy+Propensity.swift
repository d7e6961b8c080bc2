import SmartStackBase
import SmartStackData
import SmartStackEngine

extension ContextBanditStrategy: EstimatedChoiceProbabilities {
  /// 1,000 draws: a probability's standard error is at most 0.016 (√(0.25/1000)).
  public static var propensityDraws: Int { 1000 }

  /// Estimate from `propensityDraws` = K repetitions of `rank`'s draws (one normal score
  /// per candidate, `θ_iᵀx + v·√(xᵀA_i⁻¹x)·z`, in instance order, from `stream`), counting
  /// c_i, the times candidate i is the first allowed in the engine's order of the scores;
  /// smoothed as `bandit`'s so that no allowed candidate gets 0:
  /// `p_i = (c_i + 1/|A|) / (K + 1)` for the |A| allowed candidates.
  ///
  /// - Complexity: O(n·k²) for the n candidates' means and variances, then O(K·n).
  public func estimatedChoiceProbabilities(
    _ context: StackContext, allowed: [Bool], stream: inout Xoshiro256StarStar, into probabilities: inout [Double]
  ) {
    var copy = self
    if copy.offsets.isEmpty { copy.layOut(context.device.vocabulary) }
    var active = [Int](repeating: 0, count: Self.maxActive)
    let k = copy.features(context.device.snapshot, hourOfDay: context.hourOfDay, into: &active)
    let n = context.instanceCount
    var means = [Double](repeating: 0, count: n)
    var spreads = [Double](repeating: 0, count: n)
    for i in 0..<n where context.isCandidate(i) {
      let (mean, variance) = copy.model.prediction(i, active: active[..<k])
      means[i] = mean
      spreads[i] = v * variance.squareRoot()
    }
    var counts = [Int](repeating: 0, count: n)
    var scores = [Double](repeating: -.infinity, count: n)
    let draws = Self.propensityDraws
    for _ in 0..<draws {
      for i in 0..<n where context.isCandidate(i) {
        scores[i] = means[i] + spreads[i] * normal.next(using: &stream)
      }
      let top = EngineOrder.first(scores, allowed: allowed, features: context.features)
      if top >= 0 { counts[top] += 1 }
    }
    let m = Double(EngineOrder.count(allowed))
    for i in probabilities.indices {
      probabilities[i] = i < n && allowed[i] ? (Double(counts[i]) + 1 / m) / Double(draws + 1) : 0
    }
  }
}
