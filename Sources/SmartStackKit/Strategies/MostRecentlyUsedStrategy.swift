/// `mru`: most recently used.
///
/// Score of candidate `i` = the time (epoch ms) of the person's latest donation matched
/// to `i` before the visit; never donated = minus infinity. Ties follow the engine's
/// rule (more recent, more donations, kind name).
public struct MostRecentlyUsedStrategy: RankingStrategy {
  public static let name = "mru"
  public static let summary = "the candidate donated most recently"
  public static let observesOutcomes = false
  public init(parameters: StrategyParameters) {}
  /// Last donations only: a decision stands until the next donation.
  public var rankingInputs: RankingInputs { [] }
  @inline(__always)
  public mutating func rank(_ context: StackContext, into ranking: inout Ranking) {
    let f = context.features
    ranking.setCandidateScores(context) { i in
      f.lastDonation[i] == Int64.min ? -Double.infinity : Double(f.lastDonation[i])
    }
    ranking.rule = "most recent donation"
  }
}
