import SmartStackBase
import SmartStackData
import SmartStackEngine

/// `random`: a uniformly random candidate at every visit.
///
/// Score of each candidate = an independent uniform draw in [0, 1) from the strategy's
/// own xoshiro256** stream (seeded per person from the run's seed), drawn in instance
/// order. Expected hit rate is 1 / (number of candidates) when the target is a candidate.
public struct RandomStrategy: StochasticRankingStrategy {
  public static let info = StrategyInfo(name: "random", summary: "a uniformly random candidate at every visit (seeded)")
  @usableFromInline var rng = Xoshiro256StarStar(seed: 0)
  public init(parameters: StrategyParameters) {}
  public mutating func begin(_ setup: StrategySetup) { rng = Xoshiro256StarStar(seed: setup.seed) }
  @inline(__always)
  @inlinable public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    ranking.setCandidateScores(context) { _ in rng.nextUnit() }
    ranking.rule = "random draw"
  }
  /// 1 / (number of candidates) on each candidate: the draws are independent and
  /// identically distributed, so each candidate is the largest with equal probability
  /// (ties between 53-bit draws have probability below 2^-50 and are ignored).
  @inlinable public func choiceProbabilities(_ context: StackContext, into probabilities: inout [Double]) {
    var candidates = 0
    for i in 0..<context.instanceCount where context.isCandidate(i) { candidates += 1 }
    for i in 0..<min(probabilities.count, context.instanceCount) {
      probabilities[i] = context.isCandidate(i) ? 1 / Double(candidates) : 0
    }
  }
}
