import SmartStackBase
import SmartStackData
import SmartStackEngine

/// A strategy that draws at random without a closed-form probability per candidate, and
/// can *estimate* it from extra draws on a separate stream (an exposure log marks such
/// propensities `estimated`).
public protocol EstimatedChoiceProbabilities: RankingStrategy {
  /// The number of extra draws an estimate takes.
  static var propensityDraws: Int { get }
  /// Writes into `probabilities[i]` an estimate of the probability that candidate `i` is
  /// the first instance with `allowed[i]` in the order of the next `rank`, in the
  /// strategy's current state, drawing from `stream` only (the strategy's own stream is
  /// untouched); 0 where `allowed[i]` is false; the written entries sum to 1.
  func estimatedChoiceProbabilities(
    _ context: StackContext, allowed: [Bool], stream: inout Xoshiro256StarStar, into probabilities: inout [Double])
}

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
