/// `mfu`: most frequently used.
///
/// Score of candidate `i` = the number of the person's donations matched to `i` before
/// the visit (all history, no decay).
public struct MostFrequentlyUsedStrategy: RankingStrategy {
  public static let name = "mfu"
  public static let summary = "the candidate with the most earlier donations"
  public init(parameters: StrategyParameters) {}
  public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let f = context.features
    for i in 0..<context.instanceCount where context.isCandidate(i) {
      ranking.scores[i] = Double(f.donationCount[i])
    }
    ranking.rule = "most donations"
  }
}
