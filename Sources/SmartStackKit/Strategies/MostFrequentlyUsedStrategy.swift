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
  /// Each score is its own instance's count: a donation rescores the instance it matched.
  public static let scoresArePerInstance = true
  @inline(__always)
  public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let f = context.features
    ranking.setCandidateScores(context) { i in Self.score(i, f) }
    ranking.rule = "most donations"
  }
  @inline(__always)
  public mutating func rescore(_ changed: ChangedInstances, _ context: StackContext, into ranking: inout Ranking) {
    let f = context.features
    ranking.setScores(of: changed, context) { i in Self.score(i, f) }
  }
  @inline(__always)
  static func score(_ i: Int, _ f: StackFeatures) -> Double { Double(f.donationCount[i]) }
}
