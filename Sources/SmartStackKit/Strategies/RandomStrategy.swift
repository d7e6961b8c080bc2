/// `random`: a uniformly random candidate at every visit.
///
/// Score of each candidate = an independent uniform draw in [0, 1) from the strategy's
/// own xoshiro256** stream (seeded per person from the run's seed), drawn in instance
/// order. Expected hit rate is 1 / (number of candidates) when the target is a candidate.
public struct RandomStrategy: RankingStrategy {
  public static let name = "random"
  public static let summary = "a uniformly random candidate at every visit (seeded)"
  public static let observesOutcomes = false
  var rng = Xoshiro256StarStar(seed: 0)
  public init(parameters: StrategyParameters) {}
  public mutating func begin(_ setup: StrategySetup) { rng = Xoshiro256StarStar(seed: setup.seed) }
  @inline(__always)
  public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    ranking.setCandidateScores(context) { _ in rng.nextUnit() }
    ranking.rule = "random draw"
  }
}
