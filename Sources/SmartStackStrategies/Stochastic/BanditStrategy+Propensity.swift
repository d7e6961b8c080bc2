import SmartStackBase
import SmartStackData
import SmartStackEngine

extension BanditStrategy: EstimatedChoiceProbabilities {
  /// 1,000 draws: a probability's standard error is at most 0.016 (√(0.25/1000)).
  public static var propensityDraws: Int { 1000 }

  /// Estimate from `propensityDraws` = K repetitions of `rank`'s draws (one Beta draw per
  /// candidate from its arm for the visit's bucket, in instance order, from `stream`),
  /// counting c_i, the times candidate i is the first allowed in the engine's order of the
  /// draws. The estimate is smoothed so that no allowed candidate gets 0 (an exposure log
  /// refuses propensity 0): `p_i = (c_i + 1/|A|) / (K + 1)` for the |A| allowed candidates.
  ///
  /// - Complexity: O(K · instances).
  public func estimatedChoiceProbabilities(
    _ context: StackContext, allowed: [Bool], stream: inout Xoshiro256StarStar, into probabilities: inout [Double]
  ) {
    let b = bucket(context.hourOfDay)
    let n = context.instanceCount
    var counts = [Int](repeating: 0, count: n)
    var scores = [Double](repeating: -.infinity, count: n)
    let draws = Self.propensityDraws
    for _ in 0..<draws {
      for i in 0..<n where context.isCandidate(i) {
        let arm = arms[i * buckets + b]
        scores[i] =
          unboosted
          ? normal.betaOfUnboostedShapes(arm.success, arm.failure, using: &stream)
          : normal.beta(arm.success, arm.failure, using: &stream)
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
