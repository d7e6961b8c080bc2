/// `mfu`: most frequently used.
///
/// Score of candidate `i` = the number of the person's donations matched to `i` before
/// the visit (all history, no decay).
public struct MostFrequentlyUsedStrategy: RankingStrategy {
  public static let name = "mfu"
  public static let summary = "the candidate with the most earlier donations"
  public static let observesOutcomes = false
  public init(parameters: StrategyParameters) {}
  /// Donation counts only: a decision stands until the next donation.
  public var rankingInputs: RankingInputs { [] }
  @inline(__always)
  public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let f = context.features
    ranking.setCandidateScores(context) { i in Double(f.donationCount[i]) }
    ranking.rule = "most donations"
  }
}
